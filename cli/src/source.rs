//! Bytecode for the text commands: a shader file (bytecode, or the
//! assembly text fxc, RenderDoc, 3DMigoto and D3DX print), or a case
//! file's first shader.

use crate::case::{parse_case, ShaderCode};
use crate::smoke::{assemble, dialect};
use std::path::Path;

/// Reads bytecode from a file (assembling it when it is shader text: not
/// a DXBC container, UTF-8, with a shader version line), or the first
/// shader of a case file.
pub fn load(path: &Path) -> Result<Vec<u8>, String> {
    if path.extension().is_some_and(|e| e == "toml") {
        let case = parse_case(path).map_err(|e| e.to_string())?;
        let (_, stage) = case.stages().next().ok_or("the case has no shader")?;
        return match &stage.code {
            ShaderCode::Bytes(b) => Ok(b.clone()),
            ShaderCode::Asm(t) => dxjit::text::assemble(t),
        };
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match std::str::from_utf8(&bytes) {
        Ok(text) if !bytes.starts_with(b"DXBC") && dialect(text).is_ok() => assemble(text),
        _ => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::load;

    #[test]
    fn shader_text_is_assembled_and_bytecode_read_as_it_is() {
        let dir = std::env::temp_dir().join(format!("dxjit-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text =
            "// a dump\nps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)\nret\n";
        let bytecode = crate::smoke::assemble(text).unwrap();
        let (text_file, binary) = (dir.join("shader.txt"), dir.join("shader.cso"));
        std::fs::write(&text_file, text).unwrap();
        std::fs::write(&binary, &bytecode).unwrap();
        assert_eq!(load(&text_file).unwrap(), bytecode);
        assert_eq!(load(&binary).unwrap(), bytecode);
        // A D3D9 token stream is not UTF-8 (its version token ends in 0xfffe
        // or 0xffff) and is read as it is.
        let d3d9: Vec<u8> = [0xffff_0200u32, 0x0000_ffff]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        std::fs::write(&binary, &d3d9).unwrap();
        assert_eq!(load(&binary).unwrap(), d3d9);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
