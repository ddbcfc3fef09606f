//! Simplifications of lane-mask logic as it is built. Shaders test
//! comparison results all the time (`ige` then `not` then `breakc_nz`);
//! spotting that a value already is a mask (every lane all ones or zero)
//! saves the compare against zero and the double negations Cranelift's
//! backend would otherwise emit one by one.

use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::{InstBuilder, InstructionData, Opcode, Value, ValueDef};
use cranelift_frontend::FunctionBuilder;

/// How deep [`is_mask`] looks through bitwise operations.
const MASK_DEPTH: u32 = 4;

/// Whether every lane of `v` is known to be all ones or all zeros.
pub fn is_mask(b: &FunctionBuilder, v: Value) -> bool {
    mask_within(b, v, MASK_DEPTH)
}

fn mask_within(b: &FunctionBuilder, v: Value, depth: u32) -> bool {
    let ValueDef::Result(inst, _) = b.func.dfg.value_def(v) else {
        return false;
    };
    match b.func.dfg.insts[inst] {
        InstructionData::IntCompare { .. } | InstructionData::FloatCompare { .. } => true,
        InstructionData::Unary {
            opcode: Opcode::Bnot,
            arg,
        } => depth > 0 && mask_within(b, arg, depth - 1),
        InstructionData::Binary {
            opcode: Opcode::Band | Opcode::Bor | Opcode::Bxor,
            args,
        } => depth > 0 && mask_within(b, args[0], depth - 1) && mask_within(b, args[1], depth - 1),
        _ => false,
    }
}

/// `!x`, folding a negated negation and negating integer compares in place.
pub fn not(b: &mut FunctionBuilder, x: Value) -> Value {
    if let ValueDef::Result(inst, _) = b.func.dfg.value_def(x) {
        match b.func.dfg.insts[inst] {
            InstructionData::Unary {
                opcode: Opcode::Bnot,
                arg,
            } => return arg,
            InstructionData::IntCompare { cond, args, .. } => {
                return b.ins().icmp(cond.complement(), args[0], args[1]);
            }
            _ => {}
        }
    }
    b.ins().bnot(x)
}

/// The lanes of `x` that are nonzero (`nz`) or zero, as a mask.
pub fn test_zero(b: &mut FunctionBuilder, x: Value, zero: Value, nz: bool) -> Value {
    if is_mask(b, x) {
        return if nz { x } else { not(b, x) };
    }
    let cc = if nz { IntCC::NotEqual } else { IntCC::Equal };
    b.ins().icmp(cc, x, zero)
}

/// Whether `v` is a constant with every bit set.
fn is_all_ones(b: &FunctionBuilder, v: Value) -> bool {
    let ValueDef::Result(inst, _) = b.func.dfg.value_def(v) else {
        return false;
    };
    match b.func.dfg.insts[inst] {
        InstructionData::UnaryConst {
            opcode: Opcode::Vconst,
            constant_handle,
        } => b
            .func
            .dfg
            .constants
            .get(constant_handle)
            .as_slice()
            .iter()
            .all(|&x| x == 0xff),
        _ => false,
    }
}

/// `x & y`, leaving out an all-ones operand (a mask known to be full,
/// such as the construct masks outside any construct).
pub fn and(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    if is_all_ones(b, y) {
        return x;
    }
    if is_all_ones(b, x) {
        return y;
    }
    b.ins().band(x, y)
}
