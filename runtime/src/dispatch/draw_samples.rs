//! Draws that work per sample: multisampled render targets, and shaders
//! that write `oMask`.
//!
//! The runtime fills each call's blocks itself (no row loop) and stores
//! every target. A rectangle covers a sample when the sample's position
//! (D3D's standard pattern) lies inside it under the top-left rule; its
//! corners are whole pixels, so it covers every sample of the pixels it
//! covers. Without per-sample shading the shader runs once a pixel, with
//! inputs at the pixel centre (`centroid` inputs at the centroid), and its
//! output goes to every covered sample (D3D11.3, "Multisample
//! Rasterization"); with it, once per sample the sample mask keeps, with
//! `sample` inputs (and SV_Position, when declared `sample`) at the
//! sample's position, `vSampleIndex` the sample and `vCoverage` only its
//! bit, writing only that sample. `vCoverage` is ANDed with the blend
//! state's sample mask (16.3.2), and `oMask` and the sample mask are ANDed
//! with the coverage before anything is written (bit i gates sample i; a
//! single-sampled target has sample 0 only). Inputs are interpolated with
//! denormals flushed, as the row loop's compiled code does.

use super::draw::{Draw, RenderTarget, SampleShading};
use super::interpolate::{corner_value, place};
use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, SYSVAL_COUNT};
use crate::eval::Evaluation;
use crate::msaa::{centroid, standard_pattern};
use rayon::prelude::*;

/// Where and what one call shades: its quads' first column and row, the
/// sample of a per-sample pass, and the rasterizer's sample count.
#[derive(Clone, Copy)]
struct Pass {
    /// Pixel column of the call's first quad.
    x: u32,
    /// Pixel row of the quad row.
    y: u32,
    /// The sample shaded, when shading per sample.
    sample: Option<u32>,
    /// Samples a pixel.
    samples: u32,
}

/// Runs a draw sample-aware: `samples` is the targets' sample count (1, 2,
/// 4 or 8).
///
/// # Safety
/// As for [`super::draw`]; each target's `ptr` is writable for `(height -
/// 1) * row_pitch + width * samples * texel size` bytes.
pub(super) unsafe fn draw_multisampled(k: &Kernel, b: &Bindings, d: &Draw, samples: u32) {
    let [x0, y0, x1, y1] = d.rect;
    let w = k.lanes as usize;
    let quads_per_call = (w / 4).max(1);
    let (qx0, qy0) = (x0 & !1, y0 & !1);
    let quad_cols = (x1 - qx0).div_ceil(2) as usize;
    let quad_rows = (y1 - qy0).div_ceil(2);
    let passes: Vec<Option<u32>> = if d.shading.per_sample {
        (0..samples).map(Some).collect()
    } else {
        vec![None]
    };
    let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
    let evaluation = d.evaluation(samples);
    (0..quad_rows).into_par_iter().for_each_init(
        || {
            let mut call = Call::new(k, b);
            call.frame.eval = (&evaluation as *const Evaluation).cast();
            let blocks = [ni, no, SYSVAL_COUNT].map(|regs| Block::new(regs * 16 * w));
            (call, blocks)
        },
        |(call, [ib, ob, sv]), row| {
            for first in (0..quad_cols).step_by(quads_per_call) {
                for &sample in &passes {
                    if b.interrupted() {
                        return;
                    }
                    let pass = Pass {
                        x: qx0 + 2 * first as u32,
                        y: qy0 + 2 * row,
                        sample,
                        samples,
                    };
                    with_flushed_denormals(|| fill(d, w, pass, ib, sv, call));
                    call.frame.pixel_origin = [pass.x, pass.y];
                    call.run_on_blocks(k.func, [ib, ob, sv]);
                    store(d, w, no, pass, call, ob, sv);
                }
            }
        },
    );
}

/// The pixel of lane `l` of a call starting at (`x`, `y`).
fn lane_pixel(x: u32, y: u32, l: usize) -> (u32, u32) {
    (
        x + 2 * (l / 4) as u32 + (l & 1) as u32,
        y + ((l >> 1) & 1) as u32,
    )
}

