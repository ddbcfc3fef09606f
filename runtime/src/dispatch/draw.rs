//! Pixel shaders over a rectangle in 2x2 quads, one call per row of quads.
//! Draws to multisampled targets, with a sample mask that clears sample 0,
//! or with a shader writing `oMask` or reading `vCoverage`, go through
//! [`super::draw_samples`] instead.
//!
//! The runtime prepares, once per draw, the inputs' values along the
//! rectangle's columns (worked out in f64, rounded to f32 with denormals
//! flushed); compiled code interpolates each quad from them as it steps
//! along a row, with one f32 FMA and denormals flushed, and stores the
//! 8-bit unorm targets itself. The
//! runtime stores the other targets after the row.

use super::draw_samples::draw_multisampled;
use super::interpolate::{Axis, Inputs};
use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{varying_set, DirectTarget, DrawRow, SysValSlot, DIRECT_TARGETS, SYSVAL_COUNT};
use crate::eval::Evaluation;
use crate::format::Format;
use rayon::prelude::*;

/// A pixel-shader input: its register and values at the rectangle's corners
/// (top-left, top-right, bottom-left, bottom-right).
#[derive(Debug, Clone, PartialEq)]
pub struct PixelInput {
    /// Input register.
    pub reg: u32,
    /// Corner values as 32-bit words (floats are interpolated).
    pub corners: [[u32; 4]; 4],
}

/// A render target: memory, size, format and the output register it takes.
#[derive(Debug, Clone, Copy)]
pub struct RenderTarget {
    /// First byte of row 0.
    pub ptr: *mut u8,
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Bytes between rows.
    pub row_pitch: u32,
    /// Pixel format.
    pub format: Format,
    /// The shader output register written to it.
    pub output_reg: u32,
    /// Samples a pixel: 1, 2, 4 or 8. A pixel's samples lie one after the
    /// other, sample 0 first (as in a `texture2dms`): sample `s` of pixel
    /// (x, y) starts at byte `y * row_pitch + (x * samples + s) * texel size`.
    pub samples: u32,
}

/// What a pixel shader does with samples, from its declarations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SampleShading {
    /// It runs once per sample (it reads SV_SampleIndex or has `sample`
    /// inputs).
    pub per_sample: bool,
    /// The output register holding its `oMask`, if it writes one.
    pub mask_output: Option<u32>,
    /// The input registers interpolated at the sample's position when
    /// shading per sample.
    pub sample_inputs: Vec<u32>,
    /// SV_Position is the sample's position when shading per sample.
    pub sample_position: bool,
    /// SV_Position is the pixel's centroid ([`crate::msaa::centroid`])
    /// rather than its centre (it is declared `centroid`).
    pub centroid_position: bool,
    /// The input registers declared `centroid`: interpolated at the
    /// pixel's centroid ([`crate::msaa::centroid`]) on a multisampled
    /// target, and in a per-sample run too.
    pub centroid_inputs: Vec<u32>,
    /// It reads `vCoverage`, which helper pixels see as 0: its draws
    /// take the per-sample path, whose runtime writes each lane's.
    pub reads_coverage: bool,
}

/// A draw: the rectangle covered and how inputs and outputs are fed.
#[derive(Debug, Clone)]
pub struct Draw {
    /// Pixels covered: x0, y0, x1, y1 (exclusive).
    pub rect: [u32; 4],
    /// Where in a pixel it is sampled (0.5 for D3D10+, 0.0 for D3D9).
    pub pixel_center: f32,
    /// Interpolated inputs.
    pub inputs: Vec<PixelInput>,
    /// Render targets, all of the same sample count.
    pub targets: Vec<RenderTarget>,
    /// What the shader does with samples.
    pub shading: SampleShading,
    /// D3D's blend-state sample mask (`OMSetBlendState`'s `SampleMask`):
    /// samples whose bit is clear are not written (`u32::MAX` writes all).
    pub sample_mask: u32,
}

impl Draw {
    /// The rasterizer's sample count: the targets' (1 without targets).
    pub fn samples(&self) -> u32 {
        self.targets.first().map_or(1, |t| t.samples.max(1))
    }

    /// How the draw interpolates its inputs, for `eval_*`, on a
    /// rasterizer of `samples` samples a pixel.
    pub(super) fn evaluation(&self, samples: u32) -> Evaluation<'_> {
        Evaluation::Rect {
            rect: self.rect,
            center: self.pixel_center,
            samples,
            sample_mask: self.sample_mask,
            inputs: &self.inputs,
        }
    }
}

