//! Double-precision operations. A double is a pair of 32-bit components
//! (low word first); the n-th double a destination writes reads the n-th
//! pair of each double source and the n-th component of each 32-bit source.

use super::lanes::Lanes;
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{DoubleOp, Dst, Src};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

/// What a double operation's sources and result are made of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Double in, double out.
    DD,
    /// Double in, 32-bit out.
    DS,
    /// 32-bit in, double out.
    SD,
}

fn shape(op: DoubleOp) -> Shape {
    use DoubleOp::*;
    match op {
        Eq | Ge | Lt | Ne | ToF32 | ToI32 | ToU32 => Shape::DS,
        FromF32 | FromI32 | FromU32 => Shape::SD,
        _ => Shape::DD,
    }
}

fn join(b: &mut FunctionBuilder, lo: Value, hi: Value) -> Value {
    let lo = b.ins().uextend(types::I64, lo);
    let hi = b.ins().uextend(types::I64, hi);
    let hi = b.ins().ishl_imm_u(hi, 32);
    let w = b.ins().bor(lo, hi);
    b.ins().bitcast(types::F64, MemFlagsData::new(), w)
}

fn split(b: &mut FunctionBuilder, d: Value) -> (Value, Value) {
    let w = b.ins().bitcast(types::I64, MemFlagsData::new(), d);
    let lo = b.ins().ireduce(types::I32, w);
    let hi = b.ins().ushr_imm_u(w, 32);
    let hi = b.ins().ireduce(types::I32, hi);
    (lo, hi)
}

/// D3D dmin/dmax: `x` where `x keep y` holds (`LessThan` for the minimum,
/// `GreaterThan` for the maximum), else `y`; a NaN operand yields the other one.
fn min_max(b: &mut FunctionBuilder, x: Value, y: Value, keep: FloatCC) -> Value {
    let pick = b.ins().fcmp(keep, x, y);
    let r = b.ins().select(pick, x, y);
    let y_nan = b.ins().fcmp(FloatCC::Unordered, y, y);
    b.ins().select(y_nan, x, r)
}

fn mask_of(b: &mut FunctionBuilder, c: Value) -> Value {
    let all = b.ins().iconst(types::I32, -1);
    let zero = b.ins().iconst(types::I32, 0);
    b.ins().select(c, all, zero)
}

impl Tr<'_, '_> {
    /// Emits a double-precision operation.
    pub fn emit_double(&mut self, op: DoubleOp, dst: &Dst, src: &[Src]) -> Result<(), JitError> {
        let sh = shape(op);
        // The components the destination writes, grouped per result.
        let slots: Vec<Vec<usize>> = match sh {
            Shape::DS => (0..4)
                .filter(|c| dst.mask & (1 << c) != 0)
                .map(|c| vec![c])
                .collect(),
            _ => [[0usize, 1], [2, 3]]
                .iter()
                .filter(|p| dst.mask & (0b11 << p[0]) != 0)
                .map(|p| p.to_vec())
                .collect(),
        };
        if slots.len() > 2 {
            return Err(JitError::Invalid(format!(
                "{op:?} writes {} results; a register holds two doubles",
                slots.len()
            )));
        }
        let mut writes = Vec::new();
        for (n, comps) in slots.iter().enumerate() {
            let mut args: Vec<(Lanes, Lanes)> = Vec::new();
            for (i, s) in src.iter().enumerate() {
                let scalar = sh == Shape::SD || (op == DoubleOp::Movc && i == 0);
                if scalar {
                    let v = self.read(
                        s,
                        n,
                        if op == DoubleOp::FromF32 {
                            Ty::F
                        } else {
                            Ty::I
                        },
                    )?;
                    args.push((v, v));
                } else {
                    let lo = self.read(s, 2 * n, Ty::I)?;
                    let hi = self.read(s, 2 * n + 1, Ty::I)?;
                    let (lo, hi) = self.double_modifiers(lo, hi, s);
                    args.push((lo, hi));
                }
            }
            let (lo, hi) = self.double_lanes(op, &args)?;
            if sh == Shape::DS {
                writes.push((comps[0], lo));
            } else {
                writes.push((comps[0], lo));
                writes.push((comps[1], hi));
            }
        }
        for (c, v) in writes {
            if dst.mask & (1 << c) != 0 {
                self.write(
                    &Dst {
                        saturate: false,
                        ..dst.clone()
                    },
                    c,
                    v,
                )?;
            }
        }
        Ok(())
    }

