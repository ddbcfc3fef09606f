//! When native code arrives: compile tiers, asynchronous compiles, the
//! threads background compiles run on.

mod done;
mod pending;
mod prewarm;
mod prewarm_shaders;
mod spawner;
mod tier;
mod tiered;

pub use pending::{compile_async, AsyncError, CompileHandle, WhenNotReady};
pub use prewarm::{
    choose_prewarm_shaders, flush_disk_cache, prewarm_shaders, prewarm_stencils,
    prewarm_stencils_from, prewarm_stencils_on,
};
pub use spawner::{Job, Spawner};
pub use tier::Tier;
pub(crate) use tiered::TieredCode;
pub use tiered::UpgradeError;
