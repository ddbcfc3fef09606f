//! Names shared by the disassembler and the assembler.

use super::types::*;

/// Register-name prefixes, longest first, with their register type (the
/// version decides between `a`/`t` and `oT`/`o`). `None` numbers mean the
/// name carries a fixed number.
pub const REGISTER_NAMES: &[(&str, RegType, Option<u32>)] = &[
    ("oDepth", RegType::DepthOut, Some(0)),
    ("oPos", RegType::RastOut, Some(0)),
    ("oFog", RegType::RastOut, Some(1)),
    ("oPts", RegType::RastOut, Some(2)),
    ("vPos", RegType::Misc, Some(0)),
    ("vFace", RegType::Misc, Some(1)),
    ("oD", RegType::AttrOut, None),
    ("oT", RegType::Output, None),
    ("oC", RegType::ColorOut, None),
    ("aL", RegType::Loop, Some(0)),
    ("o", RegType::Output, None),
    ("v", RegType::Input, None),
    ("r", RegType::Temp, None),
    ("c", RegType::Const, None),
    ("a", RegType::AddrOrTexture, None),
    ("t", RegType::AddrOrTexture, None),
    ("i", RegType::ConstInt, None),
    ("b", RegType::ConstBool, None),
    ("s", RegType::Sampler, None),
    ("l", RegType::Label, None),
    ("p", RegType::Predicate, None),
    ("h", RegType::TempFloat16, None),
];

/// The assembler name of a register.
pub fn register_name(reg: Register, version: Version) -> String {
    let n = reg.num;
    match reg.ty {
        RegType::Temp => format!("r{n}"),
        RegType::Input => format!("v{n}"),
        RegType::Const => format!("c{n}"),
        RegType::Const2 => format!("c{}", n + 2048),
        RegType::Const3 => format!("c{}", n + 4096),
        RegType::Const4 => format!("c{}", n + 6144),
        RegType::AddrOrTexture if version.is_vs() => format!("a{n}"),
        RegType::AddrOrTexture => format!("t{n}"),
        RegType::RastOut => ["oPos", "oFog", "oPts"]
            .get(n as usize)
            .map_or(format!("oRast{n}"), |s| s.to_string()),
        RegType::AttrOut => format!("oD{n}"),
        RegType::Output if version.is_vs() && version.major < 3 => format!("oT{n}"),
        RegType::Output => format!("o{n}"),
        RegType::ConstInt => format!("i{n}"),
        RegType::ColorOut => format!("oC{n}"),
        RegType::DepthOut => "oDepth".into(),
        RegType::Sampler => format!("s{n}"),
        RegType::ConstBool => format!("b{n}"),
        RegType::Loop => "aL".into(),
        RegType::TempFloat16 => format!("h{n}"),
        RegType::Misc => ["vPos", "vFace"]
            .get(n as usize)
            .map_or(format!("vMisc{n}"), |s| s.to_string()),
        RegType::Label => format!("l{n}"),
        RegType::Predicate => format!("p{n}"),
    }
}

/// Component letters.
pub const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Swizzle text (with the leading dot), empty for the identity.
pub fn swizzle_text(s: [u8; 4]) -> String {
    if s == [0, 1, 2, 3] {
        return String::new();
    }
    let mut len = 4;
    while len > 1 && s[len - 1] == s[len - 2] {
        len -= 1;
    }
    let letters: String = s[..len]
        .iter()
        .map(|&c| COMPONENTS[c as usize & 3])
        .collect();
    format!(".{letters}")
}

/// Write-mask text (with the leading dot), empty for `.xyzw`.
pub fn mask_text(mask: u8) -> String {
    if mask == 0xF {
        return String::new();
    }
    let letters: String = (0..4)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| COMPONENTS[c])
        .collect();
    format!(".{letters}")
}
