//! When native code arrives: compile tiers, the threads background
//! compiles run on.

mod spawner;
mod tier;
mod tiered;

pub use spawner::{Job, Spawner};
pub use tier::Tier;
pub(crate) use tiered::TieredCode;
pub use tiered::UpgradeError;
