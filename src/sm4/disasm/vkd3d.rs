//! vkd3d `d3d-asm` style text, one instruction per line.

use std::fmt::Write;

use super::body;
use crate::dxbc::Rdef;
use crate::sm4::asm::scalar_operand;
use crate::sm4::decode::{Instruction, Operand, Sel, Shader};
use crate::sm4::names::{
    self, DIMS, GLOBAL_FLAGS, INTERPOLATIONS, MIN_PRECISIONS, REGISTERS, RETURN_TYPES,
    SAMPLER_MODES, SCALAR_REGISTERS, SYNC_FLAGS, SYSVALS,
};
use crate::sm4::opcodes::Ty;
use crate::sm4::Syntax;

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The vkd3d-style text of a decoded program whose tokens are `tokens`.
pub fn text(shader: &Shader, tokens: &[u32], rdef: Option<&Rdef>) -> String {
    let mut out = format!(
        "{}_{}_{}\n",
        shader.program_type.prefix(),
        shader.major,
        shader.minor
    );
    out.push_str(&body(shader, tokens, Syntax::Vkd3d, instruction, |ins| {
        resource_comment(ins, rdef)
    }));
    out
}

fn resource_comment(ins: &Instruction, rdef: Option<&Rdef>) -> Option<String> {
    let rdef = rdef?;
    if !ins.info.decl {
        return None;
    }
    let op = ins.operands.first()?;
    let prefix = match op.ty {
        6 => "s",
        7 => "t",
        8 => "cb",
        30 => "u",
        _ => return None,
    };
    rdef.name_of(prefix, op.index(0)? as u32)
        .map(str::to_string)
}

/// The mnemonic with every suffix the opcode and extended tokens carry.
pub fn mnemonic(ins: &Instruction) -> String {
    let mut m = ins.info.name.to_string();
    let c = ins.controls();
    if ins.info.test {
        m.push_str(if ins.test_nz() { "_nz" } else { "_z" });
    }
    match ins.info.code {
        61 | 111 => m.push_str(["", "_rcpFloat", "_uint", "_3"][(c & 3) as usize]),
        190 => SYNC_FLAGS
            .iter()
            .filter(|(b, _)| c & b != 0)
            .for_each(|(_, n)| m.push_str(n)),
        _ => {}
    }
    if ins.saturate() {
        m.push_str("_sat");
    }
    let precise = (c >> 8) & 0xf;
    if precise != 0 && !ins.info.decl {
        let mask: String = (0..4)
            .filter(|i| precise & (1 << i) != 0)
            .map(|i| COMPONENTS[i])
            .collect();
        let _ = write!(m, "_precise({mask})");
    }
    if let Some([u, v, w]) = ins.offsets() {
        let _ = write!(m, "_aoffimmi({u},{v},{w})");
    }
    if let Some((dim, stride)) = ins.resource_dim() {
        let name = names::name(DIMS, dim).unwrap_or("unknown");
        if dim == 12 {
            let _ = write!(m, "_indexable({name}, stride={stride})");
        } else {
            let _ = write!(m, "_indexable({name})");
        }
    }
    if let Some(ret) = ins
        .return_type()
        .filter(|r| *r != [5; 4] || ins.resource_dim().is_none())
    {
        let _ = write!(m, "({})", return_types(ret));
    }
    m
}

fn return_types(ret: [u32; 4]) -> String {
    ret.map(|r| names::name(RETURN_TYPES, r).unwrap_or("unknown"))
        .join(",")
}

