//! The SM4/SM5 front end: decoder, disassembler, assembler, `info` and
//! lowering into the IR.

pub mod asm;
pub mod decode;
pub mod disasm;
pub mod encoding;
pub mod fields;
mod info;
pub mod lower;
mod named;
pub mod names;
pub mod opcodes;
pub mod registers;
mod signatures;
mod sigtable;
pub mod syntax;

pub use asm::{assemble, assemble_as};
pub use decode::{decode, Instruction, OpIndex, Operand, ProgramType, Sel, Shader};
pub use disasm::{disassemble, disassemble_as};
pub use info::info;
pub use lower::lower;
pub use syntax::Syntax;

use crate::dxbc::DxbcError;

/// Why an SM4/SM5 program cannot be decoded, lowered or assembled.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum Sm4Error {
    /// The token stream is malformed. `offset` is the byte offset in the program.
    #[error("instruction {index} ({opcode}), program byte {offset}: {what}")]
    Decode {
        /// Instruction index.
        index: usize,
        /// Byte offset of the problem in the program tokens.
        offset: usize,
        /// The opcode name (or number when unknown).
        opcode: String,
        /// What is wrong.
        what: String,
    },
    /// The program is well formed but cannot be lowered.
    #[error("instruction {index} ({opcode}), program byte {offset}: {what}")]
    Lower {
        /// Instruction index.
        index: usize,
        /// Byte offset of the instruction in the program tokens.
        offset: usize,
        /// The opcode name.
        opcode: String,
        /// What is wrong or unsupported.
        what: String,
    },
    /// The container has no SHDR/SHEX chunk.
    #[error("the container has no SHDR or SHEX program chunk")]
    NoProgram,
    /// Assembly text is malformed.
    #[error("line {line}, column {column}: {what}")]
    Asm {
        /// 1-based line number.
        line: usize,
        /// 1-based column (in characters) of the offending text.
        column: usize,
        /// What is wrong.
        what: String,
    },
    /// The container is malformed.
    #[error(transparent)]
    Container(#[from] DxbcError),
}
