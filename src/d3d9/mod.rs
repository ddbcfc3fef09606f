//! The Direct3D 9 (shader model 1.x - 3.0) front end: token-stream decoder,
//! constant-table parser, disassembler, assembler, `info` text, and lowering
//! into the project's IR.

pub mod bump;
pub mod ctab;
mod decode;
mod error;
pub mod opcodes;
mod predication;
pub mod types;

pub use decode::decode;
pub use error::D3d9Error;
pub use types::Shader;
mod lower;

pub use lower::{lower, Options};
mod asm;
mod disasm;
mod syntax;

pub use asm::assemble;
pub use disasm::disassemble;
mod info;

pub use info::info;