// SAFETY: render targets are written at disjoint pixels by different threads.
unsafe impl Send for RenderTarget {}
// SAFETY: as above.
unsafe impl Sync for RenderTarget {}

/// A worker's memory for one row of quads: the input and system-value
/// blocks the compiled row loop rewrites in place at each step, and each
/// step's output block and lane mask (one output block for all steps when
/// compiled code stores every target itself).
struct RowMemory {
    inputs: Block,
    sysvals: Block,
    outputs: Block,
    masks: Block,
}

impl RowMemory {
    /// Memory for `steps` steps of `lanes` lanes, `outputs` output words a
    /// step (kept apart per step when `keep_outputs`), with what never
    /// changes in place: flat inputs, the position's w and the front-face
    /// flag.
    fn new(k: &Kernel, inputs: &Inputs, steps: usize, keep_outputs: bool) -> RowMemory {
        let w = k.lanes as usize;
        let mut input_block = Block::new(4 * k.input_regs as usize * 4 * w);
        inputs.fill_flat(input_block.words(), w);
        let mut sysvals = Block::new(4 * SYSVAL_COUNT * 4 * w);
        let pos = SysValSlot::Position as usize * 4;
        let words = sysvals.words();
        words[(pos + 3) * w..(pos + 4) * w].fill(1.0f32.to_bits());
        let front = SysValSlot::FrontFace as usize * 4 * w;
        words[front..front + w].fill(u32::MAX);
        let output_words = k.output_regs as usize * 4 * w;
        let output_blocks = if keep_outputs { steps } else { 1 };
        RowMemory {
            inputs: input_block,
            sysvals,
            outputs: Block::new(4 * output_words * output_blocks),
            masks: Block::new(4 * w * steps),
        }
    }
}

/// Runs a pixel shader over a rectangle in 2x2 quads and writes its targets.
///
/// Each worker takes a row of quads at a time and makes one call for it:
/// the compiled code steps along the row itself ([`DrawRow`]), writing each
/// step's lane mask, position and varying inputs, so the runtime prepares
/// only what is the same along the row. It then stores the targets the
/// compiled code does not store itself.
///
/// # Safety
/// `k` describes live code compiled for these bindings' ABI (a kernel from a
/// shader that outlives the call); every view in `b` is empty or points to
/// memory readable for its `size` bytes (writable too for UAVs), with
/// `texture` null or pointing to the live [`crate::texture::Texture`] the
/// view was made from; no other thread writes memory a view reads, or
/// touches memory a UAV views, during the call.
/// Each target's `ptr` is writable for `(height - 1) * row_pitch + width *
/// samples * texel size` bytes, untouched by anything else during the
/// call, and no two targets overlap. Every target has the same `samples`.
pub unsafe fn draw(k: &Kernel, b: &Bindings, d: &Draw) {
    let [x0, y0, x1, y1] = d.rect;
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let samples = d.samples();
    let shading = &d.shading;
    if samples > 1
        || shading.mask_output.is_some()
        || shading.reads_coverage
        || d.sample_mask & 1 == 0
    {
        // SAFETY: forwarded from the caller.
        return unsafe { draw_multisampled(k, b, d, samples) };
    }
    let w = k.lanes as usize;
    let quads_per_call = w / 4;
    let qx0 = x0 & !1;
    let qy0 = y0 & !1;
    let quad_cols = (x1 - qx0).div_ceil(2) as usize;
    let quad_rows = (y1 - qy0).div_ceil(2);
    let calls_per_row = quad_cols.div_ceil(quads_per_call);
    let columns = Axis::new(
        qx0,
        2 * calls_per_row * quads_per_call,
        x0,
        x1,
        d.pixel_center,
    );
    let inputs = Inputs::new(&d.inputs, k.input_regs as usize, &columns);
    let varying = inputs.varying_slots();
    let varying_set = varying_set(&varying);
    let table = inputs.quad_table();
    let rows = Axis::new(qy0, 2 * quad_rows as usize, y0, y1, d.pixel_center);
    let pos = SysValSlot::Position as usize * 4;
    let (direct, by_runtime) = direct_targets(k, &d.targets);
    let keep_outputs = !by_runtime.is_empty();
    let output_bytes = 4 * k.output_regs as usize * 4 * w;
    let evaluation = d.evaluation(1);
    (0..quad_rows).into_par_iter().for_each_init(
        || {
            let memory = RowMemory::new(k, &inputs, calls_per_row, keep_outputs);
            let mut call = Call::new(k, b);
            call.frame.direct_targets = direct.as_ptr();
            call.frame.eval = (&evaluation as *const Evaluation).cast();
            (call, memory)
        },
        |(call, memory), row| {
            if b.interrupted() {
                return;
            }
            let dy = [2 * row as usize, 2 * row as usize + 1];
            let ys = dy.map(|d| qy0 + d as u32);
            let place = dy.map(|d| rows.at(d));
            let covered = ys.map(|y| if (y0..y1).contains(&y) { u32::MAX } else { 0 });
            let sysvals = memory.sysvals.words();
            for l in 0..w {
                sysvals[(pos + 1) * w + l] = place[(l >> 1) & 1].1;
            }
            let draw_row = DrawRow {
                end_x: qx0 + (2 * calls_per_row * quads_per_call) as u32,
                first_x: qx0,
                columns: [x0, x1],
                row_mask: [covered[0], covered[0], covered[1], covered[1]],
                center: d.pixel_center,
                varying_count: varying.len() as u32,
                varying_set,
                places: [place[0].0 as f32, place[1].0 as f32],
                varying: varying.as_ptr(),
                table: table.as_ptr(),
                output_stride: if keep_outputs { output_bytes as u32 } else { 0 },
                mask_stride: 4 * w as u32,
            };
            let frame = &mut call.frame;
            frame.inputs = memory.inputs.words().as_ptr();
            frame.outputs = memory.outputs.words().as_mut_ptr();
            frame.sysvals = memory.sysvals.words().as_ptr();
            frame.lane_mask = memory.masks.words().as_mut_ptr();
            frame.pixel_origin = [qx0, ys[0]];
            frame.resume = 0;
            frame.draw_row = &draw_row;
            with_flushed_denormals(|| call.run(k.func));
            call.frame.draw_row = std::ptr::null();
            if keep_outputs {
                store_by_runtime(&by_runtime, memory, w, k.output_regs as usize, qx0, ys);
            }
        },
    );
}

