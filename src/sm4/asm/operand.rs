//! Operands: registers, indices, component selections, modifiers and literals.

use super::fail;
use super::lex::{components, literal, number, split_top};
use crate::sm4::decode::Sel;
use crate::sm4::names::{self, MIN_PRECISIONS, REGISTERS, SCALAR_REGISTERS};
use crate::sm4::Sm4Error;

/// Where an operand sits, which decides its default component selection.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Role {
    Dst,
    Src,
    /// A source that reads one component (select-1 encoding by default).
    Scalar,
    Decl,
}

/// Whether operand `i` of opcode `code` reads a single component, which
/// compilers encode as select-1 rather than as a replicated swizzle.
pub fn scalar_operand(code: u16, i: usize) -> bool {
    matches!(
        (code, i),
        (61 | 165 | 166 | 167 | 168, 1)
            | (167 | 168, 2)
            | (169..=177, 2)
            | (172, 3)
            | (180..=189, 3)
            | (185, 4)
    )
}

/// Encodes one operand's text.
pub(super) fn operand(text: &str, role: Role, out: &mut Vec<u32>) -> Result<(), Sm4Error> {
    let mut t = text.trim();
    let mut flags = 0;
    while let Some((head, tag)) = t.strip_suffix('}').and_then(|r| r.rsplit_once(" {")) {
        flags |= match tag {
            "nonuniform" => 1 << 17,
            p => names::code(MIN_PRECISIONS, p)
                .map(|c| c << 14)
                .ok_or_else(|| fail(format!("unknown operand flag '{p}'")))?,
        };
        t = head.trim_end();
    }
    let mut modifier = 0;
    if let Some(r) = t.strip_prefix('-') {
        modifier |= 1;
        t = r.trim();
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        modifier |= 2;
        t = r.trim();
    }
    let ext = if modifier != 0 || flags != 0 {
        Some(1 | modifier << 6 | flags)
    } else {
        None
    };
    let with_ext = |token: u32| {
        if ext.is_some() {
            token | 0x8000_0000
        } else {
            token
        }
    };
    if let Some(inner) = t.strip_prefix("l(").and_then(|r| r.strip_suffix(')')) {
        let vals: Vec<u32> = split_top(inner)
            .iter()
            .map(|v| literal(v))
            .collect::<Result<_, _>>()?;
        let token = match vals.len() {
            1 => 0x4001,
            4 => 0x4002,
            n => return Err(fail(format!("literal with {n} values"))),
        };
        out.push(with_ext(token));
        out.extend(ext);
        out.extend(vals);
        return Ok(());
    }
    if let Some(inner) = t.strip_prefix("d(").and_then(|r| r.strip_suffix(')')) {
        let vals: Vec<u64> = split_top(inner)
            .iter()
            .map(|v| match v.strip_prefix("0x") {
                Some(h) => {
                    u64::from_str_radix(h, 16).map_err(|_| fail(format!("bad double '{v}'")))
                }
                None => v
                    .parse::<f64>()
                    .map(f64::to_bits)
                    .map_err(|_| fail(format!("bad double '{v}'"))),
            })
            .collect::<Result<_, _>>()?;
        let token = match vals.len() {
            1 => 0x5001,
            2 => 0x5002,
            n => return Err(fail(format!("double literal with {n} values"))),
        };
        out.push(with_ext(token));
        out.extend(ext);
        for v in &vals {
            out.extend([v.to_owned() as u32, (v >> 32) as u32]);
        }
        return Ok(());
    }
    let name_end = t
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
        .unwrap_or(t.len());
    let ty = names::code(REGISTERS, &t[..name_end])
        .ok_or_else(|| fail(format!("unknown register '{t}'")))?;
    let mut rest = &t[name_end..];
    let mut indices: Vec<(u32, Vec<u32>)> = Vec::new();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits > 0 {
        indices.push((0, vec![number(&rest[..digits])?]));
        rest = &rest[digits..];
    }
    while let Some(r) = rest.strip_prefix('[') {
        let close = matching(r).ok_or_else(|| fail(format!("unclosed '[' in '{t}'")))?;
        indices.push(index(&r[..close])?);
        rest = &r[close + 1..];
    }
    let comps = match rest.strip_prefix('.') {
        Some("(1)") => Some(Vec::new()),
        Some(c) if c.starts_with('(') => {
            let one = c
                .strip_prefix('(')
                .and_then(|c| c.strip_suffix(')'))
                .and_then(components);
            match one.as_deref() {
                Some(&[c]) => Some(vec![c]),
                _ => return Err(fail(format!("bad select-1 component '{c}'"))),
            }
        }
        Some(c) => Some(components(c).ok_or_else(|| fail(format!("bad components '{c}'")))?),
        None if rest.is_empty() => None,
        None => return Err(fail(format!("unexpected '{rest}' in operand"))),
    };
    let select = rest.starts_with(".(");
    let sel = match (comps, role) {
        (Some(c), _) if c.is_empty() => Sel::One,
        (Some(c), Role::Src | Role::Scalar) if select => Sel::Select(c[0]),
        (Some(c), Role::Dst | Role::Decl) => Sel::Mask(c.iter().fold(0, |m, &i| m | 1 << i)),
        (Some(c), Role::Scalar) if c.len() == 1 => Sel::Select(c[0]),
        (Some(c), Role::Src | Role::Scalar) if c.len() == 1 => Sel::Swizzle([c[0]; 4]),
        (Some(c), Role::Src | Role::Scalar) if c.len() == 4 => {
            Sel::Swizzle([c[0], c[1], c[2], c[3]])
        }
        (Some(_), Role::Src | Role::Scalar) => {
            return Err(fail(format!("swizzle of '{t}' needs 1 or 4 components")))
        }
        (None, Role::Decl) if SCALAR_REGISTERS.contains(&ty) => Sel::None,
        (None, _) if SCALAR_REGISTERS.contains(&ty) => Sel::One,
        (None, Role::Decl) if ty == 8 => Sel::Swizzle([0, 1, 2, 3]),
        (None, _) => Sel::None,
    };
    let mut token = ty << 12 | (indices.len() as u32) << 20;
    token |= match sel {
        Sel::None => 0,
        Sel::One => 1,
        Sel::Mask(m) => 2 | u32::from(m) << 4,
        Sel::Swizzle(s) => {
            2 | 1 << 2
                | s.iter()
                    .enumerate()
                    .fold(0, |a, (i, &c)| a | u32::from(c) << (4 + 2 * i))
        }
        Sel::Select(c) => 2 | 2 << 2 | u32::from(c) << 4,
    };
    for (i, (repr, _)) in indices.iter().enumerate() {
        token |= repr << (22 + 3 * i);
    }
    out.push(with_ext(token));
    out.extend(ext);
    for (_, words) in indices {
        out.extend(words);
    }
    Ok(())
}

pub(super) fn matching(s: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Some(i),
            ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// An index's representation and words: `5`, `r0.x`, `r0.x + 5`.
pub(super) fn index(s: &str) -> Result<(u32, Vec<u32>), Sm4Error> {
    let s = s.trim();
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return Ok((0, vec![number(s)?]));
    }
    let (reg, imm) = match s.split_once(" + ") {
        Some((i, r)) if i.chars().all(|c| c.is_ascii_digit()) => (r, Some(number(i)?)),
        Some((r, i)) => (r, Some(number(i)?).filter(|&v| v != 0)),
        None => return Err(fail(format!("bad relative index '{s}'"))),
    };
    let mut words = Vec::new();
    words.extend(imm);
    operand(reg, Role::Scalar, &mut words)?;
    Ok((if imm.is_some() { 3 } else { 2 }, words))
}
