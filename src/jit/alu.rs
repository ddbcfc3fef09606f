//! Component-wise arithmetic: one arm per [`AluOp`], each opening with the
//! Direct3D rule it implements.

use super::helpers::HelperId;
use super::lanes::MAX_K;
use super::lanes::{le, Lanes, FVEC};
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{AluOp, SrcTy};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, ConstantData, InstBuilder, InstructionData, Opcode, Value};
use cranelift_frontend::FunctionBuilder;

/// How operation `op` reads source `i`, from the IR's table.
pub fn src_ty(op: AluOp, i: usize) -> Ty {
    match op.info().source(i) {
        SrcTy::Float => Ty::F,
        SrcTy::Int => Ty::I,
    }
}

fn fcmp_mask(b: &mut FunctionBuilder, cc: FloatCC, x: Value, y: Value) -> Value {
    b.ins().fcmp(cc, x, y)
}

/// D3D min/max: a NaN operand yields the other operand. `minps(a, b)`
/// returns `b` when either is NaN, so a NaN `b` is replaced by `a` after.
/// `keep` is the comparison under which `x` is the result: `LessThan` for
/// min, `GreaterThan` for max.
fn min_max(b: &mut FunctionBuilder, x: Value, y: Value, keep: FloatCC) -> Value {
    let pick = b.ins().fcmp(keep, x, y);
    let pick = b.ins().bitcast(FVEC, le(), pick);
    let r = b.ins().bitselect(pick, x, y);
    let y_nan = b.ins().fcmp(FloatCC::Unordered, y, y);
    let y_nan = b.ins().bitcast(FVEC, le(), y_nan);
    b.ins().bitselect(y_nan, x, r)
}

/// The legacy D3D9 multiply: a zero operand gives +0 whatever the other is.
/// An operand known to be finite and nonzero in every lane (a literal)
/// needs no zero test: the other operand's alone decides.
fn mul_legacy(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    if let Some(p) =
        by_one_signed_literal(b, x, y, None).or_else(|| by_one_signed_literal(b, y, x, None))
    {
        return p;
    }
    let p = b.ins().fmul(x, y);
    match zero_factors(b, x, y) {
        // +0 has no bits set: clearing the product's bits where a factor
        // is zero selects it.
        Some(zero) => b.ins().band_not(p, zero),
        None => p,
    }
}

/// The D3D9 `mad` with the legacy multiply, fused as `mad` is (one
/// rounding: AMD's `v_fma_legacy_f32` and NVIDIA's `FFMA.FMZ` do the
/// same): `x × y + z`, and `+0 + z` where a factor is zero whatever the
/// other is. A literal factor is handled as [`mul_legacy`] handles it.
fn mad_legacy(b: &mut FunctionBuilder, x: Value, y: Value, z: Value) -> Value {
    if let Some(r) =
        by_one_signed_literal(b, x, y, Some(z)).or_else(|| by_one_signed_literal(b, y, x, Some(z)))
    {
        return r;
    }
    let r = b.ins().fma(x, y, z);
    match zero_factors(b, x, y) {
        Some(zero) => {
            let plus_zero = zeros(b);
            let sum = b.ins().fadd(z, plus_zero);
            b.ins().bitselect(zero, sum, r)
        }
        None => r,
    }
}

/// All ones (as an `f32x4` mask) in the lanes where `x` or `y` is zero,
/// testing only a factor that is not a literal finite and nonzero in
/// every lane; `None` when neither is tested.
fn zero_factors(b: &mut FunctionBuilder, x: Value, y: Value) -> Option<Value> {
    let tested: Vec<Value> = [x, y]
        .into_iter()
        .filter(|v| !literal_lanes(b, *v).is_some_and(|l| l.iter().all(|f| finite_nonzero(*f))))
        .collect();
    if tested.is_empty() {
        return None;
    }
    let zero = zeros(b);
    let mut tests = tested
        .into_iter()
        .map(|v| b.ins().fcmp(FloatCC::Equal, v, zero));
    let first = tests.next()?;
    let either = match tests.next() {
        Some(second) => b.ins().bor(first, second),
        None => first,
    };
    Some(b.ins().bitcast(FVEC, le(), either))
}

