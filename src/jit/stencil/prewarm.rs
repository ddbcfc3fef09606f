//! Prewarming: making the stencils programs need before a shader asks for
//! them, by stitching the programs at the stencil tier's lane count (which
//! loads or compiles each stencil the library does not hold) and dropping
//! what was stitched.

use super::key::Key;
use super::layout::Layout;
use super::stitch::{StitchError, Stitcher};
use super::{library, takes, STENCIL_K};
use crate::ir::Program;
use rustc_hash::FxHashSet;

/// What a prewarm did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Prewarmed {
    /// Programs given.
    pub programs: usize,
    /// Programs that could not be read or stitched (their stencils are made
    /// when a shader needs them).
    pub failed: usize,
    /// Distinct stencils the programs stitched need.
    pub stencils: usize,
    /// Stencils the process made meanwhile, loaded from the cache folder or
    /// compiled (by the prewarm, or by compiles running alongside it).
    pub made: usize,
}

/// The distinct keys of the stencils `prog` needs at the stencil tier's
/// lane count, making those the library does not hold; why not when the
/// tier does not stitch it.
pub fn keys_of(prog: &Program) -> Result<FxHashSet<Key>, String> {
    if !takes(prog) {
        return Err("not a program the stencil tier takes".into());
    }
    let mut s = Stitcher::new(prog, Layout::of(prog, STENCIL_K));
    s.program().map_err(|e| match e {
        StitchError::Unsupported(u) => u.0.to_string(),
        StitchError::Jit(e) => e.to_string(),
    })?;
    Ok(s.pieces.iter().map(|p| p.stencil.key.clone()).collect())
}

/// Stitches each of `programs` (or counts why it could not be had) on the
/// calling thread, in order, dropping the code.
pub fn prewarm(programs: impl IntoIterator<Item = Result<Program, String>>) -> Prewarmed {
    let before = library::made();
    let mut done = Prewarmed::default();
    let mut keys = FxHashSet::default();
    for prog in programs {
        done.programs += 1;
        match prog.and_then(|p| keys_of(&p)) {
            Ok(k) => keys.extend(k),
            Err(why) => {
                log::debug!("stencil prewarm: a program is passed over: {why}");
                done.failed += 1;
            }
        }
    }
    let after = library::made();
    done.stencils = keys.len();
    done.made = (after.0 + after.1).saturating_sub(before.0 + before.1);
    if done.failed > 0 {
        log::warn!(
            "stencil prewarm: {} of {} programs could not be stitched",
            done.failed,
            done.programs
        );
    }
    done
}
