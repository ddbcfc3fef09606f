//! Declarations as fxc prints them: `dcl_constantbuffer cb0[4], immediateIndexed`,
//! `dcl_indexrange o0.x 2`, `dcl_hs_max_tessfactor l(64.000000)`,
//! `dcl_function_table ft0 = {fb0}`, the immediate constant buffer's rows...

use std::fmt::Write;

use super::dimension_name;
use super::fxc::{name, operand, return_types};
use super::fxc_number::{float, literal};
use crate::sm4::decode::{Instruction, Operand, Sel};
use crate::sm4::encoding::CustomDataClass;
use crate::sm4::fields::{
    self, CONSTANT_BUFFER_DYNAMIC, CUSTOM_DATA_CLASS, DECLARATION_VALUE, INTERFACE_ARRAY_SIZE,
    INTERFACE_DYNAMIC, INTERFACE_TABLE_COUNT, INTERPOLATION_MODE, RESOURCE_DIMENSION, SAMPLER_MODE,
    SAMPLE_COUNT, UAV_GLOBALLY_COHERENT, UAV_ORDER_PRESERVING,
};
use crate::sm4::names::{
    self, InterpolationMode, ResourceDimension, SamplerMode, SystemValue, FXC_SYSVALS,
};
use crate::sm4::opcodes::{Opcode as O, Ty};

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
    let op = ins.opcode();
    let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
    let ops = ins
        .operands
        .iter()
        .map(decl_operand)
        .collect::<Vec<_>>()
        .join(", ");
    let name = name(ins);
    match op {
        O::DclImmediateConstantBuffer => custom_data(ins),
        O::DclGlobalFlags => format!("{name} {}", super::global_flags(ins)),
        O::DclResource | O::DclUavTyped => {
            let ret = [0, 1, 2, 3].map(|i| fields::return_type(i).get(word(0)));
            format!("{} ({}) {ops}", with_flags(ins, name), return_types(ret))
        }
        O::DclConstantBuffer => {
            let access = if CONSTANT_BUFFER_DYNAMIC.is_set(ins.token) {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            format!("{name} {ops}, {access}")
        }
        O::DclSampler => {
            let mode = SamplerMode::from_code(ins.field(SAMPLER_MODE))
                .map_or("mode_unknown", SamplerMode::name);
            format!("{name} {ops}, {mode}")
        }
        O::DclIndexRange => format!("{name} {ops} {}", word(0)),
        op if names::decl_keywords(op).is_some() => {
            let c = ins.field(DECLARATION_VALUE);
            let keyword = names::decl_keywords(op).and_then(|k| names::name(k, c));
            keyword.map_or_else(|| format!("{name} {c}"), |k| format!("{name} {k}"))
        }
        op if names::is_decl_count(op) => format!("{name} {}", ins.field(DECLARATION_VALUE)),
        O::DclHsMaxTessfactor => format!("{name} l({})", float(word(0))),
        O::DclThreadGroup => format!("{name} {}, {}, {}", word(0), word(1), word(2)),
        op if op.is_io_decl() => input_output(ins, name, &ops),
        O::DclIndexableTemp => format!("{name} x{}[{}], {}", word(0), word(1), word(2)),
        O::DclFunctionBody => format!("{name} fb{}", word(0)),
        O::DclFunctionTable if ins.words.len() == word(1) as usize + 2 => {
            let bodies: Vec<String> = ins.words[2..].iter().map(|b| format!("fb{b}")).collect();
            format!("{name} ft{} = {{{}}}", word(0), bodies.join(", "))
        }
        O::DclInterface if ins.words.len() == INTERFACE_TABLE_COUNT.get(word(2)) as usize + 3 => {
            let tables: Vec<String> = ins.words[3..].iter().map(|t| format!("ft{t}")).collect();
            let dynamic = if INTERFACE_DYNAMIC.is_set(ins.token) {
                "_dynamicindexed"
            } else {
                ""
            };
            format!(
                "{name}{dynamic} fp{}[{}][{}] = {{{}}}",
                word(0),
                INTERFACE_ARRAY_SIZE.get(word(2)),
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
    let op = ins.opcode();
    if !op.is_resource_decl() {
        return name.to_string();
    }
    let dim = ins.field(RESOURCE_DIMENSION);
    let mut m = name.to_string();
    if dim != 0 || op.is_typed_resource_decl() {
        let _ = write!(m, "_{}", dimension_name(dim));
    }
    if op == O::DclResource
        && ResourceDimension::from_code(dim).is_some_and(ResourceDimension::is_multisampled)
    {
        let _ = write!(m, "({})", ins.field(SAMPLE_COUNT));
    }
    if op.is_uav_decl() {
        if UAV_GLOBALLY_COHERENT.is_set(ins.token) {
            m.push_str("_glc");
        }
        if UAV_ORDER_PRESERVING.is_set(ins.token) {
            m.push_str("_opc");
        }
    }
    m
}

/// `dcl_input*` and `dcl_output*`.
fn input_output(ins: &Instruction, name: &str, ops: &str) -> String {
    let op = ins.opcode();
    let mut line = name.to_string();
    let mode = InterpolationMode::from_code(ins.field(INTERPOLATION_MODE));
    let implied = op == O::DclInputPsSgv && mode == Some(InterpolationMode::Constant);
    if let Some(mode) = mode.filter(|_| op.is_pixel_input_decl() && !implied) {
        let _ = write!(line, " {}", mode.name());
    }
    let _ = write!(line, " {ops}");
    if op.names_system_value() {
        let sv = ins.words.first().copied().unwrap_or(0);
        let text = SystemValue::from_code(sv)
            .map(|v| {
                FXC_SYSVALS
                    .iter()
                    .find(|(f, _)| *f == v)
                    .map_or(v.name(), |(_, n)| *n)
            })
            .map_or_else(|| sv.to_string(), str::to_string);
        let _ = write!(line, ", {text}");
    }
    line
}

/// The immediate constant buffer as rows of four, or other custom data as
/// vkd3d writes it.
fn custom_data(ins: &Instruction) -> String {
    let class = ins.field(CUSTOM_DATA_CLASS);
    if class == CustomDataClass::ImmediateConstantBuffer.code() && ins.words.len().is_multiple_of(4)
    {
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