/// The legacy product of `x` and a literal `y` whose lanes are finite,
/// nonzero and of one sign, without a zero test, plus `addend` fused when
/// it is given: subtracting −0 from `x` (or `x` from +0, for a negative
/// literal, which is then negated) turns −0 into +0 and changes no other
/// value, so the product is +0 exactly where `x` is ±0 and `x × y`
/// elsewhere (negating both factors rounds the same). `None` when `y` is
/// not such a literal.
///
/// Both constants are made here, the multiplier last: the backend folds a
/// constant row into the operation that reads it only when no other load
/// comes between them, so the −0 row (not all zeros, so a row the
/// subtraction reads as its memory operand, where +0 would be made in a
/// register first) goes right before the subtraction and the multiplier's
/// right before the product (the literal the caller read is left unused).
fn by_one_signed_literal(
    b: &mut FunctionBuilder,
    x: Value,
    y: Value,
    addend: Option<Value>,
) -> Option<Value> {
    let literal = SignedLiteral::of(b, y)?;
    let first = literal.first_constant(b);
    let x = literal.subtract(b, x, first);
    let multiplier = literal.multiplier(b);
    Some(match addend {
        Some(z) => b.ins().fma(x, multiplier, z),
        None => b.ins().fmul(x, multiplier),
    })
}

/// A literal multiplier whose lanes are finite, nonzero and of one sign,
/// as [`by_one_signed_literal`] multiplies by it.
struct SignedLiteral {
    lanes: [f32; 4],
    negative: bool,
}

impl SignedLiteral {
    /// `y`'s lanes, when it is such a literal.
    fn of(b: &FunctionBuilder, y: Value) -> Option<SignedLiteral> {
        let lanes = literal_lanes(b, y)?;
        if !lanes.iter().all(|f| finite_nonzero(*f)) {
            return None;
        }
        if lanes.iter().all(|f| *f > 0.0) {
            return Some(SignedLiteral {
                lanes,
                negative: false,
            });
        }
        lanes.iter().all(|f| *f < 0.0).then_some(SignedLiteral {
            lanes,
            negative: true,
        })
    }

    /// The constant of the subtraction: −0, or +0 for a negative literal.
    fn first_constant(&self, b: &mut FunctionBuilder) -> Value {
        if self.negative {
            zeros(b)
        } else {
            float_lanes(b, [-0.0; 4])
        }
    }

    /// `x − (−0)`, or `+0 − x` for a negative literal.
    fn subtract(&self, b: &mut FunctionBuilder, x: Value, first: Value) -> Value {
        if self.negative {
            b.ins().fsub(first, x)
        } else {
            b.ins().fsub(x, first)
        }
    }

    /// The literal, or its negation for a negative one.
    fn multiplier(&self, b: &mut FunctionBuilder) -> Value {
        let sign = if self.negative { -1.0 } else { 1.0 };
        float_lanes(b, self.lanes.map(|f| sign * f))
    }
}

/// An `f32x4` constant of `lanes`.
fn float_lanes(b: &mut FunctionBuilder, lanes: [f32; 4]) -> Value {
    let bytes: Vec<u8> = lanes.iter().flat_map(|f| f.to_le_bytes()).collect();
    let constant = b.func.dfg.constants.insert(ConstantData::from(bytes));
    b.ins().vconst(FVEC, constant)
}

/// Whether `f` is a finite, nonzero float that stays nonzero when the
/// shader runs: denormals are flushed to zero, so a denormal literal is a
/// zero factor of the legacy multiply.
fn finite_nonzero(f: f32) -> bool {
    f.is_normal()
}

/// An `f32x4` of +0.
fn zeros(b: &mut FunctionBuilder) -> Value {
    let zeros = b
        .func
        .dfg
        .constants
        .insert(ConstantData::from(vec![0u8; 16]));
    b.ins().vconst(FVEC, zeros)
}

