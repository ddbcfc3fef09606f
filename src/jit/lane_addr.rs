//! Per-lane guarded addresses of 32-bit words in a buffer or group-shared
//! block, computed in vectors: offsets and bounds checks four lanes at a
//! time in `i32x4`, then addresses two lanes at a time in `i64x2`, where an
//! out-of-bounds or masked-off lane gets the fallback address.

use super::lanes::Lanes;
use super::memory::{Addr, Mem};
use super::state::Tr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;

/// How [`widen_half`] fills the upper 32 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extend {
    /// With zeros: offsets and indices.
    Zero,
    /// With the sign bit: lane masks stay all ones or zero.
    Sign,
}

/// Lanes `2 * half` and `2 * half + 1` of the `i32x4` `v` as an `i64x2`,
/// extended as `extend` says.
pub fn widen_half(b: &mut FunctionBuilder, v: Value, half: usize, extend: Extend) -> Value {
    match (half, extend) {
        (0, Extend::Zero) => b.ins().uwiden_low(v),
        (0, Extend::Sign) => b.ins().swiden_low(v),
        (_, Extend::Zero) => b.ins().uwiden_high(v),
        (_, Extend::Sign) => b.ins().swiden_high(v),
    }
}

/// The addresses `ptr + byte` of a lane pair (`i64x2` operands), or
/// `fallback` where the lane's `ok` mask is clear.
pub fn pair_addrs(
    b: &mut FunctionBuilder,
    byte: Value,
    ok: Value,
    ptr: Value,
    fallback: Value,
) -> [Value; 2] {
    let a = b.ins().iadd(byte, ptr);
    let a = b.ins().bitselect(ok, a, fallback);
    [b.ins().extractlane(a, 0), b.ins().extractlane(a, 1)]
}

impl Tr<'_, '_> {
    /// `max(total - 3 - extra, 0)` clamped to 32 bits: a 4-byte access at
    /// byte `o + extra` ends inside `total` bytes exactly when `o` is
    /// (unsigned) below it.
    pub fn word_bound(&mut self, total: Value, extra: u32) -> Value {
        let b = &mut self.b;
        let t = b.ins().iadd_imm_s(total, -3 - i64::from(extra));
        let zero = b.ins().iconst(types::I64, 0);
        let t = b.ins().smax(t, zero);
        let max = b.ins().iconst(types::I64, i64::from(u32::MAX));
        let t = b.ins().umin(t, max);
        b.ins().ireduce(types::I32, t)
    }

    /// Per-lane addresses of the 32-bit word `extra` bytes past `addr`:
    /// in-bounds (and, with `mask`, active) lanes get the real address,
    /// the others `fallback`.
    pub fn lane_addrs(
        &mut self,
        m: &Mem,
        addr: Addr,
        extra: u32,
        fallback: Value,
        mask: Option<&Lanes>,
    ) -> Vec<Value> {
        let low_bits = self.lb().splat(!3);
        let extra_v = self.lb().splat(extra);
        let ptr = self.b.ins().splat(types::I64X2, m.ptr);
        let fallback = self.b.ins().splat(types::I64X2, fallback);
        let (limit, buf_limit) = match addr {
            Addr::Raw(_) => (m.size, None),
            Addr::Structured(..) => {
                let t = self.b.ins().iadd_imm_s(m.size, -3);
                let zero = self.b.ins().iconst(types::I64, 0);
                let t = self.b.ins().smax(t, zero);
                (m.stride, Some(self.b.ins().splat(types::I64X2, t)))
            }
        };
        let bound = self.word_bound(limit, extra);
        let bound = self.b.ins().splat(types::I32X4, bound);
        let stride = self.b.ins().splat(types::I64X2, m.stride);
        let mut out = Vec::with_capacity(4 * self.k);
        let inputs = |j: usize| {
            let (index, offset) = match addr {
                Addr::Raw(off) => (None, off.v[j]),
                Addr::Structured(index, off) => (Some(index.v[j]), off.v[j]),
            };
            (index, offset, mask.map(|m| m.v[j]))
        };
        for j in 0..self.k {
            if j > 0 && inputs(j) == inputs(j - 1) {
                out.extend_from_within(out.len() - 4..);
                continue;
            }
            let offset = inputs(j).1;
            let b = &mut self.b;
            let o = b.ins().band(offset, low_bits.v[j]);
            let mut ok = b.ins().icmp(IntCC::UnsignedLessThan, o, bound);
            if let Some(mask) = mask {
                ok = b.ins().band(ok, mask.v[j]);
            }
            let o = b.ins().iadd(o, extra_v.v[j]);
            for half in 0..2 {
                let o64 = widen_half(b, o, half, Extend::Zero);
                let ok64 = widen_half(b, ok, half, Extend::Sign);
                let (byte, ok64) = match (addr, buf_limit) {
                    (Addr::Structured(index, _), Some(buf_limit)) => {
                        let i = widen_half(b, index.v[j], half, Extend::Zero);
                        let base = b.ins().imul(i, stride);
                        let byte = b.ins().iadd(base, o64);
                        let in_buf = b.ins().icmp(IntCC::UnsignedLessThan, byte, buf_limit);
                        (byte, b.ins().band(ok64, in_buf))
                    }
                    _ => (o64, ok64),
                };
                out.extend(pair_addrs(b, byte, ok64, ptr, fallback));
            }
        }
        out
    }
}
