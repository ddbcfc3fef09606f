//! An in-memory shader cache: the same bytecode and options give the same
//! [`Shader`], up to a size cap with least-recently-used eviction.

use crate::compile::Spawner;
use crate::error::Error;
use crate::shader::{compile_on, CompileOptions, Shader};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// How much a [`ShaderCache`] keeps before evicting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLimit {
    /// Shaders at most.
    pub entries: usize,
    /// Bytes of machine code at most, every tier counted (the newest shader
    /// is kept even when it alone is larger).
    pub code_bytes: usize,
}

impl Default for CacheLimit {
    fn default() -> CacheLimit {
        CacheLimit {
            entries: 1024,
            code_bytes: 64 << 20,
        }
    }
}

/// What a cached shader was compiled from.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    bytes: Arc<[u8]>,
    options: CompileOptions,
}

/// A cached shader and when it was last handed out.
struct Entry {
    shader: Arc<Shader>,
    used: u64,
}

/// The cache's contents, in use order.
#[derive(Default)]
struct Lru {
    entries: HashMap<Key, Entry>,
    by_use: BTreeMap<u64, Key>,
    clock: u64,
}

impl Lru {
    /// The shader under `key`, now the most recently used.
    fn touch(&mut self, key: &Key) -> Option<Arc<Shader>> {
        let entry = self.entries.get_mut(key)?;
        self.clock += 1;
        self.by_use.remove(&entry.used);
        entry.used = self.clock;
        self.by_use.insert(self.clock, key.clone());
        Some(entry.shader.clone())
    }

    /// Adds `shader` as the most recently used.
    fn insert(&mut self, key: Key, shader: Arc<Shader>) {
        self.clock += 1;
        self.by_use.insert(self.clock, key.clone());
        let used = self.clock;
        self.entries.insert(key, Entry { shader, used });
    }

    /// Bytes of machine code held.
    fn code_bytes(&self) -> usize {
        self.entries.values().map(|e| e.shader.code_bytes()).sum()
    }

    /// Evicts the least recently used shaders until `limit` holds, keeping
    /// the newest.
    fn evict(&mut self, limit: CacheLimit) {
        while self.entries.len() > 1
            && (self.entries.len() > limit.entries || self.code_bytes() > limit.code_bytes)
        {
            let Some((_, key)) = self.by_use.pop_first() else {
                return;
            };
            self.entries.remove(&key);
        }
    }
}

/// Hit and miss counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found a shader.
    pub hits: u64,
    /// Lookups that compiled one.
    pub misses: u64,
}

/// Shaders by bytecode and options, shared as `Arc<Shader>`. Thread-safe;
/// compiles run outside the lock (two threads missing on the same key at
/// once both compile, and both get the first one cached).
pub struct ShaderCache {
    limit: CacheLimit,
    spawner: Spawner,
    lru: Mutex<Lru>,
    stats: Mutex<CacheStats>,
}

impl ShaderCache {
    /// An empty cache whose background compiles run on the default spawner.
    pub fn new(limit: CacheLimit) -> ShaderCache {
        ShaderCache::with_spawner(limit, Spawner::default())
    }

    /// An empty cache whose background compiles run on `spawner`.
    pub fn with_spawner(limit: CacheLimit, spawner: Spawner) -> ShaderCache {
        ShaderCache {
            limit,
            spawner,
            lru: Mutex::new(Lru::default()),
            stats: Mutex::new(CacheStats::default()),
        }
    }

    /// The cached shader for `bytes` and `options`, compiling and caching it
    /// on a miss. Errors are not cached.
    pub fn get_or_compile(
        &self,
        bytes: &[u8],
        options: &CompileOptions,
    ) -> Result<Arc<Shader>, Error> {
        let key = Key {
            bytes: Arc::from(bytes),
            options: *options,
        };
        if let Some(shader) = self.lock().touch(&key) {
            self.count(|s| s.hits += 1);
            return Ok(shader);
        }
        self.count(|s| s.misses += 1);
        let shader = Arc::new(compile_on(bytes, options, &self.spawner)?);
        let mut lru = self.lock();
        if let Some(first) = lru.touch(&key) {
            return Ok(first);
        }
        lru.insert(key, shader.clone());
        lru.evict(self.limit);
        Ok(shader)
    }

    /// The cached shader for `bytes` and `options`, if any, without compiling.
    pub fn get(&self, bytes: &[u8], options: &CompileOptions) -> Option<Arc<Shader>> {
        let key = Key {
            bytes: Arc::from(bytes),
            options: *options,
        };
        self.lock().touch(&key)
    }

    /// Shaders held.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache holds no shader.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of machine code held, every tier counted.
    pub fn code_bytes(&self) -> usize {
        self.lock().code_bytes()
    }

    /// Hits and misses so far.
    pub fn stats(&self) -> CacheStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lru> {
        self.lru.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut CacheStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()))
    }
}
