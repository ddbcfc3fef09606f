//! The D3DX constant table (`CTAB` comment block).

/// The `CTAB` FourCC as the first word of a comment.
pub const CTAB_TAG: u32 = 0x4241_5443;

/// A register set a constant lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegisterSet {
    /// `b#`.
    Bool,
    /// `i#`.
    Int4,
    /// `c#`.
    Float4,
    /// `s#`.
    Sampler,
    /// An unknown set number.
    Other(u16),
}

impl RegisterSet {
    fn from_number(n: u16) -> Self {
        match n {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            other => RegisterSet::Other(other),
        }
    }

    /// The register prefix (`b`, `i`, `c`, `s`).
    pub fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
            RegisterSet::Other(_) => "?",
        }
    }
}

/// One named constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    /// The HLSL name.
    pub name: String,
    /// The register set.
    pub set: RegisterSet,
    /// First register.
    pub index: u16,
    /// Registers used.
    pub count: u16,
    /// Type class, type, rows, columns and elements from the type info (zeros when absent).
    pub type_info: [u16; 5],
}

/// A parsed constant table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ctab {
    /// The compiler that wrote it.
    pub creator: String,
    /// The target profile string.
    pub target: String,
    /// The constants.
    pub constants: Vec<Constant>,
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

fn string_at(b: &[u8], at: usize) -> Option<String> {
    let rest = b.get(at..)?;
    let end = rest.iter().position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// Parses a comment block's words when it is a constant table; `None` when it
/// is not one or is malformed.
pub fn parse(words: &[u32]) -> Option<Ctab> {
    if words.first() != Some(&CTAB_TAG) {
        return None;
    }
    let b = bytes_of(&words[1..]);
    let creator = string_at(&b, u32_at(&b, 4)? as usize).unwrap_or_default();
    let count = u32_at(&b, 12)? as usize;
    let info = u32_at(&b, 16)? as usize;
    let target = string_at(&b, u32_at(&b, 24)? as usize).unwrap_or_default();
    let mut constants = Vec::new();
    for i in 0..count.min(4096) {
        let at = info.checked_add(i * 20)?;
        let name = string_at(&b, u32_at(&b, at)? as usize)?;
        let type_off = u32_at(&b, at + 12)? as usize;
        let mut type_info = [0u16; 5];
        for (k, t) in type_info.iter_mut().enumerate() {
            *t = u16_at(&b, type_off + 2 * k).unwrap_or(0);
        }
        constants.push(Constant {
            name,
            set: RegisterSet::from_number(u16_at(&b, at + 4)?),
            index: u16_at(&b, at + 6)?,
            count: u16_at(&b, at + 8)?,
            type_info,
        });
    }
    Some(Ctab {
        creator,
        target,
        constants,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_one_float_constant() {
        let words = [
            0x42415443, 0x0000001c, 0x00000044, 0xffff0300, 0x00000001, 0x0000001c, 0x00000000,
            0x00000000, 0x00000030, 0x00000002, 0x00000001, 0x00000034, 0x00000000, 0xabab0075,
            0x00030001, 0x00040001, 0x00000001, 0x00000001, 0x33646b76, 0x68732d64, 0x72656461,
            0x312e3120, 0x67282037, 0x66207469, 0x66323337, 0x29383762, 0xababab00,
        ];
        let ctab = parse(&words).expect("ctab");
        assert_eq!(ctab.constants.len(), 1);
        assert_eq!(ctab.constants[0].name, "u");
        assert_eq!(ctab.constants[0].set, RegisterSet::Float4);
        assert_eq!((ctab.constants[0].index, ctab.constants[0].count), (0, 1));
        assert!(ctab.creator.starts_with("vkd3d"));
    }

    #[test]
    fn rejects_garbage() {
        assert!(parse(&[CTAB_TAG, 0xFFFF_FFFF]).is_none());
        assert!(parse(&[1, 2, 3]).is_none());
    }
}
