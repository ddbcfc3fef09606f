//! Texture lookups filtered in compiled code.
//!
//! For each (texture, sampler) pair a program samples without comparison
//! from a 2D texture, the runtime describes the bound pair in an
//! [`InlineSampler`]. When that description has texels, the quad is
//! filtered here in vectors — taps, addressing, weights, texel decode and
//! the weighted sum — in integers whose sum is exactly the runtime's
//! `plane::sample` sum, so the results are the runtime's bit for bit; otherwise,
//! and for quads whose texel coordinates are too large or not numbers, the
//! runtime's `dxjit_sample_quad` runs as before, out of line.

use super::lanes::{LaneVar, Lanes, FVEC, MAX_K, VEC};
use super::state::Tr;
use super::JitError;
use crate::ir::{Dim, Inst, Program, ResourceKind};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, BlockArg, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::Frame;
use dxjit_runtime::sampler::{
    InlineSampler, INLINE_COORD_LIMIT, INLINE_PAIRS, SUBTEXEL_STEPS, UNORM8_SCALE,
};
use std::mem::{offset_of, size_of};

/// The (SRV slot, sampler slot) pairs of `prog`'s lookups that compiled
/// code may filter itself: lookups without comparison from a declared 2D
/// texture, in order of first use, at most [`INLINE_PAIRS`].
pub fn inline_pairs(prog: &Program) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for inst in prog.bodies().flatten() {
        let Inst::Sample {
            res,
            sampler,
            compare: None,
            slots: None,
            ..
        } = inst
        else {
            continue;
        };
        let two_d = prog
            .srvs
            .iter()
            .any(|d| d.slot == *res && d.kind == ResourceKind::Typed(Dim::Texture2D));
        let fits = *res <= u32::from(u8::MAX) && *sampler <= u32::from(u8::MAX);
        if two_d && fits && !pairs.contains(&(*res, *sampler)) && pairs.len() < INLINE_PAIRS {
            pairs.push((*res, *sampler));
        }
    }
    pairs
}

/// One axis of a quad's lookup after the floor: the texel coordinate and
/// its floor, per vector.
struct Axis {
    x: [Value; MAX_K],
    low: [Value; MAX_K],
}

/// The pair's description, loaded once per lookup: uniform vectors.
struct Desc {
    texels: Value,
    pitch: Value,
    fraction_mask: Value,
    wrap_mask: [Value; 2],
    last: [Value; 2],
    /// The description's address, for fields read after the taps.
    at: Value,
}

/// The constant vectors a lookup's addressing uses, made once per lookup
/// rather than at each use: the backend cannot fold a constant into an
/// operand whose result is used twice, so each use would load it again.
#[derive(Clone, Copy)]
struct AddressConstants {
    /// 0 and 1 in every lane (`i32x4`).
    zero: Value,
    one: Value,
    /// `SUBTEXEL_STEPS` as a float.
    steps: Value,
}

/// The constant vectors a vector's weighting uses, made once the taps are
/// fetched (so that they are not held across the addressing).
#[derive(Clone, Copy)]
struct FilterConstants {
    /// `SUBTEXEL_STEPS` as an integer.
    steps: Value,
    /// `1 / SUBTEXEL_STEPS²` and `1 / SUBTEXEL_STEPS`: a row's weight unit
    /// and its whole.
    row_unit: Value,
    row_whole: Value,
    /// `UNORM8_SCALE` and its rounded reciprocal.
    scale: Value,
    inverse: Value,
}

impl Tr<'_, '_> {
    /// Runs a lookup through pair `pair` of the program's inline pairs: in
    /// compiled code when the runtime's description of the pair allows it,
    /// otherwise through `runtime`. Returns the components `needed` asks
    /// for (the others are zeros).
    pub fn sample_inline(
        &mut self,
        pair: usize,
        coords: &[Lanes],
        offset: [i8; 3],
        needed: [bool; 4],
        runtime: impl FnOnce(&mut Self) -> Result<[Lanes; 4], JitError>,
    ) -> Result<[Lanes; 4], JitError> {
        let vars: Vec<(usize, LaneVar)> = (0..4)
            .filter(|c| needed[*c])
            .map(|c| (c, self.lb().declare()))
            .collect();
        let table = self.frame_ptr(offset_of!(Frame, inline_samplers));
        let desc = self
            .b
            .ins()
            .iadd_imm_s(table, (pair * size_of::<InlineSampler>()) as i64);
        let texels = self.b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            desc,
            offset_of!(InlineSampler, texels) as i32,
        );
        let check = self.b.create_block();
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(texels, check, &[], slow, &[]);