    /// Applies neg/abs to the high word of a double.
    fn double_modifiers(&mut self, lo: Lanes, hi: Lanes, s: &Src) -> (Lanes, Lanes) {
        let mut hi = hi;
        if s.abs {
            let m = self.lb().splat(0x7fff_ffff);
            hi = self.lb().and(hi, m);
        }
        if s.neg {
            let m = self.lb().splat(0x8000_0000);
            hi = self.lb().map2(hi, m, |b, x, y| b.ins().bxor(x, y));
        }
        (lo, hi)
    }

    /// Computes one double result per lane: (low word, high word), or the
    /// 32-bit result in the low word.
    fn double_lanes(
        &mut self,
        op: DoubleOp,
        args: &[(Lanes, Lanes)],
    ) -> Result<(Lanes, Lanes), JitError> {
        let mut lo_out = self.lb().splat(0);
        let mut hi_out = lo_out;
        let sh = shape(op);
        for j in 0..self.k {
            let (mut lo_acc, mut hi_acc) = (lo_out.v[j], hi_out.v[j]);
            for l in 0..4u8 {
                let b = &mut self.b;
                let mut d = Vec::new();
                let mut w = Vec::new();
                for (lo, hi) in args {
                    let x = b.ins().extractlane(lo.v[j], l);
                    let y = b.ins().extractlane(hi.v[j], l);
                    w.push(x);
                    d.push(join(b, x, y));
                }
                let arg = |i: usize| -> Result<Value, JitError> {
                    d.get(i)
                        .copied()
                        .ok_or_else(|| JitError::Invalid(format!("{op:?} needs more sources")))
                };
                use DoubleOp::*;
                let r = match op {
                    Add => b.ins().fadd(arg(0)?, arg(1)?),
                    Mul => b.ins().fmul(arg(0)?, arg(1)?),
                    Fma => b.ins().fma(arg(0)?, arg(1)?, arg(2)?),
                    Div => b.ins().fdiv(arg(0)?, arg(1)?),
                    Rcp => {
                        let one = b.ins().f64const(1.0);
                        b.ins().fdiv(one, arg(0)?)
                    }
                    Min => min_max(b, arg(0)?, arg(1)?, FloatCC::LessThan),
                    Max => min_max(b, arg(0)?, arg(1)?, FloatCC::GreaterThan),
                    Mov => arg(0)?,
                    Movc => {
                        let c = w
                            .first()
                            .copied()
                            .ok_or_else(|| JitError::Invalid("dmovc needs sources".into()))?;
                        let c = b.ins().icmp_imm_u(IntCC::NotEqual, c, 0);
                        b.ins().select(c, arg(1)?, arg(2)?)
                    }
                    Eq | Ge | Lt | Ne => {
                        let cc = match op {
                            Eq => FloatCC::Equal,
                            Ge => FloatCC::GreaterThanOrEqual,
                            Lt => FloatCC::LessThan,
                            _ => FloatCC::NotEqual,
                        };
                        let c = b.ins().fcmp(cc, arg(0)?, arg(1)?);
                        mask_of(b, c)
                    }
                    ToF32 => {
                        let f = b.ins().fdemote(types::F32, arg(0)?);
                        b.ins().bitcast(types::I32, MemFlagsData::new(), f)
                    }
                    ToI32 => b.ins().fcvt_to_sint_sat(types::I32, arg(0)?),
                    ToU32 => b.ins().fcvt_to_uint_sat(types::I32, arg(0)?),
                    FromF32 => {
                        let f = b.ins().bitcast(types::F32, MemFlagsData::new(), w[0]);
                        b.ins().fpromote(types::F64, f)
                    }
                    FromI32 => b.ins().fcvt_from_sint(types::F64, w[0]),
                    FromU32 => b.ins().fcvt_from_uint(types::F64, w[0]),
                };
                if sh == Shape::DS {
                    lo_acc = b.ins().insertlane(lo_acc, r, l);
                } else {
                    let (lo, hi) = split(b, r);
                    lo_acc = b.ins().insertlane(lo_acc, lo, l);
                    hi_acc = b.ins().insertlane(hi_acc, hi, l);
                }
            }
            lo_out.v[j] = lo_acc;
            hi_out.v[j] = hi_acc;
        }
        Ok((lo_out, hi_out))
    }
}
