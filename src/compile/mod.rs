//! When native code arrives: compile tiers, asynchronous compiles, the
//! threads background compiles run on.

mod done;
mod pending;
mod prewarm;
mod spawner;
mod tier;
mod tiered;

pub use pending::{compile_async, AsyncError, CompileHandle, WhenNotReady};
pub use prewarm::{
    flush_stencil_cache, prewarm_stencils, prewarm_stencils_from, prewarm_stencils_on,
    stencil_prewarm_list,
};
pub use spawner::{Job, Spawner};
pub use tier::Tier;
pub(crate) use tiered::TieredCode;
pub use tiered::UpgradeError;
