//! vkd3d `d3d-asm` style text, one instruction per line.

use std::fmt::Write;

use super::body;
use super::{dimension_name, is_scalar_register, modified, register_name, return_suffix};
use crate::dxbc::Rdef;
use crate::sm4::decode::{Instruction, Operand, Sel, Shader};
use crate::sm4::encoding::{CustomDataClass, IndexRepresentation, MinPrecision};
use crate::sm4::fields::{
    self, CONSTANT_BUFFER_DYNAMIC, CUSTOM_DATA_CLASS, DECLARATION_VALUE, INTERPOLATION_MODE,
    PRECISE_MASK, RESOURCE_DIMENSION, SAMPLER_MODE, SAMPLE_COUNT, SYNC_FLAGS,
    UAV_GLOBALLY_COHERENT, UAV_ORDER_PRESERVING,
};
use crate::sm4::names::{
    self, InterpolationMode, ResourceDimension, ReturnType, SamplerMode, SystemValue,
};
use crate::sm4::opcodes::{Opcode as O, Ty};
use crate::sm4::registers::OperandType as T;
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
    let prefix = match op.register()? {
        t @ (T::Sampler | T::Resource | T::ConstantBuffer | T::UnorderedAccessView) => t.name(),
        _ => return None,
    };
    rdef.name_of(prefix, op.index(0)? as u32)
        .map(str::to_string)
}

/// The mnemonic with every suffix the opcode and extended tokens carry.
pub fn mnemonic(ins: &Instruction) -> String {
    let mut m = ins.info.name.to_string();
    if ins.info.test {
        m.push_str(if ins.test_nz() { "_nz" } else { "_z" });
    }
    if ins.opcode().has_return_type_suffix() {
        m.push_str(&return_suffix(ins));
    } else if ins.opcode() == O::Sync {
        SYNC_FLAGS
            .iter()
            .filter(|(b, _)| ins.token & b != 0)
            .for_each(|(_, n)| m.push_str(n));
    }
    if ins.saturate() {
        m.push_str("_sat");
    }
    let precise = ins.field(PRECISE_MASK);
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
        let name = dimension_name(dim);
        if dim == ResourceDimension::StructuredBuffer.code() {
            let _ = write!(m, "_indexable({name}, stride={stride})");
        } else {
            let _ = write!(m, "_indexable({name})");
        }
    }
    if let Some(ret) = ins
        .return_type()
        .filter(|r| *r != [ReturnType::Float.code(); 4] || ins.resource_dim().is_none())
    {
        let _ = write!(m, "({})", return_types(ret));
    }
    m
}

fn return_types(ret: [u32; 4]) -> String {
    ret.map(|r| ReturnType::from_code(r).map_or("unknown", ReturnType::name))
        .join(",")
}

