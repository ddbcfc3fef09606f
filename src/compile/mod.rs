//! When native code arrives: compile tiers, asynchronous compiles, the
//! threads background compiles run on.

mod done;
mod pending;
mod spawner;
mod tier;
mod tiered;

pub use pending::{compile_async, AsyncError, CompileHandle, WhenNotReady};
pub use spawner::{Job, Spawner};
pub use tier::Tier;
pub(crate) use tiered::TieredCode;
pub use tiered::UpgradeError;
