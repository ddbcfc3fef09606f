//! Making the stencils one program lacks, on the calling thread and on
//! the embedder's background threads at once.
//!
//! A first launch compiles a few hundred stencils for the largest game
//! shaders (about 60-100 µs each with Cranelift), which dominates their
//! first-tier compile. The keys are put in a queue; the calling thread
//! takes them one at a time, and so do up to [`HELPERS`] jobs handed to
//! the spawner. A job that starts late finds the queue empty and ends; the
//! caller waits only for keys a helper has taken and not yet finished, so
//! a busy or an inline spawner costs nothing over compiling alone.

use super::key::Key;
use super::library;
use super::Stencil;
use crate::compile::Spawner;
use crate::jit::JitError;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Jobs handed to the spawner for one program's missing stencils.
pub const HELPERS: usize = 3;

/// A stencil made, or why it could not be.
type Made = Result<Arc<Stencil>, JitError>;

/// The keys, the next one to take, and each one's stencil once made.
struct Queue {
    keys: Vec<Key>,
    next: AtomicUsize,
    made: Mutex<Vec<Option<Made>>>,
    done: Condvar,
}

impl Queue {
    /// Takes keys and makes their stencils until none is left.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(key) = self.keys.get(i) else {
                return;
            };
            let made = catch_unwind(AssertUnwindSafe(|| library::get(key))).unwrap_or_else(|_| {
                Err(JitError::Backend(
                    "stencil tier: compiling a stencil panicked".into(),
                ))
            });
            self.made.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(made);
            self.done.notify_all();
        }
    }
}

/// The stencils of `keys` (each loaded from the cache folder or compiled),
/// in order; with `helpers`, made on its threads too.
pub fn make_all(keys: Vec<Key>, helpers: Option<&Spawner>) -> Result<Vec<Arc<Stencil>>, JitError> {
    let n = keys.len();
    let queue = Arc::new(Queue {
        keys,
        next: AtomicUsize::new(0),
        made: Mutex::new((0..n).map(|_| None).collect()),
        done: Condvar::new(),
    });
    if let Some(spawner) = helpers {
        for _ in 0..HELPERS.min(n.saturating_sub(1)) {
            let q = Arc::clone(&queue);
            spawner.spawn(Box::new(move || q.work()));
        }
    }
    queue.work();
    let mut made = queue.made.lock().unwrap_or_else(|e| e.into_inner());
    while made.iter().any(Option::is_none) {
        made = queue.done.wait(made).unwrap_or_else(|e| e.into_inner());
    }
    made.iter_mut()
        .map(|m| m.take().expect("every key was made"))
        .collect()
}
