//! Mnemonics: an opcode name and its suffixes (`_nz`, `_sat`, `_uint`,
//! `_aoffimmi(..)`, `_indexable(..)`, return types, ...).

use super::fail;
use super::lex::{components, number, split_top};
use crate::sm4::names::{self, DIMS, RETURN_TYPES, SYNC_FLAGS};
use crate::sm4::opcodes::{OpInfo, OPCODES};
use crate::sm4::Sm4Error;

/// The mnemonic's parts: the opcode row and its suffix words.
pub(super) struct Mnemonic {
    /// The opcode row.
    pub(super) info: &'static OpInfo,
    /// Control bits 11-23 the suffixes set (shifted down by 11).
    pub(super) controls: u32,
    /// Extended opcode tokens the suffixes ask for.
    pub(super) extended: Vec<u32>,
}

pub(super) fn parse_mnemonic(m: &str) -> Result<Mnemonic, Sm4Error> {
    let base_end = m.find('(').unwrap_or(m.len());
    let base = &m[..base_end];
    let mut best: Option<&OpInfo> = None;
    for o in OPCODES {
        if base.starts_with(o.name)
            && best.is_none_or(|b| b.name.len() < o.name.len())
            && suffixes_ok(&base[o.name.len()..], o)
        {
            best = Some(o);
        }
    }
    let info = best.ok_or_else(|| fail(format!("unknown instruction '{m}'")))?;
    let mut controls = 0;
    let mut extended = Vec::new();
    let mut rest = &m[info.name.len()..];
    while !rest.is_empty() {
        let (word, args, tail) = next_suffix(rest)?;
        rest = tail;
        match (word, args) {
            ("_nz", None) => controls |= 1 << 7,
            ("_z", None) => {}
            ("_sat", None) => controls |= 1 << 2,
            ("_rcpFloat", None) => controls |= 1,
            ("_uint", None) => controls |= 2,
            ("_3", None) => controls |= 3,
            ("_glc", None) => controls |= 0x20,
            ("_precise", Some(a)) if !info.decl => {
                let mask = components(a).ok_or_else(|| fail(format!("bad precise mask '{a}'")))?;
                controls |= mask.iter().fold(0, |m, &c| m | 1 << (8 + c));
            }
            ("_aoffimmi", Some(a)) => {
                let v: Vec<u32> = split_top(a)
                    .iter()
                    .map(|x| number(x))
                    .collect::<Result<_, _>>()?;
                let [u, vv, w] =
                    <[u32; 3]>::try_from(v).map_err(|_| fail("_aoffimmi needs three offsets"))?;
                extended.push(1 | (u & 0xf) << 9 | (vv & 0xf) << 13 | (w & 0xf) << 17);
            }
            ("_indexable", Some(a)) => {
                let parts = split_top(a);
                let dim = parts
                    .first()
                    .and_then(|d| names::code(DIMS, d))
                    .ok_or_else(|| fail(format!("bad dimension '{a}'")))?;
                let stride = match parts.get(1).and_then(|s| s.strip_prefix("stride=")) {
                    Some(s) => number(s)?,
                    None => 0,
                };
                extended.push(2 | dim << 6 | (stride & 0xfff) << 11);
            }
            ("", Some(a)) => extended.push(3 | return_type_word(a)? << 6),
            (w, None) if info.code == 190 => {
                controls |= SYNC_FLAGS
                    .iter()
                    .find(|(_, n)| *n == w)
                    .map(|(b, _)| *b)
                    .ok_or_else(|| fail(format!("bad sync flag '{w}'")))?
            }
            (w, None) if matches!(info.code, 88 | 156..=158 | 161 | 162) => {
                match names::code(DIMS, w.trim_start_matches('_')) {
                    Some(d) => controls |= d,
                    None => return Err(fail(format!("bad dimension '{w}'"))),
                }
            }
            (w, a) => {
                return Err(fail(format!(
                    "unknown suffix '{w}{}'",
                    a.map(|a| format!("({a})")).unwrap_or_default()
                )))
            }
        }
    }
    let has_dim = extended.iter().any(|e| e & 0x3f == 2);
    if has_dim && !extended.iter().any(|e| e & 0x3f == 3) {
        extended.push(3 | 0x5555 << 6);
    }
    for i in 1..extended.len() {
        extended[i - 1] |= 0x8000_0000;
    }
    Ok(Mnemonic {
        info,
        controls,
        extended,
    })
}

/// The next `_word` or `_word(args)` or `(args)` of a mnemonic.
pub(super) fn next_suffix(s: &str) -> Result<(&str, Option<&str>, &str), Sm4Error> {
    let word_end = s
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '_' || c == '(')
        .map_or(s.len(), |(i, _)| i);
    let word_end = if s.starts_with('(') { 0 } else { word_end };
    let word = &s[..word_end];
    let tail = &s[word_end..];
    if let Some(inner) = tail.strip_prefix('(') {
        let close = inner
            .find(')')
            .ok_or_else(|| fail("unclosed '(' in mnemonic"))?;
        Ok((word, Some(&inner[..close]), &inner[close + 1..]))
    } else {
        Ok((word, None, tail))
    }
}

pub(super) fn suffixes_ok(rest: &str, o: &OpInfo) -> bool {
    let allowed = [
        "_precise",
        "_nz",
        "_z",
        "_sat",
        "_rcpFloat",
        "_uint",
        "_3",
        "_glc",
        "_uglobal",
        "_ugroup",
        "_g",
        "_t",
        "_aoffimmi",
        "_indexable",
    ];
    let mut r = rest;
    while !r.is_empty() {
        let Ok((w, _, tail)) = next_suffix(r) else {
            return false;
        };
        let dim = matches!(o.code, 88 | 156..=158 | 161 | 162)
            && names::code(DIMS, w.trim_start_matches('_')).is_some();
        if !(allowed.contains(&w) || dim || w.is_empty()) {
            return false;
        }
        r = tail;
    }
    true
}

pub(super) fn return_type_word(s: &str) -> Result<u32, Sm4Error> {
    let mut word = 0;
    for (i, t) in split_top(s).iter().enumerate() {
        let code =
            names::code(RETURN_TYPES, t).ok_or_else(|| fail(format!("bad return type '{t}'")))?;
        word |= code << (4 * i);
    }
    Ok(word)
}
