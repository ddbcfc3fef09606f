//! The disassembler: D3DX assembler syntax.

use std::fmt::Write;

use super::opcodes::{self, Extra, DEF, DEFB, DEFI};
use super::syntax::{mask_text, register_name, swizzle_text};
use super::types::*;

/// Disassembles a shader into text that [`super::assemble`] turns back into
/// the same tokens. Comment blocks become `.comment` directives (with the
/// constant table shown above them as `//` lines).
pub fn disassemble(shader: &Shader) -> String {
    let v = shader.version;
    let mut out = format!("{}\n", v.name());
    for item in &shader.items {
        match item {
            Item::Comment(c) => {
                if let Some(ctab) = super::ctab::parse(&c.words) {
                    for k in &ctab.constants {
                        let _ = writeln!(
                            out,
                            "// {} {}{} {}",
                            k.name,
                            k.set.prefix(),
                            k.index,
                            k.count
                        );
                    }
                }
                let words: Vec<String> = c.words.iter().map(|w| format!("{w:#010x}")).collect();
                let _ = writeln!(out, ".comment {}", words.join(" "));
            }
            Item::Inst(inst) => {
                let _ = writeln!(out, "{}", instruction_text(inst, v));
            }
        }
    }
    out
}

fn relative_text(rel: &Relative, version: Version) -> String {
    match rel {
        Relative::None => String::new(),
        Relative::ImplicitA0 => "[a0.x]".into(),
        Relative::Token(p) => format!(
            "[{}{}]",
            register_name(p.reg, version),
            swizzle_text(p.swizzle)
        ),
    }
}

fn dst_text(d: &DstParam, version: Version) -> String {
    format!(
        "{}{}{}",
        register_name(d.reg, version),
        relative_text(&d.rel, version),
        mask_text(d.mask)
    )
}

/// The text of a source parameter.
fn src_text(s: &SrcParam, version: Version) -> String {
    let (prefix, suffix) = match s.modifier {
        SrcMod::None => ("", ""),
        SrcMod::Neg => ("-", ""),
        SrcMod::Bias => ("", "_bias"),
        SrcMod::BiasNeg => ("-", "_bias"),
        SrcMod::Sign => ("", "_bx2"),
        SrcMod::SignNeg => ("-", "_bx2"),
        SrcMod::Comp => ("1-", ""),
        SrcMod::X2 => ("", "_x2"),
        SrcMod::X2Neg => ("-", "_x2"),
        SrcMod::Dz => ("", "_dz"),
        SrcMod::Dw => ("", "_dw"),
        SrcMod::Abs => ("", "_abs"),
        SrcMod::AbsNeg => ("-", "_abs"),
        SrcMod::Not => ("!", ""),
    };
    let name = register_name(s.reg, version);
    format!(
        "{prefix}{name}{}{suffix}{}",
        relative_text(&s.rel, version),
        swizzle_text(s.swizzle)
    )
}

fn float_text(w: u32) -> String {
    let f = f32::from_bits(w);
    let text = format!("{f}");
    if f.is_finite() && text.parse::<f32>().map(f32::to_bits) == Ok(w) {
        text
    } else {
        format!("{w:#010x}")
    }
}

fn dcl_text(token: u32, d: &DstParam, version: Version) -> String {
    if d.reg.ty == RegType::Sampler {
        let ty = (token >> 27) & 0xF;
        return match SAMPLER_TYPES.iter().find(|(n, _)| *n == ty) {
            Some((_, name)) if token == 0x8000_0000 | ty << 27 => format!("dcl_{name}"),
            _ => format!("dcl_{token:#010x}"),
        };
    }
    let usage = token & 0x1F;
    let index = (token >> 16) & 0xF;
    if token != 0x8000_0000 | usage | index << 16 {
        return format!("dcl_{token:#010x}");
    }
    let plain = (version.is_ps() && version.major < 3) || d.reg.ty == RegType::Misc;
    if token == 0x8000_0000 && plain {
        return "dcl".into();
    }
    let name = USAGES.get(usage as usize).copied().unwrap_or("position");
    if index == 0 {
        format!("dcl_{name}")
    } else {
        format!("dcl_{name}{index}")
    }
}

/// The `_x2_sat_pp`-style suffix of a destination.
fn dst_suffix(d: &DstParam) -> String {
    let mut s = String::new();
    if d.shift > 0 {
        let _ = write!(s, "_x{}", 1u32 << d.shift);
    } else if d.shift < 0 {
        let _ = write!(s, "_d{}", 1u32 << -i32::from(d.shift));
    }
    for (bit, name) in [
        (MOD_SAT, "_sat"),
        (MOD_PP, "_pp"),
        (MOD_CENTROID, "_centroid"),
    ] {
        if d.modifiers & bit != 0 {
            s.push_str(name);
        }
    }
    s
}

/// One instruction as a line of text.
pub fn instruction_text(inst: &Instruction, v: Version) -> String {
    let mut line = String::new();
    if inst.coissue {
        line.push('+');
    }
    if let Some(p) = &inst.predicate {
        let _ = write!(line, "({}) ", src_text(p, v));
    }
    let Some(info) = opcodes::info(inst.opcode) else {
        return format!("// unknown opcode {:#x}", inst.opcode);
    };
    let mut name = if let (Payload::Dcl(token), Some(d)) = (&inst.payload, &inst.dst) {
        dcl_text(*token, d, v)
    } else {
        opcodes::mnemonic(info, inst.controls, v)
    };
    let mut operands: Vec<String> = Vec::new();
    if let Some(d) = &inst.dst {
        name.push_str(&dst_suffix(d));
        operands.push(dst_text(d, v));
    }
    if let (Payload::Literal(words), Extra::Literal(_)) = (&inst.payload, info.extra) {
        for &w in words {
            operands.push(match inst.opcode {
                DEF => float_text(w),
                DEFI => (w as i32).to_string(),
                DEFB if w <= 1 => (if w == 1 { "true" } else { "false" }).to_string(),
                _ => format!("{w:#x}"),
            });
        }
    }
    operands.extend(inst.src.iter().map(|s| src_text(s, v)));
    line.push_str(&name);
    if !operands.is_empty() {
        line.push(' ');
        line.push_str(&operands.join(", "));
    }
    line
}
