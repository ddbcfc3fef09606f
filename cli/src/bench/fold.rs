//! Evaluates ALU operations on values known before the program runs, as
//! the backend computes them, so loop counters and branch conditions built
//! from literals and constants can be followed.

use dxjit::ir::{AluOp, Src};

/// How an operation interprets its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// 32-bit floats: modifiers flip or clear the sign bit, results may saturate.
    Float,
    /// Integers: modifiers negate in two's complement.
    Int,
    /// Floats in, integers out (comparisons, conversions to integer).
    FloatToInt,
    /// Integers in, floats out.
    IntToFloat,
}

/// The operations the folder evaluates and how they read their operands;
/// `None` for the rest, whose results are then unknown.
fn kind(op: AluOp) -> Option<Kind> {
    use AluOp::*;
    Some(match op {
        Mov | Add | Mul | Mad | Min | Max => Kind::Float,
        Eq | Ge | Lt | Ne | FToI | FToU => Kind::FloatToInt,
        IToF | UToF => Kind::IntToFloat,
        IAdd | IMul | IMad | IEq | INe | IGe | ILt | UGe | ULt | And | Or | Xor | Not | IShl
        | IShr | UShr | IMin | IMax | UMin | UMax | INeg | Movc => Kind::Int,
        _ => return None,
    })
}

/// Denormals read and written as zero (the shader runs with FTZ and DAZ).
fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// A source word with the operand's modifiers applied as `op` reads it;
/// `None` where the modifiers have no defined meaning for `op`.
pub fn modified(op: AluOp, src: &Src, word: u32) -> Option<u32> {
    if !src.abs && !src.neg {
        return Some(word);
    }
    match kind(op)? {
        Kind::Float | Kind::FloatToInt => {
            let w = if src.abs { word & 0x7fff_ffff } else { word };
            Some(if src.neg { w ^ 0x8000_0000 } else { w })
        }
        Kind::Int | Kind::IntToFloat if op != AluOp::Movc => {
            let i = word as i32;
            let i = if src.abs { i.wrapping_abs() } else { i };
            Some(if src.neg { i.wrapping_neg() } else { i } as u32)
        }
        _ => None,
    }
}

/// `op` on one component's (modified) source words, `None` when not
/// evaluated. `saturate` clamps a float result to [0, 1].
pub fn eval(op: AluOp, args: &[u32], saturate: bool) -> Option<u32> {
    use AluOp::*;
    let k = kind(op)?;
    let word = |i: usize| args.get(i).copied();
    let float = |i: usize| word(i).map(|w| flush(f32::from_bits(w)));
    let bool_word = |b: bool| if b { u32::MAX } else { 0 };
    let result = match op {
        Mov => word(0)?,
        Movc => {
            if word(0)? != 0 {
                word(1)?
            } else {
                word(2)?
            }
        }
        Add => flush(float(0)? + float(1)?).to_bits(),
        Mul => flush(float(0)? * float(1)?).to_bits(),
        Mad => flush(float(0)?.mul_add(float(1)?, float(2)?)).to_bits(),
        Min => float(0)?.min(float(1)?).to_bits(),
        Max => float(0)?.max(float(1)?).to_bits(),
        Eq => bool_word(float(0)? == float(1)?),
        Ge => bool_word(float(0)? >= float(1)?),
        Lt => bool_word(float(0)? < float(1)?),
        Ne => bool_word(float(0)? != float(1)?),
        FToI => (float(0)? as i32) as u32,
        FToU => float(0)? as u32,
        IToF => (word(0)? as i32 as f32).to_bits(),
        UToF => (word(0)? as f32).to_bits(),
        IAdd => word(0)?.wrapping_add(word(1)?),
        IMul => word(0)?.wrapping_mul(word(1)?),
        IMad => word(0)?.wrapping_mul(word(1)?).wrapping_add(word(2)?),
        IEq => bool_word(word(0)? == word(1)?),
        INe => bool_word(word(0)? != word(1)?),
        IGe => bool_word(word(0)? as i32 >= word(1)? as i32),
        ILt => bool_word((word(0)? as i32) < word(1)? as i32),
        UGe => bool_word(word(0)? >= word(1)?),
        ULt => bool_word(word(0)? < word(1)?),
        And => word(0)? & word(1)?,
        Or => word(0)? | word(1)?,
        Xor => word(0)? ^ word(1)?,
        Not => !word(0)?,
        IShl => word(0)? << (word(1)? & 31),
        IShr => ((word(0)? as i32) >> (word(1)? & 31)) as u32,
        UShr => word(0)? >> (word(1)? & 31),
        IMin => (word(0)? as i32).min(word(1)? as i32) as u32,
        IMax => (word(0)? as i32).max(word(1)? as i32) as u32,
        UMin => word(0)?.min(word(1)?),
        UMax => word(0)?.max(word(1)?),
        INeg => word(0)?.wrapping_neg(),
        _ => return None,
    };
    if !saturate {
        return Some(result);
    }
    match k {
        Kind::Float | Kind::IntToFloat => {
            let x = f32::from_bits(result);
            Some(if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }.to_bits())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_compare_and_add() {
        assert_eq!(eval(AluOp::ULt, &[3, 256], false), Some(u32::MAX));
        assert_eq!(eval(AluOp::ULt, &[256, 256], false), Some(0));
        assert_eq!(
            eval(AluOp::IGe, &[0, (-1i32) as u32], false),
            Some(u32::MAX)
        );
        assert_eq!(eval(AluOp::IAdd, &[5, u32::MAX], false), Some(4));
        assert_eq!(eval(AluOp::Not, &[0], false), Some(u32::MAX));
    }

    #[test]
    fn float_ops_and_saturate() {
        let f = |x: f32| x.to_bits();
        assert_eq!(eval(AluOp::Add, &[f(1.5), f(2.0)], false), Some(f(3.5)));
        assert_eq!(eval(AluOp::Add, &[f(1.5), f(2.0)], true), Some(f(1.0)));
        assert_eq!(eval(AluOp::Lt, &[f(1.0), f(2.0)], false), Some(u32::MAX));
        assert_eq!(eval(AluOp::FToI, &[f(f32::NAN)], false), Some(0));
    }

    #[test]
    fn modifiers_follow_the_operation_type() {
        let neg = Src::splat(0).negated();
        assert_eq!(
            modified(AluOp::Add, &neg, 1.0f32.to_bits()),
            Some((-1.0f32).to_bits())
        );
        assert_eq!(modified(AluOp::IAdd, &neg, 1), Some(u32::MAX));
        assert_eq!(modified(AluOp::Movc, &neg, 1), None);
        assert_eq!(eval(AluOp::Sin, &[0], false), None);
    }
}
