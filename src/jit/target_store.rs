//! Pixel shaders that write their 8-bit unorm render targets themselves.
//!
//! At the end of a pixel shader, for each colour output register the
//! runtime describes in `Frame::direct_targets`, the four components are
//! converted as D3D converts float to unorm (NaN to 0, clamped to [0, 1],
//! `x · 255 + 0.5` floored, exactly),
//! packed into rgba8 or bgra8 texels and stored at the lanes' pixels: two
//! 8-byte rows per quad when the whole quad is covered and inside the
//! target, pixel by pixel otherwise. The runtime stores the other targets
//! from the output block as before.

use super::lanes::{Lanes, FVEC, VEC};
use super::state::Tr;
use crate::ir::Program;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::{DirectTarget, Frame, DIRECT_TARGETS};
use std::mem::{offset_of, size_of};

/// The output registers a pixel shader can write to 8-bit unorm targets
/// itself: its colour outputs below [`DIRECT_TARGETS`], as a bit set.
pub fn direct_outputs(prog: &Program) -> u32 {
    prog.outputs
        .iter()
        .map(|o| o.reg)
        .filter(|r| (*r as usize) < DIRECT_TARGETS && Some(*r) != prog.depth_output)
        .fold(0, |set, r| set | (1 << r))
}

impl Tr<'_, '_> {
    /// Stores every output register of `regs` (a [`direct_outputs`] set)
    /// whose direct target is bound, for the lanes `alive` leaves covered:
    /// the body's lanes, or, without `alive` (a shader that discards
    /// nothing), the step's lane mask.
    pub fn store_direct_targets(&mut self, regs: u32, alive: Option<Lanes>) {
        if regs == 0 {
            return;
        }
        let table = self.frame_ptr(offset_of!(Frame, direct_targets));
        let done = self.b.create_block();
        let start = self.b.create_block();
        self.b.ins().brif(table, start, &[], done, &[]);
        self.b.switch_to_block(start);
        let y = self.b.ins().load(
            types::I32,
            MemFlagsData::trusted(),
            self.frame,
            (offset_of!(Frame, pixel_origin) + 4) as i32,
        );
        let all_alive = match alive {
            Some(alive) => {
                let mut all = alive.v[0];
                for v in &alive.v[1..self.k] {
                    all = self.b.ins().band(all, *v);
                }
                self.b.ins().vall_true(all)
            }
            None => self.step_full(),
        };
        let step = Step {
            x: self.step_x(),
            y,
            all_alive,
            alive,
        };
        for r in (0..DIRECT_TARGETS as u32).filter(|r| regs & (1 << r) != 0) {
            let desc = self
                .b
                .ins()
                .iadd_imm_s(table, (r as usize * size_of::<DirectTarget>()) as i64);
            let ptr = self.b.ins().load(
                types::I64,
                MemFlagsData::trusted(),
                desc,
                offset_of!(DirectTarget, ptr) as i32,
            );
            let store = self.b.create_block();
            let next = self.b.create_block();
            self.b.ins().brif(ptr, store, &[], next, &[]);
            self.b.switch_to_block(store);
            self.store_target(r, desc, ptr, &step);
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Converts and packs output register `r` and stores it to the target
    /// `desc` (whose first byte is `ptr`): a step whose lanes are all alive
    /// and whose quads all lie inside the target stores each quad's two
    /// rows of 8 bytes; otherwise (out of line) each quad is tested.
    fn store_target(&mut self, r: u32, desc: Value, ptr: Value, step: &Step) {
        let pitch = self.b.ins().uload32(
            MemFlagsData::trusted(),
            desc,
            offset_of!(DirectTarget, row_pitch) as i32,
        );
        let order = self.b.ins().load(
            types::I8X16,
            MemFlagsData::trusted(),
            desc,
            offset_of!(DirectTarget, texel_order) as i32,
        );
        let size = [
            offset_of!(DirectTarget, width),
            offset_of!(DirectTarget, height),
        ]
        .map(|field| {
            self.b
                .ins()
                .uload32(MemFlagsData::trusted(), desc, field as i32)
        });
        let row = self.b.ins().uextend(types::I64, step.y);
        let row_start = self.b.ins().imul(row, pitch);
        let row_start = self.b.ins().iadd(ptr, row_start);
        let column = self.b.ins().uextend(types::I64, step.x);
        let column_bytes = self.b.ins().ishl_imm_u(column, 2);
        let first = self.b.ins().iadd(row_start, column_bytes);
        let constants = self.unorm8_constants();
        let texels: Vec<Value> = (0..self.k)
            .map(|j| self.quad_texels(r, j, order, &constants))
            .collect();
        // The step's last column and its second row inside the target.
        let last_column = self.b.ins().iadd_imm_s(column, 2 * self.k as i64 - 1);
        let columns_inside = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, last_column, size[0]);
        let last_row = self.b.ins().iadd_imm_s(row, 1);
        let rows_inside = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, last_row, size[1]);
        let inside = self.b.ins().band(columns_inside, rows_inside);
        let whole = self.b.ins().band(inside, step.all_alive);
        let fast = self.b.create_block();
        let partial = self.b.create_block();
        let next = self.b.create_block();
        self.b.ins().brif(whole, fast, &[], partial, &[]);

        self.b.switch_to_block(fast);
        let second = self.b.ins().iadd(first, pitch);
        for (j, texel) in texels.iter().enumerate() {
            // As two f64 lanes: the backend stores lane 0 with `movsd`
            // (no shuffle), where an i64 lane takes a `pextrq`.
            let rows = self
                .b
                .ins()
                .bitcast(types::F64X2, super::lanes::le(), *texel);
            for (half, at) in [first, second].into_iter().enumerate() {
                let row = self.b.ins().extractlane(rows, half as u8);
                self.b
                    .ins()
                    .store(MemFlagsData::trusted(), row, at, 8 * j as i32);
            }
        }
        self.b.ins().jump(next, &[]);

        self.b.switch_to_block(partial);
        self.b.set_cold_block(partial);
        let alive = match step.alive {
            Some(alive) => alive,
            None => {
                let mask = self.step_mask();
                self.load_lanes(mask, 0)
            }
        };
        for (j, texel) in texels.into_iter().enumerate() {
            let quad = Quad {
                x: self.b.ins().iadd_imm_s(step.x, 2 * j as i64),
                y: step.y,
                size,
                alive: alive.v[j],
            };
            let at = self.b.ins().iadd_imm_s(first, 8 * j as i64);
            self.store_covered(texel, &quad, at, pitch);
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
    }

    /// Quad `j`'s four texels of output register `r` as an `i32x4`, in the
    /// target's byte order `order`.
    fn quad_texels(
        &mut self,
        r: u32,
        j: usize,
        order: Value,
        constants: &Unorm8Constants,
    ) -> Value {
        let comps: Vec<Value> = (0..4)
            .map(|c| {
                let v = match self.output_var(4 * r + c as u32) {
                    Some(var) => self.lb().use_var(var).v[j],
                    None => {
                        let lanes = 4 * self.k;
                        let offset = ((r as usize * 4 + c) * lanes + 4 * j) * 4;
                        let outputs = self.step_outputs();
                        self.b
                            .ins()
                            .load(VEC, MemFlagsData::trusted(), outputs, offset as i32)
                    }
                };
                self.encode_unorm8(v, constants)
            })
            .collect();
        // Bytes channel by channel, then in the target's order. Each value
        // is at least 0 (see `encode_unorm8`); the signed narrowing to 16
        // bits keeps 0..=255 and makes any larger value 32767, which the
        // unsigned narrowing to bytes makes 255: the clamp at 1.
        let red_green = self.b.ins().snarrow(comps[0], comps[1]);
        let blue_alpha = self.b.ins().snarrow(comps[2], comps[3]);
        let channels = self.b.ins().unarrow(red_green, blue_alpha);
        let texel = self.b.ins().x86_pshufb(channels, order);
        self.b.ins().bitcast(VEC, super::lanes::le(), texel)
    }

    /// Stores each texel of the quad (top row at `first`, bottom row at
    /// `first + pitch`) that is alive and inside the target.
    fn store_covered(&mut self, texel: Value, quad: &Quad, first: Value, pitch: Value) {
        let covered = self.covered_lanes(quad);
        let second = self.b.ins().iadd(first, pitch);
        for l in 0..4u8 {
            let at = if l < 2 { first } else { second };
            let store = self.b.create_block();
            let skip: Block = self.b.create_block();
            let lane = self.b.ins().extractlane(covered, l);
            self.b.ins().brif(lane, store, &[], skip, &[]);
            self.b.switch_to_block(store);
            self.b.set_cold_block(store);
            let word = self.b.ins().extractlane(texel, l);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), word, at, 4 * i32::from(l & 1));
            self.b.ins().jump(skip, &[]);
            self.b.switch_to_block(skip);
            self.b.set_cold_block(skip);
        }
    }

    /// The lanes of `quad` that are alive and inside the target.
    fn covered_lanes(&mut self, quad: &Quad) -> Value {
        let xs = self.b.ins().splat(VEC, quad.x);
        let step = self.lb().splat_words([0, 1, 0, 1]);
        let xs = self.b.ins().iadd(xs, step);
        let ys = self.b.ins().splat(VEC, quad.y);
        let step = self.lb().splat_words([0, 0, 1, 1]);
        let ys = self.b.ins().iadd(ys, step);
        let [width, height] = quad.size.map(|s| {
            let s = self.b.ins().ireduce(types::I32, s);
            self.b.ins().splat(VEC, s)
        });
        let inside_x = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, width);
        let inside_y = self.b.ins().icmp(IntCC::UnsignedLessThan, ys, height);
        let inside = self.b.ins().band(inside_x, inside_y);
        self.b.ins().band(inside, quad.alive)
    }

    /// Float bits to integers that narrow to 8-bit unorm values, per lane:
    /// NaN and values not above 0 give 0, values in [0, 1]
    /// `floor(x · 255 + 0.5)` exactly, larger ones 255 or more (the
    /// narrowing in `quad_texels` makes them 255: the clamp at 1 costs no
    /// `minps`). After the clamp at 0 (one `maxps`), one fused
    /// multiply-add rounds `x · 255 + 2^23` once to the nearest float,
    /// ties to even; between 2^23 and 2^24 floats are the integers, so the
    /// result is `2^23 + n` with `n` the nearest integer to `x · 255`, and
    /// its bits minus those of 2^23 are `n`. The nearest integer with ties
    /// to even is `floor(x · 255 + 0.5)` but at ties, and in [0, 1] the
    /// only float whose product with 255 ends in .5 is 0.5, whose tie goes
    /// to 128, the even neighbour, as the rule says; above 1 the sum is at
    /// least 2^23 + 255 and the float bits grow with it, up to +∞, so the
    /// difference stays at 255 or above. (An exhaustive run
    /// over every float in [0, 1] found no difference from the exact
    /// result; `encode8_magic_is_exact` below repeats it near every
    /// rounding boundary, and the case
    /// `tests/cases/sm4/pixel/rgba8_target_rounding_edges.toml` runs it.)
    fn encode_unorm8(&mut self, bits: Value, constants: &Unorm8Constants) -> Value {
        let x = self.b.ins().bitcast(FVEC, super::lanes::le(), bits);
        let Unorm8Constants {
            zero,
            scale,
            magic,
            magic_bits,
        } = *constants;
        // `0 < x ? x : 0`: one `maxps` (NaN fails the test).
        let positive = self.b.ins().fcmp(FloatCC::LessThan, zero, x);
        let positive = self.b.ins().bitcast(FVEC, super::lanes::le(), positive);
        let kept = self.b.ins().bitselect(positive, x, zero);
        let biased = self.b.ins().fma(kept, scale, magic);
        let biased = self.b.ins().bitcast(VEC, super::lanes::le(), biased);
        self.b.ins().isub(biased, magic_bits)
    }

    /// The constants of [`Self::encode_unorm8`], made once for a target's
    /// quads and channels rather than at each use.
    fn unorm8_constants(&mut self) -> Unorm8Constants {
        Unorm8Constants {
            zero: self.lb().f32s(0.0),
            scale: self.lb().f32s(255.0),
            magic: self.lb().f32s(UNORM8_MAGIC),
            magic_bits: self.lb().splat(UNORM8_MAGIC.to_bits()).v[0],
        }
    }
}

