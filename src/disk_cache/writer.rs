//! The cache's background writer: one thread that writes shader entries
//! and stencil records after the compiles that made them have returned,
//! so that a compile never waits for the disk (a write, and the eviction
//! scan after it, cost about as much as a first-tier compile).

use std::sync::mpsc::{self, Sender};
use std::sync::{Condvar, Mutex, OnceLock};

/// A write to do.
type Job = Box<dyn FnOnce() + Send>;

/// Where writes are sent, and how many are not done yet.
struct Writer {
    jobs: Mutex<Option<Sender<Job>>>,
    pending: Mutex<usize>,
    done: Condvar,
}

/// The writer, started on first use.
fn writer() -> &'static Writer {
    static WRITER: OnceLock<Writer> = OnceLock::new();
    WRITER.get_or_init(|| {
        let (jobs, received) = mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("dxjit-cache-writer".into())
            .spawn(move || {
                for job in received {
                    job();
                    let w = writer();
                    *w.pending.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                    w.done.notify_all();
                }
            });
        let jobs = match spawned {
            Ok(_) => Some(jobs),
            Err(e) => {
                log::warn!("shader cache: cannot start the writer thread ({e}); writing at once");
                None
            }
        };
        Writer {
            jobs: Mutex::new(jobs),
            pending: Mutex::new(0),
            done: Condvar::new(),
        }
    })
}

/// Runs `job` on the writer thread (at once, when it could not start).
pub fn later(job: impl FnOnce() + Send + 'static) {
    let w = writer();
    *w.pending.lock().unwrap_or_else(|e| e.into_inner()) += 1;
    let unsent = match &*w.jobs.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(jobs) => jobs.send(Box::new(job)).err().map(|e| e.0),
        None => Some(Box::new(job) as Job),
    };
    if let Some(job) = unsent {
        *w.pending.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        job();
    }
}

/// Waits until every write asked for so far is done (or failed).
pub fn flush() {
    let w = writer();
    let mut pending = w.pending.lock().unwrap_or_else(|e| e.into_inner());
    while *pending > 0 {
        pending = w.done.wait(pending).unwrap_or_else(|e| e.into_inner());
    }
}