/// The text of one instruction or declaration (without indentation).
pub fn instruction(ins: &Instruction) -> String {
    let ops =
        |from: usize| -> Vec<String> { ins.operands.iter().skip(from).map(decl_operand).collect() };
    let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
    match ins.opcode() {
        O::DclImmediateConstantBuffer => custom_data(ins),
        O::DclGlobalFlags => format!("dcl_globalFlags {}", super::global_flags(ins)),
        O::DclResource | O::DclUavTyped => {
            let dim = ins.field(RESOURCE_DIMENSION);
            let ret = [0, 1, 2, 3].map(|i| fields::return_type(i).get(word(0)));
            let mut name = format!("{}_{}", ins.info.name, dimension_name(dim));
            if ResourceDimension::from_code(dim).is_some_and(ResourceDimension::is_multisampled) {
                let _ = write!(name, "({})", ins.field(SAMPLE_COUNT));
            }
            if ins.opcode() == O::DclUavTyped && UAV_GLOBALLY_COHERENT.is_set(ins.token) {
                name.push_str("_glc");
            }
            format!("{name} ({}) {}", return_types(ret), ops(0).join(", "))
        }
        O::DclConstantBuffer => format!(
            "dcl_constantBuffer {}, {}",
            ops(0).join(", "),
            if CONSTANT_BUFFER_DYNAMIC.is_set(ins.token) {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            }
        ),
        O::DclSampler => format!(
            "dcl_sampler {}, {}",
            ops(0).join(", "),
            SamplerMode::from_code(ins.field(SAMPLER_MODE))
                .map_or("mode_unknown", SamplerMode::name)
        ),
        op if op.names_system_value() => {
            let interp = if op.is_pixel_input_decl() {
                interpolation(ins)
            } else {
                String::new()
            };
            let sv = SystemValue::from_code(word(0))
                .map_or_else(|| word(0).to_string(), |v| v.name().to_string());
            format!("{} {interp}{}, {sv}", ins.info.name, ops(0).join(", "))
        }
        O::DclInputPs => format!("dcl_input_ps {}{}", interpolation(ins), ops(0).join(", ")),
        O::DclIndexableTemp => format!("dcl_indexableTemp x{}[{}], {}", word(0), word(1), word(2)),
        O::DclUavRaw | O::DclUavStructured | O::DclResourceRaw | O::DclResourceStructured
            if ins.controls() != 0 =>
        {
            let mut name = ins.info.name.to_string();
            let dim = ins.field(RESOURCE_DIMENSION);
            if let Some(dim) = ResourceDimension::from_code(dim) {
                name = format!("{name}_{}", dim.name());
            }
            if UAV_GLOBALLY_COHERENT.is_set(ins.token) {
                name.push_str("_glc");
            }
            if UAV_ORDER_PRESERVING.is_set(ins.token) {
                name.push_str("_opc");
            }
            plain(ins, &ops(0)).replacen(ins.info.name, &name, 1)
        }
        op if names::is_decl_count(op) => {
            format!("{} {}", ins.info.name, ins.field(DECLARATION_VALUE))
        }
        op if keyword(ins, op).is_some() => {
            format!("{} {}", ins.info.name, keyword(ins, op).unwrap_or_default())
        }
        // vkd3d prints `fb0`, `ft0 = {...}` and `fp0[1][2] = {...}`; the
        // lists are spelt out here (as fxc does) so that the text assembles.
        O::DclFunctionBody | O::DclFunctionTable | O::DclInterface => {
            super::fxc_decl::declaration(ins)
        }
        _ if ins.info.decl => plain(ins, &ops(0)),
        _ => {
            let operands: Vec<String> = ins
                .operands
                .iter()
                .enumerate()
                .map(|(i, o)| source(o, ins.info.operand_ty(i), ins.info.scalar(i)))
                .collect();
            let mut parts = operands;
            let mut line = mnemonic(ins);
            if ins.opcode() == O::Fcall {
                if let Some(call) = parts.first_mut() {
                    let _ = write!(call, "[{}]", word(0));
                }
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

fn interpolation(ins: &Instruction) -> String {
    InterpolationMode::from_code(ins.field(INTERPOLATION_MODE))
        .map_or_else(String::new, |n| format!("{} ", n.name()))
}

/// The keyword of a declaration whose control field is a keyword.
fn keyword(ins: &Instruction, op: O) -> Option<&'static str> {
    names::decl_keywords(op).and_then(|k| names::name(k, ins.field(DECLARATION_VALUE)))
}

fn custom_data(ins: &Instruction) -> String {
    let class = ins.field(CUSTOM_DATA_CLASS);
    if class == CustomDataClass::ImmediateConstantBuffer.code() && ins.words.len().is_multiple_of(4)
    {
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
    match op.register() {
        Some(T::Immediate32) => {
            let words: Vec<String> = op.imm.iter().map(|&w| literal(w, ty)).collect();
            let _ = write!(s, "l({})", words.join(", "));
        }
        Some(T::Immediate64) => {
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
            s.push_str(register_name(op));
            for (i, ix) in op.indices.iter().enumerate() {
                let direct = i == 0
                    && ix.repr == IndexRepresentation::Immediate32.code()
                    && t != Some(T::ImmediateConstantBuffer);
                if direct {
                    let _ = write!(s, "{}", ix.value);
                } else {
                    s.push('[');
                    if let Some(rel) = &ix.rel {
                        if ix.repr != IndexRepresentation::Relative.code() && ix.value == 0 {
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
                Sel::One if !is_scalar_register(op) => ".(1)".to_string(),
                sel => components(sel),
            });
        }
    }
    let mut s = modified(op, s);
    if let Some(p) = MinPrecision::from_code(op.min_precision()) {
        let _ = write!(s, " {{{}}}", p.name());
    }
    if op.non_uniform() {
        s.push_str(" {nonuniform}");
    }
    s
}