/// 2^23: added to `x · 255` so that the sum's rounding is to an integer,
/// which the sum's low mantissa bits then hold.
const UNORM8_MAGIC: f32 = 8_388_608.0;

/// A step of a direct-target store: its first column and its row, whether
/// every lane is alive, and the lanes' alive masks (none: the step's lane
/// mask, in memory).
struct Step {
    x: Value,
    y: Value,
    all_alive: Value,
    alive: Option<Lanes>,
}

/// A quad of a direct-target store: its top-left pixel, the target's
/// width and height, and its lanes' alive mask.
struct Quad {
    x: Value,
    y: Value,
    size: [Value; 2],
    alive: Value,
}

/// The float vectors the conversion to 8-bit unorm uses.
#[derive(Clone, Copy)]
struct Unorm8Constants {
    zero: Value,
    scale: Value,
    /// [`UNORM8_MAGIC`], as a float and as its bits (`i32x4`).
    magic: Value,
    magic_bits: Value,
}

#[cfg(test)]
mod tests {
    use super::UNORM8_MAGIC;

    /// [`super::Tr::encode_unorm8`]'s arithmetic on one clamped value.
    fn magic(x: f32) -> u32 {
        x.mul_add(255.0, UNORM8_MAGIC).to_bits() - UNORM8_MAGIC.to_bits()
    }

