//! Shading the 2x2 quads of the caller's own rasterizer.

use crate::bindings::Bindings;
use crate::bound::Bound;
use crate::checks::{optional_grown, slice, versioned_slice, Versioned};
use crate::dispatch::require_stage;
use crate::enums::Stage;
use crate::guard::{call, Message};
use crate::reflect::shader_ref;
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use dxjit::api::QuadPasses;
use dxjit::{PlaneInput as LibraryPlane, QuadInputs};
use dxjit_runtime::dispatch::{Quad as RuntimeQuad, QuadSamples, QuadValues};
use std::ffi::c_char;

/// One 2x2 quad: pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1), in that
/// order everywhere (bit i of `coverage`, inputs and outputs).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Quad {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Covered pixels, bits 0..4; uncovered ones run as helpers for
    /// derivatives and are never alive.
    pub coverage: u32,
    /// Nonzero when the primitive faces the viewer.
    pub front_facing: u32,
}

/// An input register as plane equations: component `c` at a pixel centre
/// (x, y) is `planes[c][0] * x + planes[c][1] * y + planes[c][2]`, divided by
/// the `one_over_w` plane there when `perspective` is nonzero.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PlaneInput {
    /// `sizeof(dxjit_plane_input)`.
    pub struct_size: usize,
    /// The input register (below the shader's `input_registers`).
    pub reg: u32,
    /// a, b, c per component.
    pub planes: [[f32; 3]; 4],
    /// Nonzero for perspective-correct interpolation.
    pub perspective: u32,
    /// a, b, c of 1/w.
    pub one_over_w: [f32; 3],
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and floats.
unsafe impl Versioned for PlaneInput {
    const NAME: &'static str = "dxjit_plane_input";
}

/// A batch of quads and where their inputs come from and outputs go.
/// Register `r` of pixel `p` of quad `q` is the four words at
/// `((4 * q + p) * registers + r) * 4`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct QuadBatch {
    /// `sizeof(dxjit_quad_batch)`.
    pub struct_size: usize,
    /// The quads; may be null when `quad_count` is 0.
    pub quads: *const Quad,
    /// Entries in `quads`.
    pub quad_count: usize,
    /// Where in a pixel it is sampled: 0.5 for D3D10+, 0.0 for D3D9.
    pub pixel_center: f32,
    /// Per-pixel input words (`input_registers` per pixel), or null to
    /// use `planes`.
    pub inputs: *const u32,
    /// Plane-equation inputs, used when `inputs` is null; registers none
    /// names are 0.
    pub planes: *const PlaneInput,
    /// Entries in `planes`.
    pub plane_count: usize,
    /// Output words, `output_registers` per pixel.
    pub outputs: *mut u32,
    /// Per quad, receives the pixels covered and not discarded.
    pub alive: *mut u8,
    /// Samples a pixel of the rasterizer: 1, 2, 4, 8 or 16; 0 means 1.
    pub sample_count: u32,
    /// Samples not written (the complement of D3D's blend-state
    /// `SampleMask`; 0 writes every sample): cleared from `written`.
    pub masked_samples: u32,
    /// Per pixel (`4 * q + p`), the samples the primitive covers there (bit
    /// i = sample i), whose AND with the sample mask is the pixel's
    /// `vCoverage`; null: every sample of each covered pixel. A pixel
    /// outside `coverage` stays a helper.
    pub sample_coverage: *const u32,
    /// Per pixel, receives the samples its outputs go to: its coverage ANDed
    /// with the shader's `oMask` and the sample mask, 0 when not alive; may
    /// be null.
    pub written: *mut u32,
    /// Nonzero: `outputs` holds `sample_count` sets of output registers a
    /// pixel, register `r` of sample `s` of pixel `p` of quad `q` at
    /// `(((4 * q + p) * sample_count + s) * output_registers + r) * 4`. A
    /// shader that runs per sample (it reads `SV_SampleIndex` or has
    /// `sample` inputs) then runs once per covered sample, as in a draw,
    /// each run's outputs in its sample's set, its `sample` plane inputs
    /// at the sample's position (per-pixel `inputs` serve every sample); a
    /// shader that runs once a pixel writes the same outputs to each set.
    /// Zero: one set a pixel, and a shader that runs per sample is refused
    /// when `sample_count` is above 1.
    pub outputs_per_sample: u32,
}