/// The four 32-bit lanes of `v`, as floats, when it is a constant vector
/// (seen through bitcasts).
fn literal_lanes(b: &FunctionBuilder, v: Value) -> Option<[f32; 4]> {
    let dfg = &b.func.dfg;
    let mut v = v;
    loop {
        let inst = dfg.value_def(v).inst()?;
        match dfg.insts[inst] {
            InstructionData::LoadNoOffset {
                opcode: Opcode::Bitcast,
                arg,
                ..
            } => v = arg,
            InstructionData::UnaryConst {
                opcode: Opcode::Vconst,
                constant_handle,
            } => {
                let bytes = dfg.constants.get(constant_handle).as_slice();
                return Some(std::array::from_fn(|l| {
                    f32::from_le_bytes([
                        bytes[4 * l],
                        bytes[4 * l + 1],
                        bytes[4 * l + 2],
                        bytes[4 * l + 3],
                    ])
                }));
            }
            _ => return None,
        }
    }
}

impl Tr<'_, '_> {
    /// Applies `f` to float views of `a` and `b`.
    fn fbin(
        &mut self,
        a: Lanes,
        b: Lanes,
        f: impl Fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Lanes {
        let a = self.lb().as_float(a);
        let b = self.lb().as_float(b);
        let r = self.lb().map2(a, b, f);
        self.lb().as_int(r)
    }

    /// `a` with −0 made +0 (`a − (−0)`, which changes no other value).
    pub(super) fn positive_zero(&mut self, a: Lanes) -> Lanes {
        let negative_zero = float_lanes(&mut self.b, [-0.0; 4]);
        self.fun(a, |b, x| b.ins().fsub(x, negative_zero))
    }

    /// The legacy multiply of `a` and `b`. With more than one vector, a
    /// product by a one-signed literal makes its two constants once for
    /// all vectors: each is then a register every vector reads, one load
    /// where a constant made for each vector would be a load each (a
    /// constant row folds into its instruction only when what that
    /// computes is used once, which is rare enough in a whole shader).
    /// A factor that is never −0 (`FuncState::never_negative_zero`) times
    /// a positive literal is +0 exactly where the factor is +0, and needs
    /// no subtraction, with any number of vectors.
    fn mul_legacy_lanes(&mut self, a: Lanes, b: Lanes) -> Lanes {
        match self.legacy_by_shared_literal(a, b, None) {
            Some(r) => r,
            None => self.fbin(a, b, mul_legacy),
        }
    }

    /// [`mad_legacy`] over the lanes: by a literal shared by every vector
    /// as [`Tr::mul_legacy_lanes`] multiplies by one, the sum fused.
    fn mad_legacy_lanes(&mut self, a: Lanes, b: Lanes, c: Lanes) -> Lanes {
        if let Some(r) = self.legacy_by_shared_literal(a, b, Some(c)) {
            return r;
        }
        let (a, b, c) = (
            self.lb().as_float(a),
            self.lb().as_float(b),
            self.lb().as_float(c),
        );
        let r = self.lb().map3(a, b, c, mad_legacy);
        self.lb().as_int(r)
    }

    /// The legacy product of `a` and `b` when one is a one-signed literal
    /// shared by every vector (see [`Tr::mul_legacy_lanes`]), plus `c`
    /// fused when it is given; `None` when neither factor is such a
    /// literal, or with one vector a factor that may be −0.
    fn legacy_by_shared_literal(&mut self, a: Lanes, b: Lanes, c: Option<Lanes>) -> Option<Lanes> {
        for (x, y) in [(a, b), (b, a)] {
            if !y.shared(self.k) {
                continue;
            }
            let Some(literal) = SignedLiteral::of(&self.b, y.v[0]) else {
                continue;
            };
            let plain = !literal.negative
                && x.v[..self.k]
                    .iter()
                    .all(|v| self.func.never_negative_zero.contains(v));
            if self.k == 1 && !plain {
                continue;
            }
            let first = (!plain).then(|| literal.first_constant(&mut self.b));
            let multiplier = literal.multiplier(&mut self.b);
            let x = self.lb().as_float(x);
            let factor = |b: &mut FunctionBuilder, x: Value| match first {
                Some(first) => literal.subtract(b, x, first),
                None => x,
            };
            let r = match c {
                Some(c) => {
                    let c = self.lb().as_float(c);
                    self.lb().map2(x, c, |b, x, z| {
                        let x = factor(b, x);
                        b.ins().fma(x, multiplier, z)
                    })
                }
                None => self.lb().map1(x, |b, x| {
                    let x = factor(b, x);
                    b.ins().fmul(x, multiplier)
                }),
            };
            return Some(self.lb().as_int(r));
        }
        None
    }

    /// Applies `f` to the float view of `a`.
    fn fun(&mut self, a: Lanes, f: impl Fn(&mut FunctionBuilder, Value) -> Value) -> Lanes {
        let a = self.lb().as_float(a);
        let r = self.lb().map1(a, f);
        self.lb().as_int(r)
    }

    /// A float comparison as an all-ones / zero mask.
    fn fcmp(&mut self, a: Lanes, b: Lanes, cc: FloatCC) -> Lanes {
        let a = self.lb().as_float(a);
        let b = self.lb().as_float(b);
        self.lb().map2(a, b, |b, x, y| fcmp_mask(b, cc, x, y))
    }

    /// `a < b` unsigned, as a mask. Against a literal `c >= 1` in every
    /// lane it is `umin(a, c - 1) == a`: two instructions, where x64 (no
    /// unsigned vector compare) makes four of `icmp ult`.
    fn ult(&mut self, a: Lanes, b: Lanes) -> Lanes {
        let same = (1..self.k).all(|j| b.v[j] == b.v[0]);
        match literal_lanes(&self.b, b.v[0]).map(|l| l.map(f32::to_bits)) {
            Some([c, c1, c2, c3]) if same && c >= 1 && [c1, c2, c3] == [c; 3] => {
                let bound = self.lb().splat(c - 1);
                let low = self.lb().map2(a, bound, |b, x, y| b.ins().umin(x, y));
                self.icmp(low, a, IntCC::Equal)
            }
            _ => self.icmp(a, b, IntCC::UnsignedLessThan),
        }
    }

    /// An integer comparison as an all-ones / zero mask.
    fn icmp(&mut self, a: Lanes, b: Lanes, cc: IntCC) -> Lanes {
        self.lb().map2(a, b, |b, x, y| b.ins().icmp(cc, x, y))
    }

    /// Applies a scalar function to every lane of `args` (1 to 4 operands).
    pub fn per_lane(
        &mut self,
        args: &[Lanes],
        f: impl Fn(&mut FunctionBuilder, &[Value]) -> Value,
    ) -> Lanes {
        let mut out = args[0];
        for j in 0..self.k {
            let mut acc = args[0].v[j];
            for l in 0..4u8 {
                let xs: Vec<Value> = args
                    .iter()
                    .map(|a| self.b.ins().extractlane(a.v[j], l))
                    .collect();
                let r = f(&mut self.b, &xs);
                acc = self.b.ins().insertlane(acc, r, l);
            }
            out.v[j] = acc;
        }
        out
    }

    /// Calls a runtime helper `fn(i32x4) -> i32x4` on each vector.
    pub fn call_vec(&mut self, id: HelperId, a: Lanes) -> Lanes {
        let f = self.helper(id);
        let k = if a.shared(self.k) { 1 } else { self.k };
        let mut out = a;
        for j in 0..k {
            let call = self.b.ins().call(f, &[a.v[j]]);
            out.v[j] = self.b.inst_results(call)[0];
        }
        if k == 1 {
            out.v = [out.v[0]; MAX_K];
        }
        out
    }

    /// Shuffles the lanes of every quad vector.
    fn quad_shuffle(&mut self, a: Lanes, lanes: [u8; 4]) -> Lanes {
        let mut bytes = [0u8; 16];
        for (i, &l) in lanes.iter().enumerate() {
            for k in 0..4 {
                bytes[i * 4 + k] = l * 4 + k as u8;
            }
        }
        let imm = self.b.func.dfg.immediates.push(bytes.to_vec().into());
        // `shuffle` works on bytes: view the lanes as i8x16 and back.
        self.lb().map1(a, |b, x| {
            let v = b.ins().bitcast(types::I8X16, le(), x);
            let v = b.ins().shuffle(v, v, imm);
            b.ins().bitcast(super::lanes::VEC, le(), v)
        })
    }

    /// A derivative: lane differences within each 2x2 quad (top-left,
    /// top-right, bottom-left, bottom-right).
    fn derivative(&mut self, a: Lanes, hi: [u8; 4], lo: [u8; 4]) -> Lanes {
        let h = self.quad_shuffle(a, hi);
        let l = self.quad_shuffle(a, lo);
        self.fbin(h, l, |b, x, y| b.ins().fsub(x, y))
    }

    /// Emits one component of a component-wise operation.
    pub fn alu(&mut self, op: AluOp, s: &[Lanes]) -> Result<Lanes, JitError> {
        use AluOp::*;
        Ok(match op {
            // Moves copy bits: denormals survive.
            Mov => s[0],
            // movc: a nonzero condition picks src1, else src2 (bitwise).
            Movc => {
                let z = self.lb().splat(0);
                let m = self.icmp(s[0], z, IntCC::NotEqual);
                self.lb().select(m, s[1], s[2])
            }
            Add => self.fbin(s[0], s[1], |b, x, y| b.ins().fadd(x, y)),
            Mul => self.fbin(s[0], s[1], |b, x, y| b.ins().fmul(x, y)),
            // mad: D3D permits fusing; one rounding, as GPUs do.
            Mad => {
                let (a, b, c) = (
                    self.lb().as_float(s[0]),
                    self.lb().as_float(s[1]),
                    self.lb().as_float(s[2]),
                );
                let r = self.lb().map3(a, b, c, |b, x, y, z| b.ins().fma(x, y, z));
                self.lb().as_int(r)
            }
            MulLegacy => self.mul_legacy_lanes(s[0], s[1]),
            MadLegacy => self.mad_legacy_lanes(s[0], s[1], s[2]),
            Div => self.fbin(s[0], s[1], |b, x, y| b.ins().fdiv(x, y)),
            // min/max: a NaN operand yields the other one.
            Min => self.fbin(s[0], s[1], |b, x, y| min_max(b, x, y, FloatCC::LessThan)),
            Max => self.fbin(s[0], s[1], |b, x, y| min_max(b, x, y, FloatCC::GreaterThan)),
            Sqrt => self.fun(s[0], |b, x| b.ins().sqrt(x)),
            // rsq/rcp of ±0 give ±inf, of inf give 0.
            Rsq => self.fun(s[0], |b, x| {
                let one = b.ins().f32const(1.0);
                let one = b.ins().splat(FVEC, one);
                let r = b.ins().sqrt(x);
                b.ins().fdiv(one, r)
            }),
            Rcp => self.fun(s[0], |b, x| {
                let one = b.ins().f32const(1.0);
                let one = b.ins().splat(FVEC, one);
                b.ins().fdiv(one, x)
            }),
            Exp => self.call_vec(HelperId::Exp2, s[0]),
            // log/sin: the helpers read a denormal's bits, so it is flushed
            // first: log(±denorm) = -inf, sin(±denorm) = ±0.
            Log => {
                let x = self.flush_denormals(s[0]);
                self.call_vec(HelperId::Log2, x)
            }
            Sin => {
                let x = self.flush_denormals(s[0]);
                self.call_vec(HelperId::Sin, x)
            }
            Cos => self.call_vec(HelperId::Cos, s[0]),
            // frc: x - floor(x), in [0, 1).
            Frc => self.fun(s[0], |b, x| {
                let f = b.ins().floor(x);
                b.ins().fsub(x, f)
            }),
            RoundNe => self.fun(s[0], |b, x| b.ins().nearest(x)),
            RoundNi => self.fun(s[0], |b, x| b.ins().floor(x)),
            RoundPi => self.fun(s[0], |b, x| b.ins().ceil(x)),
            RoundZ => self.fun(s[0], |b, x| b.ins().trunc(x)),
            Eq => self.fcmp(s[0], s[1], FloatCC::Equal),
            Ge => self.fcmp(s[0], s[1], FloatCC::GreaterThanOrEqual),
            Lt => self.fcmp(s[0], s[1], FloatCC::LessThan),
            // ne is true when unordered.
            Ne => self.fcmp(s[0], s[1], FloatCC::NotEqual),
            DerivRtxCoarse => self.derivative(s[0], [1, 1, 1, 1], [0, 0, 0, 0]),
            DerivRtyCoarse => self.derivative(s[0], [2, 2, 2, 2], [0, 0, 0, 0]),
            DerivRtxFine => self.derivative(s[0], [1, 1, 3, 3], [0, 0, 2, 2]),
            DerivRtyFine => self.derivative(s[0], [2, 3, 2, 3], [0, 1, 0, 1]),
            IAdd => self.lb().map2(s[0], s[1], |b, x, y| b.ins().iadd(x, y)),
            IMul => self.lb().map2(s[0], s[1], |b, x, y| b.ins().imul(x, y)),
            IMad => {
                let p = self.lb().map2(s[0], s[1], |b, x, y| b.ins().imul(x, y));
                self.lb().map2(p, s[2], |b, x, y| b.ins().iadd(x, y))
            }
            IEq => self.icmp(s[0], s[1], IntCC::Equal),
            INe => self.icmp(s[0], s[1], IntCC::NotEqual),
            IGe => self.icmp(s[0], s[1], IntCC::SignedGreaterThanOrEqual),
            ILt => self.icmp(s[0], s[1], IntCC::SignedLessThan),
            UGe => self.icmp(s[0], s[1], IntCC::UnsignedGreaterThanOrEqual),
            ULt => self.ult(s[0], s[1]),
            And => self.lb().and(s[0], s[1]),
            Or => self.lb().or(s[0], s[1]),
            Xor => self.lb().map2(s[0], s[1], |b, x, y| b.ins().bxor(x, y)),
            Not => self.lb().not(s[0]),
            // Shifts use the low 5 bits of the count (x86 scalar shifts mask the same way).
            IShl => self.per_lane(&s[..2], |b, v| b.ins().ishl(v[0], v[1])),
            IShr => self.per_lane(&s[..2], |b, v| b.ins().sshr(v[0], v[1])),
            UShr => self.per_lane(&s[..2], |b, v| b.ins().ushr(v[0], v[1])),
            IMin => self.lb().map2(s[0], s[1], |b, x, y| b.ins().smin(x, y)),
            IMax => self.lb().map2(s[0], s[1], |b, x, y| b.ins().smax(x, y)),
            UMin => self.lb().map2(s[0], s[1], |b, x, y| b.ins().umin(x, y)),
            UMax => self.lb().map2(s[0], s[1], |b, x, y| b.ins().umax(x, y)),
            INeg => self.lb().map1(s[0], |b, x| b.ins().ineg(x)),
            // udiv/urem by 0 give 0xFFFFFFFF (the divisor is guarded: x86 div would fault).
            UDiv => self.per_lane(&s[..2], |b, v| {
                guarded_div(b, v[0], v[1], DivPart::Quotient)
            }),
            URem => self.per_lane(&s[..2], |b, v| {
                guarded_div(b, v[0], v[1], DivPart::Remainder)
            }),
            IMulHi => self.per_lane(&s[..2], |b, v| {
                let x = b.ins().sextend(types::I64, v[0]);
                let y = b.ins().sextend(types::I64, v[1]);
                let p = b.ins().imul(x, y);
                let p = b.ins().sshr_imm_u(p, 32);
                b.ins().ireduce(types::I32, p)
            }),
            UMulHi => self.per_lane(&s[..2], |b, v| {
                let x = b.ins().uextend(types::I64, v[0]);
                let y = b.ins().uextend(types::I64, v[1]);
                let p = b.ins().imul(x, y);
                let p = b.ins().ushr_imm_u(p, 32);
                b.ins().ireduce(types::I32, p)
            }),
            // uaddc: carry = (a + b) < a; usubb: borrow = a < b.
            UAddCarry => {
                let sum = self.lb().map2(s[0], s[1], |b, x, y| b.ins().iadd(x, y));
                let c = self.icmp(sum, s[0], IntCC::UnsignedLessThan);
                let one = self.lb().splat(1);
                self.lb().and(c, one)
            }
            USubBorrow => {
                let c = self.icmp(s[0], s[1], IntCC::UnsignedLessThan);
                let one = self.lb().splat(1);
                self.lb().and(c, one)
            }
            // bfi/ubfe/ibfe: width and offset use their low 5 bits.
            Bfi => self.per_lane(&s[..4], |b, v| bfi(b, v[0], v[1], v[2], v[3])),
            Ubfe => self.per_lane(&s[..3], |b, v| bfe(b, v[0], v[1], v[2], Sign::Unsigned)),
            Ibfe => self.per_lane(&s[..3], |b, v| bfe(b, v[0], v[1], v[2], Sign::Signed)),
            Bfrev => self.per_lane(&s[..1], |b, v| b.ins().bitrev(v[0])),
            CountBits => self.per_lane(&s[..1], |b, v| b.ins().popcnt(v[0])),
            // firstbit_hi: leading zeros (from the MSB side); 0 gives ~0.
            FirstBitHi => self.per_lane(&s[..1], |b, v| {
                let n = b.ins().clz(v[0]);
                let none = b.ins().iconst(types::I32, -1);
                let z = b.ins().icmp_imm_u(IntCC::Equal, v[0], 0);
                b.ins().select(z, none, n)
            }),
            FirstBitLo => self.per_lane(&s[..1], |b, v| {
                let n = b.ins().ctz(v[0]);
                let none = b.ins().iconst(types::I32, -1);
                let z = b.ins().icmp_imm_u(IntCC::Equal, v[0], 0);
                b.ins().select(z, none, n)
            }),
            // firstbit_shi: for negative values, the first zero bit from the MSB side.
            FirstBitShi => self.per_lane(&s[..1], |b, v| {
                let sign = b.ins().sshr_imm_u(v[0], 31);
                let x = b.ins().bxor(v[0], sign);
                let n = b.ins().clz(x);
                let none = b.ins().iconst(types::I32, -1);
                let z = b.ins().icmp_imm_u(IntCC::Equal, x, 0);
                b.ins().select(z, none, n)
            }),
            Msad => self.per_lane(&s[..3], |b, v| msad(b, v[0], v[1], v[2])),
            IToF => {
                let r = self.lb().map1(s[0], |b, x| b.ins().fcvt_from_sint(FVEC, x));
                self.lb().as_int(r)
            }
            UToF => {
                let r = self.lb().map1(s[0], |b, x| b.ins().fcvt_from_uint(FVEC, x));
                self.lb().as_int(r)
            }
            // ftoi/ftou: round toward zero, saturate, NaN gives 0.
            FToI => {
                let a = self.lb().as_float(s[0]);
                self.lb()
                    .map1(a, |b, x| b.ins().fcvt_to_sint_sat(super::lanes::VEC, x))
            }
            FToU => {
                let a = self.lb().as_float(s[0]);
                self.lb()
                    .map1(a, |b, x| b.ins().fcvt_to_uint_sat(super::lanes::VEC, x))
            }
            F32ToF16 => self.call_vec(HelperId::F32ToF16, s[0]),
            F16ToF32 => self.call_vec(HelperId::F16ToF32, s[0]),
        })
    }
}

/// Which result of an unsigned division an operation keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DivPart {
    /// `udiv`.
    Quotient,
    /// `urem`.
    Remainder,
}

