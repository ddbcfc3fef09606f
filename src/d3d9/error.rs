//! The error type of the D3D9 front end.

/// Why a D3D9 token stream or assembly text could not be handled.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum D3d9Error {
    /// The token stream is malformed.
    #[error("token {offset}: instruction {index}: {what}")]
    Decode {
        /// Offset of the offending token, in 32-bit words from the version token.
        offset: usize,
        /// Index of the instruction (counting comments and declarations).
        index: usize,
        /// What is wrong.
        what: String,
    },
    /// A decoded instruction cannot be lowered into the IR.
    #[error("token {offset}: instruction {index}: cannot lower: {what}")]
    Lower {
        /// Offset of the instruction token.
        offset: usize,
        /// Index of the instruction.
        index: usize,
        /// What is wrong.
        what: String,
    },
    /// Assembly text does not parse.
    #[error("line {line}: {what}")]
    Asm {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        what: String,
    },
}
