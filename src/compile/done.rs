//! A one-way "finished" flag background jobs raise and callers wait on.

use std::sync::{Condvar, Mutex, Weak};

/// Raised once, when a background job has finished or was dropped unrun.
#[derive(Default)]
pub(crate) struct Done {
    finished: Mutex<bool>,
    wake: Condvar,
}

impl Done {
    /// Raises the flag and wakes every waiter.
    pub(crate) fn finish(&self) {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.wake.notify_all();
    }

    /// Whether the flag is up.
    pub(crate) fn is_finished(&self) -> bool {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Blocks until the flag is up.
    pub(crate) fn wait(&self) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        while !*finished {
            finished = self.wake.wait(finished).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// State a background job fills in, with its [`Done`] flag.
pub(crate) trait HasDone {
    /// The job's flag.
    fn done(&self) -> &Done;
}

/// Moved into a job: raises the flag of its state (if still wanted) when
/// the job returns, panics, or is dropped without running.
pub(crate) struct FinishOnDrop<T: HasDone>(pub(crate) Weak<T>);

impl<T: HasDone> Drop for FinishOnDrop<T> {
    fn drop(&mut self) {
        if let Some(state) = self.0.upgrade() {
            state.done().finish();
        }
    }
}