/// `struct_size` of `dxjit_quad_batch` before `sample_count`; still
/// accepted (one sample a pixel, nothing masked, no `written`).
pub const QUAD_BATCH_V1_SIZE: usize = std::mem::offset_of!(QuadBatch, sample_count);

/// `struct_size` of `dxjit_quad_batch` before `outputs_per_sample`; still
/// accepted (one set of outputs a pixel).
pub const QUAD_BATCH_V2_SIZE: usize = std::mem::offset_of!(QuadBatch, outputs_per_sample);

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers, a float and raw pointers.
unsafe impl Versioned for QuadBatch {
    const NAME: &'static str = "dxjit_quad_batch";
}

/// Runs a pixel shader on a batch of quads from the caller's rasterizer:
/// derivatives come from each quad, outputs and the surviving coverage are
/// written to the batch's arrays instead of render targets.
///
/// # Safety
/// `shader` is null or live; `bindings` is null or valid as
/// `dxjit_bindings` documents; `batch` is null or a readable
/// `dxjit_quad_batch` whose arrays hold what it documents: `quads` and
/// `planes` their counts, `inputs` (when not null) `quad_count * 4 *
/// input_registers * 4` words, `outputs` `quad_count * 4 * output_registers
/// * 4` writable words (`sample_count` times as many with
/// `outputs_per_sample`), `alive` `quad_count` writable bytes, and
/// `sample_coverage` and `written` (when not null) `quad_count * 4` words.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shade_quads(
    shader: *const Shader,
    bindings: *const Bindings,
    batch: *const QuadBatch,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        require_stage(s, Stage::Pixel, "dxjit_shade_quads")?;
        // SAFETY: forwarded contract.
        let b =
            unsafe { optional_grown(batch, "batch", &[QUAD_BATCH_V1_SIZE, QUAD_BATCH_V2_SIZE]) }?
                .ok_or_else(|| Failure::new(Status::NullPointer, "batch is null"))?;
        let b = &b;
        if !b.pixel_center.is_finite() {
            return Err(Failure::new(
                Status::InvalidArgument,
                "pixel_center is not finite",
            ));
        }
        // SAFETY: `quads` holds `quad_count` entries (contract).
        let quads: Vec<RuntimeQuad> = unsafe { slice(b.quads, b.quad_count, "batch.quads") }?
            .iter()
            .map(|q| RuntimeQuad {
                x: q.x,
                y: q.y,
                coverage: (q.coverage & 0xf) as u8,
                front_facing: q.front_facing != 0,
            })
            .collect();
        let (ni, no) = (s.kernel.input_regs as usize, s.kernel.output_regs as usize);
        let pixels = quads.len().checked_mul(4).ok_or_else(too_many)?;
        let count = b.sample_count.max(1);
        let shading = s.shader.sample_shading();
        let passes = QuadPasses::of(&shading, count);
        let sets = match b.outputs_per_sample {
            0 if passes.count() > 1 => {
                return Err(Failure::new(
                    Status::InvalidArgument,
                    "the shader runs once per sample: set batch.outputs_per_sample and give \
                     batch.outputs a set of output registers per sample",
                ))
            }
            0 => 1,
            _ => count as usize,
        };
        let out_words = pixels
            .checked_mul(sets)
            .and_then(|n| n.checked_mul(no * 4))
            .ok_or_else(too_many)?;
        if (out_words > 0 && (b.outputs.is_null() || !b.outputs.is_aligned()))
            || (!quads.is_empty() && b.alive.is_null())
            || !b.written.is_aligned()
        {
            return Err(Failure::new(
                Status::NullPointer,
                "batch.outputs or batch.alive is null or misaligned, or batch.written misaligned",
            ));
        }
        let coverage = if b.sample_coverage.is_null() {
            &[][..]
        } else {
            // SAFETY: `sample_coverage` holds one word a pixel (contract).
            unsafe { slice(b.sample_coverage, pixels, "batch.sample_coverage") }?
        };
        let sampling = dxjit::QuadSampling {
            count,
            coverage,
            sample_mask: !b.masked_samples,
        };
        dxjit::api::check_sampling(&sampling, quads.len())
            .map_err(|e| Failure::new(Status::InvalidArgument, e.to_string()))?;
        let samples = dxjit::api::quad_samples(&sampling, &shading);
        // SAFETY: forwarded contract.
        let (inputs, planes) = unsafe { inputs(b, &quads, ni, pixels, &passes, &samples) }?;
        let mut outputs = vec![[0u32; 4]; pixels * passes.count() * no];
        let mut alive = vec![0u8; quads.len()];
        let mut written = vec![0u32; if b.written.is_null() { 0 } else { pixels }];
        // SAFETY: forwarded contract.
        let bound = unsafe { Bound::new(s, bindings) }?;
        // SAFETY: the caller's contract keeps every bound view valid and
        // untouched for the call; `inputs` holds 4 * ni registers per quad
        // and pass, `outputs` 4 * no per quad and pass and `alive` one
        // entry per quad.
        bound.run(&s.shader, |raw| unsafe {
            dxjit_runtime::dispatch::shade_quads(
                &s.shader.kernel(),
                raw,
                &quads,
                b.pixel_center,
                QuadValues {
                    registers: &inputs,
                    planes: planes.as_deref(),
                },
                &samples,
                &mut outputs,
                &mut alive,
                &mut written,
            )
        })?;
        // A shader run once a pixel gives every set the pixel's outputs.
        let repeat = sets / passes.count();
        let flat: Vec<u32> = outputs
            .chunks(no.max(1))
            .flat_map(|set| (0..repeat).flat_map(move |_| set.iter().flatten().copied()))
            .collect();
        // SAFETY: `outputs` holds `out_words` writable words and `alive`
        // `quad_count` writable bytes (contract), both non-null when used;
        // the sources are separate allocations of exactly those lengths.
        unsafe {
            if out_words > 0 {
                std::ptr::copy_nonoverlapping(flat.as_ptr(), b.outputs, out_words);
            }
            if !alive.is_empty() {
                std::ptr::copy_nonoverlapping(alive.as_ptr(), b.alive, alive.len());
            }
            if !written.is_empty() {
                std::ptr::copy_nonoverlapping(written.as_ptr(), b.written, written.len());
            }
        }
        Ok(())
    })
}