/// Stores the targets compiled code does not store itself from a row's
/// output blocks, at the pixels each step's lane mask leaves covered.
fn store_by_runtime(
    targets: &[RenderTarget],
    memory: &mut RowMemory,
    w: usize,
    output_regs: usize,
    qx0: u32,
    ys: [u32; 2],
) {
    let output_words = output_regs * 4 * w;
    let RowMemory { masks, outputs, .. } = memory;
    let (masks, outputs) = (masks.words(), outputs.words());
    for (i, &covered) in masks.iter().enumerate() {
        if covered == 0 {
            continue;
        }
        let (c, l) = (i / w, i % w);
        let q = c * (w / 4) + l / 4;
        let (x, y) = (qx0 + (2 * q + (l & 1)) as u32, ys[(l >> 1) & 1]);
        let o = &outputs[c * output_words..][..output_words];
        for t in targets {
            let r = t.output_reg as usize;
            if x >= t.width || y >= t.height || r >= output_regs {
                continue;
            }
            let at = r * 4 * w + l;
            let value = [o[at], o[at + w], o[at + 2 * w], o[at + 3 * w]];
            let bpp = t.format.bytes_per_texel() as usize;
            let off = y as usize * t.row_pitch as usize + x as usize * bpp;
            // SAFETY: (x, y) lies inside the target, and each pixel
            // belongs to exactly one quad row, so threads write disjoint bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(t.ptr.add(off), bpp) };
            t.format.store(value, bytes);
        }
    }
}

/// The targets compiled code writes itself, one entry per output register,
/// and the targets left to the runtime: the first rgba8 or bgra8 target of
/// each register the kernel can write directly.
fn direct_targets(
    k: &Kernel,
    targets: &[RenderTarget],
) -> ([DirectTarget; DIRECT_TARGETS], Vec<RenderTarget>) {
    let mut direct = [DirectTarget::NONE; DIRECT_TARGETS];
    let mut by_runtime = Vec::new();
    for t in targets {
        let r = t.output_reg as usize;
        let texel_order = match t.format {
            Format::Rgba8Unorm => Some(DirectTarget::RGBA8),
            Format::Bgra8Unorm => Some(DirectTarget::BGRA8),
            _ => None,
        };
        match texel_order {
            Some(texel_order)
                if r < DIRECT_TARGETS
                    && k.direct_outputs & (1 << r) != 0
                    && direct[r].ptr.is_null()
                    && !t.ptr.is_null() =>
            {
                direct[r] = DirectTarget {
                    ptr: t.ptr,
                    row_pitch: t.row_pitch,
                    width: t.width,
                    height: t.height,
                    texel_order,
                };
            }
            _ => by_runtime.push(*t),
        }
    }
    (direct, by_runtime)
}
