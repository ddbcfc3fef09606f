//! Shader text: routing disassembly, assembly and `info` to the right
//! front end.

use crate::shader::words;
use crate::{d3d9, dxbc, sm4};

/// Whether assembly text is D3D9 (its version line is `vs_1_1` .. `ps_3_0`).
fn is_d3d9_text(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| {
            l.split(';')
                .next()
                .unwrap_or("")
                .split("//")
                .next()
                .unwrap_or("")
                .trim()
        })
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let v = first.to_ascii_lowercase();
    ["vs_1", "vs_2", "vs_3", "ps_1", "ps_2", "ps_3", "tx_"]
        .iter()
        .any(|p| v.starts_with(p))
}

/// Assembles text in either family's syntax into bytecode bytes.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    if is_d3d9_text(text) {
        let tokens = d3d9::assemble(text).map_err(|e| e.to_string())?;
        Ok(tokens.iter().flat_map(|w| w.to_le_bytes()).collect())
    } else {
        sm4::assemble(text).map_err(|e| e.to_string())
    }
}

/// Disassembles bytecode of either family.
pub fn disassemble(bytes: &[u8]) -> Result<String, String> {
    if bytes.starts_with(b"DXBC") {
        let c = dxbc::Container::parse(bytes, false).map_err(|e| e.to_string())?;
        sm4::disassemble(&c).map_err(|e| e.to_string())
    } else {
        let s = d3d9::decode(&words(bytes)).map_err(|e| e.to_string())?;
        Ok(d3d9::disassemble(&s))
    }
}

/// Describes bytecode of either family.
pub fn info(bytes: &[u8]) -> Result<String, String> {
    if bytes.starts_with(b"DXBC") {
        let c = dxbc::Container::parse(bytes, false).map_err(|e| e.to_string())?;
        sm4::info(&c).map_err(|e| e.to_string())
    } else {
        let s = d3d9::decode(&words(bytes)).map_err(|e| e.to_string())?;
        Ok(d3d9::info(&s))
    }
}
