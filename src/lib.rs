//! dxjit recompiles Direct3D shader bytecode into native x86-64 code with
//! Cranelift and runs it on the CPU.

pub mod d3d9;
pub mod dxbc;
pub mod error;
pub mod ir;
pub mod jit;
pub mod shader;
pub mod sm4;

pub use error::Error;
pub use shader::{compile, CompileOptions, Family, Shader};
