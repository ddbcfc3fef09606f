//! `eval_centroid`, `eval_sample_index` and `eval_snapped`: a pixel
//! shader's input evaluated elsewhere in its pixel, the way the call's
//! draw path interpolated it.
//!
//! Every path that runs pixel shaders tells the call how it made the input
//! registers ([`Evaluation`], pointed to by `Frame::eval`): `draw`'s
//! corner values over its rectangle (bilinear, `corner_value`), or the plane
//! equations of `shade_quads` (in f32, divided by the 1/w plane when
//! perspective-correct). Compiled code calls [`dxjit_eval`] with each
//! lane's operand; the helper finds each lane's pixel and its evaluation
//! point and computes the input there with the function the path filled
//! the register with (`corner_value`, [`PlaneInput::words_at`]), with the
//! point placed the same way. An evaluation at the pixel centre therefore
//! gives the register's bits (for a `sample` input in a per-sample run,
//! an evaluation at that sample does), whatever the interpolation.
//!
//! Where the point is (D3D11.3, 16.5 "Pull Model Attribute Evaluation";
//! the input's `centroid` or `sample` declaration does not move it):
//! - `eval_snapped`: the pixel centre plus the offset's low 4 bits of x
//!   and y, as signed sixteenths of a pixel;
//! - `eval_sample_index`: sample `index` of the rasterizer's standard
//!   pattern, the centre for an index past the count (D3D leaves it
//!   undefined; `sample_pos` reads (0, 0) there);
//! - `eval_centroid`: [`msaa::centroid`] of the pixel's sample coverage
//!   under the sample mask; helper pixels have no coverage.
//!
//! `shade_quads` with per-pixel values gives no interpolation to repeat:
//! there the helper estimates the input from its quad, `v + ddx(v) · o.x +
//! ddy(v) · o.y` with coarse differences and fused multiply-adds, which is
//! exact only for values affine across the quad (helpers included).

use crate::abi::{EvalMode, Frame};
use crate::dispatch::interpolate::{corner_value, place};
use crate::dispatch::{pixel_point, plane_of, PixelInput, PlaneInput, Quad, QuadSamples};
use crate::msaa;

/// How a call's pixel inputs were made, for evaluating them elsewhere.
#[derive(Debug, Clone, Copy)]
pub enum Evaluation<'a> {
    /// A `draw`: lane `4q + l` shades pixel `(x + 2q + l % 2, y + l / 2)`
    /// from `Frame::pixel_origin` (x, y); a pixel inside `rect` covers all
    /// its samples, one outside none.
    Rect {
        /// The pixels covered: x0, y0, x1, y1 (exclusive).
        rect: [u32; 4],
        /// Where in a pixel its centre is (0.5 for D3D10+, 0 for D3D9).
        center: f32,
        /// The rasterizer's samples a pixel.
        samples: u32,
        /// D3D's sample mask.
        sample_mask: u32,
        /// The corner values; a later input replaces an earlier one of
        /// the same register, registers none names are 0.
        inputs: &'a [PixelInput],
    },
    /// `shade_quads`: lanes `4q .. 4q + 4` shade quad `q` of `quads`
    /// (lanes past them are padding).
    Quads {
        /// The call's quads.
        quads: &'a [Quad],
        /// Where in a pixel its centre is.
        center: f32,
        /// The call's sample count, coverage (one entry per pixel of
        /// `quads`, or none) and sample mask.
        samples: &'a QuadSamples<'a>,
        /// The plane inputs; `None` when the embedder gave per-pixel values.
        planes: Option<&'a [PlaneInput]>,
    },
}

/// One lane's operand of an evaluation.
#[derive(Debug, Clone, Copy)]
enum At {
    /// The centroid.
    Centroid,
    /// A sample of the rasterizer's pattern.
    Sample(i32),
    /// An offset in sixteenths, in the low 4 bits of each word.
    Snapped(i32, i32),
}

impl At {
    /// The operand of `mode` from its two words.
    fn new(mode: u32, x: u32, y: u32) -> At {
        match EvalMode::from_code(mode) {
            Some(EvalMode::SampleIndex) => At::Sample(x as i32),
            Some(EvalMode::Snapped) => At::Snapped(x as i32, y as i32),
            _ => At::Centroid,
        }
    }

    /// The point, in pixels from the centre, for a pixel of `samples`
    /// samples covering `coverage` under `mask`.
    fn offset(self, coverage: u32, mask: u32, samples: u32) -> [f32; 2] {
        match self {
            At::Centroid => msaa::centroid(coverage, mask, samples),
            At::Sample(index) => {
                let [x, y, _, _] = msaa::sample_position(samples.max(1), index);
                [x, y]
            }
            At::Snapped(x, y) => [x, y].map(|v| ((v << 28) >> 28) as f32 / 16.0),
        }
    }
}

