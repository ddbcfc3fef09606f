//! Bytecode the compile tests share: the peer kernels' compute shaders.

use dxjit_cli::case::{parse_case_str, ShaderCode};
use std::path::Path;

/// The compute shader's bytecode of a case file's text.
pub fn kernel_bytes(name: &str, text: &str) -> Vec<u8> {
    let case = parse_case_str(text, Path::new(name)).expect("case parses");
    match &case.cs.expect("a compute shader").code {
        ShaderCode::Bytes(b) => b.clone(),
        ShaderCode::Asm(t) => dxjit::text::assemble(t).expect("assembles"),
    }
}

/// Three different compute shaders.
pub fn three_kernels() -> [Vec<u8>; 3] {
    [
        kernel_bytes("k1", include_str!("../../benches/data/k1_alu.toml")),
        kernel_bytes("k2", include_str!("../../benches/data/k2_copy.toml")),
        kernel_bytes("k3", include_str!("../../benches/data/k3_reduce.toml")),
    ]
}
