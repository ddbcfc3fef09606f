//! dxjit recompiles Direct3D shader bytecode into native x86-64 code with
//! Cranelift and runs it on the CPU.

pub mod case;
pub mod ir;
