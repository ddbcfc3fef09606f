//! Operands: registers, indices, component selections, modifiers, tags and
//! literals.

use super::lex::{bracketed, components, double_literal, literal, number, split_top};
use super::source::{fault, Res};
use crate::sm4::decode::Sel;
use crate::sm4::encoding::{
    ComponentCount, ExtendedOperandType, IndexRepresentation, MinPrecision, OperandModifier,
    SelectionMode,
};
use crate::sm4::fields::{
    self, EXTENDED, EXTENDED_TYPE, INDEX_DIMENSION, MIN_PRECISION, NON_UNIFORM, NUM_COMPONENTS,
    OPERAND_MODIFIER, OPERAND_TYPE, SELECTION_MODE, SELECT_1, WRITE_MASK,
};
use crate::sm4::registers::OperandType;
use crate::sm4::Syntax;

/// Where an operand sits, which decides how its component letters read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// A destination: the letters are a write mask.
    Dst,
    /// A source.
    Src,
    /// A source that reads one component (select-1 encoding by default).
    Scalar,
    /// A declaration's operand: the letters are a mask.
    Decl,
}

/// Drops trailing `{...}` tags (returned as extended-operand bits) and a
/// parenthesised resource name as RenderDoc prints after a register.
fn strip_tags(mut t: &str) -> Res<(&str, u32)> {
    let mut flags = 0;
    loop {
        t = t.trim_end();
        if let Some(open) = t.strip_suffix('}').and_then(|r| r.rfind('{')) {
            let tag = &t[open + 1..t.len() - 1];
            let first = tag.split_whitespace().next().unwrap_or("");
            flags |= if first.eq_ignore_ascii_case("nonuniform") {
                NON_UNIFORM.put(1)
            } else if first.eq_ignore_ascii_case("def32") {
                0
            } else {
                MinPrecision::from_name(first)
                    .map(|p| MIN_PRECISION.put(p.code()))
                    .ok_or_else(|| fault(tag, format!("unknown operand tag '{tag}'")))?
            };
            t = &t[..open];
            continue;
        }
        if t.ends_with(')') {
            if let Some(open) = t.rfind('(') {
                let before = &t[..open];
                if before.ends_with(char::is_whitespace) && !before.trim().is_empty() {
                    t = before;
                    continue;
                }
            }
        }
        return Ok((t, flags));
    }
}

/// Encodes one operand's text.
pub fn operand(text: &str, role: Role, syntax: Syntax, out: &mut Vec<u32>) -> Res<()> {
    let (mut t, flags) = strip_tags(text.trim())?;
    if t.is_empty() {
        return Err(fault(text, "missing operand"));
    }
    let mut modifier = OperandModifier::None.code();
    if let Some(r) = t.strip_prefix('-') {
        modifier |= OperandModifier::Neg.code();
        t = r.trim_start();
    }
    if let Some(r) = t.strip_prefix('|') {
        t = r
            .strip_suffix('|')
            .ok_or_else(|| fault(t, "unclosed '|'"))?
            .trim();
        modifier |= OperandModifier::Abs.code();
    }
    let ext = (modifier != 0 || flags != 0).then_some(
        EXTENDED_TYPE.put(ExtendedOperandType::Modifier.code())
            | OPERAND_MODIFIER.put(modifier)
            | flags,
    );
    let chain = if ext.is_some() { EXTENDED.mask() } else { 0 };
    let (head, rest) = t.split_at(
        t.find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(t.len()),
    );
    if rest.starts_with('(') && (head.eq_ignore_ascii_case("l") || head.eq_ignore_ascii_case("d")) {
        let (inner, tail) = bracketed(rest)?;
        if !tail.trim().is_empty() {
            return Err(fault(
                tail,
                format!("unexpected '{}' after the literal", tail.trim()),
            ));
        }
        let items = split_top(inner);
        let double = head.eq_ignore_ascii_case("d");
        let (ty, count) = match (double, items.len()) {
            (false, 1) => (OperandType::Immediate32, ComponentCount::One),
            (false, 4) => (OperandType::Immediate32, ComponentCount::Four),
            (true, 1) => (OperandType::Immediate64, ComponentCount::One),
            (true, 2) => (OperandType::Immediate64, ComponentCount::Four),
            (_, n) => return Err(fault(t, format!("a literal of {n} values"))),
        };
        let token = OPERAND_TYPE.put(ty.code()) | NUM_COMPONENTS.put(count.code());
        out.push(token | chain);
        out.extend(ext);
        for item in items {
            if double {
                let v = double_literal(item)?;
                out.extend([v as u32, (v >> 32) as u32]);
            } else {
                out.push(literal(item)?);
            }
        }
        return Ok(());
    }
    let ty = OperandType::from_register_name(head)
        .ok_or_else(|| fault(t, format!("unknown register '{t}'")))?;
    let mut rest = rest;
    let mut indices: Vec<(IndexRepresentation, Vec<u32>)> = Vec::new();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits > 0 {
        indices.push((
            IndexRepresentation::Immediate32,
            vec![number(&rest[..digits])?],
        ));
        rest = &rest[digits..];
    }
    while rest.starts_with('[') {
        let (inner, tail) = bracketed(rest)?;
        indices.push(index(inner, syntax)?);
        rest = tail;
    }
    if indices.len() > 3 {
        return Err(fault(t, "an operand has at most three indices"));
    }
    let sel = selection(rest, role, syntax, ty)?;
    let mut token = OPERAND_TYPE.put(ty.code()) | INDEX_DIMENSION.put(indices.len() as u32) | chain;
    let four = |mode: SelectionMode| {
        NUM_COMPONENTS.put(ComponentCount::Four.code()) | SELECTION_MODE.put(mode.code())
    };
    token |= match sel {
        Sel::None => NUM_COMPONENTS.put(ComponentCount::Zero.code()),
        Sel::One => NUM_COMPONENTS.put(ComponentCount::One.code()),
        Sel::Mask(m) => four(SelectionMode::Mask) | WRITE_MASK.put(u32::from(m)),
        Sel::Swizzle(s) => {
            four(SelectionMode::Swizzle)
                | (0..4).fold(0, |a, i| {
                    a | fields::swizzle(i).put(u32::from(s[i as usize]))
                })
        }
        Sel::Select(c) => four(SelectionMode::Select1) | SELECT_1.put(u32::from(c)),
    };
    for (i, (repr, _)) in indices.iter().enumerate() {
        token |= fields::index_representation(i as u32).put(repr.code());
    }
    out.push(token);
    out.extend(ext);
    for (_, words) in indices {
        out.extend(words);
    }
    Ok(())
}

