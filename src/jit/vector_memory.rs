//! Four-word raw accesses (`ld_raw`/`store_raw` of `.xyzw`): one 16-byte
//! access per lane and a 4x4 transpose when every lane is either wholly
//! inside the buffer or wholly outside it. A lane partly inside needs
//! per-component bounds; then the runtime's exact path runs instead
//! (`dxjit_runtime::raw_quad`), out of line, as it is rare.

use super::helpers::HelperId;
use super::lane_addr::{pair_addrs, widen_half, Extend};
use super::lanes::{Lanes, MAX_K, VEC};
use super::memory::Mem;
use super::state::Tr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::raw_quad::{COMPONENTS, MASK, OFFSETS};

/// Unaligned, non-trapping access flags.
pub fn flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl Tr<'_, '_> {
    /// Per lane: the 16-byte address (or `fallback` when the lane is wholly
    /// out of bounds, or masked off), and a flag that is set when any
    /// (active) lane is partly in bounds.
    fn quad_addrs(
        &mut self,
        m: &Mem,
        off: &Lanes,
        fallback: Value,
        mask: Option<&Lanes>,
    ) -> (Vec<Value>, Value) {
        let low_bits = self.lb().splat(!3);
        let whole = self.word_bound(m.size, 12);
        let whole = self.b.ins().splat(types::I32X4, whole);
        let first = self.word_bound(m.size, 0);
        let first = self.b.ins().splat(types::I32X4, first);
        let ptr = self.b.ins().splat(types::I64X2, m.ptr);
        let fallback = self.b.ins().splat(types::I64X2, fallback);
        let mut addrs = Vec::with_capacity(4 * self.k);
        let mut partial = None;
        for j in 0..self.k {
            let inputs = |j: usize| (off.v[j], mask.map(|m| m.v[j]));
            if j > 0 && inputs(j) == inputs(j - 1) {
                addrs.extend_from_within(addrs.len() - 4..);
                continue;
            }
            let b = &mut self.b;
            let o = b.ins().band(off.v[j], low_bits.v[j]);
            let mut full = b.ins().icmp(IntCC::UnsignedLessThan, o, whole);
            let some = b.ins().icmp(IntCC::UnsignedLessThan, o, first);
            let mut part = b.ins().band_not(some, full);
            if let Some(mask) = mask {
                full = b.ins().band(full, mask.v[j]);
                part = b.ins().band(part, mask.v[j]);
            }
            partial = Some(match partial {
                Some(p) => b.ins().bor(p, part),
                None => part,
            });
            for half in 0..2 {
                let o64 = widen_half(b, o, half, Extend::Zero);
                let ok64 = widen_half(b, full, half, Extend::Sign);
                addrs.extend(pair_addrs(b, o64, ok64, ptr, fallback));
            }
        }
        let partial = partial.expect("k >= 1");
        (addrs, self.b.ins().vany_true(partial))
    }

    /// Calls a `dxjit_runtime::raw_quad` helper with the per-lane offsets,
    /// masks and components in the helper argument block; returns the
    /// block's address.
    fn call_raw_quad(
        &mut self,
        helper: HelperId,
        m: &Mem,
        off: &Lanes,
        mask: Option<&Lanes>,
        vals: Option<&[Lanes; 4]>,
    ) -> Result<Value, super::JitError> {
        let f = self.helper(helper);
        let args = self.args_ptr();
        let lanes = self.lanes();
        for j in 0..self.k {
            let at = |word: usize| (4 * (word + 4 * j)) as i32;
            self.b.ins().store(flags(), off.v[j], args, at(OFFSETS));
            if let Some(mask) = mask {
                self.b.ins().store(flags(), mask.v[j], args, at(MASK));
            }
            if let Some(vals) = vals {
                for (c, v) in vals.iter().enumerate() {
                    let word = COMPONENTS + c * lanes as usize;
                    self.b.ins().store(flags(), v.v[j], args, at(word));
                }
            }
        }
        let n = self.b.ins().iconst(types::I32, i64::from(lanes));
        self.b.ins().call(f, &[m.ptr, m.size, args, n]);
        Ok(args)
    }

    /// Transposes four lane vectors `[x, y, z, w]` into four component vectors.
    pub fn transpose(&mut self, rows: [Value; 4]) -> [Value; 4] {
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

    /// Loads `[x, y, z, w]` at `off` for every lane: vectorised when no
    /// lane is partly in bounds, else word by word in the runtime.
    pub fn load_raw_quad(
        &mut self,
        m: &Mem,
        off: &Lanes,
        zero: Value,
    ) -> Result<[Lanes; 4], super::JitError> {
        let (addrs, partial) = self.quad_addrs(m, off, zero, None);
        let fast = self.b.create_block();
        let slow_block = self.b.create_block();
        let join = self.b.create_block();
        let vars: Vec<_> = (0..4).map(|_| self.declare()).collect();
        self.b.ins().brif(partial, slow_block, &[], fast, &[]);
        self.b.set_cold_block(slow_block);
        self.b.switch_to_block(fast);
        let mut comps = [Lanes { v: [zero; MAX_K] }; 4];
        for j in 0..self.k {
            if j > 0 && addrs[j * 4..j * 4 + 4] == addrs[j * 4 - 4..j * 4] {
                for comp in comps.iter_mut() {
                    comp.v[j] = comp.v[j - 1];
                }
                continue;
            }
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
        let args = self.call_raw_quad(HelperId::RawLoad4, m, off, None, None)?;
        let lanes = self.lanes() as usize;
        for (c, var) in vars.iter().enumerate() {
            let v = self.load_lanes(args, (4 * (COMPONENTS + c * lanes)) as i32);
            self.lb().def_var(*var, v);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok([0, 1, 2, 3].map(|c| self.lb().use_var(vars[c])))
    }

    /// Stores four components at `off` for every active lane: vectorised
    /// when no active lane is partly in bounds, else word by word in the
    /// runtime.
    pub fn store_raw_quad(
        &mut self,
        m: &Mem,
        off: &Lanes,
        vals: &[Lanes; 4],
        sink: Value,
        exec: &Lanes,
    ) -> Result<(), super::JitError> {
        let (addrs, partial) = self.quad_addrs(m, off, sink, Some(exec));
        let fast = self.b.create_block();
        let slow_block: Block = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(partial, slow_block, &[], fast, &[]);
        self.b.set_cold_block(slow_block);
        self.b.switch_to_block(fast);
        let row_inputs = |j: usize| vals.map(|v| v.v[j]);
        let mut rows = [sink; 4];
        for j in 0..self.k {
            let same_rows = j > 0 && row_inputs(j) == row_inputs(j - 1);
            if same_rows && addrs[j * 4..j * 4 + 4] == addrs[j * 4 - 4..j * 4] {
                continue;
            }
            // Transposing components gives one [x, y, z, w] row per lane.
            if !same_rows {
                rows = self.transpose(row_inputs(j));
            }
            for (l, row) in rows.iter().enumerate() {
                self.b.ins().store(flags(), *row, addrs[j * 4 + l], 0);
            }
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow_block);
        self.call_raw_quad(HelperId::RawStore4, m, off, Some(exec), Some(vals))?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }
}
