//! The embedder's entry point: configuration held once (threads, tiers,
//! cache, deadline, validation) and applied to every compile and call.

use super::bindings::Bindings;
use super::calls::{CallOptions, DrawDesc};
use super::error::RunError;
use super::target::Target;
use crate::cache::{CacheLimit, CacheStats, ShaderCache};
use crate::compile::Spawner;
use crate::error::Error;
use crate::shader::{CompileOptions, Shader};
use std::sync::Arc;
use std::time::Duration;

/// What an [`Engine`] does for every compile and call.
#[derive(Debug, Clone, Default)]
pub struct EngineConfig {
    /// Threads that run calls and background compiles; `None` uses rayon's
    /// global pool (one thread per core). Ignored when `pool` is set.
    pub threads: Option<usize>,
    /// The embedder's own rayon pool, to run calls and background compiles
    /// on instead of a pool of the engine's. To run work on threads rayon
    /// does not own, split it with [`Shader::dispatch_range`] instead.
    pub pool: Option<Arc<rayon::ThreadPool>>,
    /// How shaders compile (tiers, `k`, checksum checks).
    pub compile: CompileOptions,
    /// Keep compiled shaders in memory, deduplicated by bytecode and
    /// options, within this limit; `None` compiles every time.
    pub cache: Option<CacheLimit>,
    /// Stop every call that runs longer than this.
    pub deadline: Option<Duration>,
    /// Report mismatches between what shaders declare and what is bound
    /// through `log` warnings, like the D3D debug layer.
    pub validate: bool,
}

/// Compiles shaders and runs them as its [`EngineConfig`] says. `Send +
/// Sync`; shaders it returns are `Arc`s, cheap to clone and share.
///
/// ```
/// let engine = dxjit::Engine::new(dxjit::EngineConfig { threads: Some(2), ..Default::default() })?;
/// let bytes = dxjit::text::assemble("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n").unwrap();
/// let shader = engine.compile(&bytes)?;
/// engine.dispatch(&shader, &dxjit::Bindings::new(), [1, 1, 1])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    config: EngineConfig,
    pool: Option<Arc<rayon::ThreadPool>>,
    spawner: Spawner,
    cache: Option<ShaderCache>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine on the embedder's pool when `config.pool` is set, else on
    /// its own thread pool when `config.threads` asks.
    pub fn new(config: EngineConfig) -> Result<Engine, Error> {
        let pool = match (&config.pool, config.threads) {
            (Some(pool), _) => Some(pool.clone()),
            (None, Some(n)) => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .thread_name(|i| format!("dxjit-{i}"))
                    .build()
                    .map_err(|e| Error::Unrecognised(format!("thread pool: {e}")))?,
            )),
            (None, None) => None,
        };
        let spawner = pool.clone().map(Spawner::pool).unwrap_or_default();
        let cache = config
            .cache
            .map(|limit| ShaderCache::with_spawner(limit, spawner.clone()));
        Ok(Engine {
            config,
            pool,
            spawner,
            cache,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Compiles bytecode (a DXBC container or a D3D9 token stream), or
    /// returns the cached shader for the same bytes and options.
    pub fn compile(&self, bytes: &[u8]) -> Result<Arc<Shader>, Error> {
        match &self.cache {
            Some(cache) => cache.get_or_compile(bytes, &self.config.compile),
            None => {
                crate::shader::compile_on(bytes, &self.config.compile, &self.spawner).map(Arc::new)
            }
        }
    }

    /// The in-memory cache's counters; `None` without a cache.
    pub fn cache_stats(&self) -> Option<CacheStats> {
        self.cache.as_ref().map(ShaderCache::stats)
    }

    /// [`Shader::dispatch`] on the engine's threads, deadline and validation.
    pub fn dispatch(
        &self,
        shader: &Shader,
        bindings: &Bindings<'_>,
        groups: [u32; 3],
    ) -> Result<(), RunError> {
        self.on_threads(|o| shader.dispatch_with(bindings, groups, o))
    }

    /// [`Shader::draw`] on the engine's threads, deadline and validation.
    pub fn draw(
        &self,
        shader: &Shader,
        bindings: &Bindings<'_>,
        desc: &DrawDesc,
        targets: &mut [Target<'_>],
    ) -> Result<(), RunError> {
        self.on_threads(|o| shader.draw_with(bindings, desc, targets, o))
    }

    /// [`Shader::run_vertices`] on the engine's threads, deadline and
    /// validation.
    pub fn run_vertices(
        &self,
        shader: &Shader,
        bindings: &Bindings<'_>,
        inputs: &[[u32; 4]],
        count: u32,
    ) -> Result<Vec<[u32; 4]>, RunError> {
        self.on_threads(|o| shader.run_vertices_with(bindings, inputs, count, o))
    }

    fn on_threads<R: Send>(&self, call: impl FnOnce(&CallOptions) -> R + Send) -> R {
        let options = CallOptions {
            deadline: self.config.deadline,
            validate: self.config.validate,
        };
        match &self.pool {
            Some(pool) => pool.install(|| call(&options)),
            None => call(&options),
        }
    }
}
