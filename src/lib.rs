//! dxjit recompiles Direct3D shader bytecode into native x86-64 code with
//! Cranelift and runs it on the CPU.

pub mod d3d9;
pub mod dxbc;
pub mod ir;
pub mod jit;
pub mod sm4;
