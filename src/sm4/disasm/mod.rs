//! The disassemblers: vkd3d `d3d-asm` style (the default) and fxc style
//! (as fxc `/Fc` and `D3DDisassemble` print, with the signature tables).
//!
//! Every line is checked by assembling it again in its dialect; an
//! instruction whose text would not give back its exact tokens is written
//! as `.dwords` followed by its readable form as a comment, so that the
//! text always reassembles to the same program.

use std::fmt::Write;

use super::asm::assemble_instruction;
use super::decode::{decode, Instruction, Shader};
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
        let code = ins.info.code;
        if matches!(code, 18 | 21 | 22 | 23) {
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
        if matches!(code, 18 | 31 | 48 | 76) {
            depth += 1;
        }
    }
    out
}
