//! The assembler for the disassembler's syntax: text to a whole container.

use super::decode::ProgramType;
use super::names::{self, GLOBAL_FLAGS, INTERPOLATIONS, SAMPLER_MODES, SYSVALS};
use super::opcodes;
use super::signatures;
use super::Sm4Error;
use crate::dxbc;

mod lex;
mod mnemonic;
mod operand;

use lex::{number, split_top};
use mnemonic::{parse_mnemonic, return_type_word};
pub use operand::scalar_operand;
use operand::{operand, Role};

/// An assembler error without its line number (the statement loop fills it in).
fn fail(what: impl Into<String>) -> Sm4Error {
    Sm4Error::Asm {
        line: 0,
        what: what.into(),
    }
}

/// Assembles a whole program text into container bytes.
pub fn assemble(text: &str) -> Result<Vec<u8>, Sm4Error> {
    let mut statements = Vec::new();
    let mut pending = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if pending.is_empty() {
            start = i + 1;
        } else {
            pending.push(' ');
        }
        pending.push_str(line);
        if pending.matches('{').count() <= pending.matches('}').count() {
            statements.push((start, std::mem::take(&mut pending)));
        }
    }
    if !pending.is_empty() {
        return Err(Sm4Error::Asm {
            line: start,
            what: "unclosed '{'".into(),
        });
    }
    let mut it = statements.into_iter();
    let (line, version) = it.next().ok_or(Sm4Error::Asm {
        line: 1,
        what: "empty program".into(),
    })?;
    let (program_type, major, minor) = parse_version(&version).ok_or(Sm4Error::Asm {
        line,
        what: format!("bad version '{version}'"),
    })?;
    let mut tokens = vec![(program_type.code() << 16) | (major << 4) | minor, 0];
    for (line, statement) in it {
        let words = assemble_instruction(&statement).map_err(|e| match e {
            Sm4Error::Asm { what, .. } => Sm4Error::Asm { line, what },
            other => other,
        })?;
        tokens.extend(words);
    }
    tokens[1] = tokens.len() as u32;
    let (isgn, osgn) = signatures::from_program(&tokens, program_type)?;
    let tag = if major >= 5 { *b"SHEX" } else { *b"SHDR" };
    let program: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok(dxbc::build(&[
        (*b"ISGN", isgn),
        (*b"OSGN", osgn),
        (tag, program),
    ]))
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find("//"), line.find(';')]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |c| &line[..c])
}