/// The text of one instruction or declaration (without indentation).
pub fn instruction(ins: &Instruction) -> String {
    let c = ins.controls();
    let ops =
        |from: usize| -> Vec<String> { ins.operands.iter().skip(from).map(decl_operand).collect() };
    let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
    match ins.info.code {
        53 => custom_data(ins),
        106 => {
            let flags: Vec<&str> = GLOBAL_FLAGS
                .iter()
                .filter(|(b, _)| c & b != 0)
                .map(|(_, n)| *n)
                .collect();
            format!("dcl_globalFlags {}", flags.join(" | "))
        }
        88 | 156 => {
            let dim = c & 0x1f;
            let ret = [0, 1, 2, 3].map(|i| (word(0) >> (4 * i)) & 0xf);
            let mut name = format!(
                "{}_{}",
                ins.info.name,
                names::name(DIMS, dim).unwrap_or("unknown")
            );
            if dim == 4 || dim == 9 {
                let _ = write!(name, "({})", (c >> 5) & 0x7f);
            }
            if ins.info.code == 156 && c & 0x20 != 0 {
                name.push_str("_glc");
            }
            format!("{name} ({}) {}", return_types(ret), ops(0).join(", "))
        }
        89 => format!(
            "dcl_constantBuffer {}, {}",
            ops(0).join(", "),
            if c & 1 != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            }
        ),
        90 => format!(
            "dcl_sampler {}, {}",
            ops(0).join(", "),
            names::name(SAMPLER_MODES, c & 0xf).unwrap_or("mode_unknown")
        ),
        96 | 97 | 99 | 100 | 102 | 103 => {
            let interp = if matches!(ins.info.code, 99 | 100) {
                interpolation(c)
            } else {
                String::new()
            };
            let sv =
                names::name(SYSVALS, word(0)).map_or_else(|| word(0).to_string(), str::to_string);
            format!("{} {interp}{}, {sv}", ins.info.name, ops(0).join(", "))
        }
        98 => format!("dcl_input_ps {}{}", interpolation(c), ops(0).join(", ")),
        105 => format!("dcl_indexableTemp x{}[{}], {}", word(0), word(1), word(2)),
        157 | 158 | 161 | 162 if c != 0 => {
            let mut name = ins.info.name.to_string();
            if let Some(dim) = names::name(DIMS, c & 0x1f).filter(|_| c & 0x1f != 0) {
                name = format!("{name}_{dim}");
            }
            if c & 0x20 != 0 {
                name.push_str("_glc");
            }
            plain(ins, &ops(0)).replacen(ins.info.name, &name, 1)
        }
        code if names::DECL_COUNTS.contains(&code) => format!("{} {c}", ins.info.name),
        code if names::decl_keywords(code)
            .and_then(|k| names::name(k, c))
            .is_some() =>
        {
            format!(
                "{} {}",
                ins.info.name,
                names::decl_keywords(code)
                    .and_then(|k| names::name(k, c))
                    .unwrap_or_default()
            )
        }
        146 if c & 1 != 0 => {
            plain(ins, &ops(0)).replacen(ins.info.name, "dcl_interface_dynamicindexed", 1)
        }
        _ if ins.info.decl => plain(ins, &ops(0)),
        _ => {
            let ty = ins.info.ty;
            let operands: Vec<String> = ins
                .operands
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    source(
                        o,
                        operand_type(ins.info.code, i, ty),
                        scalar_operand(ins.info.code, i),
                    )
                })
                .collect();
            let mut parts = operands;
            let mut line = mnemonic(ins);
            if ins.info.code == 120 {
                parts.insert(0, word(0).to_string());
            }
            if !parts.is_empty() {
                line.push(' ');
                line.push_str(&parts.join(", "));
            }
            line
        }
    }
}

/// A declaration's operand: a constant buffer's identity swizzle is implied.
fn decl_operand(op: &Operand) -> String {
    let mut op = op.clone();
    if matches!(op.sel, Sel::Swizzle(_)) {
        op.sel = Sel::None;
    }
    operand(&op, Ty::U)
}

fn plain(ins: &Instruction, ops: &[String]) -> String {
    let mut parts = ops.to_vec();
    parts.extend(ins.words.iter().map(|w| w.to_string()));
    if parts.is_empty() {
        ins.info.name.to_string()
    } else {
        format!("{} {}", ins.info.name, parts.join(", "))
    }
}

fn interpolation(c: u32) -> String {
    names::name(INTERPOLATIONS, c & 0xf).map_or_else(String::new, |n| format!("{n} "))
}

/// The literal type of operand `i` of an instruction whose table type is `ty`.
pub(super) fn operand_type(code: u16, i: usize, ty: Ty) -> Ty {
    match (code, i) {
        (27 | 28 | 130 | 202, _) => Ty::F,
        (43 | 216, _) => Ty::I,
        (86 | 131 | 217, _) => Ty::U,
        (163..=168 | 45 | 61, 1) | (167 | 168, 2) => Ty::U,
        (55 | 200, 1) => Ty::U,
        _ => ty,
    }
}

fn custom_data(ins: &Instruction) -> String {
    let class = ins.token >> 11;
    if class == 3 && ins.words.len().is_multiple_of(4) {
        let rows: Vec<String> = ins
            .words
            .chunks_exact(4)
            .map(|r| {
                format!(
                    "    {{0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x}}},",
                    r[0], r[1], r[2], r[3]
                )
            })
            .collect();
        format!("dcl_immediateConstantBuffer {{\n{}\n}}", rows.join("\n"))
    } else {
        let words: Vec<String> = ins.words.iter().map(|w| format!("0x{w:08x}")).collect();
        format!("dcl_customdata({class}) {{{}}}", words.join(", "))
    }
}

