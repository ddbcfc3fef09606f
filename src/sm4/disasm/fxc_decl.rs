//! Declarations as fxc prints them: `dcl_constantbuffer cb0[4], immediateIndexed`,
//! `dcl_indexrange o0.x 2`, `dcl_hs_max_tessfactor l(64.000000)`,
//! `dcl_function_table ft0 = {fb0}`, the immediate constant buffer's rows...

use std::fmt::Write;

use super::fxc::{name, operand, return_types};
use super::fxc_number::{float, literal};
use crate::sm4::decode::{Instruction, Operand, Sel};
use crate::sm4::names::{
    self, DIMS, FXC_SYSVALS, GLOBAL_FLAGS, INTERPOLATIONS, SAMPLER_MODES, SYSVALS,
};
use crate::sm4::opcodes::Ty;

/// A declaration's operand: the identity swizzle of a constant buffer is
/// implied.
fn decl_operand(op: &Operand) -> String {
    let mut op = op.clone();
    if matches!(op.sel, Sel::Swizzle(_)) {
        op.sel = Sel::None;
    }
    operand(&op, Ty::U)
}

/// The fxc text of a declaration (or of custom data).
pub fn declaration(ins: &Instruction) -> String {
    let c = ins.controls();
    let code = ins.info.code;
    let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
    let ops = ins
        .operands
        .iter()
        .map(decl_operand)
        .collect::<Vec<_>>()
        .join(", ");
    let name = name(ins);
    match code {
        53 => custom_data(ins),
        106 => {
            let flags: Vec<&str> = GLOBAL_FLAGS
                .iter()
                .filter(|(b, _)| c & b != 0)
                .map(|(_, n)| *n)
                .collect();
            format!("{name} {}", flags.join(" | "))
        }
        88 | 156 => {
            let ret = [0, 1, 2, 3].map(|i| (word(0) >> (4 * i)) & 0xf);
            format!("{} ({}) {ops}", with_flags(ins, name), return_types(ret))
        }
        89 => {
            let access = if c & 1 != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            format!("{name} {ops}, {access}")
        }
        90 => {
            let mode = names::name(SAMPLER_MODES, c & 0xf).unwrap_or("mode_unknown");
            format!("{name} {ops}, {mode}")
        }
        91 => format!("{name} {ops} {}", word(0)),
        92 | 93 | 149..=151 => {
            let keyword = names::decl_keywords(code).and_then(|k| names::name(k, c));
            keyword.map_or_else(|| format!("{name} {c}"), |k| format!("{name} {k}"))
        }
        147 | 148 => format!("{name} {c}"),
        152 => format!("{name} l({})", float(word(0))),
        155 => format!("{name} {}, {}, {}", word(0), word(1), word(2)),
        95..=103 => input_output(ins, name, &ops),
        105 => format!("{name} x{}[{}], {}", word(0), word(1), word(2)),
        144 => format!("{name} fb{}", word(0)),
        145 if ins.words.len() == word(1) as usize + 2 => {
            let bodies: Vec<String> = ins.words[2..].iter().map(|b| format!("fb{b}")).collect();
            format!("{name} ft{} = {{{}}}", word(0), bodies.join(", "))
        }
        146 if ins.words.len() == (word(2) & 0xffff) as usize + 3 => {
            let tables: Vec<String> = ins.words[3..].iter().map(|t| format!("ft{t}")).collect();
            let dynamic = if c & 1 != 0 { "_dynamicindexed" } else { "" };
            format!(
                "{name}{dynamic} fp{}[{}][{}] = {{{}}}",
                word(0),
                word(2) >> 16,
                word(1),
                tables.join(", ")
            )
        }
        _ => {
            let mut parts: Vec<String> = ins.operands.iter().map(decl_operand).collect();
            parts.extend(ins.words.iter().map(|w| w.to_string()));
            let m = with_flags(ins, name);
            if parts.is_empty() {
                m
            } else {
                format!("{m} {}", parts.join(", "))
            }
        }
    }
}

/// A resource or UAV declaration's name with its dimension, sample count
/// and `_glc`/`_opc` flags.
fn with_flags(ins: &Instruction, name: &str) -> String {
    let code = ins.info.code;
    if !matches!(code, 88 | 156..=158 | 161 | 162) {
        return name.to_string();
    }
    let c = ins.controls();
    let dim = c & 0x1f;
    let mut m = name.to_string();
    if dim != 0 || matches!(code, 88 | 156) {
        let _ = write!(m, "_{}", names::name(DIMS, dim).unwrap_or("unknown"));
    }
    if code == 88 && (dim == 4 || dim == 9) {
        let _ = write!(m, "({})", (c >> 5) & 0x7f);
    }
    if matches!(code, 156..=158) {
        if c & 0x20 != 0 {
            m.push_str("_glc");
        }
        if c & 0x1000 != 0 {
            m.push_str("_opc");
        }
    }
    m
}

/// `dcl_input*` and `dcl_output*`.
fn input_output(ins: &Instruction, name: &str, ops: &str) -> String {
    let code = ins.info.code;
    let mut line = name.to_string();
    let mode = ins.controls() & 0xf;
    let implied = code == 99 && mode == 1;
    if let Some(mode) =
        names::name(INTERPOLATIONS, mode).filter(|_| matches!(code, 98..=100) && !implied)
    {
        let _ = write!(line, " {mode}");
    }
    let _ = write!(line, " {ops}");
    if matches!(code, 96 | 97 | 99 | 100 | 102 | 103) {
        let sv = ins.words.first().copied().unwrap_or(0);
        let text = names::name(FXC_SYSVALS, sv)
            .or_else(|| names::name(SYSVALS, sv))
            .map_or_else(|| sv.to_string(), str::to_string);
        let _ = write!(line, ", {text}");
    }
    line
}

/// The immediate constant buffer as rows of four, or other custom data as
/// vkd3d writes it.
fn custom_data(ins: &Instruction) -> String {
    let class = ins.token >> 11;
    if class == 3 && ins.words.len().is_multiple_of(4) {
        let rows: Vec<String> = ins
            .words
            .chunks_exact(4)
            .map(|r| {
                let values: Vec<String> = r.iter().map(|&w| literal(w, Ty::X)).collect();
                format!("{{ {}}}", values.join(", "))
            })
            .collect();
        let gap = format!(",\n{}", " ".repeat(30));
        format!("dcl_immediateConstantBuffer {{ {} }}", rows.join(&gap))
    } else {
        let words: Vec<String> = ins.words.iter().map(|w| format!("0x{w:08x}")).collect();
        format!("dcl_customdata({class}) {{{}}}", words.join(", "))
    }
}
