//! Why a call stopped early: the embedder's interrupt, or a shader's
//! `abort` / `debug_break` (`ir::halt`).

use super::RunError;
use crate::ir::halt::halted;
use crate::shader::Shader;
use std::sync::atomic::{AtomicU32, Ordering};

/// The error for a call of `shader` whose interrupt word is `flag`, once
/// the call has returned; `None` when the word is clear. A halt word is
/// cleared when it is reported (the embedder did not set it), so the next
/// call runs; an embedder's own interrupt stays set.
pub fn stop_reason(flag: &AtomicU32, shader: &Shader) -> Option<RunError> {
    let word = flag.load(Ordering::Relaxed);
    if word == 0 {
        return None;
    }
    let Some((kind, offset)) = halted(word) else {
        return Some(RunError::Interrupted);
    };
    // A failed exchange means the embedder set the word meanwhile; the
    // halt is still what stopped this call.
    let _ = flag.compare_exchange(word, 0, Ordering::Relaxed, Ordering::Relaxed);
    Some(RunError::Halted {
        instruction: kind.name(),
        offset,
        index: instruction_at(shader, offset),
    })
}

/// The index of the bytecode instruction at byte `offset` of `shader`.
fn instruction_at(shader: &Shader, offset: u32) -> Option<u32> {
    let prog = shader.program();
    prog.bodies()
        .flat_map(|body| (0..body.len()).filter_map(|i| body.pos(i)))
        .find(|pos| pos.offset == offset)
        .map(|pos| pos.index)
}