fn components(sel: Sel) -> String {
    match sel {
        Sel::Mask(m) => {
            let s: String = (0..4)
                .filter(|i| m & (1 << i) != 0)
                .map(|i| COMPONENTS[i])
                .collect();
            if s.is_empty() {
                s
            } else {
                format!(".{s}")
            }
        }
        Sel::Swizzle([a, b, c, d]) if a == b && b == c && c == d => {
            format!(".{}", COMPONENTS[a as usize])
        }
        Sel::Swizzle(s) => format!(
            ".{}",
            s.iter()
                .map(|&c| COMPONENTS[c as usize])
                .collect::<String>()
        ),
        Sel::Select(c) => format!(".{}", COMPONENTS[c as usize]),
        Sel::None | Sel::One => String::new(),
    }
}

/// Formats a float like C's `%.8e`.
fn float(bits: u32) -> String {
    let f = f32::from_bits(bits);
    if !f.is_finite() {
        return format!("0x{bits:08x}");
    }
    let s = format!("{f:.8e}");
    match s.split_once('e') {
        Some((mant, exp)) => {
            let e: i32 = exp.parse().unwrap_or(0);
            format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
        }
        None => s,
    }
}

/// Formats one literal word for an instruction of type `ty`.
pub fn literal(word: u32, ty: Ty) -> String {
    match ty {
        Ty::F => float(word),
        Ty::I => (word as i32).to_string(),
        Ty::U | Ty::D => word.to_string(),
        Ty::X => {
            let exponent = (word >> 23) & 0xff;
            if exponent != 0 && exponent != 0xff {
                float(word)
            } else if word < 10000 {
                word.to_string()
            } else {
                format!("0x{word:08x}")
            }
        }
    }
}

/// The text of one operand; literals are typed by `ty`.
pub fn operand(op: &Operand, ty: Ty) -> String {
    source(op, ty, false)
}

/// The text of an operand in a position that reads one component (`scalar`)
/// or not. A one-letter suffix means select-1 in scalar positions and a
/// replicated swizzle elsewhere; the other encoding is spelled out
/// (`.xxxx`, or `.(x)` for select-1).
fn source(op: &Operand, ty: Ty, scalar: bool) -> String {
    let mut s = String::new();
    match op.ty {
        4 => {
            let words: Vec<String> = op.imm.iter().map(|&w| literal(w, ty)).collect();
            let _ = write!(s, "l({})", words.join(", "));
        }
        5 => {
            let words: Vec<String> = op
                .imm
                .chunks(2)
                .map(|p| {
                    let bits = u64::from(p[0]) | (u64::from(p.get(1).copied().unwrap_or(0)) << 32);
                    let d = f64::from_bits(bits);
                    if d.is_finite() {
                        format!("{d:?}")
                    } else {
                        format!("0x{bits:016x}")
                    }
                })
                .collect();
            let _ = write!(s, "d({})", words.join(", "));
        }
        t => {
            s.push_str(names::name(REGISTERS, t).unwrap_or("unknown"));
            for (i, ix) in op.indices.iter().enumerate() {
                let direct = i == 0 && ix.repr == 0 && t != 9;
                if direct {
                    let _ = write!(s, "{}", ix.value);
                } else {
                    s.push('[');
                    if let Some(rel) = &ix.rel {
                        if ix.repr != 2 && ix.value == 0 {
                            let _ = write!(s, "0 + {}", source(rel, Ty::U, true));
                        } else {
                            let _ = write!(s, "{} + {}", source(rel, Ty::U, true), ix.value);
                        }
                    } else {
                        let _ = write!(s, "{}", ix.value);
                    }
                    s.push(']');
                }
            }
            s.push_str(&match op.sel {
                Sel::Select(c) if !scalar => format!(".({})", COMPONENTS[c as usize]),
                Sel::Swizzle(w) if scalar && w.iter().all(|&c| c == w[0]) => {
                    format!(
                        ".{}",
                        w.iter()
                            .map(|&c| COMPONENTS[c as usize])
                            .collect::<String>()
                    )
                }
                Sel::One if !SCALAR_REGISTERS.contains(&t) => ".(1)".to_string(),
                sel => components(sel),
            });
        }
    }
    let mut s = match op.modifier() {
        1 => format!("-{s}"),
        2 => format!("|{s}|"),
        3 => format!("-|{s}|"),
        _ => s,
    };
    if let Some(p) =
        names::name(MIN_PRECISIONS, op.min_precision()).filter(|_| op.min_precision() != 0)
    {
        let _ = write!(s, " {{{p}}}");
    }
    if op.ext.iter().any(|e| e & 0x3f == 1 && e & (1 << 17) != 0) {
        s.push_str(" {nonuniform}");
    }
    s
}
