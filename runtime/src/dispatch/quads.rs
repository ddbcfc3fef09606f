//! Shading 2x2 quads an embedder's own rasterizer produced: any positions,
//! coverage and facing per quad, attributes per pixel, outputs and the
//! surviving coverage returned instead of written to targets.
//!
//! A shader that runs per sample runs once per sample in passes, as the
//! draw path does (`draw_samples.rs`, D3D11.3 "Multisample
//! Rasterization"): pass `s` shades, in each pixel that covers sample `s`
//! and whose sample mask keeps it, that sample, with `vSampleIndex` = s,
//! `vCoverage` its bit alone and its own inputs and outputs; the other
//! pixels run as helpers. Each call points the frame at an [`Evaluation`]
//! of its quads, for `eval_*`.

use super::planes::{pixel_point, PlaneInput};
use super::{Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, SYSVAL_COUNT};
use crate::eval::Evaluation;
use crate::msaa::{centroid, standard_pattern};
use rayon::prelude::*;

/// One 2x2 quad: pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1), in that
/// order everywhere (bit i of `coverage`, input and output block i). Its
/// pixels' samples are in [`QuadSamples`].
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

/// The samples of a batch of quads: how many a pixel has, which each
/// pixel covers and which the blend state lets through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadSamples<'a> {
    /// Samples a pixel of the rasterizer (what `sample_info rasterizer` and
    /// `sample_pos rasterizer` report): 1, 2, 4, 8 or 16; 0 reads as 1.
    pub count: u32,
    /// Per quad and pixel (entry `4 * q + p`), the samples the primitive
    /// covers there (bit i = sample i), whose AND with `mask` is the
    /// pixel's `vCoverage`; a pixel whose bit of [`Quad::coverage`] is
    /// clear stays a helper whatever its entry says. Empty: every sample of
    /// a covered pixel.
    pub coverage: &'a [u32],
    /// D3D's blend-state sample mask (`OMSetBlendState`'s `SampleMask`):
    /// samples whose bit is clear are not written.
    pub mask: u32,
    /// The output register holding the shader's `oMask`, which is ANDed
    /// with the samples written ([`super::SampleShading::mask_output`]).
    pub mask_output: Option<u32>,
    /// The shader runs once per sample ([`super::SampleShading::per_sample`]):
    /// `count` passes, each with its own inputs and outputs.
    pub per_sample: bool,
    /// In a per-sample pass, `SV_Position` is the sample's position in
    /// D3D's standard pattern rather than the pixel's centre
    /// ([`super::SampleShading::sample_position`]).
    pub sample_position: bool,
    /// `SV_Position` is the pixel's centroid rather than its centre
    /// ([`super::SampleShading::centroid_position`]), outside per-sample
    /// passes that move it to their sample.
    pub centroid_position: bool,
}

impl QuadSamples<'_> {
    /// One sample a pixel, every sample written, no `oMask`.
    pub const SINGLE: QuadSamples<'static> = QuadSamples {
        count: 1,
        coverage: &[],
        mask: u32::MAX,
        mask_output: None,
        per_sample: false,
        sample_position: false,
        centroid_position: false,
    };

    /// The shader's runs per pixel: `count` for a shader that runs per
    /// sample, else 1.
    pub fn passes(&self) -> usize {
        match self.per_sample {
            true => self.count.max(1) as usize,
            false => 1,
        }
    }

    /// Every sample of a pixel.
    fn all(&self) -> u32 {
        1u32.checked_shl(self.count.max(1))
            .map_or(u32::MAX, |bit| bit - 1)
    }

    /// The samples pixel `p` of quad `q` covers when it is covered.
    fn covered(&self, q: usize, p: usize) -> u32 {
        self.coverage
            .get(4 * q + p)
            .map_or(self.all(), |&c| c & self.all())
    }

    /// The samples pixel `p` of `quad` (quad `q` of the batch) covers: none
    /// for a helper.
    pub fn pixel_coverage(&self, q: usize, p: usize, quad: &Quad) -> u32 {
        match quad.coverage & (1 << p) {
            0 => 0,
            _ => self.covered(q, p),
        }
    }
}

/// A batch's input registers and where they came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuadValues<'a> {
    /// Per quad, pixel and pass, the kernel's input registers (register
    /// `r` of pass `s` of pixel `p` of quad `q` at `((4 * q + p) * passes
    /// + s) * input_regs + r`).
    pub registers: &'a [[u32; 4]],
    /// The plane equations the registers were evaluated from (at
    /// [`pixel_point`]s, with denormals flushed), which `eval_*` evaluate
    /// elsewhere in the pixel; `None` when the embedder gave the values.
    pub planes: Option<&'a [PlaneInput]>,
}

