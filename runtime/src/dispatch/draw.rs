//! Pixel shaders over a rectangle in 2x2 quads.
//!
//! Each worker takes a row of quads at a time and runs it in batches of
//! calls: it prepares every call's inputs, system values and lane mask,
//! runs the batch's calls back to back with denormals flushed (switching
//! the float mode once per batch rather than once per call), then writes
//! the pixels still covered to the targets. Its own arithmetic (input
//! interpolation, target conversions) thus runs in the default float mode.

use super::interpolate::{Axis, Inputs};
use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{DirectTarget, SysValSlot, DIRECT_TARGETS, SYSVAL_COUNT};
use crate::format::Format;
use rayon::prelude::*;

/// Calls per batch.
const BATCH: usize = 16;

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
    /// Render targets.
    pub targets: Vec<RenderTarget>,
}

// SAFETY: render targets are written at disjoint pixels by different threads.
unsafe impl Send for RenderTarget {}
// SAFETY: as above.
unsafe impl Sync for RenderTarget {}

/// A worker's memory for one batch of calls: per call, its input, output
/// and system-value blocks and lane mask (`words` words each).
struct Batch {
    inputs: Block,
    outputs: Block,
    sysvals: Block,
    masks: Block,
}

/// Words per call of a [`Batch`]'s blocks.
#[derive(Debug, Clone, Copy)]
struct Words {
    inputs: usize,
    outputs: usize,
    sysvals: usize,
    lanes: usize,
}

impl Batch {
    /// A batch sized by `words`, with the system values that never change
    /// (z and w of the position, the front-face flag) in place.
    fn new(words: Words) -> Batch {
        let mut sysvals = Block::new(4 * BATCH * words.sysvals);
        let w = words.lanes;
        let pos = SysValSlot::Position as usize * 4;
        for call in sysvals.words()[..BATCH * words.sysvals].chunks_mut(words.sysvals) {
            call[(pos + 3) * w..(pos + 4) * w].fill(1.0f32.to_bits());
            let front = SysValSlot::FrontFace as usize * 4 * w;
            call[front..front + w].fill(u32::MAX);
        }
        Batch {
            inputs: Block::new(4 * BATCH * words.inputs),
            outputs: Block::new(4 * BATCH * words.outputs),
            sysvals,
            masks: Block::new(4 * BATCH * w),
        }
    }
}