/// Writes one call's lane mask, system values and inputs. `vCoverage` is
/// the pixel's coverage (or, in a per-sample run, the run's sample) ANDed
/// with the sample mask (D3D11.3, 16.3.2), and a per-sample run shades
/// only samples the mask keeps (3.5.4). Inputs declared `centroid` are
/// taken at the pixel's centroid, `sample` inputs in a per-sample run at
/// the sample, the others at the centre.
fn fill(d: &Draw, w: usize, pass: Pass, ib: &mut Block, sv: &mut Block, call: &mut Call) {
    let [x0, y0, x1, y1] = d.rect;
    let (span_x, span_y) = (f64::from(x1 - x0), f64::from(y1 - y0));
    let center = d.pixel_center;
    let all = 1u32
        .checked_shl(pass.samples)
        .map_or(u32::MAX, |bit| bit - 1);
    let offset = pass
        .sample
        .and_then(|s| standard_pattern(pass.samples).get(s as usize))
        .map_or([0.0; 2], |p| p.map(|c| f64::from(c) / 16.0));
    let shaded = pass.sample.map_or(all, |s| 1 << s) & d.sample_mask;
    let (inputs, sysvals, mask) = (ib.words(), sv.words(), call.lane_mask.words());
    let at = |slot: SysValSlot, c: usize, l: usize| (slot as usize * 4 + c) * w + l;
    // The input block holds the kernel's input registers, 4 × w words each.
    let regs = inputs.len() / (4 * w);
    for l in 0..w {
        let (x, y) = lane_pixel(pass.x, pass.y, l);
        let inside = (x0..x1).contains(&x) && (y0..y1).contains(&y);
        let runs = inside && (pass.sample.is_none() || shaded != 0);
        mask[l] = if runs { u32::MAX } else { 0 };
        let coverage = if inside { all } else { 0 };
        let at_centroid = centroid(coverage, d.sample_mask, pass.samples);
        let [sx, sy] = match (&d.shading, pass.sample) {
            (s, Some(_)) if s.sample_position => offset.map(|o| o as f32),
            (s, _) if s.centroid_position => at_centroid,
            _ => [0.0; 2],
        };
        let (px, py) = (x as f32 + center + sx, y as f32 + center + sy);
        sysvals[at(SysValSlot::Position, 0, l)] = px.to_bits();
        sysvals[at(SysValSlot::Position, 1, l)] = py.to_bits();
        sysvals[at(SysValSlot::Position, 3, l)] = 1.0f32.to_bits();
        sysvals[at(SysValSlot::FrontFace, 0, l)] = u32::MAX;
        sysvals[at(SysValSlot::Coverage, 0, l)] = if inside { shaded } else { 0 };
        sysvals[at(SysValSlot::Sample, 0, l)] = pass.sample.unwrap_or(0);
        sysvals[at(SysValSlot::Sample, 1, l)] = pass.samples;
        let at_centroid = at_centroid.map(f64::from);
        for input in d.inputs.iter().filter(|i| (i.reg as usize) < regs) {
            let moved = pass.sample.is_some() && d.shading.sample_inputs.contains(&input.reg);
            let [dx, dy] = if moved {
                offset
            } else if d.shading.centroid_inputs.contains(&input.reg) {
                at_centroid
            } else {
                [0.0; 2]
            };
            let u = place(x, center, dx, x0, span_x);
            let v = place(y, center, dy, y0, span_y);
            let words = corner_value(&input.corners, u, v);
            for (c, word) in words.into_iter().enumerate() {
                inputs[(input.reg as usize * 4 + c) * w + l] = word;
            }
        }
    }
}

/// Stores the samples each alive lane covers (ANDed with its `oMask` and
/// the sample mask) of every target inside it.
fn store(
    d: &Draw,
    w: usize,
    no: usize,
    pass: Pass,
    call: &mut Call,
    ob: &mut Block,
    sv: &mut Block,
) {
    let (mask, out, sysvals) = (call.lane_mask.words(), ob.words(), sv.words());
    let coverage_at = SysValSlot::Coverage as usize * 4 * w;
    let SampleShading { mask_output, .. } = d.shading;
    for l in (0..w).filter(|&l| mask[l] != 0) {
        let mut bits = sysvals[coverage_at + l] & d.sample_mask;
        if let Some(r) = mask_output.filter(|&r| (r as usize) < no) {
            bits &= out[r as usize * 4 * w + l];
        }
        let (x, y) = lane_pixel(pass.x, pass.y, l);
        for t in &d.targets {
            let r = t.output_reg as usize;
            if x >= t.width || y >= t.height || r >= no {
                continue;
            }
            let at = r * 4 * w + l;
            let value = [out[at], out[at + w], out[at + 2 * w], out[at + 3 * w]];
            for s in (0..t.samples.clamp(1, 32)).filter(|s| bits & (1 << s) != 0) {
                write_sample(t, x, y, s, value);
            }
        }
    }
}

/// Writes sample `s` of pixel (x, y) of `t`.
fn write_sample(t: &RenderTarget, x: u32, y: u32, s: u32, value: [u32; 4]) {
    let bpp = t.format.bytes_per_texel() as usize;
    let texel = (x as usize * t.samples.max(1) as usize + s as usize) * bpp;
    let off = y as usize * t.row_pitch as usize + texel;
    // SAFETY: (x, y) lies inside the target and `s` below its sample
    // count, so the bytes lie in its memory; each pixel belongs to one
    // quad row, so threads write disjoint bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut(t.ptr.add(off), bpp) };
    t.format.store(value, bytes);
}
