//! Where background compiles run: threads the embedder controls.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A unit of background work.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Runs background compiles (the top tier of [`Tier::Both`](super::Tier::Both)
/// and [`compile_async`](super::compile_async)), and helps a first-tier
/// compile make the stencils the process lacks (up to three jobs per
/// compile, which end at once when the compile needs no more). Cheap to
/// clone.
///
/// A spawner may run a job on any thread, later or at once; dropping a job
/// without running it is allowed (whoever waits for it is told it never ran).
#[derive(Clone)]
pub struct Spawner(Arc<dyn Fn(Job) + Send + Sync>);

impl Spawner {
    /// A spawner that hands each job to `spawn`.
    pub fn new(spawn: impl Fn(Job) + Send + Sync + 'static) -> Spawner {
        Spawner(Arc::new(spawn))
    }

    /// A spawner that runs jobs on `pool`.
    pub fn pool(pool: Arc<rayon::ThreadPool>) -> Spawner {
        Spawner::new(move |job| pool.spawn(job))
    }

    /// A spawner that runs each job at once on the calling thread: the
    /// top tier is in place before `compile` returns.
    pub fn inline() -> Spawner {
        Spawner::new(|job| job())
    }

    /// Hands `job` to the spawner.
    pub fn spawn(&self, job: Job) {
        (self.0)(job)
    }
}

/// Threads of the default pool: half the cores, at least one, at most four,
/// so background compiles leave the embedder's own threads room.
fn default_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / 2).clamp(1, 4)
}

/// The default: a small dedicated pool, started on first use.
impl Default for Spawner {
    fn default() -> Spawner {
        static POOL: OnceLock<Spawner> = OnceLock::new();
        POOL.get_or_init(|| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(default_threads())
                .thread_name(|i| format!("dxjit-compile-{i}"))
                .build()
                .expect("the background compile pool starts");
            Spawner::pool(Arc::new(pool))
        })
        .clone()
    }
}

impl fmt::Debug for Spawner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Spawner")
    }
}