/// Shades `quads` with a pixel shader, [`QuadSamples::passes`] times: once
/// a pixel, or once per sample (pass `s` shading sample `s`). `inputs`
/// holds, per quad, pixel and pass, the kernel's `input_regs` registers
/// ([`QuadValues`]); `outputs` receives its `output_regs` registers in the
/// same order; `alive[q]` receives the pixels of quad `q`
/// that were covered and not discarded (in some pass), and
/// `written[4 * q + p]` (when `written` is not empty) the samples of that
/// pixel its outputs go to: its coverage (per pass, the sample shaded)
/// ANDed with `oMask` and the sample mask, 0 when it is not alive. Pixel
/// positions are `x + pixel_center`, `y + pixel_center`, moved to the
/// sample's position in per-sample passes when
/// [`QuadSamples::sample_position`]. `vCoverage` is the pixel's coverage
/// (in a per-sample pass, the pass's sample) ANDed with the sample mask,
/// and a per-sample pass shades only samples the mask keeps (D3D11.3,
/// 16.3.2 and 3.5.4).
///
/// # Safety
/// As for [`super::dispatch`]. `inputs.registers` holds `quads.len() * 4 * passes *
/// k.input_regs` registers and `outputs` `quads.len() * 4 * passes *
/// k.output_regs`; `alive` has one entry per quad; `samples.coverage` and
/// `written` are empty or have one entry per pixel.
#[allow(clippy::too_many_arguments)]
pub unsafe fn shade_quads(
    k: &Kernel,
    b: &Bindings,
    quads: &[Quad],
    pixel_center: f32,
    inputs: QuadValues,
    samples: &QuadSamples,
    outputs: &mut [[u32; 4]],
    alive: &mut [u8],
    written: &mut [u32],
) {
    let w = k.lanes as usize;
    let per_call = (w / 4).max(1);
    let per_task = per_call * CALLS_PER_TASK;
    let passes = samples.passes();
    let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
    // A pixel's registers over every pass.
    let (pixel_in, pixel_out) = (ni * passes, no * passes);
    let tasks = quads.len().div_ceil(per_task);
    // Split by index, not by chunks of each array: a shader with no input
    // or output registers has empty arrays, which must still give a part
    // per task.
    let parts = split_mut(outputs, per_task * 4 * pixel_out, tasks)
        .into_iter()
        .zip(split_mut(written, per_task * 4, tasks));
    quads
        .par_chunks(per_task)
        .zip(alive.par_chunks_mut(per_task))
        .zip(parts.collect::<Vec<_>>())
        .enumerate()
        .for_each_init(
            || {
                let call = Call::new(k, b);
                let blocks = [ni, no, SYSVAL_COUNT].map(|regs| Block::new(regs * 16 * w));
                (call, blocks)
            },
            |(call, [ib, ob, sv]), (t, ((quads, alive), (outputs, written)))| {
                let first = t * per_task;
                let task_inputs = part(
                    inputs.registers,
                    first * 4 * pixel_in,
                    quads.len() * 4 * pixel_in,
                );
                let coverage = part(samples.coverage, first * 4, quads.len() * 4);
                let task_samples = QuadSamples {
                    coverage,
                    ..*samples
                };
                let calls = quads.chunks(per_call).count();
                let outputs = split_mut(outputs, per_call * 4 * pixel_out, calls);
                let written = split_mut(written, per_call * 4, calls);
                let parts = quads
                    .chunks(per_call)
                    .zip(alive.chunks_mut(per_call))
                    .zip(outputs.into_iter().zip(written))
                    .enumerate();
                for (c, ((quads, alive), (outputs, written))) in parts {
                    if b.interrupted() {
                        return;
                    }
                    let at = c * per_call;
                    let call_samples = QuadSamples {
                        coverage: part(task_samples.coverage, at * 4, quads.len() * 4),
                        ..task_samples
                    };
                    let call_inputs =
                        part(task_inputs, at * 4 * pixel_in, quads.len() * 4 * pixel_in);
                    let evaluation = Evaluation::Quads {
                        quads,
                        center: pixel_center,
                        samples: &call_samples,
                        planes: inputs.planes,
                    };
                    call.frame.eval = (&evaluation as *const Evaluation).cast();
                    for s in 0..passes {
                        let pass = Pass {
                            sample: call_samples.per_sample.then_some(s as u32),
                            index: s,
                            count: passes,
                        };
                        fill(
                            w,
                            ni,
                            quads,
                            call_inputs,
                            pixel_center,
                            &call_samples,
                            pass,
                            [ib, sv],
                            call,
                        );
                        call.run_on_blocks(k.func, [ib, ob, sv]);
                        let pixels = (&mut outputs[..], &mut alive[..], &mut written[..]);
                        gather(w, no, call, [ob, sv], &call_samples, pass, pixels);
                    }
                    call.frame.eval = std::ptr::null();
                }
            },
        );
}

/// `len` elements of `s` from `start`, or fewer (none) where `s` ends.
fn part<T>(s: &[T], start: usize, len: usize) -> &[T] {
    let start = start.min(s.len());
    &s[start..(start + len).min(s.len())]
}

