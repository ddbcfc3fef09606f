//! The weighted sum of a vector's taps and its quotient by 255.

use super::{Desc, Tr};
use crate::jit::lanes::{le, FVEC, VEC};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use dxjit_runtime::sampler::{InlineSampler, SUBTEXEL_STEPS, UNORM8_SCALE};
use std::mem::offset_of;

/// What a weighted sum of 8-bit texels is divided by: 255 for the unorm
/// scale, times 65536 for the two axes' weights in steps of 256. The sum
/// `S` is an integer below 2^24 and so is this (`0xff0000`), so the one
/// rounded quotient is the runtime's `(S / 65536) / 255`: `S / 65536` is
/// exact in f32, and both are `S / 0xff0000` rounded once.
const FILTER_SCALE: f32 = UNORM8_SCALE * SUBTEXEL_STEPS * SUBTEXEL_STEPS;

/// What the filter divides `S / 256` by: [`FILTER_SCALE`] / 256.
const ROW_SCALE: f32 = FILTER_SCALE / SUBTEXEL_STEPS;

impl Tr<'_, '_> {
    /// A vector's weights from its coordinates in steps `steps` (column,
    /// row), with `kx`, `ky` in 0..=255 steps of 256 (`n & mask`, the
    /// description's `step_mask`): the columns' weights for `pmaddwd`
    /// (`i32x4`, see [`Self::column_weights`]) and the bottom row's, `ky /
    /// 256` (`f32x4`, exact). Both paths to the taps make them and hand
    /// them to the filter as block parameters: being used by every
    /// channel, made in the filter's block they would keep the constants
    /// and fields they are made from out of the instructions' memory
    /// operands (a value used more than once cannot have a load folded
    /// anywhere in what it is computed from).
    pub(super) fn weights(&mut self, mask: Value, steps: [Value; 2]) -> [Value; 2] {
        let [kx, ky] = steps.map(|n| self.b.ins().band(n, mask));
        let columns = self.column_weights(kx);
        let ky = self.b.ins().fcvt_from_sint(FVEC, ky);
        let step = self.lb().f32s(1.0 / SUBTEXEL_STEPS);
        let row = self.b.ins().fmul(ky, step);
        let row = self.b.ins().bitcast(VEC, le(), row);
        [columns, row]
    }

    /// A vector's filtered components (as `i32x4` bit patterns) from its
    /// weights `weights` ([`Self::weights`]) and its taps `rows` (top,
    /// bottom; each two pair vectors): the runtime's `plane::sample`
    /// value, `S / FILTER_SCALE` with `S = Σ wx·wy·texel` rounded once.
    /// Each row's two columns are weighted by one `pmaddwd` per channel
    /// (each lane's left and right values as 16-bit halves): the top row's
    /// `T` and the bottom row's `B`, each at most 255 × 256. Then `S / 256
    /// = T + (ky / 256) × (B − T)` is one FMA in f32 and exact: `T`, `B −
    /// T` and `ky / 256` are exact, `ky × (B − T)` is an integer below
    /// 2^24, and `S / 256` has at most 24 significant bits, so the one
    /// rounding changes nothing. One division by [`ROW_SCALE`] then rounds
    /// as the runtime's. (The rows weighed in 32-bit integers, two
    /// `pmulld` of two µops each and a sum, took 2-6 % longer on K4.) The
    /// byte selections `selects` ([`Self::channel_selects`]) put each
    /// format's red, green, blue and alpha in that order.
    pub(super) fn filter_vector(
        &mut self,
        selects: [Option<Value>; 2],
        weights: [Value; 2],
        rows: [[Value; 2]; 2],
        needed: [bool; 4],
    ) -> [Option<Value>; 4] {
        let [column_weights, row_weight] = weights;
        let column_weights = self.b.ins().bitcast(types::I16X8, le(), column_weights);
        let row_weight = self.b.ins().bitcast(FVEC, le(), row_weight);
        let mut sums: [Option<Value>; 4] = [None; 4];
        for (half, select) in selects.into_iter().enumerate() {
            let Some(select) = select else {
                continue;
            };
            let [top, bottom] = rows.map(|row| self.spread_channels(row, select));
            for (i, channel) in [2 * half, 2 * half + 1].into_iter().enumerate() {
                if !needed[channel] {
                    continue;
                }
                let [top, bottom] =
                    [top[i], bottom[i]].map(|row| self.weigh_columns(row, column_weights));
                let rise = self.b.ins().isub(bottom, top);
                let rise = self.b.ins().fcvt_from_sint(FVEC, rise);
                let top = self.b.ins().fcvt_from_sint(FVEC, top);
                sums[channel] = Some(self.b.ins().fma(rise, row_weight, top));
            }
        }
        sums.map(|s| {
            s.map(|s| {
                let scale = self.lb().f32s(ROW_SCALE);
                let value = self.b.ins().fdiv(s, scale);
                self.b.ins().bitcast(VEC, le(), value)
            })
        })
    }

    /// The description's byte selections ([`InlineSampler::channel_bytes`])
    /// of the halves (red and green, blue and alpha) with a channel
    /// `needed` asks for, loaded once for every vector of a lookup.
    pub(super) fn channel_selects(&mut self, d: Desc, needed: [bool; 4]) -> [Option<Value>; 2] {
        [0, 1].map(|half| {
            (needed[2 * half] || needed[2 * half + 1]).then(|| {
                let bytes = offset_of!(InlineSampler, channel_bytes) + 16 * half;
                self.field(types::I8X16, d, bytes)
            })
        })
    }

