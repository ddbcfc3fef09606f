//! Asynchronous compiles: a handle at once, the shader when it is ready.

use super::done::{Done, FinishOnDrop, HasDone};
use super::spawner::Spawner;
use crate::error::Error;
use crate::shader::{compile_on, CompileOptions, Shader};
use std::sync::{Arc, OnceLock};

/// What asking a [`CompileHandle`] for its shader does while it is still
/// compiling (Dolphin's "synchronous" and "asynchronous skip" modes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum WhenNotReady {
    /// Block until the compile finishes: every call runs, the first ones
    /// may stall.
    #[default]
    Wait,
    /// Return [`AsyncError::NotReady`] at once: the embedder skips the
    /// call (e.g. does not draw) and never stalls.
    Skip,
}

/// Why a [`CompileHandle`] gave no shader.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AsyncError {
    /// Still compiling ([`WhenNotReady::Skip`] only).
    #[error("the shader is still compiling")]
    NotReady,
    /// The compile failed.
    #[error("{0}")]
    Failed(Arc<Error>),
    /// The spawner dropped the job without running it.
    #[error("the compile never ran")]
    NeverRan,
}

/// The compile's result, once there is one.
#[derive(Default)]
struct Pending {
    result: OnceLock<Result<Arc<Shader>, Arc<Error>>>,
    done: Done,
}

impl HasDone for Pending {
    fn done(&self) -> &Done {
        &self.done
    }
}

/// A shader being compiled in the background. Cheap to clone; every clone
/// sees the same compile.
#[derive(Clone)]
pub struct CompileHandle {
    pending: Arc<Pending>,
    mode: WhenNotReady,
}

/// Starts compiling `bytes` on `spawner` and returns at once. The compile
/// itself runs `options` as [`compile_on`] does (with [`Tier::Both`],
/// the top tier is then compiled on the same spawner). If every handle is
/// dropped before the job starts, nothing is compiled.
///
/// [`Tier::Both`]: super::Tier::Both
pub fn compile_async(
    bytes: &[u8],
    options: &CompileOptions,
    mode: WhenNotReady,
    spawner: &Spawner,
) -> CompileHandle {
    let pending = Arc::new(Pending::default());
    let weak = Arc::downgrade(&pending);
    let finish = FinishOnDrop(weak.clone());
    let bytes = bytes.to_vec();
    let options = *options;
    let background = spawner.clone();
    spawner.spawn(Box::new(move || {
        let _finish = finish;
        if let Some(p) = weak.upgrade() {
            let result = compile_on(&bytes, &options, &background);
            let _ = p.result.set(result.map(Arc::new).map_err(Arc::new));
        }
    }));
    CompileHandle { pending, mode }
}

impl CompileHandle {
    /// The shader, as the handle's [`WhenNotReady`] mode says: waiting for
    /// it, or [`AsyncError::NotReady`] while it is compiling.
    pub fn shader(&self) -> Result<Arc<Shader>, AsyncError> {
        match self.mode {
            WhenNotReady::Wait => self.wait(),
            WhenNotReady::Skip => self.try_shader(),
        }
    }

    /// The shader, blocking until the compile finishes. Waiting on one of
    /// the spawner's own threads can deadlock if no other thread is free to
    /// run the job.
    pub fn wait(&self) -> Result<Arc<Shader>, AsyncError> {
        self.pending.done.wait();
        self.result()
    }

    /// The shader if the compile has finished; [`AsyncError::NotReady`]
    /// otherwise.
    pub fn try_shader(&self) -> Result<Arc<Shader>, AsyncError> {
        if !self.pending.done.is_finished() {
            return Err(AsyncError::NotReady);
        }
        self.result()
    }

    /// Whether the compile has finished (successfully or not).
    pub fn is_finished(&self) -> bool {
        self.pending.done.is_finished()
    }

    /// What [`CompileHandle::shader`] does while compiling.
    pub fn mode(&self) -> WhenNotReady {
        self.mode
    }

    /// The finished compile's result.
    fn result(&self) -> Result<Arc<Shader>, AsyncError> {
        match self.pending.result.get() {
            Some(Ok(shader)) => Ok(shader.clone()),
            Some(Err(e)) => Err(AsyncError::Failed(e.clone())),
            None => Err(AsyncError::NeverRan),
        }
    }
}
