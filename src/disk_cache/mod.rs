//! The persistent shader cache: native code kept in a directory the
//! embedder names, loaded on later runs (and by other processes) without
//! running Cranelift.
//!
//! - **Key**: XXH3-128 of the bytecode, the compile options that change
//!   the code (`legacy_mul`, `k`, the tier's code generator), dxjit's and
//!   Cranelift's versions, the build, and the target ISA with its flags and
//!   the host CPU features Cranelift detected. One file per key:
//!   `KEY.dxjc`.
//! - **Entry**: the machine code before relocation, its relocations (runtime
//!   helpers, the immediate constant buffer), the kernel info the runtime
//!   needs, and a checksum over all of it ([`entry`] has the layout).
//! - **Verification**: the checksum, format, key and every length are
//!   checked before the code is mapped; a truncated, corrupted, foreign or
//!   stale entry is never executed: it is recompiled and replaced, with one
//!   `log::warn!`.
//! - **Sharing**: entries are written to a temporary file and renamed into
//!   place, so processes can share a directory.
//! - **Cap**: past [`DiskCache::cap`] bytes of entries and stencil records,
//!   the least recently used entries (by file modification time, set at
//!   each hit) are removed, then the oldest stencil records. The bytes are
//!   counted once a process and kept up to date, so a write scans the
//!   directory only when the cap is passed.
//! - **Writing**: entries and stencil records are written by a background
//!   thread after the compile returns ([`flush_disk_cache`](crate::flush_disk_cache)
//!   waits for them).
//!
//! The checksum guards against damage, not against an attacker who can
//! write to the directory: keep it as private as the executable.

pub(crate) mod dir;
pub mod entry;
pub mod key;
pub(crate) mod writer;

pub use dir::{clear, stats, DirStats};
pub use key::{Key, Lowering};

use crate::jit::{Codegen, Compiled, Image, KernelInfo};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// The default cap: 256 MiB.
pub const DEFAULT_CAP: u64 = 256 << 20;

struct Inner {
    dir: PathBuf,
    cap: u64,
    /// Whether the directory exists (or was made) as a directory.
    usable: bool,
    /// Whether a write failure was already reported.
    write_warned: AtomicBool,
    /// The bytes of entries and stencil records in the directory, once
    /// counted.
    held: Mutex<Option<u64>>,
}

/// A cache directory. Cheap to clone; every clone uses the same directory.
/// Never fails: a directory that cannot be used is reported once through
/// the log and compiles go on without it.
#[derive(Clone)]
pub struct DiskCache(Arc<Inner>);

impl std::fmt::Debug for DiskCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DiskCache({})", self.0.dir.display())
    }
}

impl DiskCache {
    /// The cache in `dir` (made if missing), capped at [`DEFAULT_CAP`].
    pub fn open(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache::with_cap(dir, DEFAULT_CAP)
    }

    /// The cache in `dir` (made if missing), holding at most `cap` bytes
    /// of entries (the most recently used entry is kept even when larger).
    pub fn with_cap(dir: impl Into<PathBuf>, cap: u64) -> DiskCache {
        let dir = dir.into();
        let usable = match std::fs::create_dir_all(&dir) {
            Ok(()) => true,
            Err(e) => {
                log::warn!(
                    "shader cache {}: cannot use the directory ({e}); compiling without it",
                    dir.display()
                );
                false
            }
        };
        DiskCache(Arc::new(Inner {
            dir,
            cap,
            usable,
            write_warned: AtomicBool::new(false),
            held: Mutex::new(None),
        }))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.0.dir
    }

    /// Whether the directory exists (or was made) as a directory.
    pub(crate) fn usable(&self) -> bool {
        self.0.usable
    }

    /// The size cap, bytes.
    pub fn cap(&self) -> u64 {
        self.0.cap
    }