    /// One row's two channels of every lane, from the row's two pair
    /// vectors (lanes 0 and 1, lanes 2 and 3: each lane's left texel and
    /// then its right one) through byte selection `select` (one of
    /// [`InlineSampler::channel_bytes`]): per channel, each lane's left and
    /// right values as the two 16-bit halves of its lane (`i16x8`).
    fn spread_channels(&mut self, pairs: [Value; 2], select: Value) -> [Value; 2] {
        let [low, high] = pairs.map(|p| {
            let bytes = self.b.ins().bitcast(types::I8X16, le(), p);
            self.b.ins().x86_pshufb(bytes, select)
        });
        // The low 8 bytes of both (the first channel), then the high 8.
        [0u8, 8].map(|from| {
            let picked: Vec<u8> = (from..from + 8).chain(from + 16..from + 24).collect();
            let picked = self.b.func.dfg.immediates.push(picked.into());
            let words = self.b.ins().shuffle(low, high, picked);
            self.b.ins().bitcast(types::I16X8, le(), words)
        })
    }

    /// Each lane's `left × (256 − k) + right × k` (`i32x4`) for its two
    /// halves of `row` and its weights `weights` (`pmaddwd`: the values
    /// are at most 255 and the weights at most 256, so the 16-bit products
    /// and their sum are exact).
    fn weigh_columns(&mut self, row: Value, weights: Value) -> Value {
        let [row_low, weights_low] = [row, weights].map(|v| self.b.ins().swiden_low(v));
        let [row_high, weights_high] = [row, weights].map(|v| self.b.ins().swiden_high(v));
        let first = self.b.ins().imul(row_low, weights_low);
        let second = self.b.ins().imul(row_high, weights_high);
        self.b.ins().iadd_pairwise(first, second)
    }

    /// The two columns' weights in steps for `k` steps (0..=255), `256 −
    /// k` in the low 16 bits of each lane and `k` in the high 16: `k ×
    /// 65535 + 256`, which is `k × 65536 + (256 − k)`.
    fn column_weights(&mut self, k: Value) -> Value {
        let spread = self.lb().splat(0xffff).v[0];
        let spread = self.b.ins().imul(k, spread);
        let whole = self.lb().splat(SUBTEXEL_STEPS as u32).v[0];
        self.b.ins().iadd(spread, whole)
    }
}

#[cfg(test)]
mod tests {
    use super::{FILTER_SCALE, ROW_SCALE};
    use dxjit_runtime::sampler::{SUBTEXEL_STEPS, UNORM8_SCALE};

    /// Every weighted sum a filter makes (0 to 255 × 65536), divided once
    /// by [`FILTER_SCALE`], rounds as the runtime's sum in steps over
    /// 65536 divided by 255 does.
    #[test]
    fn one_quotient_rounds_as_the_runtimes_two() {
        let steps = SUBTEXEL_STEPS * SUBTEXEL_STEPS;
        for sum in 0..=(UNORM8_SCALE * steps) as u32 {
            let sum = sum as f32;
            let runtime = (sum / steps) / UNORM8_SCALE;
            assert_eq!((sum / FILTER_SCALE).to_bits(), runtime.to_bits(), "{sum}");
        }
    }

    /// The column weights' product form: `k × 65535 + 256` holds `256 − k`
    /// and `k` as 16-bit halves for every weight a filter makes.
    #[test]
    fn column_weights_split_into_halves() {
        for k in 0..=255u32 {
            let both = k * 0xffff + SUBTEXEL_STEPS as u32;
            assert_eq!((both & 0xffff, both >> 16), (256 - k, k));
        }
    }

    /// `S / 256` made as the filter makes it, one FMA of the rows' sums,
    /// is exact for every row weight and for the rows' extreme sums and a
    /// spread of others; its quotient by [`ROW_SCALE`] is the runtime's
    /// for every sum a filter makes.
    #[test]
    fn rows_weighed_in_one_fma_are_exact() {
        let steps = SUBTEXEL_STEPS as i64;
        let most = 255 * steps;
        let mut sums: Vec<i64> = vec![0, 1, 2, 255, 256, most - 1, most];
        let mut x = 0x2545_f491u64;
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            sums.push((x % (most as u64 + 1)) as i64);
        }
        for ky in 0..steps {
            let row = ky as f32 / SUBTEXEL_STEPS;
            for &top in &sums {
                for &bottom in &sums {
                    let exact = top * (steps - ky) + bottom * ky;
                    let rise = (bottom - top) as f32;
                    let made = rise.mul_add(row, top as f32);
                    assert_eq!(made * SUBTEXEL_STEPS, exact as f32, "{top} {bottom} {ky}");
                }
            }
        }
        for sum in 0..=FILTER_SCALE as u32 {
            let sum = sum as f32;
            let runtime = (sum / (SUBTEXEL_STEPS * SUBTEXEL_STEPS)) / UNORM8_SCALE;
            let made = (sum / SUBTEXEL_STEPS) / ROW_SCALE;
            assert_eq!(made.to_bits(), runtime.to_bits(), "{sum}");
        }
    }
}