/// The samples a pixel of `samples` has, as a mask.
fn all_samples(samples: u32) -> u32 {
    1u32.checked_shl(samples.max(1))
        .map_or(u32::MAX, |bit| bit - 1)
}

impl Evaluation<'_> {
    /// Input register `reg` of lane `l` of a call of `lanes` lanes at `at`.
    fn lane(&self, frame: &Frame, lanes: usize, reg: u32, l: usize, at: At) -> [u32; 4] {
        match *self {
            Evaluation::Rect {
                rect: [x0, y0, x1, y1],
                center,
                samples,
                sample_mask,
                inputs,
            } => {
                let [qx, qy] = frame.pixel_origin;
                let x = qx + 2 * (l / 4) as u32 + (l & 1) as u32;
                let y = qy + ((l >> 1) & 1) as u32;
                let inside = (x0..x1).contains(&x) && (y0..y1).contains(&y);
                let coverage = if inside { all_samples(samples) } else { 0 };
                let [dx, dy] = at.offset(coverage, sample_mask, samples);
                let u = place(x, center, f64::from(dx), x0, f64::from(x1 - x0));
                let v = place(y, center, f64::from(dy), y0, f64::from(y1 - y0));
                inputs
                    .iter()
                    .rev()
                    .find(|i| i.reg == reg)
                    .map_or([0; 4], |i| corner_value(&i.corners, u, v))
            }
            Evaluation::Quads {
                quads,
                center,
                samples,
                planes,
            } => {
                let (q, p) = (l / 4, l % 4);
                let Some(quad) = quads.get(q) else {
                    return [0; 4];
                };
                let coverage = samples.pixel_coverage(q, p, quad);
                let offset = at.offset(coverage, samples.mask, samples.count);
                match planes {
                    Some(planes) => plane_of(planes, reg).map_or([0; 4], |plane| {
                        plane.words_at(pixel_point(quad, p, center, offset))
                    }),
                    // SAFETY: the runtime points `inputs` at the call's
                    // input block of `lanes` lanes, which holds `reg`
                    // (compiled code passes a declared input register).
                    None => unsafe { estimate(frame.inputs, lanes, reg, l, offset) },
                }
            }
        }
    }
}

/// Input register `reg` of lane `l` estimated at `offset` from its quad's
/// values in the input block: `v + ddx · o.x + ddy · o.y`, coarse
/// differences, fused.
///
/// # Safety
/// `inputs` holds at least `reg + 1` registers of `lanes` lanes.
unsafe fn estimate(
    inputs: *const u32,
    lanes: usize,
    reg: u32,
    l: usize,
    [ox, oy]: [f32; 2],
) -> [u32; 4] {
    let first = l & !3;
    std::array::from_fn(|c| {
        let at = (reg as usize * 4 + c) * lanes;
        // SAFETY: lanes `first .. first + 4` of the component lie in the block.
        let word = |lane: usize| f32::from_bits(unsafe { *inputs.add(at + lane) });
        let (v, left) = (word(l), word(first));
        let (ddx, ddy) = (word(first + 1) - left, word(first + 2) - left);
        ddy.mul_add(oy, ddx.mul_add(ox, v)).to_bits()
    })
}

/// Evaluates input register `reg` for each of a call's `lanes` lanes as
/// `mode` (an [`EvalMode`] code) says, from the operands at `args`: word
/// `l` is lane `l`'s sample index or offset x, word `lanes + l` its offset
/// y. Writes component `c` of lane `l` to word `c * lanes + l` of `args`.
/// A frame without a description leaves each lane the register as it is.
///
/// # Safety
/// `frame` is the calling shader's frame, its `eval` null or pointing to
/// the call's description, its input block holding register `reg` of
/// `lanes` lanes; `args` has room for `4 * lanes` words.
pub unsafe extern "C" fn dxjit_eval(
    frame: *const Frame,
    reg: u32,
    mode: u32,
    lanes: u32,
    args: *mut u32,
) {
    let lanes = lanes as usize;
    // SAFETY: the caller passes its own live frame.
    let frame = unsafe { &*frame };
    // SAFETY: `args` holds the operands' `2 * lanes` words (contract).
    let operands = unsafe { std::slice::from_raw_parts(args, 2 * lanes) }.to_vec();
    // SAFETY: `eval` is null or the call's description (contract).
    let evaluation = unsafe { frame.eval.as_ref() };
    for l in 0..lanes {
        let words = match evaluation {
            Some(e) => e.lane(
                frame,
                lanes,
                reg,
                l,
                At::new(mode, operands[l], operands[lanes + l]),
            ),
            // SAFETY: the input block holds register `reg` (contract).
            None => std::array::from_fn(|c| unsafe {
                *frame.inputs.add((reg as usize * 4 + c) * lanes + l)
            }),
        };
        for (c, word) in words.into_iter().enumerate() {
            // SAFETY: `args` has room for `4 * lanes` words.
            unsafe { *args.add(c * lanes + l) = word };
        }
    }
}
