//! The assembler: D3DX assembler syntax (as [`super::disassemble`] writes it)
//! to a token stream.

use super::error::D3d9Error;
use super::opcodes::{
    self, Extra, OpInfo, BREAK, BREAKC, COMMENT, DCL, DEF, DEFB, DEFI, IF, IFC, TEX, TEXCOORD,
};
use super::predication;
use super::syntax::{COMPONENTS, REGISTER_NAMES};
use super::types::*;

struct Line<'a> {
    no: usize,
    text: &'a str,
}

impl Line<'_> {
    fn err(&self, what: impl Into<String>) -> D3d9Error {
        D3d9Error::Asm {
            line: self.no,
            what: what.into(),
        }
    }
}

/// Assembles text into tokens, version token first and end token last.
pub fn assemble(text: &str) -> Result<Vec<u32>, D3d9Error> {
    let mut lines = text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.split("//").next().unwrap_or("").trim();
        (!l.is_empty() && !l.starts_with(';')).then_some(Line { no: i + 1, text: l })
    });
    let first = lines.next().ok_or(D3d9Error::Asm {
        line: 1,
        what: "empty text".into(),
    })?;
    let version =
        parse_version(first.text).ok_or_else(|| first.err("expected a version such as ps_2_0"))?;
    let mut out = vec![version.token()];
    for line in lines {
        if let Some(rest) = line.text.strip_prefix(".comment") {
            let words: Result<Vec<u32>, _> = rest
                .split_whitespace()
                .map(|w| parse_int(w).ok_or(()))
                .collect();
            let words = words.map_err(|_| line.err("bad comment word"))?;
            out.push(u32::from(COMMENT) | (words.len() as u32) << 16);
            out.extend(words);
            continue;
        }
        assemble_line(&line, version, &mut out)?;
    }
    out.push(0x0000_FFFF);
    Ok(out)
}

fn parse_version(text: &str) -> Option<Version> {
    let mut parts = text.split('_');
    let kind = match parts.next()? {
        "vs" => ShaderKind::Vertex,
        "ps" => ShaderKind::Pixel,
        _ => return None,
    };
    let major: u8 = parts.next()?.parse().ok()?;
    let minor = match parts.next()? {
        "x" => 1,
        "sw" => 0xFF,
        m => m.parse().ok()?,
    };
    Some(Version { kind, major, minor })
}

fn parse_int(w: &str) -> Option<u32> {
    let w = w.trim();
    if let Some(h) = w.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok();
    }
    w.parse::<i64>().ok().map(|v| v as u32)
}

fn reg_token(reg: Register) -> u32 {
    let ty = reg.ty.number();
    0x8000_0000 | (reg.num & 0x7FF) | (ty & 7) << 28 | (ty >> 3 & 3) << 11
}