/// Runs a pixel shader over a rectangle in 2x2 quads and writes its targets.
///
/// # Safety
/// `k` describes live code compiled for these bindings' ABI (a kernel from a
/// shader that outlives the call); every view in `b` is empty or points to
/// memory readable for its `size` bytes (writable too for UAVs), with
/// `texture` null or pointing to the live [`crate::texture::Texture`] the
/// view was made from; no other thread writes memory a view reads, or
/// touches memory a UAV views, during the call.
/// Each target's `ptr` is writable for `(height - 1) * row_pitch + width *
/// texel size` bytes, untouched by anything else during the call, and no two
/// targets overlap.
pub unsafe fn draw(k: &Kernel, b: &Bindings, d: &Draw) {
    let [x0, y0, x1, y1] = d.rect;
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let w = k.lanes as usize;
    let quads_per_call = w / 4;
    let qx0 = x0 & !1;
    let qy0 = y0 & !1;
    let quad_cols = (x1 - qx0).div_ceil(2) as usize;
    let quad_rows = (y1 - qy0).div_ceil(2);
    let calls_per_row = quad_cols.div_ceil(quads_per_call);
    let ni = k.input_regs as usize;
    let no = k.output_regs as usize;
    let words = Words {
        inputs: ni * 4 * w,
        outputs: no * 4 * w,
        sysvals: SYSVAL_COUNT * 4 * w,
        lanes: w,
    };
    let columns = Axis::new(
        qx0,
        2 * calls_per_row * quads_per_call,
        x0,
        x1,
        d.pixel_center,
    );
    let inputs = Inputs::new(&d.inputs, ni, &columns);
    let rows = Axis::new(qy0, 2 * quad_rows as usize, y0, y1, d.pixel_center);
    let pos = SysValSlot::Position as usize * 4;
    let (direct, by_runtime) = direct_targets(k, &d.targets);
    let column_inside: Vec<bool> = (0..columns.len())
        .map(|dx| (x0..x1).contains(&(qx0 + dx as u32)))
        .collect();
    (0..quad_rows).into_par_iter().for_each_init(
        || {
            let mut batch = Batch::new(words);
            for c in 0..BATCH {
                inputs.fill_flat(&mut batch.inputs.words()[c * words.inputs..], w);
            }
            let mut call = Call::new(k, b);
            call.frame.direct_targets = direct.as_ptr();
            (call, batch)
        },
        |(call, batch), row| {
            if b.interrupted() {
                return;
            }
            let dy = [2 * row as usize, 2 * row as usize + 1];
            let ys = dy.map(|d| qy0 + d as u32);
            let place = dy.map(|d| rows.at(d));
            let row_inside = ys.map(|y| (y0..y1).contains(&y));
            for first in (0..calls_per_row).step_by(BATCH) {
                let calls = BATCH.min(calls_per_row - first);
                for c in 0..calls {
                    let input = &mut batch.inputs.words()[c * words.inputs..][..words.inputs];
                    let sysval = &mut batch.sysvals.words()[c * words.sysvals..][..words.sysvals];
                    let mask = &mut batch.masks.words()[c * w..][..w];
                    for quad in 0..quads_per_call {
                        let q = (first + c) * quads_per_call + quad;
                        let lane = 4 * quad;
                        inputs.fill_quad(input, w, lane, 2 * q, [place[0].0, place[1].0]);
                        for l in 0..4 {
                            let dx = 2 * q + (l & 1);
                            let inside = q < quad_cols && column_inside[dx] && row_inside[l >> 1];
                            sysval[pos * w + lane + l] = columns.at(dx).1;
                            sysval[(pos + 1) * w + lane + l] = place[l >> 1].1;
                            mask[lane + l] = if inside { u32::MAX } else { 0 };
                        }
                    }
                }
                batch.outputs.zero();
                with_flushed_denormals(|| {
                    for c in 0..calls {
                        let frame = &mut call.frame;
                        frame.inputs = batch.inputs.words()[c * words.inputs..].as_ptr();
                        frame.outputs = batch.outputs.words()[c * words.outputs..].as_mut_ptr();
                        frame.sysvals = batch.sysvals.words()[c * words.sysvals..].as_ptr();
                        frame.lane_mask = batch.masks.words()[c * w..].as_mut_ptr();
                        frame.pixel_origin =
                            [qx0 + (2 * (first + c) * quads_per_call) as u32, ys[0]];
                        frame.resume = 0;
                        call.run(k.func);
                    }
                });
                if by_runtime.is_empty() {
                    continue;
                }
                let outputs = batch.outputs.words();
                let masks = batch.masks.words();
                for (i, &covered) in masks[..calls * w].iter().enumerate() {
                    if covered == 0 {
                        continue;
                    }
                    let (c, l) = (i / w, i % w);
                    let q = (first + c) * quads_per_call + l / 4;
                    let (x, y) = (qx0 + (2 * q + (l & 1)) as u32, ys[(l >> 1) & 1]);
                    let o = &outputs[c * words.outputs..][..words.outputs];
                    for t in &by_runtime {
                        let r = t.output_reg as usize;
                        if x >= t.width || y >= t.height || r >= no {
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
        },
    );
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
        let swap_red_blue = match t.format {
            Format::Rgba8Unorm => Some(0),
            Format::Bgra8Unorm => Some(u32::MAX),
            _ => None,
        };
        match swap_red_blue {
            Some(swap_red_blue)
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
                    swap_red_blue,
                };
            }
            _ => by_runtime.push(*t),
        }
    }
    (direct, by_runtime)
}
