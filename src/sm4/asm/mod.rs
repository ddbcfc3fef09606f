//! The assembler: text in either dialect (vkd3d `d3d-asm` style or fxc
//! style, see [`Syntax`]) to a whole DXBC container.
//!
//! Signatures come from fxc's `// Input signature:` tables when the text
//! has them, otherwise from the declarations. Errors name the line and
//! column of the offending text.

use super::decode::ProgramType;
use super::fields::{MAJOR_VERSION, MINOR_VERSION, PROGRAM_TYPE};
use super::signatures;
use super::sigtable;
use super::{Sm4Error, Syntax};
use crate::dxbc;

mod custom;
mod decl;
mod instruction;
mod lex;
mod mnemonic;
mod operand;
mod source;

use source::fault;

/// Assembles a whole program text into container bytes, reading it in the
/// dialect [`Syntax::detect`] finds.
pub fn assemble(text: &str) -> Result<Vec<u8>, Sm4Error> {
    assemble_as(text, Syntax::detect(text))
}

/// Assembles a whole program text in the given dialect.
pub fn assemble_as(text: &str, syntax: Syntax) -> Result<Vec<u8>, Sm4Error> {
    let statements = source::statements(text)?;
    let mut it = statements.iter();
    let first = it.next().ok_or(Sm4Error::Asm {
        line: 1,
        column: 1,
        what: "empty program".into(),
    })?;
    let (program_type, major, minor) = parse_version(first.head()).ok_or_else(|| {
        first.locate(fault(
            first.head(),
            format!("bad version '{}'", first.head()),
        ))
    })?;
    let version =
        PROGRAM_TYPE.put(program_type.code()) | MAJOR_VERSION.put(major) | MINOR_VERSION.put(minor);
    let mut tokens = vec![version, 0];
    for st in it {
        tokens.extend(instruction::encode(st, syntax).map_err(|f| st.locate(f))?);
    }
    tokens[1] = tokens.len() as u32;
    let tables = sigtable::read(text, program_type)?;
    let (isgn, osgn) = signatures::from_program(&tokens, program_type)?;
    let write = |table: Option<Vec<dxbc::SignatureElement>>, derived: Vec<u8>| {
        table.map_or(derived, |t| dxbc::signature::write(&t))
    };
    let mut chunks = vec![
        (*b"ISGN", write(tables.inputs, isgn)),
        (*b"OSGN", write(tables.outputs, osgn)),
    ];
    if let Some(patch) = tables.patch_constants {
        chunks.push((*b"PCSG", dxbc::signature::write(&patch)));
    }
    let tag = if major >= 5 { *b"SHEX" } else { *b"SHDR" };
    chunks.push((tag, tokens.iter().flat_map(|w| w.to_le_bytes()).collect()));
    Ok(dxbc::build(&chunks))
}

/// The program type and model of a version line (`ps_5_0`, `VS_4_0`,
/// `vs_4_0_level_9_1`).
fn parse_version(v: &str) -> Option<(ProgramType, u32, u32)> {
    let lower = v.to_ascii_lowercase();
    let mut parts = lower.split('_');
    let ty = match parts.next()? {
        "ps" => ProgramType::Pixel,
        "vs" => ProgramType::Vertex,
        "gs" => ProgramType::Geometry,
        "hs" => ProgramType::Hull,
        "ds" => ProgramType::Domain,
        "cs" => ProgramType::Compute,
        _ => return None,
    };
    let major: u32 = parts.next()?.parse().ok().filter(|m| (4..=5).contains(m))?;
    let minor: u32 = parts.next()?.parse().ok().filter(|m| *m <= 1)?;
    let rest: Vec<&str> = parts.collect();
    match rest.as_slice() {
        [] | ["level", "9", "1" | "2" | "3"] => Some((ty, major, minor)),
        _ => None,
    }
}

/// Assembles one instruction or declaration (which may span lines inside
/// `{ ... }`) into its tokens.
pub fn assemble_instruction(text: &str, syntax: Syntax) -> Result<Vec<u32>, Sm4Error> {
    let statements = source::statements(text)?;
    match statements.as_slice() {
        [st] => instruction::encode(st, syntax).map_err(|f| st.locate(f)),
        _ => Err(Sm4Error::Asm {
            line: 1,
            column: 1,
            what: format!("expected one statement, found {}", statements.len()),
        }),
    }
}