/// How a bit-field extract fills the bits above the field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    /// With zeros (`ubfe`).
    Unsigned,
    /// With the field's top bit (`ibfe`).
    Signed,
}

fn guarded_div(b: &mut FunctionBuilder, x: Value, y: Value, part: DivPart) -> Value {
    let zero = b.ins().icmp_imm_u(IntCC::Equal, y, 0);
    let one = b.ins().iconst(types::I32, 1);
    let safe = b.ins().select(zero, one, y);
    let r = if part == DivPart::Remainder {
        b.ins().urem(x, safe)
    } else {
        b.ins().udiv(x, safe)
    };
    let all = b.ins().iconst(types::I32, -1);
    b.ins().select(zero, all, r)
}

/// `bfi width, offset, src, base`: the low `width` bits of `src` replace bits
/// `offset..offset+width` of `base` (width and offset masked to 5 bits).
fn bfi(b: &mut FunctionBuilder, width: Value, offset: Value, src: Value, base: Value) -> Value {
    let w = b.ins().band_imm_u(width, 31);
    let o = b.ins().band_imm_u(offset, 31);
    let one = b.ins().iconst(types::I64, 1);
    let w64 = b.ins().uextend(types::I64, w);
    let ones = b.ins().ishl(one, w64);
    let ones = b.ins().iadd_imm_s(ones, -1);
    let ones = b.ins().ireduce(types::I32, ones);
    let mask = b.ins().ishl(ones, o);
    let s = b.ins().ishl(src, o);
    let s = b.ins().band(s, mask);
    let keep = b.ins().band_not(base, mask);
    b.ins().bor(s, keep)
}