        self.b.switch_to_block(check);
        let center = self.load_field(FVEC, desc, offset_of!(InlineSampler, center));
        let mut axes = Vec::new();
        let mut in_range = None;
        let limit = self.lb().f32s(INLINE_COORD_LIMIT);
        // `|x|` as one `andps` with a mask made once, where `fabs` would
        // build its mask at each use.
        let magnitude_bits = self.lb().f32s(f32::from_bits(0x7fff_ffff));
        for (axis, coord) in coords.iter().take(2).enumerate() {
            let size = self.load_field(FVEC, desc, offset_of!(InlineSampler, size) + 16 * axis);
            let mut a = Axis {
                x: coord.v,
                low: coord.v,
            };
            for j in 0..self.k {
                let u = self.b.ins().bitcast(FVEC, super::lanes::le(), coord.v[j]);
                let scaled = self.b.ins().fmul(u, size);
                let x = self.b.ins().fsub(scaled, center);
                let magnitude = self.b.ins().band(x, magnitude_bits);
                let ok = self.b.ins().fcmp(FloatCC::LessThan, magnitude, limit);
                in_range = Some(match in_range {
                    None => ok,
                    Some(all) => self.b.ins().band(all, ok),
                });
                a.x[j] = x;
                a.low[j] = self.b.ins().floor(x);
            }
            axes.push(a);
        }
        let all_in_range = match in_range {
            Some(mask) => self.b.ins().vall_true(mask),
            None => self.b.ins().iconst(types::I8, 0),
        };
        self.b.ins().brif(all_in_range, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        let d = Desc {
            texels,
            pitch: self.load_field(VEC, desc, offset_of!(InlineSampler, row_pitch)),
            fraction_mask: self.load_field(VEC, desc, offset_of!(InlineSampler, fraction_mask)),
            wrap_mask: [0, 1]
                .map(|a| self.load_field(VEC, desc, offset_of!(InlineSampler, wrap_mask) + 16 * a)),
            last: [0, 1]
                .map(|a| self.load_field(VEC, desc, offset_of!(InlineSampler, last) + 16 * a)),
            at: desc,
        };
        let constants = self.address_constants();
        let mut results = [self.lb().splat(0); 4];
        for j in 0..self.k {
            let values = self.filter_vector(&d, &constants, &axes, j, offset, needed);
            for (c, v) in values.into_iter().enumerate() {
                if let Some(v) = v {
                    results[c].v[j] = v;
                }
            }
        }
        for (c, var) in &vars {
            let value = results[*c];
            self.lb().def_var(*var, value);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let called = runtime(self)?;
        for (c, var) in &vars {
            self.lb().def_var(*var, called[*c]);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(join);
        let mut out = [self.lb().splat(0); 4];
        for (c, var) in &vars {
            out[*c] = self.lb().use_var(*var);
        }
        Ok(out)
    }

    /// Vector `j`'s filtered components (as `i32x4` bit patterns): the
    /// runtime's `plane::sample` value, computed in integers. With the
    /// fractions truncated to 8 bits (weights `kx`, `ky` in 0..=256), the
    /// sum `Σ kx·ky·texel` is exact, so any order gives the runtime's sum:
    /// each row's two columns are weighted by one `pmaddwd` per channel
    /// (each lane's left and right values as 16-bit halves, a row's sum at
    /// most 255 × 256), then the rows in f32 with `ky / 65536` (exact:
    /// below 2^24), and the result divided by 255 once, as the runtime
    /// divides. The descriptor's byte selections put each format's red,
    /// green, blue and alpha in that order.
    fn filter_vector(
        &mut self,
        d: &Desc,
        a: &AddressConstants,
        axes: &[Axis],
        j: usize,
        offset: [i8; 3],
        needed: [bool; 4],
    ) -> [Option<Value>; 4] {
        let mut taps = Vec::new();
        let mut steps = Vec::new();
        for (axis, at) in axes.iter().enumerate() {
            let diff = self.b.ins().fsub(at.x[j], at.low[j]);
            let diff = self.b.ins().bitcast(VEC, super::lanes::le(), diff);
            let frac = self.b.ins().band(diff, d.fraction_mask);
            let frac = self.b.ins().bitcast(FVEC, super::lanes::le(), frac);
            steps.push(self.subtexel_steps(frac, a));
            let mut first = self.b.ins().x86_cvtt2dq(VEC, at.low[j]);
            if offset[axis] != 0 {
                let offset = self.lb().splat(i32::from(offset[axis]) as u32).v[0];
                first = self.b.ins().iadd(first, offset);
            }
            let second = self.b.ins().iadd(first, a.one);
            let address = |tr: &mut Self, i: Value| {
                let wrapped = tr.b.ins().band(i, d.wrap_mask[axis]);
                let above = tr.b.ins().smax(wrapped, a.zero);
                tr.b.ins().smin(above, d.last[axis])
            };
            taps.push([address(self, first), address(self, second)]);
        }
        let rows = taps[1].map(|y| self.b.ins().imul(y, d.pitch));
        let pairs = self.fetch_taps(d.texels, taps[0], rows, a.one);
        let c = &self.filter_constants();
        let column_weights = self.column_weights(steps[0], c);
        let row_weights = self.row_weights(steps[1], c);
        let mut sums: [Option<Value>; 4] = [None; 4];
        for half in 0..2 {
            if !needed[2 * half] && !needed[2 * half + 1] {
                continue;
            }
            let bytes = offset_of!(InlineSampler, channel_bytes) + 16 * half;
            let select = self.load_field(types::I8X16, d.at, bytes);
            let [top, bottom] = pairs.map(|row| self.spread_channels(row, select));
            for (i, channel) in [2 * half, 2 * half + 1].into_iter().enumerate() {
                if !needed[channel] {
                    continue;
                }
                let [top, bottom] = [top[i], bottom[i]].map(|row| {
                    let sum = self.weigh_columns(row, column_weights);
                    self.b.ins().fcvt_from_sint(FVEC, sum)
                });
                let upper = self.b.ins().fmul(top, row_weights[0]);
                sums[channel] = Some(self.b.ins().fma(bottom, row_weights[1], upper));
            }
        }
        sums.map(|s| {
            s.map(|s| {
                let value = self.divide_by_scale(s, c);
                self.b.ins().bitcast(VEC, super::lanes::le(), value)
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
            let bytes = self.b.ins().bitcast(types::I8X16, super::lanes::le(), p);
            self.b.ins().x86_pshufb(bytes, select)
        });
        // The low 8 bytes of both (the first channel), then the high 8.
        [0u8, 8].map(|from| {
            let picked: Vec<u8> = (from..from + 8).chain(from + 16..from + 24).collect();
            let picked = self.b.func.dfg.immediates.push(picked.into());
            let words = self.b.ins().shuffle(low, high, picked);
            self.b
                .ins()
                .bitcast(types::I16X8, super::lanes::le(), words)
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

    /// `sum / 255`, correctly rounded, without a division: the product by
    /// the rounded reciprocal, corrected once by its exact remainder
    /// (Markstein's step). `quotient_by_scale_is_exact` below checks every
    /// sum filtering can make (`S / 65536` for each integer `S` up to
    /// `255 × 65536`) against the division the runtime does.
    fn divide_by_scale(&mut self, sum: Value, c: &FilterConstants) -> Value {
        let rough = self.b.ins().fmul(sum, c.inverse);
        let negated = self.b.ins().fneg(rough);
        let remainder = self.b.ins().fma(negated, c.scale, sum);
        self.b.ins().fma(remainder, c.inverse, rough)
    }

    /// The constants of the addressing, for one lookup.
    fn address_constants(&mut self) -> AddressConstants {
        AddressConstants {
            zero: self.lb().splat(0).v[0],
            one: self.lb().splat(1).v[0],
            steps: self.lb().f32s(SUBTEXEL_STEPS),
        }
    }

    /// The constants of the weighting, for one vector.
    fn filter_constants(&mut self) -> FilterConstants {
        FilterConstants {
            steps: self.lb().splat(SUBTEXEL_STEPS as u32).v[0],
            row_unit: self.lb().f32s(1.0 / (SUBTEXEL_STEPS * SUBTEXEL_STEPS)),
            row_whole: self.lb().f32s(1.0 / SUBTEXEL_STEPS),
            scale: self.lb().f32s(UNORM8_SCALE),
            inverse: self.lb().f32s(1.0 / UNORM8_SCALE),
        }
    }

    /// `frac` truncated to [`SUBTEXEL_STEPS`] steps, as the runtime's
    /// `axis_taps` truncates it, counted in steps: `floor(frac × 256)`.
    fn subtexel_steps(&mut self, frac: Value, c: &AddressConstants) -> Value {
        let scaled = self.b.ins().fmul(frac, c.steps);
        self.b.ins().floor(scaled)
    }

    /// The two columns' weights in steps for `k` steps, `256 − k` in the
    /// low 16 bits of each lane and `k` in the high 16 (`i16x8`).
    fn column_weights(&mut self, steps: Value, c: &FilterConstants) -> Value {
        let second = self.b.ins().x86_cvtt2dq(VEC, steps);
        let first = self.b.ins().isub(c.steps, second);
        let high = self.b.ins().ishl_imm_u(second, 16);
        let both = self.b.ins().bor(first, high);
        self.b.ins().bitcast(types::I16X8, super::lanes::le(), both)
    }

    /// The two rows' weights as floats, in steps over 65536, so that the
    /// weighted rows sum to the filtered value times 255: `(256 − k) /
    /// 65536` and `k / 65536`, both exact.
    fn row_weights(&mut self, steps: Value, c: &FilterConstants) -> [Value; 2] {
        let second = self.b.ins().fmul(steps, c.row_unit);
        let first = self.b.ins().fsub(c.row_whole, second);
        [first, second]
    }

    /// The four taps' texels of the lanes' columns `xs` (addressed, first
    /// and second) and row offsets `rows`, per row as two pair vectors:
    /// lanes 0 and 1, then lanes 2 and 3, each lane's first column's texel
    /// followed by its second's. When every lane's second column follows
    /// its first, each row's pair is one 8-byte load per lane (it cannot
    /// pass the row's end: the second column is in the texture);
    /// otherwise each texel is loaded alone and the pairs interleaved.
    fn fetch_taps(
        &mut self,
        texels: Value,
        xs: [Value; 2],
        rows: [Value; 2],
        one: Value,
    ) -> [[Value; 2]; 2] {
        let pairs = self.b.create_block();
        let singles = self.b.create_block();
        let join = self.b.create_block();
        for _ in 0..4 {
            self.b.append_block_param(join, VEC);
        }
        let next = self.b.ins().iadd(xs[0], one);
        let adjacent = self.b.ins().icmp(IntCC::Equal, xs[1], next);
        let adjacent = self.b.ins().vall_true(adjacent);
        self.b.ins().brif(adjacent, pairs, &[], singles, &[]);

        self.b.switch_to_block(pairs);
        let first = self.b.ins().ishl_imm_u(xs[0], 2);
        let mut found = Vec::new();
        for row in rows {
            let at = self.b.ins().iadd(row, first);
            found.extend(self.gather_pairs(texels, at).map(BlockArg::from));
        }
        self.b.ins().jump(join, &found);

        self.b.switch_to_block(singles);
        let columns = xs.map(|x| self.b.ins().ishl_imm_u(x, 2));
        let mut found = Vec::new();
        for row in rows {
            let [left, right] = columns.map(|column| {
                let at = self.b.ins().iadd(row, column);
                self.gather_texels(texels, at)
            });
            for lanes in [[0u8, 4, 1, 5], [2, 6, 3, 7]] {
                let words = self.shuffle_words(left, right, lanes);
                found.push(words.into());
            }
        }
        self.b.ins().jump(join, &found);

        self.b.switch_to_block(join);
        let params = self.b.block_params(join);
        [[params[0], params[1]], [params[2], params[3]]]
    }

    /// The 32-bit lanes `lanes` of `a` (0–3) and `b` (4–7), as `i32x4`.
    fn shuffle_words(&mut self, a: Value, b: Value, lanes: [u8; 4]) -> Value {
        let bytes: Vec<u8> = lanes
            .iter()
            .flat_map(|&l| (0..4).map(move |i| 4 * l + i))
            .collect();
        let mask = self.b.func.dfg.immediates.push(bytes.into());
        let [a, b] = [a, b].map(|v| self.b.ins().bitcast(types::I8X16, super::lanes::le(), v));
        let picked = self.b.ins().shuffle(a, b, mask);
        self.b.ins().bitcast(VEC, super::lanes::le(), picked)
    }

    /// The texel at byte offset `at` (one per lane) from `texels` and the
    /// one after it, one 8-byte load per lane: lanes 0 and 1's pairs, then
    /// lanes 2 and 3's.
    fn gather_pairs(&mut self, texels: Value, at: Value) -> [Value; 2] {
        let offsets = self.lane_offsets(at);
        let words: Vec<Value> = offsets
            .into_iter()
            .map(|offset| {
                let address = self.b.ins().iadd(texels, offset);
                self.b.ins().load(
                    types::I64,
                    MemFlagsData::trusted().with_readonly(),
                    address,
                    0,
                )
            })
            .collect();
        [0, 2].map(|l| {
            let v = self.b.ins().scalar_to_vector(types::I64X2, words[l]);
            let v = self.b.ins().insertlane(v, words[l + 1], 1);
            self.b.ins().bitcast(VEC, super::lanes::le(), v)
        })
    }

    /// The 32-bit texels at byte offsets `at` (one per lane) from `texels`.
    fn gather_texels(&mut self, texels: Value, at: Value) -> Value {
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
        let pairs = self.b.ins().bitcast(types::I64X2, super::lanes::le(), at);
        let mut out = [at; 4];
        for half in 0..2u8 {
            let both = self.b.ins().extractlane(pairs, half);
            let low = self.b.ins().ireduce(types::I32, both);
            out[2 * half as usize] = self.b.ins().uextend(types::I64, low);
            out[2 * half as usize + 1] = self.b.ins().ushr_imm_u(both, 32);
        }
        out
    }

    /// The vector of type `ty` at `base + offset` (a descriptor field
    /// that holds its value in every lane).
    fn load_field(&mut self, ty: types::Type, base: Value, offset: usize) -> Value {
        self.b
            .ins()
            .load(ty, MemFlagsData::trusted(), base, offset as i32)
    }
}

#[cfg(test)]
mod tests {
    use dxjit_runtime::sampler::{SUBTEXEL_STEPS, UNORM8_SCALE};

    /// [`super::Tr::divide_by_scale`]'s arithmetic.
    fn markstein(sum: f32) -> f32 {
        let inverse = 1.0 / UNORM8_SCALE;
        let rough = sum * inverse;
        let remainder = (-rough).mul_add(UNORM8_SCALE, sum);
        remainder.mul_add(inverse, rough)
    }

    /// Every sum an 8-bit filter can make divides as the runtime divides.
    #[test]
    fn quotient_by_scale_is_exact() {
        let unit = 1.0 / (SUBTEXEL_STEPS * SUBTEXEL_STEPS);
        let largest = (UNORM8_SCALE * SUBTEXEL_STEPS * SUBTEXEL_STEPS) as u32;
        for steps in 0..=largest {
            let sum = steps as f32 * unit;
            assert_eq!(
                markstein(sum).to_bits(),
                (sum / UNORM8_SCALE).to_bits(),
                "{sum:e}"
            );
        }
    }
}