/// The component selection of the text after a register's indices.
fn selection(rest: &str, role: Role, syntax: Syntax, ty: OperandType) -> Res<Sel> {
    let scalar_register = ty.is_scalar();
    let Some(letters) = rest.strip_prefix('.') else {
        if !rest.is_empty() {
            return Err(fault(rest, format!("unexpected '{rest}' in operand")));
        }
        return Ok(match role {
            Role::Decl if ty.declared_with_one_component() => Sel::One,
            Role::Decl if ty == OperandType::ConstantBuffer => Sel::Swizzle([0, 1, 2, 3]),
            Role::Decl => Sel::None,
            _ if scalar_register => Sel::One,
            _ => Sel::None,
        });
    };
    if letters.eq_ignore_ascii_case("(1)") {
        return Ok(Sel::One);
    }
    if letters.starts_with('(') {
        let (inner, _) = bracketed(letters)?;
        return match components(inner).as_deref() {
            Some(&[c]) if matches!(role, Role::Src | Role::Scalar) => Ok(Sel::Select(c)),
            _ => Err(fault(
                letters,
                format!("bad select-1 component '{letters}'"),
            )),
        };
    }
    let c = components(letters)
        .filter(|c| (1..=4).contains(&c.len()))
        .ok_or_else(|| fault(letters, format!("bad components '{letters}'")))?;
    let increasing = c.windows(2).all(|w| w[0] < w[1]);
    let mask = || Sel::Mask(c.iter().fold(0, |m, &i| m | 1 << i));
    Ok(match (role, c.len()) {
        (Role::Dst | Role::Decl, _) if increasing => mask(),
        (Role::Dst | Role::Decl, _) => {
            return Err(fault(
                letters,
                format!("a write mask lists components in order, not '{letters}'"),
            ))
        }
        (_, 4) => Sel::Swizzle([c[0], c[1], c[2], c[3]]),
        (Role::Scalar, 1) => Sel::Select(c[0]),
        (Role::Src, 1) if syntax == Syntax::Fxc => Sel::Select(c[0]),
        (Role::Src, 1) => Sel::Swizzle([c[0]; 4]),
        (_, _) if increasing => mask(),
        (_, n) => {
            let last = c[n - 1];
            let mut s = [last; 4];
            s[..n].copy_from_slice(&c);
            Sel::Swizzle(s)
        }
    })
}

/// An index's representation and words: `5`, `r0.x`, `r0.x + 5`, `5 + r0.x`.
fn index(s: &str, syntax: Syntax) -> Res<(IndexRepresentation, Vec<u32>)> {
    let s = s.trim();
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) && !s.contains('+') {
        return Ok((IndexRepresentation::Immediate32, vec![number(s)?]));
    }
    let (reg, imm) = match split_plus(s) {
        Some((a, b)) if a.trim().chars().all(|c| c.is_ascii_digit()) => {
            (b.trim(), Some(number(a)?))
        }
        Some((a, b)) => (a.trim(), Some(number(b)?).filter(|&v| v != 0)),
        None => (s, None),
    };
    let mut words = Vec::new();
    words.extend(imm);
    operand(reg, Role::Scalar, syntax, &mut words)?;
    let repr = if imm.is_some() {
        IndexRepresentation::Immediate32PlusRelative
    } else {
        IndexRepresentation::Relative
    };
    Ok((repr, words))
}

