//! Which stage a shader's own version token says it is, to check it against
//! the table (`[cs]`, `[vs]`, `[ps]`) that holds it.

use super::model::ShaderCode;

/// The stage (`"cs"`, `"vs"`, `"ps"`, `"gs"`, `"hs"`, `"ds"`) the code's
/// version says, or `None` when the code is too malformed to tell.
pub(crate) fn declared_stage(code: &ShaderCode) -> Option<&'static str> {
    match code {
        ShaderCode::Asm(text) => {
            let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
            let head = first.get(..3)?.to_ascii_lowercase();
            ["cs", "vs", "ps", "gs", "hs", "ds"]
                .into_iter()
                .find(|s| head.strip_suffix('_') == Some(*s))
        }
        ShaderCode::Bytes(bytes) if bytes.starts_with(b"DXBC") => dxbc_stage(bytes),
        ShaderCode::Bytes(bytes) => match word(bytes, 0)? >> 16 {
            0xfffe => Some("vs"),
            0xffff => Some("ps"),
            _ => None,
        },
    }
}

/// The little-endian word at byte `at`.
fn word(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The program type of a DXBC container's SHDR/SHEX chunk.
fn dxbc_stage(bytes: &[u8]) -> Option<&'static str> {
    let chunks = word(bytes, 28)? as usize;
    (0..chunks.min(64)).find_map(|k| {
        let at = word(bytes, 32 + 4 * k)? as usize;
        let tag = bytes.get(at..at.checked_add(4)?)?;
        if tag != b"SHDR" && tag != b"SHEX" {
            return None;
        }
        match word(bytes, at.checked_add(8)?)? >> 16 {
            0 => Some("ps"),
            1 => Some("vs"),
            2 => Some("gs"),
            3 => Some("hs"),
            4 => Some("ds"),
            5 => Some("cs"),
            _ => None,
        }
    })
}