    /// Counts `bytes` just written to the directory, evicting when the
    /// cap is passed.
    pub(crate) fn account(&self, bytes: u64) {
        let mut held = self.0.held.lock().unwrap_or_else(|e| e.into_inner());
        let counted = match *held {
            Some(before) => Ok(before + bytes),
            None => dir::held(&self.0.dir),
        };
        let now = counted.and_then(|total| {
            if total > self.0.cap {
                dir::evict(&self.0.dir, self.0.cap).map(|(_, left)| left)
            } else {
                Ok(total)
            }
        });
        match now {
            Ok(total) => *held = Some(total),
            Err(e) => self.warn_write(&e),
        }
    }

    fn warn_write(&self, e: &std::io::Error) {
        if !self.0.write_warned.swap(true, Ordering::Relaxed) {
            log::warn!(
                "shader cache {}: cannot write entries ({e}); compiled code is not kept",
                self.0.dir.display()
            );
        }
    }

    /// The code stored under `key`, placed in executable memory, if a valid
    /// entry is there. A bad entry is reported once and left to be
    /// replaced.
    pub(crate) fn load(&self, key: &Key) -> Option<Compiled> {
        if !self.0.usable {
            return None;
        }
        let started = Instant::now();
        let path = dir::entry_path(&self.0.dir, &key.hex());
        let bytes = match dir::read(&path) {
            Ok(b) => b?,
            Err(e) => {
                self.warn_bad(&path, &e.to_string());
                return None;
            }
        };
        let loaded = entry::decode(&bytes, key)
            .map_err(str::to_string)
            .and_then(|entry| Compiled::load(entry, started).map_err(|e| e.to_string()));
        match loaded {
            Ok(c) => Some(c),
            Err(why) => {
                self.warn_bad(&path, &why);
                None
            }
        }
    }

    /// Stores `image` and `info` under `key` on the writer thread, then
    /// evicts past the cap. Failures are reported once per cache.
    pub(crate) fn store(&self, key: Key, image: Image, info: KernelInfo) {
        if !self.0.usable {
            return;
        }
        let cache = self.clone();
        writer::later(move || {
            let Some(bytes) = entry::encode(&key, &image, &info) else {
                return;
            };
            let path = dir::entry_path(&cache.0.dir, &key.hex());
            match dir::write(&path, &bytes) {
                Ok(()) => cache.account(bytes.len() as u64),
                Err(e) => cache.warn_write(&e),
            }
        });
    }

    fn warn_bad(&self, path: &Path, why: &str) {
        log::warn!(
            "shader cache entry {}: {why}; recompiling and replacing it",
            path.display()
        );
    }
}

/// The cache [`compile`](fn@crate::compile) and [`compile_on`](crate::compile_on)
/// use, if any.
static DEFAULT: RwLock<Option<DiskCache>> = RwLock::new(None);

/// Makes `cache` the one [`compile`](fn@crate::compile),
/// [`compile_on`](crate::compile_on), [`compile_async`](crate::compile_async)
/// and [`ShaderCache`](crate::ShaderCache) use from now on, in the whole
/// process (`None`: no persistent cache, the default).
pub fn set_default(cache: Option<DiskCache>) {
    *DEFAULT.write().unwrap_or_else(|e| e.into_inner()) = cache;
}

/// The cache set by [`set_default`].
pub fn default_cache() -> Option<DiskCache> {
    DEFAULT.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Where the code of one tier of one shader is kept: the cache and key.
#[derive(Clone)]
pub(crate) struct Slot {
    cache: DiskCache,
    key: Key,
}

impl Slot {
    /// The slot of `bytecode` lowered as `lowering` says and compiled at
    /// `k` (as asked for; `None`: the backend's choice) with `codegen` in
    /// `cache`; `None` when the build or host cannot be identified.
    pub(crate) fn new(
        cache: &DiskCache,
        bytecode: &[u8],
        lowering: Lowering,
        k: Option<usize>,
        codegen: Codegen,
    ) -> Option<Slot> {
        Some(Slot {
            cache: cache.clone(),
            key: key::key(bytecode, lowering, k, codegen)?,
        })
    }

    /// The stored code, if valid.
    pub(crate) fn load(&self) -> Option<Compiled> {
        self.cache.load(&self.key)
    }

    /// Stores `image` and `info` (on the writer thread).
    pub(crate) fn store(&self, image: Image, info: KernelInfo) {
        self.cache.store(self.key, image, info)
    }
}
