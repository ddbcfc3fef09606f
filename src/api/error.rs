//! Why a binding or a call was refused, and why a call stopped.

use crate::ir::Stage;

/// A binding the API refused: nothing was bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// The slot is past the frame's slots of that kind.
    #[error("{what} slot {slot} is out of range (there are {slots})")]
    SlotOutOfRange {
        /// "constant buffer", "SRV", "UAV" or "sampler".
        what: &'static str,
        /// The slot asked for.
        slot: u32,
        /// How many slots of that kind a frame has.
        slots: usize,
    },
    /// Views address at most 4 GiB - 1 bytes.
    #[error("a view of {0} bytes is too large (at most 4 GiB - 1)")]
    TooLarge(usize),
    /// A structured buffer's stride must be a non-zero multiple of 4.
    #[error("structured stride {0} is not a non-zero multiple of 4")]
    BadStride(u32),
    /// A render target's size, pitch or format does not fit its memory.
    #[error("render target: {0}")]
    BadTarget(String),
    /// A render target's sample count is not one D3D11 requires devices to
    /// support for render targets (1, 2, 4 or 8).
    #[error("render target: {0} samples a pixel (1, 2, 4 or 8 are allowed)")]
    BadSampleCount(u32),
}

/// Why a call did not run to the end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The shader is of another stage than the call runs.
    #[error("a {got:?} shader cannot be run by {call} (it needs a {expected:?} shader)")]
    WrongStage {
        /// The call: `dispatch`, `draw` or `run_vertices`.
        call: &'static str,
        /// The stage the call runs.
        expected: Stage,
        /// The shader's stage.
        got: Stage,
    },
    /// Arguments that do not match the shader (input counts, registers).
    #[error("{0}")]
    Invalid(String),
    /// The shader declares SM5 class-linkage interfaces whose slots are not
    /// all bound to class instances of tables they list: D3D11 disables
    /// such a shader. The message names the first such slot.
    #[error("{0}")]
    Unlinked(String),
    /// The bindings' interrupt flag was set: the call stopped early and
    /// its outputs are partly written.
    #[error("interrupted")]
    Interrupted,
    /// The shader ran `abort` or `debug_break` in a live lane: the call
    /// stopped there, its outputs partly written.
    #[error("the shader ran `{instruction}` at byte {offset}{}", index.map_or(String::new(), |i| format!(" (instruction {i})")))]
    Halted {
        /// `abort` or `debug_break`.
        instruction: &'static str,
        /// The instruction's byte offset in the program.
        offset: u32,
        /// The instruction's index in the program, declarations included.
        index: Option<u32>,
    },
    /// The call ran past its deadline and was stopped; its outputs are
    /// partly written.
    #[error("stopped at its deadline of {0:?}")]
    DeadlineExceeded(std::time::Duration),
}