fn too_many() -> Failure {
    Failure::new(Status::OutOfRange, "batch: too many quads")
}

/// A batch's input registers, and the planes they came from, if any.
type BatchInputs = (Vec<[u32; 4]>, Option<Vec<LibraryPlane>>);

/// The input registers of every pass of every pixel (see
/// [`QuadPasses::inputs`]): copied from `inputs`, or evaluated from
/// `planes`, which come back too (for `eval_*`).
///
/// # Safety
/// The batch's arrays hold what `dxjit_quad_batch` documents.
unsafe fn inputs(
    b: &QuadBatch,
    quads: &[RuntimeQuad],
    ni: usize,
    pixels: usize,
    passes: &QuadPasses,
    samples: &QuadSamples,
) -> Outcome<BatchInputs> {
    if !b.inputs.is_null() {
        let words = pixels.checked_mul(ni * 4).ok_or_else(too_many)?;
        // SAFETY: `inputs` holds `words` words (contract).
        let flat = unsafe { slice(b.inputs, words, "batch.inputs") }?;
        let per_pixel: Vec<[u32; 4]> = flat
            .chunks_exact(4)
            .map(|r| [r[0], r[1], r[2], r[3]])
            .collect();
        let registers = match passes.count() {
            1 => per_pixel,
            _ => passes.inputs(
                quads,
                b.pixel_center,
                QuadInputs::PerPixel(&per_pixel),
                samples,
                ni,
            ),
        };
        return Ok((registers, None));
    }
    // SAFETY: `planes` holds `plane_count` entries (contract).
    let planes = unsafe { versioned_slice(b.planes, b.plane_count, "batch.planes") }?;
    let mut converted = Vec::with_capacity(planes.len());
    for p in planes {
        if p.reg as usize >= ni {
            return Err(Failure::new(
                Status::OutOfRange,
                format!("plane input register {} is past the shader's {ni}", p.reg),
            ));
        }
        converted.push(LibraryPlane {
            reg: p.reg,
            planes: p.planes,
            one_over_w: (p.perspective != 0).then_some(p.one_over_w),
        });
    }
    let registers = passes.inputs(
        quads,
        b.pixel_center,
        QuadInputs::Planes(&converted),
        samples,
        ni,
    );
    Ok((registers, Some(converted)))
}
