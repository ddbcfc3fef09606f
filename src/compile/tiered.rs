//! A shader's native code across tiers: the code it can run now, and the
//! top tier arriving from the background.

use super::done::{Done, FinishOnDrop, HasDone};
use super::spawner::Spawner;
use super::tier::Tier;
use crate::jit::{Compiled, JitError};
use std::sync::{Arc, OnceLock};

/// Why a shader has no top-tier code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpgradeError {
    /// The top-tier compile failed; the shader keeps its first-tier code.
    #[error("the top-tier compile failed: {0}")]
    Failed(JitError),
    /// The spawner dropped the job without running it.
    #[error("the top-tier compile never ran")]
    NeverRan,
    /// The shader was compiled with [`Tier::First`] alone.
    #[error("the shader was compiled at the first tier only")]
    NotAsked,
}

/// The top-tier compile of a shader: its result, once there is one.
struct Upgrade {
    code: OnceLock<Result<Compiled, JitError>>,
    done: Done,
    /// Raised when the compile begins on a spawner's thread.
    started: std::sync::atomic::AtomicBool,
}

impl HasDone for Upgrade {
    fn done(&self) -> &Done {
        &self.done
    }
}

/// A shader's code: what compile returned, kept for the shader's lifetime
/// (a kernel handed out earlier may still be running it), and the top tier
/// once it is in. The switch is one atomic read at [`TieredCode::current`].
pub(crate) struct TieredCode {
    ready: Compiled,
    ready_tier: Tier,
    upgrade: Option<Arc<Upgrade>>,
}

impl TieredCode {
    /// Code compiled at a single tier.
    pub(crate) fn single(code: Compiled, tier: Tier) -> TieredCode {
        TieredCode {
            ready: code,
            ready_tier: tier,
            upgrade: None,
        }
    }

    /// First-tier code, with the top tier made by `top` on `spawner`. The
    /// job holds the shader weakly: if the shader is dropped before the job
    /// runs, nothing is compiled.
    pub(crate) fn upgrading(
        first: Compiled,
        top: impl FnOnce() -> Result<Compiled, JitError> + Send + 'static,
        spawner: &Spawner,
    ) -> TieredCode {
        let upgrade = Arc::new(Upgrade {
            code: OnceLock::new(),
            done: Done::default(),
            started: Default::default(),
        });
        let weak = Arc::downgrade(&upgrade);
        let finish = FinishOnDrop(weak.clone());
        spawner.spawn(Box::new(move || {
            let _finish = finish;
            if let Some(u) = weak.upgrade() {
                u.started.store(true, std::sync::atomic::Ordering::Release);
                let _ = u.code.set(top());
            }
        }));
        TieredCode {
            ready: first,
            ready_tier: Tier::First,
            upgrade: Some(upgrade),
        }
    }

    /// The best code ready now and its tier.
    pub(crate) fn current(&self) -> (&Compiled, Tier) {
        match self.upgrade.as_ref().and_then(|u| u.code.get()) {
            Some(Ok(top)) => (top, Tier::Top),
            _ => (&self.ready, self.ready_tier),
        }
    }

    /// The code compile returned, before any upgrade.
    pub(crate) fn ready(&self) -> (&Compiled, Tier) {
        (&self.ready, self.ready_tier)
    }

    /// The top-tier code, once it is in.
    pub(crate) fn top(&self) -> Option<&Compiled> {
        match self.ready_tier {
            Tier::Top => Some(&self.ready),
            _ => self.upgrade.as_ref()?.code.get()?.as_ref().ok(),
        }
    }

    /// Bytes of machine code held, every tier counted.
    pub(crate) fn code_bytes(&self) -> usize {
        let top = self
            .upgrade
            .as_ref()
            .and_then(|u| u.code.get())
            .and_then(|c| c.as_ref().ok())
            .map_or(0, |c| c.code_size);
        self.ready.code_size + top
    }

    /// Blocks until the top tier is in when its compile is running now: a
    /// compile still queued may be waiting for the very thread that would
    /// wait for it, so then (and with no upgrade at all) it returns at once.
    pub(crate) fn wait_for_running_top(&self) {
        if let Some(u) = &self.upgrade {
            if u.started.load(std::sync::atomic::Ordering::Acquire) {
                u.done.wait();
            }
        }
    }

    /// Blocks until the top tier is in or cannot come.
    pub(crate) fn wait_for_top(&self) -> Result<(), UpgradeError> {
        if self.ready_tier == Tier::Top {
            return Ok(());
        }
        let Some(u) = &self.upgrade else {
            return Err(UpgradeError::NotAsked);
        };
        u.done.wait();
        match u.code.get() {
            Some(Ok(_)) => Ok(()),
            Some(Err(e)) => Err(UpgradeError::Failed(e.clone())),
            None => Err(UpgradeError::NeverRan),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Program, Stage};
    use crate::jit::{compile, JitOptions};
    use std::sync::mpsc;

    fn code() -> Compiled {
        let prog = Program::new(Stage::Compute);
        compile(&prog, JitOptions::for_stage(Stage::Compute)).expect("an empty shader compiles")
    }

    #[test]
    fn a_queued_top_tier_is_not_waited_for() {
        let held = Arc::new(std::sync::Mutex::new(Vec::new()));
        let queue = held.clone();
        let spawner = Spawner::new(move |job| queue.lock().unwrap().push(job));
        let tiered = TieredCode::upgrading(code(), || Ok(code()), &spawner);
        tiered.wait_for_running_top();
        assert_eq!(tiered.current().1, Tier::First);
        for job in std::mem::take(&mut *held.lock().unwrap()) {
            job();
        }
        tiered.wait_for_running_top();
        assert_eq!(tiered.current().1, Tier::Top);
    }

    #[test]
    fn a_running_top_tier_is_waited_for() {
        let (started, running) = mpsc::channel();
        let (go, released) = mpsc::channel::<()>();
        let top = move || {
            started.send(()).unwrap();
            released.recv().unwrap();
            Ok(code())
        };
        let spawner = Spawner::new(|job| {
            std::thread::spawn(job);
        });
        let tiered = TieredCode::upgrading(code(), top, &spawner);
        running.recv().unwrap();
        go.send(()).unwrap();
        // The compile after the release takes a while: without the wait,
        // the first tier would still be current here.
        tiered.wait_for_running_top();
        assert_eq!(tiered.current().1, Tier::Top);
    }
}
