//! Running shaders one by one: each in a thread of its own, panics caught
//! and reported, and a watchdog that interrupts a shader still running
//! after a time limit (compiled loops stop at their next back edge), and
//! gives up on it if even that does not end it.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use super::case::smoke_case;
use super::load::load;
use super::reflect::Declared;
use super::report::SmokeResult;
use dxjit::shader::{lower, CompileOptions};

/// How long a shader may run before it is reported as hung.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Stack of a shader's thread (compiling deep programs recurses).
const STACK_BYTES: usize = 64 << 20;

/// Smoke compiles without checking DXBC checksums: dumps and edited
/// shaders often carry none.
fn options() -> CompileOptions {
    CompileOptions {
        verify_checksum: false,
        ..CompileOptions::default()
    }
}

/// Where a running shader's interrupt word is left for the watchdog.
type InterruptSlot = Arc<Mutex<Option<Arc<AtomicU32>>>>;

/// Runs bytecode once with bindings made from its own declarations.
pub fn smoke_bytes(path: &Path, bytes: Vec<u8>) -> Result<(), String> {
    run_bytes(path, bytes, &InterruptSlot::default())
}

/// [`smoke_bytes`], leaving the action's interrupt word in `slot`.
fn run_bytes(path: &Path, bytes: Vec<u8>, slot: &InterruptSlot) -> Result<(), String> {
    let options = options();
    let (family, program) = lower(&bytes, &options).map_err(|e| e.to_string())?;
    let declared = Declared::of(&bytes, &program)?;
    let case = smoke_case(path, bytes, &program, family, &declared)?;
    crate::run::execute_watched(&case, &options, |word| {
        if let Ok(mut s) = slot.lock() {
            *s = Some(word);
        }
    })
    .map(|_| ())
}

/// The message of a panic payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// Loads and runs one shader file; a panic becomes an error `panic: ...`.
pub fn smoke_file(path: &Path) -> Result<(), String> {
    smoke_file_watched(path, &InterruptSlot::default())
}

/// [`smoke_file`], leaving the action's interrupt word in `slot`.
fn smoke_file_watched(path: &Path, slot: &InterruptSlot) -> Result<(), String> {
    std::panic::catch_unwind(|| load(path).and_then(|bytes| run_bytes(path, bytes, slot)))
        .unwrap_or_else(|p| Err(format!("panic: {}", panic_message(p.as_ref()))))
}

/// Every file's result, and whether a shader hung.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SmokeRun {
    /// One result per file, in order.
    pub results: Vec<SmokeResult>,
    /// A shader was still running after the time limit and did not stop
    /// when interrupted. It still is, so the files after it were not run.
    pub hung: bool,
}

/// Runs `files` in order, each in its own thread, calling `each` with every
/// result as it comes. A shader still running after `timeout` is
/// interrupted and reported as such; one that does not stop within another
/// `timeout` is reported as hung and ends the run: the files after it fail
/// as not run.
pub fn smoke_files(
    files: &[PathBuf],
    timeout: Duration,
    mut each: impl FnMut(&SmokeResult),
) -> SmokeRun {
    let mut run = SmokeRun::default();
    for path in files {
        let error = if run.hung {
            Some("not run: an earlier shader hung".to_string())
        } else {
            let (send, receive) = mpsc::channel();
            let owned = path.clone();
            let slot = InterruptSlot::default();
            let shader_slot = slot.clone();
            let spawned = std::thread::Builder::new()
                .name("smoke".into())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    let _ = send.send(smoke_file_watched(&owned, &shader_slot));
                });
            match spawned {
                Err(e) => Some(format!("cannot start a thread: {e}")),
                Ok(_) => match receive.recv_timeout(timeout) {
                    Ok(result) => result.err(),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Some(word) = slot.lock().ok().and_then(|s| s.clone()) {
                            word.store(1, Ordering::Relaxed);
                        }
                        match receive.recv_timeout(timeout) {
                            Ok(_) => Some(format!(
                                "interrupted: still running after {} s",
                                timeout.as_secs_f64()
                            )),
                            Err(_) => {
                                run.hung = true;
                                Some(format!(
                                    "hang: still running after {} s and not stopped by an interrupt",
                                    timeout.as_secs_f64()
                                ))
                            }
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        Some("the shader's thread ended without a result".into())
                    }
                },
            }
        };
        let result = SmokeResult {
            path: path.clone(),
            error,
        };
        each(&result);
        run.results.push(result);
    }
    run
}
