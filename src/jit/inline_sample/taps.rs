//! The texels of a vector's lanes' bilinear taps, per row as two pair
//! vectors: lanes 0 and 1, then lanes 2 and 3, each lane's first column's
//! texel followed by its second's.

use super::{Desc, Tr};
use crate::jit::lanes::{le, VEC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::sampler::InlineSampler;
use std::mem::offset_of;

/// Where a lookup's pair loads read: the row pitch in each lane, and the
/// address of the texture's second row (where each lane's bottom pair is,
/// at its top pair's offset).
#[derive(Clone, Copy)]
pub(super) struct PairRows {
    pitch: Value,
    second: Value,
}

impl Tr<'_, '_> {
    /// Where a lookup's pair loads read (see [`PairRows`]), loaded once
    /// for every vector of the lookup.
    pub(super) fn pair_rows(&mut self, d: Desc) -> PairRows {
        let pitch = self.field(VEC, d, offset_of!(InlineSampler, row_pitch));
        let bytes = self.b.ins().uload32(
            MemFlagsData::trusted(),
            d.at,
            offset_of!(InlineSampler, row_pitch) as i32,
        );
        let second = self.b.ins().iadd(d.texels, bytes);
        PairRows { pitch, second }
    }

    /// The taps of lanes whose first taps `first` (column, row) have their
    /// second taps next to them, inside the texture: each lane's pair of
    /// a row is one 8-byte load, the bottom row's at the same offset from
    /// the texture's second row.
    pub(super) fn fetch_pairs(
        &mut self,
        d: Desc,
        rows: PairRows,
        first: [Value; 2],
    ) -> [[Value; 2]; 2] {
        let row = self.b.ins().imul(first[1], rows.pitch);
        let column = self.b.ins().ishl_imm_u(first[0], 2);
        let at = self.b.ins().iadd(row, column);
        let offsets = self.lane_offsets(at);
        [d.texels, rows.second].map(|base| self.load_pairs(base, offsets))
    }

    /// The taps of lanes at coordinates in steps `steps` (column, row),
    /// moved by `offset`, each wrapped or clamped as the description says
    /// and loaded alone.
    pub(super) fn fetch_singles(
        &mut self,
        d: Desc,
        steps: [Value; 2],
        offset: [i8; 3],
    ) -> [[Value; 2]; 2] {
        let mut taps = Vec::new();
        for (axis, n) in steps.into_iter().enumerate() {
            let mut first = self.b.ins().sshr_imm_u(n, 8);
            if offset[axis] != 0 {
                let moved = self.lb().splat(i32::from(offset[axis]) as u32).v[0];
                first = self.b.ins().iadd(first, moved);
            }
            let one = self.lb().splat(1).v[0];
            let second = self.b.ins().iadd(first, one);
            taps.push([first, second].map(|i| {
                let wrap = self.field(VEC, d, offset_of!(InlineSampler, wrap_mask) + 16 * axis);
                let wrapped = self.b.ins().band(i, wrap);
                let zero = self.lb().splat(0).v[0];
                let above = self.b.ins().smax(wrapped, zero);
                let last = self.field(VEC, d, offset_of!(InlineSampler, last) + 16 * axis);
                self.b.ins().smin(above, last)
            }));
        }
        let pitch = self.field(VEC, d, offset_of!(InlineSampler, row_pitch));
        let rows = taps[1].map(|y| self.b.ins().imul(y, pitch));
        let columns = taps[0].map(|x| self.b.ins().ishl_imm_u(x, 2));
        rows.map(|row| {
            let [left, right] = columns.map(|column| {
                let at = self.b.ins().iadd(row, column);
                self.load_texels(d.texels, at)
            });
            [[0u8, 4, 1, 5], [2, 6, 3, 7]].map(|lanes| self.shuffle_words(left, right, lanes))
        })
    }

    /// The 32-bit lanes `lanes` of `a` (0–3) and `b` (4–7), as `i32x4`.
    fn shuffle_words(&mut self, a: Value, b: Value, lanes: [u8; 4]) -> Value {
        let bytes: Vec<u8> = lanes
            .iter()
            .flat_map(|&l| (0..4).map(move |i| 4 * l + i))
            .collect();
        let mask = self.b.func.dfg.immediates.push(bytes.into());
        let [a, b] = [a, b].map(|v| self.b.ins().bitcast(types::I8X16, le(), v));
        let picked = self.b.ins().shuffle(a, b, mask);
        self.b.ins().bitcast(VEC, le(), picked)
    }

    /// The texel at byte offset `offsets[l]` from `base` and the one after
    /// it, one 8-byte load per lane: lanes 0 and 1's pairs, then lanes 2
    /// and 3's.
    fn load_pairs(&mut self, base: Value, offsets: [Value; 4]) -> [Value; 2] {
        let words = offsets.map(|offset| {
            let address = self.b.ins().iadd(base, offset);
            self.b.ins().load(
                types::I64,
                MemFlagsData::trusted().with_readonly(),
                address,
                0,
            )
        });
        [0, 2].map(|l| {
            let v = self.b.ins().scalar_to_vector(types::I64X2, words[l]);
            let v = self.b.ins().insertlane(v, words[l + 1], 1);
            self.b.ins().bitcast(VEC, le(), v)
        })
    }

    /// The 32-bit texels at byte offsets `at` (one per lane) from `texels`.
    fn load_texels(&mut self, texels: Value, at: Value) -> Value {
        let mut out = at;
        for (l, offset) in (0..4u8).zip(self.lane_offsets(at)) {
            let address = self.b.ins().iadd(texels, offset);
            let word = self.b.ins().load(
                types::I32,
                MemFlagsData::trusted().with_readonly(),
                address,
                0,
            );
            out = self.b.ins().insertlane(out, word, l);
        }
        out
    }

    /// The four lanes of `at` (unsigned byte offsets) as 64-bit integers:
    /// two 64-bit extractions, each split into its low word (a zero
    /// extension) and its high word (a shift), one instruction fewer per
    /// pair of lanes than an extraction and a zero extension per lane.
    fn lane_offsets(&mut self, at: Value) -> [Value; 4] {
        let pairs = self.b.ins().bitcast(types::I64X2, le(), at);
        let mut out = [at; 4];
        for half in 0..2u8 {
            let both = self.b.ins().extractlane(pairs, half);
            let low = self.b.ins().ireduce(types::I32, both);
            out[2 * half as usize] = self.b.ins().uextend(types::I64, low);
            out[2 * half as usize + 1] = self.b.ins().ushr_imm_u(both, 32);
        }
        out
    }
}