fn parse_version(v: &str) -> Option<(ProgramType, u32, u32)> {
    let mut parts = v.split('_');
    let ty = match parts.next()? {
        "ps" => ProgramType::Pixel,
        "vs" => ProgramType::Vertex,
        "gs" => ProgramType::Geometry,
        "hs" => ProgramType::Hull,
        "ds" => ProgramType::Domain,
        "cs" => ProgramType::Compute,
        _ => return None,
    };
    Some((ty, parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Assembles one instruction or declaration statement into its tokens.
pub fn assemble_instruction(statement: &str) -> Result<Vec<u32>, Sm4Error> {
    let s = statement.trim();
    if let Some(list) = s.strip_prefix(".dwords") {
        return split_top(list).iter().map(|w| number(w)).collect();
    }
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
    let (m, rest) = (&s[..split], s[split..].trim());
    if m == "dcl_immediateConstantBuffer" || m.starts_with("dcl_customdata") {
        return custom_data(m, rest);
    }
    let mn = parse_mnemonic(m)?;
    let info = mn.info;
    let mut controls = mn.controls;
    let mut body = Vec::new();
    body.extend(mn.extended.iter().copied());
    let mut rest = rest.to_string();
    let mut handled = false;
    match info.code {
        106 => {
            for f in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                controls |= names::code(GLOBAL_FLAGS, f)
                    .ok_or_else(|| fail(format!("bad global flag '{f}'")))?;
            }
            rest.clear();
        }
        88 | 156 => {
            let inner = rest
                .strip_prefix('(')
                .and_then(|r| r.split_once(')'))
                .ok_or_else(|| fail("declaration needs a return type"))?;
            let ret = return_type_word(inner.0)?;
            let mut tail = Vec::new();
            operand(inner.1, Role::Decl, &mut tail)?;
            body.extend(tail);
            body.push(ret);
            rest.clear();
            handled = true;
        }
        98..=100 => {
            let mut longest = 0;
            for (code, name) in INTERPOLATIONS {
                if rest.starts_with(&format!("{name} ")) && name.len() > longest {
                    longest = name.len();
                    controls = (controls & !0xf) | code;
                }
            }
            rest = rest[longest..].trim().to_string();
        }
        105 => {
            let parts = split_top(&rest);
            let (head, comps) = match parts.as_slice() {
                [h, c] => (h.as_str(), c.as_str()),
                _ => return Err(fail("dcl_indexableTemp needs x#[n], components")),
            };
            let (id, count) = head
                .strip_prefix('x')
                .and_then(|h| h.strip_suffix(']'))
                .and_then(|h| h.split_once('['))
                .ok_or_else(|| fail("bad indexable temp"))?;
            body.extend([number(id)?, number(count)?, number(comps)?]);
            rest.clear();
            handled = true;
        }
        _ => {}
    }
    if !rest.is_empty() {
        let items = split_top(&rest);
        let mut items = items.iter();
        let mut position = 0;
        for kind in info.layout.chars() {
            match kind {
                'd' | 's' => {
                    let item = items
                        .next()
                        .ok_or_else(|| fail(format!("{} needs more operands", info.name)))?;
                    let role = if info.decl {
                        Role::Decl
                    } else if kind == 'd' {
                        Role::Dst
                    } else if scalar_operand(info.code, position) {
                        Role::Scalar
                    } else {
                        Role::Src
                    };
                    position += 1;
                    operand(item, role, &mut body)?;
                }
                'u' => {
                    let item = items
                        .next()
                        .ok_or_else(|| fail(format!("{} needs more values", info.name)))?;
                    let word = match names::code(SYSVALS, item) {
                        Some(code) if matches!(info.code, 96 | 97 | 99 | 100 | 102 | 103) => code,
                        _ => number(item)?,
                    };
                    body.push(word);
                }
                _ => {
                    for item in items.by_ref() {
                        body.push(number(item)?);
                    }
                }
            }
        }
        for item in items {
            if let Some(c) = names::code(SAMPLER_MODES, item).filter(|_| info.code == 90) {
                controls |= c;
            } else if let Some(k) =
                names::decl_keywords(info.code).and_then(|k| names::code(k, item))
            {
                controls |= k;
            } else if names::DECL_COUNTS.contains(&info.code) {
                controls |= number(item)?;
            } else if item == "dynamicIndexed" && info.code == 89 {
                controls |= 1;
            } else if item != "immediateIndexed" || info.code != 89 {
                return Err(fail(format!("unexpected '{item}'")));
            }
        }
    } else if !handled && info.layout.contains(['d', 's']) {
        return Err(fail(format!("{} needs operands", info.name)));
    }
    if controls > 0x1fff {
        return Err(fail(format!(
            "control value {controls} does not fit the opcode token"
        )));
    }
    let len = body.len() as u32 + 1;
    if len > 0x7f {
        return Err(fail("instruction longer than 127 words"));
    }
    let ext = if mn.extended.is_empty() {
        0
    } else {
        0x8000_0000
    };
    let mut out = vec![u32::from(info.code) | (controls << 11) | (len << 24) | ext];
    out.extend(body);
    Ok(out)
}

fn custom_data(m: &str, rest: &str) -> Result<Vec<u32>, Sm4Error> {
    let class = match m
        .strip_prefix("dcl_customdata(")
        .and_then(|c| c.strip_suffix(')'))
    {
        Some(c) => number(c)?,
        None => 3,
    };
    let words: Vec<u32> = rest
        .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(number)
        .collect::<Result<_, _>>()?;
    let info = opcodes::info(53).ok_or_else(|| fail("custom data opcode missing"))?;
    let mut out = vec![u32::from(info.code) | class << 11, words.len() as u32 + 2];
    out.extend(words);
    Ok(out)
}
