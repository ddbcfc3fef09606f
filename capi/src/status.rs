//! Status codes every fallible call returns, and the failure they carry.

/// What a call did. The numbers are stable: new codes are only added.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The call succeeded.
    Ok = 0,
    /// A required pointer was null (or misaligned for its type).
    NullPointer = 1,
    /// A struct's `struct_size` is not the size this library expects.
    StructSize = 2,
    /// An argument is invalid: an unknown enum value, a size too small for
    /// what it describes, a duplicate slot, overlapping render targets.
    InvalidArgument = 3,
    /// A slot, register or index is out of range.
    OutOfRange = 4,
    /// The shader's stage does not fit the call (a draw with a compute shader).
    WrongStage = 5,
    /// The bytecode could not be compiled.
    Compile = 6,
    /// The assembly text could not be assembled.
    Assemble = 7,
    /// The texture description or data is invalid.
    Texture = 8,
    /// An internal error (a caught panic): a bug in dxjit.
    Internal = 9,
    /// The bindings' interrupt flag was set: the call stopped early and its
    /// outputs are partly written.
    Interrupted = 10,
    /// The call ran past the bindings' `timeout_ms` and was stopped; its
    /// outputs are partly written.
    DeadlineExceeded = 11,
    /// The process's Rust log already has another logger, so the log
    /// callback cannot be installed.
    LogUnavailable = 12,
    /// The shader declares SM5 class-linkage interfaces (`dcl_interface`)
    /// and the bindings leave one of their slots without a class instance,
    /// or bind one whose function table the interface does not list:
    /// D3D11 disables such a shader, so nothing ran.
    Unlinked = 13,
    /// The shader ran `abort` or `debug_break` in a live lane: the call
    /// stopped there, its outputs partly written. The message names the
    /// instruction and its byte offset.
    Halted = 14,
}

/// A failed call: its status and a message for the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The status returned.
    pub status: Status,
    /// What went wrong, in words.
    pub message: String,
}

/// The status a refused or stopped call returns, with the error's words.
impl From<dxjit::api::RunError> for Failure {
    fn from(e: dxjit::api::RunError) -> Failure {
        use dxjit::api::RunError;
        let status = match e {
            RunError::WrongStage { .. } => Status::WrongStage,
            RunError::Interrupted => Status::Interrupted,
            RunError::DeadlineExceeded(_) => Status::DeadlineExceeded,
            RunError::Invalid(_) => Status::InvalidArgument,
            RunError::Unlinked(_) => Status::Unlinked,
            RunError::Halted { .. } => Status::Halted,
        };
        Failure::new(status, e.to_string())
    }
}

impl Failure {
    /// A failure with `status` and `message`.
    pub fn new(status: Status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

/// The result of a call's body.
pub type Outcome<T> = Result<T, Failure>;
