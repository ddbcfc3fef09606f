//! Finding shader files and reading them as bytecode: DXBC containers and
//! D3D9 token streams as they are, assembly text through the assembler of
//! the dialect its version line names.

use std::path::{Path, PathBuf};

/// Extensions of bytecode files.
const BYTECODE: [&str; 4] = ["cso", "dxbc", "bin", "fxo"];
/// Extensions of assembly text files.
const TEXT: [&str; 2] = ["asm", "txt"];

/// The assembly dialect of a text, by its version line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// D3DX-style D3D9 text (`vs_1_1` .. `ps_3_0`).
    D3d9,
    /// SM4/5 text (`vs_4_0` .. `cs_5_0`, `gs_*`, `hs_5_0`, `ds_5_0`).
    Sm4,
}

/// The dialect of the version line `line`, if it is one.
fn version_dialect(line: &str) -> Option<Dialect> {
    let version = line.split_whitespace().next()?.to_ascii_lowercase();
    let mut parts = version.split('_');
    match (parts.next()?, parts.next()?) {
        ("vs" | "ps", "1" | "2" | "3") => Some(Dialect::D3d9),
        ("vs" | "ps" | "gs" | "cs", "4" | "5") | ("hs" | "ds", "5") => Some(Dialect::Sm4),
        _ => None,
    }
}

/// The dialect of a text: SM4/5 when any line is an SM4/5 version line (a
/// dump of a `_level_9_x` shader lists its D3D9 form before the SM4 program),
/// otherwise the dialect of the first line that is not blank or a comment
/// (`//`, `;`, `#`).
pub fn dialect(text: &str) -> Result<Dialect, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| {
        !(l.is_empty() || l.starts_with("//") || l.starts_with(';') || l.starts_with('#'))
    });
    let first = lines.next().ok_or("no shader version line")?;
    let found = version_dialect(first)
        .ok_or_else(|| format!("no shader version line (the first line is '{first}')"))?;
    if found == Dialect::D3d9 && lines.any(|l| version_dialect(l) == Some(Dialect::Sm4)) {
        return Ok(Dialect::Sm4);
    }
    Ok(found)
}

/// Assembles text in the dialect of its version line into bytecode bytes.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    match dialect(text)? {
        Dialect::D3d9 => dxjit::d3d9::assemble(text)
            .map(|tokens| tokens.iter().flat_map(|w| w.to_le_bytes()).collect())
            .map_err(|e| format!("d3d9 assembler: {e}")),
        Dialect::Sm4 => dxjit::sm4::asm::assemble(text).map_err(|e| format!("sm4 assembler: {e}")),
    }
}

fn has_extension(path: &Path, list: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| list.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Whether a file is one smoke reads (by its extension).
pub fn is_shader_file(path: &Path) -> bool {
    has_extension(path, &BYTECODE) || has_extension(path, &TEXT)
}

/// The bytecode of a shader file: read as is, or assembled from text.
pub fn load(path: &Path) -> Result<Vec<u8>, String> {
    if has_extension(path, &TEXT) {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        return assemble(&text);
    }
    std::fs::read(path).map_err(|e| e.to_string())
}

/// The shader files named or found below the folders named, sorted; files
/// named directly are kept whatever their extension.
pub fn shader_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut stack = vec![p.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for path in entries.flatten().map(|e| e.path()) {
                if path.is_dir() {
                    stack.push(path);
                } else if is_shader_file(&path) {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_skips_comments_and_reads_the_version() {
        assert_eq!(dialect("// x\n;y\n\n    ps_3_0\n"), Ok(Dialect::D3d9));
        assert_eq!(dialect("vs_1_1\n"), Ok(Dialect::D3d9));
        assert_eq!(dialect("//\n// sig\ncs_5_0\n"), Ok(Dialect::Sm4));
        assert_eq!(dialect("gs_4_0\n"), Ok(Dialect::Sm4));
        assert_eq!(dialect("hs_5_0\n"), Ok(Dialect::Sm4));
        assert!(dialect("float4 main() : SV_Target\n").is_err());
        assert!(dialect("// only comments\n").is_err());
        assert_eq!(
            dialect("// Level9 shader bytecode:\n    vs_2_x\n    mov oPos, v0\nvs_4_0\nret\n"),
            Ok(Dialect::Sm4)
        );
    }
}
