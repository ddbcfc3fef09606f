//! Raw loads whose offsets step by a fixed stride from lane to lane (0, 4
//! or 16 bytes, as thread-indexed arrays give): after checking the guess
//! (see `stride`) against the actual offsets and the buffer's size, one
//! scalar load, one vector load per four lanes, or four row loads and a
//! transpose replace the per-lane gathers. Four-component raw stores whose
//! offsets step by 16 bytes are stored as rows the same way; stores of
//! fewer components at that stride, one store per word from its lane's
//! fixed place, and one-word stores at a stride of 4, one vector store per
//! four lanes. Otherwise the per-lane path runs.

use super::lanes::{Lanes, MAX_K, VEC};
use super::memory::{Addr, Mem};
use super::state::Tr;
use super::vector_memory::flags;
use super::JitError;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Strides with a vector path.
pub const STRIDES: [i64; 3] = [0, 4, 16];

impl Tr<'_, '_> {
    /// Loads the 32-bit words `words` (byte `4 * w` past each lane's
    /// offset) for every lane, through the strided path when the offsets
    /// step by `stride` and every word is in bounds, else per lane.
    pub fn load_strided(
        &mut self,
        m: &Mem,
        off: &Lanes,
        stride: i64,
        words: &[u8],
        zero: Value,
    ) -> Result<Vec<Lanes>, JitError> {
        // The last byte read: the last lane's highest word, or its whole
        // 16-byte row when rows are loaded.
        let last_word = i64::from(words.iter().copied().max().unwrap_or(0));
        let reach = if stride == 16 { 16 } else { 4 * last_word + 4 };
        let (fast_ok, first) = self.strided_in_bounds(m, off, stride, reach);
        let b = &mut self.b;
        let fast = b.create_block();
        let slow = b.create_block();
        let join = b.create_block();
        let vars: Vec<_> = words.iter().map(|_| self.declare()).collect();
        self.b.ins().brif(fast_ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let base = self.b.ins().iadd(m.ptr, first);
        let values = self.strided_words(base, stride, words);
        for (var, v) in vars.iter().zip(values) {
            self.lb().def_var(*var, v);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        // Per lane, inline: a helper call here would make every vector
        // value live across it spill, and the allocator then keeps loop
        // state on the stack for the whole function (measured on k1_alu:
        // 150 ms became 195 ms).
        for (var, w) in vars.iter().zip(words) {
            let addrs = self.lane_addrs(m, Addr::Raw(off), 4 * u32::from(*w), zero, None);
            let v = self.gather(&addrs);
            self.lb().def_var(*var, v);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(vars.iter().map(|v| self.lb().use_var(*v)).collect())
    }

    /// Whether every lane's offset (its low two bits cleared) is lane 0's
    /// plus `stride` per lane and the last lane's `reach` bytes end inside
    /// the buffer, as an `i8` flag, and lane 0's offset as an `i64`.
    pub(super) fn strided_in_bounds(
        &mut self,
        m: &Mem,
        off: &Lanes,
        stride: i64,
        reach: i64,
    ) -> (Value, Value) {
        let lanes = i64::from(self.lanes());
        let low_bits = self.lb().splat(!3);
        let first = self.b.ins().extractlane(off.v[0], 0);
        let first = self.b.ins().band_imm_s(first, !3);
        let first_v = self.b.ins().splat(types::I32X4, first);
        let mut all = None;
        for j in 0..self.k {
            let steps: Vec<u32> = (0..4)
                .map(|l| (stride * (4 * j as i64 + l)) as u32)
                .collect();
            let steps = self
                .lb()
                .splat_words([steps[0], steps[1], steps[2], steps[3]]);
            let b = &mut self.b;
            let expect = b.ins().iadd(first_v, steps);
            let o = b.ins().band(off.v[j], low_bits.v[j]);
            let eq = b.ins().icmp(IntCC::Equal, o, expect);
            all = Some(match all {
                Some(a) => b.ins().band(a, eq),
                None => eq,
            });
        }
        let b = &mut self.b;
        let matches = b.ins().vall_true(all.expect("k >= 1"));
        let first = b.ins().uextend(types::I64, first);
        let end = b.ins().iadd_imm_s(first, stride * (lanes - 1) + reach);
        let fits = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, m.size);
        (b.ins().band(matches, fits), first)
    }

    /// Whether every lane of `exec` runs, as an `i8` flag.
    pub(super) fn every_lane_runs(&mut self, exec: &Lanes) -> Value {
        let mut active = exec.v[0];
        for j in 1..self.k {
            active = self.b.ins().band(active, exec.v[j]);
        }
        self.b.ins().vall_true(active)
    }

    /// Stores four components at each lane's offset when the offsets step
    /// by 16 bytes from lane to lane, every lane runs and every row is in
    /// bounds: the components transposed into rows and stored one after
    /// another from lane 0's offset. Otherwise the per-lane path runs.
    pub fn store_rows_strided(
        &mut self,
        m: &Mem,
        off: &Lanes,
        vals: &[Lanes; 4],
        sink: Value,
        exec: &Lanes,
    ) -> Result<(), JitError> {
        self.store_strided(
            m,
            off,
            (16, 16),
            exec,
            |t, base| {
                for j in 0..t.k {
                    let rows = t.transpose(vals.map(|v| v.v[j]));
                    for (l, row) in rows.into_iter().enumerate() {
                        let at = 16 * (4 * j + l) as i32;
                        t.b.ins().store(flags(), row, base, at);
                    }
                }
            },
            |t| t.store_raw_quad(m, off, vals, sink, exec),
        )
    }

    /// Stores `vals[c]` at word `c` past each lane's offset when the
    /// offsets step by `stride` bytes from lane to lane (16, or 4 for one
    /// word), every lane runs and every word is in bounds: at a stride of
    /// 4 one vector store per four lanes, at 16 one store per word from
    /// its lane's fixed place, with no address made per lane. Otherwise
    /// the per-lane path runs.
    pub fn store_words_strided(
        &mut self,
        m: &Mem,
        off: &Lanes,
        vals: &[Lanes],
        stride: i64,
        sink: Value,
        exec: &Lanes,
    ) -> Result<(), JitError> {
        let reach = 4 * vals.len() as i64;
        self.store_strided(
            m,
            off,
            (stride, reach),
            exec,
            |t, base| {
                for j in 0..t.k {
                    if stride == 4 {
                        t.b.ins().store(flags(), vals[0].v[j], base, 16 * j as i32);
                        continue;
                    }
                    for (c, v) in vals.iter().enumerate() {
                        for l in 0..4u8 {
                            let word = t.b.ins().extractlane(v.v[j], l);
                            let at = 16 * (4 * j as i32 + i32::from(l)) + 4 * c as i32;
                            t.b.ins().store(flags(), word, base, at);
                        }
                    }
                }
            },
            |t| t.store_words(m, Addr::Raw(off), vals, sink, exec),
        )
    }

    /// A strided store: `fast` (given lane 0's address) when the offsets
    /// step by `stride` bytes, every lane runs and the last lane's `reach`
    /// bytes end in bounds (`layout` is (stride, reach)); otherwise `slow`,
    /// out of line.
    fn store_strided(
        &mut self,
        m: &Mem,
        off: &Lanes,
        layout: (i64, i64),
        exec: &Lanes,
        fast: impl FnOnce(&mut Self, Value),
        slow: impl FnOnce(&mut Self) -> Result<(), JitError>,
    ) -> Result<(), JitError> {
        let (in_bounds, first) = self.strided_in_bounds(m, off, layout.0, layout.1);
        let active = self.every_lane_runs(exec);
        let fast_ok = self.b.ins().band(in_bounds, active);
        let fast_block = self.b.create_block();
        let slow_block = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(fast_ok, fast_block, &[], slow_block, &[]);
        self.b.switch_to_block(fast_block);
        let base = self.b.ins().iadd(m.ptr, first);
        fast(self, base);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow_block);
        self.b.set_cold_block(slow_block);
        slow(self)?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }

    /// The words at `base + stride * lane + 4 * w`, all known in bounds.
    fn strided_words(&mut self, base: Value, stride: i64, words: &[u8]) -> Vec<Lanes> {
        let b = &mut self.b;
        match stride {
            0 => words
                .iter()
                .map(|w| {
                    let x = b.ins().load(types::I32, flags(), base, 4 * i32::from(*w));
                    let v = b.ins().splat(VEC, x);
                    Lanes { v: [v; MAX_K] }
                })
                .collect(),
            4 => words
                .iter()
                .map(|w| {
                    let mut out = Lanes { v: [base; MAX_K] };
                    for j in 0..self.k {
                        let at = 4 * i32::from(*w) + 16 * j as i32;
                        out.v[j] = self.b.ins().load(VEC, flags(), base, at);
                    }
                    out
                })
                .collect(),
            _ => {
                let mut out = vec![Lanes { v: [base; MAX_K] }; words.len()];
                for j in 0..self.k {
                    let rows = [0, 1, 2, 3].map(|l| {
                        let at = (stride * (4 * j as i64 + l)) as i32;
                        self.b.ins().load(VEC, flags(), base, at)
                    });
                    let columns = self.transpose(rows);
                    for (o, w) in out.iter_mut().zip(words) {
                        o.v[j] = columns[*w as usize & 3];
                    }
                }
                out
            }
        }
    }
}
