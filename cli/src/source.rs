//! Bytecode for the text commands: a shader file, or a case file's first
//! shader.

use crate::case::{parse_case, ShaderCode};
use std::path::Path;

/// Reads bytecode from a file, or the first shader of a case file.
pub fn load(path: &Path) -> Result<Vec<u8>, String> {
    if path.extension().is_some_and(|e| e == "toml") {
        let case = parse_case(path).map_err(|e| e.to_string())?;
        let (_, stage) = case.stages().next().ok_or("the case has no shader")?;
        return match &stage.code {
            ShaderCode::Bytes(b) => Ok(b.clone()),
            ShaderCode::Asm(t) => dxjit::text::assemble(t),
        };
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}
