//! `imm_atomic_alloc` / `imm_atomic_consume`: the hidden counter of a UAV.
//!
//! One call makes a single atomic read-modify-write of the counter by the
//! number of active lanes, then hands each active lane its own value from a
//! prefix count in lane order. That costs one locked instruction per call
//! instead of one per lane, and the values one call's lanes receive are
//! consecutive even while other threads use the same counter (per-lane
//! atomics could interleave with theirs).

use super::lanes::{Lanes, MAX_K, VEC};
use super::state::Tr;
use super::JitError;
use crate::ir::{Dst, Resource};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, InstBuilder, MemFlagsData};
use dxjit_runtime::abi::{Frame, UAV_SLOTS};
use std::mem::offset_of;

impl Tr<'_, '_> {
    /// Counter step for `res` (`consume`: decrement, else increment); `dst`
    /// gets the counter before the step (alloc) or after it (consume) in
    /// active lanes, 0 everywhere when no counter is bound.
    pub fn emit_uav_counter(
        &mut self,
        dst: &Dst,
        res: Resource,
        consume: bool,
    ) -> Result<(), JitError> {
        let slot = match res {
            Resource::Uav(s) if (s as usize) < UAV_SLOTS => s,
            _ => return Err(JitError::Invalid(format!("UAV counter of {res:?}"))),
        };
        let counters = self.frame_ptr(offset_of!(Frame, uav_counters));
        let flags = MemFlagsData::trusted();
        let counter = self
            .b
            .ins()
            .load(types::I64, flags, counters, 8 * slot as i32);
        let bound = self.b.ins().icmp_imm_s(IntCC::NotEqual, counter, 0);
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let addr = self.b.ins().select(bound, counter, sink);

        // prefix[i]: active lanes before lane i; `running` ends as their count.
        let exec = self.exec();
        let mut running = self.b.ins().iconst(types::I32, 0);
        let mut prefix = Vec::with_capacity(4 * self.k);
        for j in 0..self.k {
            for l in 0..4u8 {
                prefix.push(running);
                let e = self.b.ins().extractlane(exec.v[j], l);
                let bit = self.b.ins().band_imm_u(e, 1);
                running = self.b.ins().iadd(running, bit);
            }
        }
        let rmw = if consume {
            AtomicRmwOp::Sub
        } else {
            AtomicRmwOp::Add
        };
        let old = self
            .b
            .ins()
            .atomic_rmw(types::I32, flags, rmw, addr, running);
        // keep: all ones when a counter is bound, else 0 (every lane gets 0).
        let zero = self.b.ins().iconst(types::I32, 0);
        let bound = self.b.ins().uextend(types::I32, bound);
        let keep = self.b.ins().isub(zero, bound);
        // The lane with prefix p sees the counter after p steps (alloc) or
        // after p + 1 (consume).
        let first = if consume {
            self.b.ins().iadd_imm_s(old, -1)
        } else {
            old
        };
        let first = self.b.ins().band(first, keep);
        let mut out = Lanes { v: [zero; MAX_K] };
        for j in 0..self.k {
            let mut acc = self.b.ins().splat(VEC, zero);
            for l in 0..4u8 {
                let p = self.b.ins().band(prefix[j * 4 + l as usize], keep);
                let v = if consume {
                    self.b.ins().isub(first, p)
                } else {
                    self.b.ins().iadd(first, p)
                };
                acc = self.b.ins().insertlane(acc, v, l);
            }
            out.v[j] = acc;
        }
        self.write_each(dst, out)
    }
}
