//! The disassemblers: vkd3d `d3d-asm` style (the default) and fxc style
//! (as fxc `/Fc` and `D3DDisassemble` print, with the signature tables).
//!
//! Every line is checked by assembling it again in its dialect; an
//! instruction whose text would not give back its exact tokens is written
//! as `.dwords` followed by its readable form as a comment, so that the
//! text always reassembles to the same program.

use std::fmt::Write;

use super::asm::assemble_instruction;
use super::decode::{decode, Instruction, Operand, Shader};
use super::encoding::{OperandModifier, ResInfoReturnType, SAMPLE_INFO_UINT};
use super::fields::RESINFO_RETURN_TYPE;
use super::names::ResourceDimension;
use super::opcodes::Block;
use super::{Sm4Error, Syntax};
use crate::dxbc::Container;

mod fxc;
mod fxc_decl;
mod fxc_number;
mod vkd3d;

pub use vkd3d::{instruction, literal, mnemonic, operand, text};

/// Disassembles a container's program in vkd3d style.
pub fn disassemble(container: &Container) -> Result<String, Sm4Error> {
    disassemble_as(container, Syntax::Vkd3d)
}

/// Disassembles a container's program in the given dialect.
pub fn disassemble_as(container: &Container, syntax: Syntax) -> Result<String, Sm4Error> {
    let tokens = container.program().ok_or(Sm4Error::NoProgram)?;
    let shader = decode(tokens)?;
    Ok(match syntax {
        Syntax::Vkd3d => vkd3d::text(&shader, tokens, container.rdef()),
        Syntax::Fxc => fxc::text(container, &shader, tokens),
    })
}

/// The instruction lines of a program: `print` gives each instruction's
/// text, indented by block depth; a text that does not reassemble to the
/// instruction's tokens becomes `.dwords`. `comment` may add a trailing
/// comment.
fn body(
    shader: &Shader,
    tokens: &[u32],
    syntax: Syntax,
    print: fn(&Instruction) -> String,
    comment: impl Fn(&Instruction) -> Option<String>,
) -> String {
    let unit = match syntax {
        Syntax::Vkd3d => "    ",
        Syntax::Fxc => "  ",
    };
    let mut out = String::new();
    let mut depth = 0usize;
    let ends = shader
        .instructions
        .iter()
        .skip(1)
        .map(|i| i.offset)
        .chain([tokens.len()]);
    for (ins, end) in shader.instructions.iter().zip(ends) {
        let block = ins.info.block;
        if matches!(block, Block::Else | Block::Close) {
            depth = depth.saturating_sub(1);
        }
        let original = &tokens[ins.offset..end.min(tokens.len())];
        let line = print(ins);
        let indent = unit.repeat(depth);
        if assemble_instruction(&line, syntax).ok().as_deref() == Some(original) {
            let _ = write!(out, "{indent}{line}");
        } else {
            let words: Vec<String> = original.iter().map(|w| format!("0x{w:08x}")).collect();
            let _ = write!(
                out,
                "{indent}.dwords {} // {}",
                words.join(", "),
                line.replace('\n', " ")
            );
        }
        if let Some(c) = comment(ins) {
            let _ = write!(out, " // {c}");
        }
        out.push('\n');
        if matches!(block, Block::Else | Block::Open) {
            depth += 1;
        }
    }
    out
}

/// The name of a register operand's type (`unknown` for numbers no type has).
/// The names of a `dcl_globalFlags`' set flags, joined by ` | `.
fn global_flags(ins: &Instruction) -> String {
    let set = ins.field(super::fields::GLOBAL_FLAGS);
    let flags: Vec<&str> = super::names::GLOBAL_FLAGS
        .iter()
        .filter(|(bit, _)| set & bit != 0)
        .map(|(_, name)| *name)
        .collect();
    flags.join(" | ")
}

fn register_name(op: &Operand) -> &'static str {
    op.register().map_or("unknown", |t| t.name())
}

/// Whether an operand's register holds a single component.
fn is_scalar_register(op: &Operand) -> bool {
    op.register().is_some_and(|t| t.is_scalar())
}

/// The name of a resource dimension (`unknown` for numbers no dimension has).
fn dimension_name(dim: u32) -> &'static str {
    ResourceDimension::from_code(dim).map_or("unknown", ResourceDimension::name)
}

/// `resinfo`'s and `sample_info`'s return-type suffix (`_uint`, `_rcpFloat`,
/// or the number for one no type has).
fn return_suffix(ins: &Instruction) -> String {
    let value = ins.field(RESINFO_RETURN_TYPE);
    if ins.opcode() == crate::sm4::opcodes::Opcode::SampleInfo {
        return match value {
            0 => String::new(),
            SAMPLE_INFO_UINT => "_uint".to_string(),
            _ => format!("_{value}"),
        };
    }
    ResInfoReturnType::from_code(value)
        .map_or_else(|| format!("_{value}"), |r| r.name().to_string())
}

/// An operand's text with its modifier applied (`-r0`, `|r0|`, `-|r0|`).
fn modified(op: &Operand, s: String) -> String {
    match OperandModifier::from_code(op.modifier()) {
        Some(OperandModifier::Neg) => format!("-{s}"),
        Some(OperandModifier::Abs) => format!("|{s}|"),
        Some(OperandModifier::AbsNeg) => format!("-|{s}|"),
        _ => s,
    }
}