    /// The exact conversion: `x · 255 + 0.5` is exact in f64.
    fn exact(x: f32) -> u32 {
        (f64::from(x) * 255.0 + 0.5).floor() as u32
    }

    /// Only values near a boundary `(n + 0.5) / 255` can round across it, so
    /// every float within 4096 units in the last place of each boundary is
    /// checked, and a stride through the rest of [0, 1].
    #[test]
    fn encode8_magic_is_exact() {
        for n in 0..255 {
            let boundary = ((f64::from(n) + 0.5) / 255.0) as f32;
            let bits = boundary.to_bits();
            for x in (bits - 4096..=bits + 4096).map(f32::from_bits) {
                assert_eq!(magic(x), exact(x), "{x:e}");
            }
        }
        for bits in (0..=1.0f32.to_bits()).step_by(9973) {
            let x = f32::from_bits(bits);
            assert_eq!(magic(x), exact(x), "{x:e}");
        }
    }

    /// Every float above 1, up to +∞, gives 255 or more (read as the
    /// signed 32-bit lane the narrowings take), so that they make 255.
    #[test]
    fn values_above_one_give_255_or_more() {
        for bits in (1.0f32.to_bits() + 1..=f32::INFINITY.to_bits()).step_by(997) {
            let n = magic(f32::from_bits(bits)) as i32;
            assert!(n >= 255, "{:e}: {n}", f32::from_bits(bits));
        }
        assert!(magic(f32::INFINITY) as i32 >= 255);
    }
}
