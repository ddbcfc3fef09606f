//! Shading the quads of an embedder's own rasterizer.

use super::bindings::Bindings;
use super::calls::CallOptions;
use super::error::RunError;
use super::quad_passes::QuadPasses;
use crate::ir::Stage;
use crate::shader::Shader;
pub use dxjit_runtime::dispatch::PlaneInput;
use dxjit_runtime::dispatch::{self, Quad, QuadSamples, QuadValues, SampleShading};

/// Where a batch's pixel-shader inputs come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuadInputs<'a> {
    /// Per quad and pixel (in [`Quad`] order), the shader's input
    /// registers, as 32-bit words. They carry no interpolation, so
    /// `eval_*` estimate the input from its quad's values (exact for
    /// values affine across the quad, helpers included).
    PerPixel(&'a [[u32; 4]]),
    /// Plane equations evaluated at every pixel centre (`centroid` inputs
    /// at the pixel's centroid, `sample` inputs of a per-sample run at the
    /// sample), with denormals flushed; registers not named are 0.
    /// `eval_*` evaluate the same planes at their points, exactly.
    Planes(&'a [PlaneInput]),
}

/// The samples of a batch of quads on a multisampled target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadSampling<'a> {
    /// Samples a pixel: 1, 2, 4, 8 or 16 (what `sample_info rasterizer`
    /// and `sample_pos rasterizer` report).
    pub count: u32,
    /// Per quad and pixel (entry `4 * q + p`), the samples the primitive
    /// covers there (bit i = sample i), whose AND with `sample_mask` is
    /// the pixel's `vCoverage`. Empty: every sample of each covered pixel.
    /// A pixel whose bit of [`Quad::coverage`] is clear is a helper
    /// whatever its entry says.
    pub coverage: &'a [u32],
    /// D3D's blend-state sample mask (`OMSetBlendState`'s `SampleMask`):
    /// samples whose bit is clear are not written.
    pub sample_mask: u32,
}

impl QuadSampling<'_> {
    /// One sample a pixel, all written: what [`Shader::shade_quads`] uses.
    pub const SINGLE: QuadSampling<'static> = QuadSampling {
        count: 1,
        coverage: &[],
        sample_mask: u32::MAX,
    };
}

/// What shading a batch of quads gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuadResults {
    /// Output registers per quad, pixel and sample shaded: the register
    /// `r` of sample `s` of pixel `p` of quad `q` is at `((4 * q + p) *
    /// output_samples + s) * output_regs + r`.
    pub outputs: Vec<[u32; 4]>,
    /// Output registers per pixel and sample shaded.
    pub output_regs: u32,
    /// The samples a pixel's outputs are given for: the rasterizer's
    /// sample count for a shader that runs per sample (sample `s`'s
    /// outputs go to sample `s` alone), else 1 (the pixel's outputs go to
    /// every sample [`QuadResults::written`] names).
    pub output_samples: u32,
    /// Per quad, the pixels covered and not discarded (bit p = pixel p).
    pub alive: Vec<u8>,
    /// Per quad and pixel (entry `4 * q + p`), the samples its outputs are
    /// to be written to: its coverage ANDed with the shader's `oMask` and
    /// the sample mask; 0 for pixels that are not alive.
    pub written: Vec<u32>,
}