/// `s` split at its last `+` outside brackets (`this[r0.x + 1].z + 2`).
fn split_plus(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let mut at = None;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '+' if depth == 0 => at = Some(i),
            _ => {}
        }
    }
    at.map(|i| (&s[..i], &s[i + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_indices_nest() {
        // t[this[r1.y + 2].z + 3]: the outer index splits at its own `+`.
        assert_eq!(
            split_plus("this[r1.y + 2].z + 3"),
            Some(("this[r1.y + 2].z ", " 3"))
        );
        assert_eq!(split_plus("this[r1.y + 2].z"), None);
        let mut out = Vec::new();
        operand("t[this[r1.y + 2].z + 3]", Role::Src, Syntax::Fxc, &mut out).unwrap();
        // t# with one imm32+relative index (3), then this# with one
        // imm32+relative index (2) selecting .z, then r1 selecting .y.
        assert_eq!(out[1], 3);
        assert_eq!(out[3], 2);
        assert_eq!(out[5], 1);
    }

    fn enc(text: &str, role: Role, syntax: Syntax) -> Vec<u32> {
        let mut out = Vec::new();
        operand(text, role, syntax, &mut out).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        out
    }

    #[test]
    fn one_letter_sources_follow_the_dialect() {
        // r0.x: select-1 in fxc, a replicated swizzle in vkd3d.
        assert_eq!(enc("r0.x", Role::Src, Syntax::Fxc), [0x0010_000a, 0]);
        assert_eq!(enc("r0.x", Role::Src, Syntax::Vkd3d), [0x0010_0006, 0]);
        assert_eq!(enc("r0.xxxx", Role::Src, Syntax::Fxc), [0x0010_0006, 0]);
        assert_eq!(enc("r0.(x)", Role::Src, Syntax::Vkd3d), [0x0010_000a, 0]);
        assert_eq!(enc("r0.x", Role::Scalar, Syntax::Vkd3d), [0x0010_000a, 0]);
    }

    #[test]
    fn short_swizzles_masks_and_defaults() {
        // v1.xy as a source: a mask (what fxc prints for mask-mode sources,
        // and what 3DMigoto assembles); r0.yyy repeats its last letter.
        assert_eq!(enc("v1.xy", Role::Src, Syntax::Fxc), [0x0010_1032, 1]);
        assert_eq!(enc("r0.yyy", Role::Src, Syntax::Fxc), [0x0010_0556, 0]);
        assert_eq!(enc("r0.zx", Role::Src, Syntax::Fxc), [0x0010_0026, 0]);
        assert_eq!(enc("o0.xyzw", Role::Dst, Syntax::Fxc), [0x0010_20f2, 0]);
        assert_eq!(enc("oDepth", Role::Decl, Syntax::Fxc), [0x0000_c001]);
        assert_eq!(enc("vPrim", Role::Decl, Syntax::Fxc), [0x0000_b000]);
        assert_eq!(enc("CB0[4]", Role::Decl, Syntax::Fxc), [0x0020_8e46, 0, 4]);
        assert_eq!(
            enc("cb1[1] (ParamBuffer)", Role::Decl, Syntax::Fxc),
            [0x0020_8e46, 1, 1]
        );
        assert!(operand("r0.yx", Role::Dst, Syntax::Fxc, &mut Vec::new()).is_err());
    }

    #[test]
    fn modifiers_literals_and_relative_indices() {
        assert_eq!(
            enc("-|r1.xyzw|", Role::Src, Syntax::Fxc),
            [0x8010_0e46, 0xc1, 1]
        );
        assert_eq!(
            enc("l(1.000000)", Role::Src, Syntax::Fxc),
            [0x4001, 0x3f80_0000]
        );
        assert_eq!(
            enc("l(1.000000, 0.500000, 0, -1)", Role::Src, Syntax::Fxc),
            [0x4002, 0x3f80_0000, 0x3f00_0000, 0, 0xffff_ffff]
        );
        assert_eq!(
            enc("cb0[r0.x + 3].xyzw", Role::Src, Syntax::Fxc),
            [0x0620_8e46, 0, 3, 0x0010_000a, 0]
        );
        assert_eq!(
            enc("icb[r0.w + 0].xyzw", Role::Src, Syntax::Fxc),
            [0x0090_9e46, 0x0010_003a, 0]
        );
        assert_eq!(
            enc("vicp[0][1].xyz", Role::Src, Syntax::Fxc),
            [0x0021_9072, 0, 1]
        );
        assert_eq!(
            enc("r0.x {min16f as def32}", Role::Src, Syntax::Fxc),
            [0x8010_000a, 0x4001, 0]
        );
    }
}
