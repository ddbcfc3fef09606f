//! The fast path of four-word raw accesses (`ld_raw`/`store_raw` of
//! `.xyzw`): one 16-byte access per lane and a 4x4 transpose, taken when
//! every lane is either wholly inside the buffer or wholly outside it.
//! A lane partly inside needs per-component bounds, so then the exact
//! per-component path runs instead (the caller emits it in `slow`).

use super::lanes::{Lanes, MAX_K, VEC};
use super::memory::Mem;
use super::state::Tr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};

/// Unaligned, non-trapping access flags.
fn flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl Tr<'_, '_> {
    /// Per lane: the 16-byte address (or `fallback` when the lane is wholly
    /// out of bounds, or masked off), and a flag that is set when any lane
    /// is partly in bounds (or its offset wraps).
    fn quad_addrs(
        &mut self,
        m: &Mem,
        off: &Lanes,
        fallback: Value,
        mask: Option<&Lanes>,
    ) -> (Vec<Value>, Value) {
        let mut addrs = Vec::with_capacity(4 * self.k);
        let mut partial = self.b.ins().iconst(types::I8, 0);
        for j in 0..self.k {
            for l in 0..4u8 {
                let b = &mut self.b;
                let o = b.ins().extractlane(off.v[j], l);
                let o = b.ins().uextend(types::I64, o);
                let o = b.ins().band_imm_s(o, !3);
                let end = b.ins().iadd_imm_s(o, 16);
                let full = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, m.size);
                let first = b.ins().iadd_imm_s(o, 4);
                let some = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, first, m.size);
                let part = b.ins().band_not(some, full);
                let ok = match mask {
                    Some(mask) => {
                        let live = b.ins().extractlane(mask.v[j], l);
                        let live = b.ins().icmp_imm_u(IntCC::NotEqual, live, 0);
                        let part_live = b.ins().band(part, live);
                        partial = b.ins().bor(partial, part_live);
                        b.ins().band(full, live)
                    }
                    None => {
                        partial = b.ins().bor(partial, part);
                        full
                    }
                };
                let a = b.ins().iadd(m.ptr, o);
                addrs.push(b.ins().select(ok, a, fallback));
            }
        }
        (addrs, partial)
    }

    /// Transposes four lane vectors `[x, y, z, w]` into four component vectors.
    fn transpose(&mut self, rows: [Value; 4]) -> [Value; 4] {
        let lo = |a: u8, b: u8| -> Vec<u8> {
            (0..16)
                .map(|i| {
                    if i < 8 {
                        a * 8 + i % 8
                    } else {
                        16 + b * 8 + i % 8
                    }
                })
                .collect()
        };
        let imm = |tr: &mut Self, bytes: Vec<u8>| tr.b.func.dfg.immediates.push(bytes.into());
        // t0 = x0 y0 x1 y1 ... via 32-bit interleaves.
        let il_lo = imm(
            self,
            [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23].to_vec(),
        );
        let il_hi = imm(
            self,
            [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31].to_vec(),
        );
        let take_lo = imm(self, lo(0, 0));
        let take_hi = imm(self, lo(1, 1));
        let b = &mut self.b;
        let bytes = |b: &mut cranelift_frontend::FunctionBuilder, v: Value| {
            b.ins().bitcast(types::I8X16, super::lanes::le(), v)
        };
        let r: Vec<Value> = rows.iter().map(|v| bytes(b, *v)).collect();
        let t0 = b.ins().shuffle(r[0], r[1], il_lo); // x0 x1 y0 y1
        let t1 = b.ins().shuffle(r[0], r[1], il_hi); // z0 z1 w0 w1
        let t2 = b.ins().shuffle(r[2], r[3], il_lo); // x2 x3 y2 y3
        let t3 = b.ins().shuffle(r[2], r[3], il_hi); // z2 z3 w2 w3
        let x = b.ins().shuffle(t0, t2, take_lo);
        let y = b.ins().shuffle(t0, t2, take_hi);
        let z = b.ins().shuffle(t1, t3, take_lo);
        let w = b.ins().shuffle(t1, t3, take_hi);
        [x, y, z, w].map(|v| b.ins().bitcast(VEC, super::lanes::le(), v))
    }

    /// Loads `[x, y, z, w]` at `off` for every lane: fast when no lane is
    /// partly in bounds, else through `slow` (which must produce the same
    /// four components). Returns the components, valid after the join.
    pub fn load_quad_fast(
        &mut self,
        m: &Mem,
        off: &Lanes,
        zero: Value,
        slow: impl FnOnce(&mut Self) -> Result<[Lanes; 4], super::JitError>,
    ) -> Result<[Lanes; 4], super::JitError> {
        let (addrs, partial) = self.quad_addrs(m, off, zero, None);
        let fast = self.b.create_block();
        let slow_block = self.b.create_block();
        let join = self.b.create_block();
        let vars: Vec<_> = (0..4).map(|_| self.declare()).collect();
        self.b.ins().brif(partial, slow_block, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let mut comps = [Lanes { v: [zero; MAX_K] }; 4];
        for j in 0..self.k {
            let rows = [0, 1, 2, 3].map(|l| self.b.ins().load(VEC, flags(), addrs[j * 4 + l], 0));
            let t = self.transpose(rows);
            for (c, v) in t.iter().enumerate() {
                comps[c].v[j] = *v;
            }
        }
        for (c, var) in vars.iter().enumerate() {
            self.lb().def_var(*var, comps[c]);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow_block);
        let s = slow(self)?;
        for (c, var) in vars.iter().enumerate() {
            self.lb().def_var(*var, s[c]);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok([0, 1, 2, 3].map(|c| self.lb().use_var(vars[c])))
    }

    /// Stores four components at `off` for every active lane: fast when no
    /// active lane is partly in bounds, else through `slow`.
    pub fn store_quad_fast(
        &mut self,
        m: &Mem,
        off: &Lanes,
        vals: &[Lanes; 4],
        sink: Value,
        exec: &Lanes,
        slow: impl FnOnce(&mut Self) -> Result<(), super::JitError>,
    ) -> Result<(), super::JitError> {
        let (addrs, partial) = self.quad_addrs(m, off, sink, Some(exec));
        let fast = self.b.create_block();
        let slow_block: Block = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(partial, slow_block, &[], fast, &[]);
        self.b.switch_to_block(fast);
        for j in 0..self.k {
            // Transposing components gives one [x, y, z, w] row per lane.
            let rows = self.transpose([vals[0].v[j], vals[1].v[j], vals[2].v[j], vals[3].v[j]]);
            for (l, row) in rows.iter().enumerate() {
                self.b.ins().store(flags(), *row, addrs[j * 4 + l], 0);
            }
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow_block);
        slow(self)?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }
}