/// `s` as `n` consecutive parts of `size` elements (the last ones shorter
/// or empty where `s` ends).
fn split_mut<T>(mut s: &mut [T], size: usize, n: usize) -> Vec<&mut [T]> {
    (0..n)
        .map(|_| {
            let at = size.min(s.len());
            let (head, tail) = std::mem::take(&mut s).split_at_mut(at);
            s = tail;
            head
        })
        .collect()
}

/// Quads per parallel task, in calls: enough work to outweigh rayon's
/// per-task cost.
const CALLS_PER_TASK: usize = 64;

/// One run of a call's lanes: which of the pixel's passes it is.
#[derive(Clone, Copy)]
struct Pass {
    /// The sample shaded, in a per-sample pass.
    sample: Option<u32>,
    /// The pass's place among the pixel's (its registers' place).
    index: usize,
    /// Passes per pixel.
    count: usize,
}

/// Copies one pass's outputs (SoA) to the caller's per-pixel layout (`no`
/// registers a pass), its lane mask to per-quad alive bits and, when asked
/// for, the samples each pixel writes; a pass after the first adds its
/// pixels and samples to the earlier passes'.
fn gather(
    w: usize,
    no: usize,
    call: &mut Call,
    [ob, sv]: [&mut Block; 2],
    samples: &QuadSamples,
    pass: Pass,
    (outputs, alive, written): (&mut [[u32; 4]], &mut [u8], &mut [u32]),
) {
    let mask = call.lane_mask.words();
    let out = ob.words();
    let coverage = &sv.words()[SysValSlot::Coverage as usize * 4 * w..];
    let o_mask = samples.mask_output.filter(|&r| (r as usize) < no);
    let first = pass.index == 0;
    for (q, a) in alive.iter_mut().enumerate() {
        let bits = (0..4)
            .filter(|&p| mask[4 * q + p] != 0)
            .fold(0, |bits, p| bits | 1 << p);
        *a = if first { bits } else { *a | bits };
        for p in 0..4 {
            let lane = 4 * q + p;
            let place = (lane * pass.count + pass.index) * no;
            for r in 0..no {
                let at = r * 4 * w + lane;
                outputs[place + r] = [out[at], out[at + w], out[at + 2 * w], out[at + 3 * w]];
            }
            if let Some(bits) = written.get_mut(lane) {
                let shader = o_mask.map_or(u32::MAX, |r| out[r as usize * 4 * w + lane]);
                let now = if mask[lane] != 0 {
                    coverage[lane] & shader & samples.mask
                } else {
                    0
                };
                *bits = if first { now } else { *bits | now };
            }
        }
    }
}

/// Writes one pass's inputs (`ni` registers a pass), system values and
/// lane mask in SoA form: component `c` of register `r` of lane `l` at
/// word `(r * 4 + c) * w + l`. In a per-sample pass a pixel runs (rather
/// than helps) when it covers the sample.
#[allow(clippy::too_many_arguments)]
fn fill(
    w: usize,
    ni: usize,
    quads: &[Quad],
    inputs: &[[u32; 4]],
    center: f32,
    samples: &QuadSamples,
    pass: Pass,
    [ib, sv]: [&mut Block; 2],
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
    let index = SysValSlot::Sample as usize * 4;
    let count = index + 1;
    let at_sample = match (pass.sample, samples.sample_position) {
        (Some(s), true) => standard_pattern(samples.count)
            .get(s as usize)
            .map(|o| o.map(|c| f32::from(c) / 16.0)),
        _ => None,
    };
    for (q, quad) in quads.iter().enumerate() {
        for p in 0..4 {
            let lane = 4 * q + p;
            let first = (lane * pass.count + pass.index) * ni;
            for r in 0..ni {
                let value = inputs[first + r];
                for (c, v) in value.iter().enumerate() {
                    input[(r * 4 + c) * w + lane] = *v;
                }
            }
            let coverage = samples.pixel_coverage(q, p, quad);
            let offset = match at_sample {
                Some(offset) => offset,
                None if samples.centroid_position => {
                    centroid(coverage, samples.mask, samples.count)
                }
                None => [0.0; 2],
            };
            let [x, y] = pixel_point(quad, p, center, offset);
            sysval[pos * w + lane] = x.to_bits();
            sysval[(pos + 1) * w + lane] = y.to_bits();
            sysval[(pos + 3) * w + lane] = 1.0f32.to_bits();
            sysval[face * w + lane] = if quad.front_facing { u32::MAX } else { 0 };
            let pixel = quad.coverage & (1 << p) != 0;
            let shaded = pass
                .sample
                .map_or(u32::MAX, |s| 1u32.checked_shl(s).unwrap_or(0));
            let covered = coverage & shaded & samples.mask;
            let runs = pixel && (pass.sample.is_none() || covered != 0);
            mask[lane] = if runs { u32::MAX } else { 0 };
            sysval[cov * w + lane] = covered;
            sysval[index * w + lane] = pass.sample.unwrap_or(0);
            sysval[count * w + lane] = samples.count.max(1);
        }
    }
}
