//! Shading 2x2 quads an embedder's own rasterizer produced: any positions,
//! coverage and facing per quad, attributes per pixel, outputs and the
//! surviving coverage returned instead of written to targets.

use super::{Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, SYSVAL_COUNT};
use rayon::prelude::*;

/// One 2x2 quad: pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1), in that
/// order everywhere (bit i of `coverage`, input and output block i). The
/// rasterizer has one sample a pixel: a covered pixel's `vCoverage` is 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quad {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Covered pixels (bits 0..4). Uncovered pixels run as helpers, for
    /// derivatives, and are never reported alive.
    pub coverage: u8,
    /// Whether the primitive faces the viewer (`SV_IsFrontFace`, `vFace`).
    pub front_facing: bool,
}

/// Shades `quads` with a pixel shader. `inputs` holds, per quad and pixel,
/// the kernel's `input_regs` registers; `outputs` receives, per quad and
/// pixel, its `output_regs` registers; `alive[q]` receives the pixels of
/// quad `q` that were covered and not discarded. Pixel positions are
/// `x + pixel_center`, `y + pixel_center`.
///
/// # Safety
/// As for [`super::dispatch`]. `inputs` holds `quads.len() * 4 *
/// k.input_regs` registers and `outputs` `quads.len() * 4 * k.output_regs`;
/// `alive` has one entry per quad.
pub unsafe fn shade_quads(
    k: &Kernel,
    b: &Bindings,
    quads: &[Quad],
    pixel_center: f32,
    inputs: &[[u32; 4]],
    outputs: &mut [[u32; 4]],
    alive: &mut [u8],
) {
    let w = k.lanes as usize;
    let per_call = (w / 4).max(1);
    let per_task = per_call * CALLS_PER_TASK;
    let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
    quads
        .par_chunks(per_task)
        .zip(inputs.par_chunks((per_task * 4 * ni).max(1)))
        .zip(
            outputs
                .par_chunks_mut((per_task * 4 * no).max(1))
                .zip(alive.par_chunks_mut(per_task)),
        )
        .for_each_init(
            || {
                let call = Call::new(k, b);
                let blocks = [ni, no, SYSVAL_COUNT].map(|regs| Block::new(regs * 16 * w));
                (call, blocks)
            },
            |(call, [ib, ob, sv]), ((quads, inputs), (outputs, alive))| {
                let calls = quads
                    .chunks(per_call)
                    .zip(inputs.chunks((per_call * 4 * ni).max(1)))
                    .zip(
                        outputs
                            .chunks_mut((per_call * 4 * no).max(1))
                            .zip(alive.chunks_mut(per_call)),
                    );
                for ((quads, inputs), (outputs, alive)) in calls {
                    if b.interrupted() {
                        return;
                    }
                    fill(w, ni, quads, inputs, pixel_center, ib, sv, call);
                    call.run_on_blocks(k.func, [ib, ob, sv]);
                    gather(w, no, call, ob, outputs, alive);
                }
            },
        );
}

/// Quads per parallel task, in calls: enough work to outweigh rayon's
/// per-task cost.
const CALLS_PER_TASK: usize = 64;

/// Copies one call's outputs (SoA) to the caller's per-pixel layout and
/// its lane mask to per-quad alive bits.
fn gather(
    w: usize,
    no: usize,
    call: &mut Call,
    ob: &mut Block,
    outputs: &mut [[u32; 4]],
    alive: &mut [u8],
) {
    let mask = call.lane_mask.words();
    let out = ob.words();
    for (q, a) in alive.iter_mut().enumerate() {
        *a = (0..4)
            .filter(|&p| mask[4 * q + p] != 0)
            .fold(0, |bits, p| bits | 1 << p);
        for p in 0..4 {
            let lane = 4 * q + p;
            for r in 0..no {
                let at = r * 4 * w + lane;
                outputs[(4 * q + p) * no + r] =
                    [out[at], out[at + w], out[at + 2 * w], out[at + 3 * w]];
            }
        }
    }
}

/// Writes one call's inputs, system values and lane mask in SoA form:
/// component `c` of register `r` of lane `l` at word `(r * 4 + c) * w + l`.
#[allow(clippy::too_many_arguments)]
fn fill(
    w: usize,
    ni: usize,
    quads: &[Quad],
    inputs: &[[u32; 4]],
    center: f32,
    ib: &mut Block,
    sv: &mut Block,
    call: &mut Call,
) {
    let input = ib.words();
    let sysval = sv.words();
    let mask = call.lane_mask.words();
    input.fill(0);
    sysval.fill(0);
    mask[..w].fill(0);
    let pos = SysValSlot::Position as usize * 4;
    let face = SysValSlot::FrontFace as usize * 4;
    let cov = SysValSlot::Coverage as usize * 4;
    for (q, quad) in quads.iter().enumerate() {
        for p in 0..4 {
            let lane = 4 * q + p;
            for r in 0..ni {
                let value = inputs[(4 * q + p) * ni + r];
                for (c, v) in value.iter().enumerate() {
                    input[(r * 4 + c) * w + lane] = *v;
                }
            }
            let x = quad.x as f32 + (p & 1) as f32 + center;
            let y = quad.y as f32 + (p >> 1) as f32 + center;
            sysval[pos * w + lane] = x.to_bits();
            sysval[(pos + 1) * w + lane] = y.to_bits();
            sysval[(pos + 3) * w + lane] = 1.0f32.to_bits();
            sysval[face * w + lane] = if quad.front_facing { u32::MAX } else { 0 };
            let covered = quad.coverage & (1 << p) != 0;
            mask[lane] = if covered { u32::MAX } else { 0 };
            // One sample a pixel: vCoverage is sample 0 when covered.
            sysval[cov * w + lane] = u32::from(covered);
        }
    }
}