/// `ubfe`/`ibfe width, offset, src`: width 0 gives 0; when offset + width
/// reaches past bit 31 the field is `src >> offset`.
fn bfe(b: &mut FunctionBuilder, width: Value, offset: Value, src: Value, sign: Sign) -> Value {
    let signed = sign == Sign::Signed;
    let w = b.ins().band_imm_u(width, 31);
    let o = b.ins().band_imm_u(offset, 31);
    let end = b.ins().iadd(w, o);
    let short = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, end, 32);
    let thirty_two = b.ins().iconst(types::I32, 32);
    let left = b.ins().isub(thirty_two, end);
    let right = b.ins().isub(thirty_two, w);
    let shifted = b.ins().ishl(src, left);
    let field = if signed {
        b.ins().sshr(shifted, right)
    } else {
        b.ins().ushr(shifted, right)
    };
    let tail = if signed {
        b.ins().sshr(src, o)
    } else {
        b.ins().ushr(src, o)
    };
    let r = b.ins().select(short, field, tail);
    let zero = b.ins().iconst(types::I32, 0);
    let wz = b.ins().icmp_imm_u(IntCC::Equal, w, 0);
    b.ins().select(wz, zero, r)
}

/// `msad ref, src, accum`: sums |ref.byte - src.byte| over the bytes where `ref` is nonzero.
fn msad(b: &mut FunctionBuilder, r: Value, s: Value, acc: Value) -> Value {
    let mut sum = acc;
    for i in 0..4 {
        let rb = b.ins().ushr_imm_u(r, 8 * i);
        let rb = b.ins().band_imm_u(rb, 0xff);
        let sb = b.ins().ushr_imm_u(s, 8 * i);
        let sb = b.ins().band_imm_u(sb, 0xff);
        let d = b.ins().isub(rb, sb);
        let d = b.ins().iabs(d);
        let zero = b.ins().iconst(types::I32, 0);
        let rz = b.ins().icmp_imm_u(IntCC::Equal, rb, 0);
        let d = b.ins().select(rz, zero, d);
        sum = b.ins().iadd(sum, d);
    }
    sum
}