impl Shader {
    /// Runs a pixel shader on `quads`, as a rasterizer produced them:
    /// derivatives come from each quad, uncovered pixels run as helpers
    /// and are never alive, and the outputs come back instead of being
    /// written to targets. `pixel_center` is 0.5 for D3D10+ and 0 for D3D9.
    ///
    /// ```
    /// use dxjit::{Bindings, PlaneInput, QuadInputs};
    /// use dxjit_runtime::dispatch::Quad;
    /// let bytes = dxjit::text::assemble(
    ///     "ps_4_0\ndcl_input_ps linear v0.x\ndcl_output o0.xyzw\nderiv_rtx o0.x, v0.x\nmov o0.yzw, l(0,0,0,0)\nret\n",
    /// ).unwrap();
    /// let ps = dxjit::compile(&bytes, &Default::default())?;
    /// let planes = [PlaneInput { reg: 0, planes: [[3.0, 0.0, 0.0]; 4], one_over_w: None }];
    /// let quad = Quad { x: 10, y: 4, coverage: 0b0001, front_facing: true };
    /// let r = ps.shade_quads(&Bindings::new(), &[quad], 0.5, QuadInputs::Planes(&planes))?;
    /// assert_eq!(r.alive, [0b0001]);
    /// assert_eq!(f32::from_bits(r.outputs[0][0]), 3.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shade_quads(
        &self,
        bindings: &Bindings<'_>,
        quads: &[Quad],
        pixel_center: f32,
        inputs: QuadInputs<'_>,
    ) -> Result<QuadResults, RunError> {
        self.shade_quads_with(
            bindings,
            quads,
            pixel_center,
            inputs,
            &CallOptions::default(),
        )
    }

    /// [`Shader::shade_quads`] with a deadline or validation.
    pub fn shade_quads_with(
        &self,
        bindings: &Bindings<'_>,
        quads: &[Quad],
        pixel_center: f32,
        inputs: QuadInputs<'_>,
        options: &CallOptions,
    ) -> Result<QuadResults, RunError> {
        self.shade_quads_sampled(
            bindings,
            quads,
            pixel_center,
            inputs,
            &QuadSampling::SINGLE,
            options,
        )
    }

    /// [`Shader::shade_quads_with`] for a multisampled target: each
    /// pixel's `vCoverage` is its sample coverage ANDed with the sample
    /// mask, and [`QuadResults::written`] says which samples its outputs
    /// go to. A shader that runs per sample (it reads `SV_SampleIndex` or
    /// has `sample` inputs) runs once per covered sample the mask keeps,
    /// as in a draw: with
    /// `vSampleIndex` that sample, `vCoverage` its bit alone, its `sample`
    /// inputs (and `SV_Position`, when declared `sample`) at the sample's
    /// position in D3D's standard pattern when `inputs` are planes
    /// (per-pixel values serve every sample), and its outputs for that
    /// sample alone ([`QuadResults::output_samples`]).
    pub fn shade_quads_sampled(
        &self,
        bindings: &Bindings<'_>,
        quads: &[Quad],
        pixel_center: f32,
        inputs: QuadInputs<'_>,
        sampling: &QuadSampling<'_>,
        options: &CallOptions,
    ) -> Result<QuadResults, RunError> {
        self.require(Stage::Pixel, "shade_quads")?;
        check_sampling(sampling, quads.len())?;
        let kernel = self.kernel();
        let (ni, no) = (kernel.input_regs as usize, kernel.output_regs as usize);
        if !pixel_center.is_finite() {
            return Err(RunError::Invalid("pixel_center is not finite".into()));
        }
        let shading = self.sample_shading();
        let passes = QuadPasses::of(&shading, sampling.count);
        let samples = quad_samples(sampling, &shading);
        let evaluated;
        let (registers, planes) = match inputs {
            QuadInputs::PerPixel(values) if passes.count() == 1 => {
                check_per_pixel(values, quads.len(), ni)?;
                (values, None)
            }
            QuadInputs::PerPixel(values) => {
                check_per_pixel(values, quads.len(), ni)?;
                evaluated = passes.inputs(quads, pixel_center, inputs, &samples, ni);
                (&evaluated[..], None)
            }
            QuadInputs::Planes(planes) => {
                if let Some(p) = planes.iter().find(|p| p.reg as usize >= ni) {
                    return Err(RunError::Invalid(format!(
                        "input register {} is past the shader's {ni}",
                        p.reg
                    )));
                }
                evaluated = passes.inputs(quads, pixel_center, inputs, &samples, ni);
                (&evaluated[..], Some(planes))
            }
        };
        let outputs_len = quads.len() * 4 * passes.count() * no;
        let mut outputs = vec![[0u32; 4]; outputs_len];
        let mut alive = vec![0u8; quads.len()];
        let mut written = vec![0u32; quads.len() * 4];
        self.guarded(bindings, options, |raw| {
            // SAFETY: as in `dispatch_with`; `registers` holds 4 * ni
            // registers per quad and pass (checked or built above),
            // `outputs` 4 * no per quad and pass, `alive` one entry per
            // quad, and `written` and the coverage (checked) one per pixel
            // or none.
            unsafe {
                dispatch::shade_quads(
                    &kernel,
                    raw,
                    quads,
                    pixel_center,
                    QuadValues { registers, planes },
                    &samples,
                    &mut outputs,
                    &mut alive,
                    &mut written,
                )
            }
        })?;
        Ok(QuadResults {
            outputs,
            output_regs: no as u32,
            output_samples: passes.count() as u32,
            alive,
            written,
        })
    }
}

/// Refuses per-pixel inputs shorter than `quads` quads of `ni` registers.
fn check_per_pixel(values: &[[u32; 4]], quads: usize, ni: usize) -> Result<(), RunError> {
    if values.len() < quads * 4 * ni {
        return Err(RunError::Invalid(format!(
            "{quads} quads of {ni} input registers need {} registers, {} given",
            quads * 4 * ni,
            values.len()
        )));
    }
    Ok(())
}

/// The runtime's description of `sampling` for a shader that does
/// `shading`: it runs per sample when the shader does.
pub fn quad_samples<'a>(sampling: &QuadSampling<'a>, shading: &SampleShading) -> QuadSamples<'a> {
    QuadSamples {
        count: sampling.count,
        coverage: sampling.coverage,
        mask: sampling.sample_mask,
        mask_output: shading.mask_output,
        per_sample: shading.per_sample,
        sample_position: shading.sample_position,
        centroid_position: shading.centroid_position,
    }
}

/// Refuses a sample count the rasterizer cannot have, or a coverage array
/// that is neither empty nor one entry per pixel of `quads` quads.
pub fn check_sampling(sampling: &QuadSampling<'_>, quads: usize) -> Result<(), RunError> {
    if ![1, 2, 4, 8, 16].contains(&sampling.count) {
        return Err(RunError::Invalid(format!(
            "{} samples a pixel (1, 2, 4, 8 or 16 are allowed)",
            sampling.count
        )));
    }
    let pixels = quads.saturating_mul(4);
    if !sampling.coverage.is_empty() && sampling.coverage.len() != pixels {
        return Err(RunError::Invalid(format!(
            "{} coverage entries for {quads} quads: give none or one a pixel ({pixels})",
            sampling.coverage.len()
        )));
    }
    Ok(())
}

/// Every pixel's input registers from plane equations: per quad and
/// pixel, `input_regs` registers (those no plane names are 0), at the
/// pixel centre. For callers of the raw [`dispatch::shade_quads`] (the C
/// API); [`QuadPasses::inputs`] gives a per-sample shader's.
pub fn evaluate_planes(
    quads: &[Quad],
    center: f32,
    planes: &[PlaneInput],
    input_regs: usize,
) -> Vec<[u32; 4]> {
    QuadPasses::of(&SampleShading::default(), 1).inputs(
        quads,
        center,
        QuadInputs::Planes(planes),
        &QuadSamples::SINGLE,
        input_regs,
    )
}
