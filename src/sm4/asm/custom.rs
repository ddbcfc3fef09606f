//! Custom-data blocks: `dcl_immediateConstantBuffer { ... }` (fxc's rows of
//! floats and integers over several lines, or vkd3d's hexadecimal rows),
//! vkd3d's `dcl_customdata(class) { ... }`, and fxc's debug messages
//! `printf "format %0", r0.x` and `errorf "...", ...`.

use super::lex::{bracketed, literal, number, split_top, strip_prefix_ci};
use super::operand::{operand, Role};
use super::source::{fault, Res, Statement};
use crate::sm4::encoding::CustomDataClass;
use crate::sm4::fields::{CUSTOM_DATA_CLASS, OPCODE};
use crate::sm4::opcodes::Opcode;
use crate::sm4::Syntax;

/// The opcode token of a custom-data block of `class`.
fn custom_token(class: u32) -> u32 {
    OPCODE.put(Opcode::DclImmediateConstantBuffer.code()) | CUSTOM_DATA_CLASS.put(class)
}

/// Whether a mnemonic is a debug message (`printf`, `errorf`).
pub fn is_message(m: &str) -> bool {
    m.eq_ignore_ascii_case("printf") || m.eq_ignore_ascii_case("errorf")
}

/// The shader-message block (custom data class 4) of `printf`/`errorf`:
/// message kind, printf formatting, the format's length, the operand count
/// and words, the operands, then the format's bytes with a terminating zero.
pub fn message(m: &str, rest: &str, syntax: Syntax) -> Res<Vec<u32>> {
    let t = rest.trim_start();
    let body = t
        .strip_prefix('"')
        .ok_or_else(|| fault(t, "expected a quoted format string"))?;
    let close = body
        .find('"')
        .ok_or_else(|| fault(t, "unclosed format string"))?;
    let format = &body[..close];
    let after = body[close + 1..].trim_start();
    let args = match after.strip_prefix(',') {
        Some(a) => split_top(a),
        None if after.is_empty() => Vec::new(),
        None => return Err(fault(after, format!("unexpected '{after}'"))),
    };
    let mut operands = Vec::new();
    for a in &args {
        operand(a, Role::Src, syntax, &mut operands)?;
    }
    let kind = if m.eq_ignore_ascii_case("errorf") {
        0x0020_0103
    } else {
        0x0020_0102
    };
    let mut bytes = format.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    let mut words = vec![
        kind,
        1,
        format.len() as u32,
        args.len() as u32,
        operands.len() as u32,
    ];
    words.extend(operands);
    words.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    let mut out = vec![
        custom_token(CustomDataClass::ShaderMessage.code()),
        words.len() as u32 + 2,
    ];
    out.extend(words);
    Ok(out)
}

/// Whether a mnemonic opens a custom-data block.
pub fn is_custom(m: &str) -> bool {
    m.eq_ignore_ascii_case("dcl_immediateConstantBuffer")
        || strip_prefix_ci(m, "dcl_customdata").is_some()
}

/// The tokens of a custom-data statement whose mnemonic is `m`.
pub fn encode(m: &str, st: &Statement) -> Res<Vec<u32>> {
    let class = match strip_prefix_ci(m, "dcl_customdata") {
        Some(args) if !args.is_empty() => number(bracketed(args)?.0)?,
        Some(_) => return Err(fault(m, "dcl_customdata needs (class)")),
        None => CustomDataClass::ImmediateConstantBuffer.code(),
    };
    if class > CUSTOM_DATA_CLASS.max() {
        return Err(fault(m, "the data class does not fit 21 bits"));
    }
    let head = st.head();
    let first = &head[m.len()..];
    if !first.trim_start().starts_with('{') {
        return Err(fault(first, "expected '{' and the data"));
    }
    let mut words = Vec::new();
    let mut depth = 0;
    for text in std::iter::once(first).chain(st.parts[1..].iter().map(|p| p.text)) {
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| !(c.is_whitespace() || c == ',')) {
            rest = &rest[start..];
            let c = rest.as_bytes()[0];
            if c == b'{' || c == b'}' {
                depth += if c == b'{' { 1 } else { -1 };
                if depth < 0 {
                    return Err(fault(rest, "unbalanced '}'"));
                }
                rest = &rest[1..];
                continue;
            }
            if depth == 0 {
                return Err(fault(rest, format!("'{}' after the data", rest.trim())));
            }
            let end = rest.find([',', '{', '}']).unwrap_or(rest.len());
            let item = rest[..end].trim();
            words.push(literal(item)?);
            rest = &rest[end..];
        }
    }
    let mut out = vec![custom_token(class), words.len() as u32 + 2];
    out.extend(words);
    Ok(out)
}
