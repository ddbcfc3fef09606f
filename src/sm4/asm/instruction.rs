//! One statement to its tokens: the mnemonic, fxc's `[precise]` mark, the
//! operands in the opcode's layout, and the opcode token around them.

use super::custom;
use super::decl::{declaration, Items};
use super::lex::{bracketed, components, number, split_top, strip_prefix_ci};
use super::mnemonic::{parse_mnemonic, precise_controls};
use super::operand::{operand, Role};
use super::source::{fault, Res, Statement};
use crate::sm4::fields::{EXTENDED, INSTRUCTION_LENGTH, OPCODE, OPCODE_CONTROLS, OPERAND_TYPE};
use crate::sm4::opcodes::{Item, OpInfo, Opcode};
use crate::sm4::registers::OperandType;
use crate::sm4::Syntax;

/// Splits a statement into its mnemonic and the rest (at the first blank
/// outside parentheses).
fn split_mnemonic(s: &str) -> (&str, &str) {
    let mut depth = 0;
    let split = s
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth == 0 && c.is_whitespace()
        })
        .map_or(s.len(), |(i, _)| i);
    (&s[..split], &s[split..])
}

/// fxc's `[precise]` / `[precise(xyz)]` mark after a mnemonic: its control
/// bits and the text after it.
fn precise_mark(rest: &str) -> Res<(u32, &str)> {
    let t = rest.trim_start();
    let Some(inner) = t.strip_prefix('[') else {
        return Ok((0, rest));
    };
    let (mark, tail) = bracketed(t)?;
    let Some(args) = strip_prefix_ci(mark.trim(), "precise") else {
        return Ok((0, rest));
    };
    let mask = if args.trim().is_empty() {
        vec![0, 1, 2, 3]
    } else {
        let (letters, after) = bracketed(args.trim())?;
        if !after.trim().is_empty() {
            return Err(fault(inner, format!("bad precise mark '[{mark}]'")));
        }
        components(letters)
            .ok_or_else(|| fault(letters, format!("bad precise mask '{letters}'")))?
    };
    Ok((precise_controls(&mask), tail))
}

/// The tokens of one statement.
pub fn encode(st: &Statement, syntax: Syntax) -> Res<Vec<u32>> {
    let s = st.head();
    if let Some(list) = strip_prefix_ci(s, ".dwords") {
        return split_top(list).into_iter().map(number).collect();
    }
    let (m, rest) = split_mnemonic(s);
    if custom::is_custom(m) {
        return custom::encode(m, st);
    }
    if custom::is_message(m) {
        return custom::message(m, rest, syntax);
    }
    if let Some(extra) = st.parts.get(1) {
        return Err(fault(
            extra.text,
            "the statement continues onto another line",
        ));
    }
    let (precise, rest) = precise_mark(rest)?;
    let mn = parse_mnemonic(m)?;
    let info = mn.info;
    let mut controls = mn.controls | precise;
    let mut body: Vec<u32> = mn
        .extended
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if i + 1 < mn.extended.len() {
                e | EXTENDED.mask()
            } else {
                *e
            }
        })
        .collect();
    if info.decl {
        declaration(info, rest, syntax, &mut controls, &mut body)?;
    } else {
        operands(info, rest, syntax, &mut body)?;
    }
    if controls > OPCODE_CONTROLS.max() {
        return Err(fault(
            s,
            format!("control value {controls:#x} does not fit the opcode token"),
        ));
    }
    let len = body.len() as u32 + 1;
    if len > INSTRUCTION_LENGTH.max() {
        return Err(fault(s, "instruction longer than 127 words"));
    }
    let ext = if mn.extended.is_empty() {
        0
    } else {
        EXTENDED.mask()
    };
    let mut out = vec![
        OPCODE.put(info.op.code())
            | OPCODE_CONTROLS.put(controls)
            | INSTRUCTION_LENGTH.put(len)
            | ext,
    ];
    out.extend(body);
    Ok(out)
}

/// An instruction's operands, in the order of its layout.
fn operands(info: &OpInfo, rest: &str, syntax: Syntax, body: &mut Vec<u32>) -> Res<()> {
    let mut items = Items::new(rest);
    let mut starts = Vec::new();
    for item in info.items() {
        starts.push(body.len());
        match item {
            Item::Word if info.op == Opcode::Fcall && split_top(rest).len() == 1 => {
                let call = items.next("an interface call")?;
                let open = call
                    .rfind('[')
                    .ok_or_else(|| fault(call, "expected fp#[index][call site]"))?;
                let (site, tail) = bracketed(&call[open..])?;
                if !tail.trim().is_empty() {
                    return Err(fault(tail, format!("unexpected '{tail}'")));
                }
                body.push(number(site)?);
                operand(&call[..open], Role::Src, syntax, body)?;
                break;
            }
            Item::Word => body.push(number(items.next("a number")?)?),
            _ => {
                let text = items.next("another operand")?;
                let role = match item {
                    Item::Dst => Role::Dst,
                    Item::Scalar => Role::Scalar,
                    _ => Role::Src,
                };
                operand(text, role, syntax, body)?;
            }
        }
    }
    items.finish()?;
    if info.op == Opcode::SamplePos
        && starts
            .get(1)
            .is_some_and(|&at| OPERAND_TYPE.get(body[at]) == OperandType::Resource.code())
    {
        // fxc writes one zero word after `sample_pos` on a texture (none
        // after the rasterizer); see `decode::fxc_sample_pos_padding`.
        body.push(0);
    }
    Ok(())
}