fn parse_register(
    line: &Line,
    text: &str,
    version: Version,
) -> Result<(Register, String), D3d9Error> {
    let (prefix, ty, fixed) = REGISTER_NAMES
        .iter()
        .find(|(p, _, _)| text.starts_with(p))
        .ok_or_else(|| line.err(format!("unknown register {text}")))?;
    let rest = &text[prefix.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = rest[digits.len()..].to_string();
    let num = match fixed {
        Some(n) => *n,
        None if digits.is_empty() => 0,
        None => digits
            .parse()
            .map_err(|_| line.err("bad register number"))?,
    };
    let mut ty = *ty;
    if ty == RegType::Const && num >= 2048 {
        let (t, base) = match num {
            n if n >= 6144 => (RegType::Const4, 6144),
            n if n >= 4096 => (RegType::Const3, 4096),
            _ => (RegType::Const2, 2048),
        };
        return Ok((
            Register {
                ty: t,
                num: num - base,
            },
            tail,
        ));
    }
    if *prefix == "o" && version.is_vs() && version.major < 3 {
        ty = RegType::Output;
    }
    Ok((Register { ty, num }, tail))
}

fn parse_components(line: &Line, text: &str) -> Result<Vec<u8>, D3d9Error> {
    text.chars()
        .map(|ch| {
            let ch = match ch {
                'r' => 'x',
                'g' => 'y',
                'b' => 'z',
                'a' => 'w',
                c => c,
            };
            COMPONENTS
                .iter()
                .position(|&c| c == ch)
                .map(|p| p as u8)
                .ok_or_else(|| line.err("bad component"))
        })
        .collect()
}

fn swizzle_bits(line: &Line, text: &str) -> Result<u32, D3d9Error> {
    let comps = parse_components(line, text)?;
    if comps.is_empty() || comps.len() > 4 {
        return Err(line.err("bad swizzle"));
    }
    let last = comps[comps.len() - 1];
    Ok((0..4)
        .map(|i| u32::from(*comps.get(i).unwrap_or(&last)) << (2 * i))
        .sum::<u32>()
        << 16)
}

/// A parsed operand: register, relative addressing (`Some(None)` for the
/// implicit vs_1_x `a0.x`), modifier suffix and component selection.
type Operand = (Register, Option<Option<u32>>, String, String);

/// Splits `name[rel]_suffix.swizzle` into its pieces; returns the register
/// token bits and the extra relative token.
fn parse_operand(line: &Line, text: &str, version: Version) -> Result<Operand, D3d9Error> {
    let (head, rel_text) = match (text.find('['), text.find(']')) {
        (Some(a), Some(b)) if b > a => (
            format!("{}{}", &text[..a], &text[b + 1..]),
            Some(&text[a + 1..b]),
        ),
        _ => (text.to_string(), None),
    };
    let (mut reg, tail) = parse_register(line, &head, version)?;
    let mut rel = None;
    if let Some(inner) = rel_text {
        let mut rel_token = None;
        for part in inner.split('+').map(str::trim) {
            if let Some(n) = parse_int(part) {
                reg.num += n;
            } else {
                let (r, t) = parse_register(line, part, version)?;
                let sw = match t.strip_prefix('.') {
                    Some(s) => swizzle_bits(line, s)?,
                    None if t.is_empty() => 0xE4 << 16,
                    None => return Err(line.err("bad relative register")),
                };
                rel_token = Some(reg_token(r) | sw);
            }
        }
        rel = Some(if version.major < 2 { None } else { rel_token });
    }
    let (suffix, select) = match tail.find('.') {
        Some(p) => (tail[..p].to_string(), tail[p + 1..].to_string()),
        None => (tail, String::new()),
    };
    Ok((reg, rel, suffix, select))
}

fn push_rel(out: &mut Vec<u32>, token: u32, rel: Option<Option<u32>>) {
    match rel {
        None => out.push(token),
        Some(extra) => {
            out.push(token | 1 << 13);
            out.extend(extra);
        }
    }
}

fn assemble_dst(
    line: &Line,
    text: &str,
    version: Version,
    mods: u32,
    out: &mut Vec<u32>,
) -> Result<(), D3d9Error> {
    let (reg, rel, suffix, select) = parse_operand(line, text, version)?;
    if !suffix.is_empty() {
        return Err(line.err(format!("unexpected {suffix} on a destination")));
    }
    let mask = if select.is_empty() {
        0xF
    } else {
        parse_components(line, &select)?
            .iter()
            .fold(0u32, |m, c| m | 1 << c)
    };
    push_rel(out, reg_token(reg) | mask << 16 | mods, rel);
    Ok(())
}

fn assemble_src(
    line: &Line,
    text: &str,
    version: Version,
    out: &mut Vec<u32>,
) -> Result<(), D3d9Error> {
    let (neg, comp, not, body) = if let Some(b) = text.strip_prefix("1-") {
        (false, true, false, b)
    } else if let Some(b) = text.strip_prefix('-') {
        (true, false, false, b)
    } else if let Some(b) = text.strip_prefix('!') {
        (false, false, true, b)
    } else {
        (false, false, false, text)
    };
    let (reg, rel, suffix, select) = parse_operand(line, body.trim(), version)?;
    let modifier = match (suffix.as_str(), neg) {
        ("", false) if comp => SrcMod::Comp,
        ("", false) if not => SrcMod::Not,
        ("", false) => SrcMod::None,
        ("", true) => SrcMod::Neg,
        ("_bias", n) => {
            if n {
                SrcMod::BiasNeg
            } else {
                SrcMod::Bias
            }
        }
        ("_bx2", n) => {
            if n {
                SrcMod::SignNeg
            } else {
                SrcMod::Sign
            }
        }
        ("_x2", n) => {
            if n {
                SrcMod::X2Neg
            } else {
                SrcMod::X2
            }
        }
        ("_abs", n) => {
            if n {
                SrcMod::AbsNeg
            } else {
                SrcMod::Abs
            }
        }
        ("_dz" | "_db", false) => SrcMod::Dz,
        ("_dw" | "_da", false) => SrcMod::Dw,
        _ => return Err(line.err(format!("bad source modifier in {text}"))),
    };
    let sw = if select.is_empty() {
        0xE4 << 16
    } else {
        swizzle_bits(line, &select)?
    };
    push_rel(out, reg_token(reg) | sw | modifier.number() << 24, rel);
    Ok(())
}

fn find_op(name: &str, version: Version) -> Option<(&'static OpInfo, u8)> {
    let by_code = |c| opcodes::info(c);
    let cmp = |s: &str| COMPARISONS.iter().find(|(_, n)| *n == s).map(|(c, _)| *c);
    let (code, controls) = match name {
        "tex" | "texld" => (TEX, 0),
        "texldp" => (TEX, 1),
        "texldb" => (TEX, 2),
        "texcoord" | "texcrd" => (TEXCOORD, 0),
        "if" => (IF, 0),
        "break" => (BREAK, 0),
        _ => {
            if let Some((base, c)) = name.split_once('_') {
                let code = match base {
                    "if" => IFC,
                    "break" => BREAKC,
                    "setp" => opcodes::SETP,
                    _ => return None,
                };
                (code, cmp(c)?)
            } else {
                return opcodes::OPCODES
                    .iter()
                    .find(|o| o.name == name && o.code != IFC && o.code != BREAKC)
                    .map(|o| (o, 0));
            }
        }
    };
    let _ = version;
    by_code(code).map(|o| (o, controls))
}

fn assemble_line(line: &Line, version: Version, out: &mut Vec<u32>) -> Result<(), D3d9Error> {
    let mut text = line.text;
    let mut flags = 0u32;
    if let Some(rest) = text.strip_prefix('+') {
        flags |= 1 << 30;
        text = rest.trim_start();
    }
    let mut predicate = None;
    if let Some(rest) = text.strip_prefix('(') {
        let end = rest
            .find(')')
            .ok_or_else(|| line.err("unclosed predicate"))?;
        predicate = Some(rest[..end].trim());
        text = rest[end + 1..].trim_start();
        flags |= 1 << 28;
    }
    let (name, operands) = match text.find(char::is_whitespace) {
        Some(p) => (&text[..p], text[p..].trim()),
        None => (text, ""),
    };
    let operands: Vec<&str> = if operands.is_empty() {
        Vec::new()
    } else {
        operands.split(',').map(str::trim).collect()
    };
    let mut parts: Vec<&str> = name.split('_').collect();
    let mut dcl_token = None;
    let (info, controls) = if parts[0] == "dcl" {
        let token = match parts.get(1).copied() {
            Some(p) if p.starts_with("0x") => {
                parse_int(p).ok_or_else(|| line.err("bad dcl token"))?
            }
            Some(p) if SAMPLER_TYPES.iter().any(|(_, n)| *n == p) => {
                let ty = SAMPLER_TYPES
                    .iter()
                    .find(|(_, n)| *n == p)
                    .map_or(0, |(t, _)| *t);
                0x8000_0000 | ty << 27
            }
            Some(p) if USAGES.iter().any(|u| p.starts_with(u)) => {
                let (usage, uname) = USAGES
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| p.starts_with(*u))
                    .max_by_key(|(_, u)| u.len())
                    .map(|(i, u)| (i as u32, *u))
                    .ok_or_else(|| line.err("bad usage"))?;
                let index = if p.len() > uname.len() {
                    p[uname.len()..]
                        .parse()
                        .map_err(|_| line.err("bad usage index"))?
                } else {
                    0
                };
                0x8000_0000 | usage | index << 16
            }
            _ => 0x8000_0000,
        };
        let named = parts.get(1).is_some_and(|p| {
            p.starts_with("0x")
                || SAMPLER_TYPES.iter().any(|(_, n)| n == p)
                || USAGES.iter().any(|u| p.starts_with(u))
        });
        if named {
            parts.remove(1);
        }
        dcl_token = Some(token);
        (opcodes::info(DCL).ok_or_else(|| line.err("no dcl"))?, 0)
    } else {
        let two = parts.len() > 1 && COMPARISONS.iter().any(|(_, n)| *n == parts[1]);
        let key = if two {
            format!("{}_{}", parts[0], parts[1])
        } else {
            parts[0].to_string()
        };
        if two {
            parts.remove(1);
        }
        find_op(&key, version).ok_or_else(|| line.err(format!("unknown instruction {key}")))?
    };
    let mut dmods = 0u32;
    for m in &parts[1..] {
        dmods |= match *m {
            "sat" => 1 << 20,
            "pp" => 2 << 20,
            "centroid" => 4 << 20,
            s if s.starts_with('x') || s.starts_with('d') => {
                let v: u32 = s[1..]
                    .parse()
                    .map_err(|_| line.err(format!("bad modifier _{s}")))?;
                let n = v.trailing_zeros() as i32;
                let shift = if s.starts_with('x') { n } else { -n };
                ((shift as u32) & 0xF) << 24
            }
            s => return Err(line.err(format!("bad modifier _{s}"))),
        };
    }
    let mut body = Vec::new();
    if let Some(t) = dcl_token {
        body.push(t);
    }
    let mut ops = operands.iter();
    if info.dst {
        let d = ops.next().ok_or_else(|| line.err("missing destination"))?;
        assemble_dst(line, d, version, dmods, &mut body)?;
    }
    if let Some(p) = predicate {
        if !predication::may_be_predicated(info.code, version) {
            return Err(line.err(format!("{} cannot be predicated", info.name)));
        }
        assemble_src(line, p, version, &mut body)?;
    }
    match info.extra {
        Extra::Literal(n) => {
            for _ in 0..n {
                let w = ops.next().ok_or_else(|| line.err("missing literal"))?;
                body.push(literal(line, w, info.code)?);
            }
        }
        Extra::Dcl | Extra::None => {}
    }
    for s in ops {
        assemble_src(line, s, version, &mut body)?;
    }
    let mut token = u32::from(info.code) | u32::from(controls) << 16 | flags;
    if version.major >= 2 {
        token |= (body.len() as u32 & 0xF) << 24;
    }
    out.push(token);
    out.extend(body);
    Ok(())
}

fn literal(line: &Line, w: &str, code: u16) -> Result<u32, D3d9Error> {
    let bad = || line.err(format!("bad literal {w}"));
    match code {
        DEF if !w.starts_with("0x") => w.parse::<f32>().map(f32::to_bits).map_err(|_| bad()),
        DEFB if w == "true" => Ok(1),
        DEFB if w == "false" => Ok(0),
        DEF | DEFI | DEFB => parse_int(w).ok_or_else(bad),
        _ => Err(bad()),
    }
}
