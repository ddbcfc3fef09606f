//! Shading the quads of an embedder's own rasterizer.

use super::bindings::Bindings;
use super::calls::CallOptions;
use super::error::RunError;
use crate::ir::Stage;
use crate::shader::Shader;
use dxjit_runtime::dispatch::{self, Quad};
use rayon::prelude::*;

/// A pixel-shader input given as plane equations over the screen: component
/// `c` at pixel centre (x, y) is `planes[c][0] * x + planes[c][1] * y +
/// planes[c][2]`, divided by the `one_over_w` plane's value there when it
/// is given (then `planes` interpolate attribute / w: perspective-correct).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneInput {
    /// The input register.
    pub reg: u32,
    /// a, b, c per component.
    pub planes: [[f32; 3]; 4],
    /// a, b, c of 1/w, for perspective-correct interpolation.
    pub one_over_w: Option<[f32; 3]>,
}

/// Where a batch's pixel-shader inputs come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuadInputs<'a> {
    /// Per quad and pixel (in [`Quad`] order), the shader's input
    /// registers, as 32-bit words.
    PerPixel(&'a [[u32; 4]]),
    /// Plane equations evaluated at every pixel centre; registers not
    /// named are 0.
    Planes(&'a [PlaneInput]),
}

/// What shading a batch of quads gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuadResults {
    /// Output registers per quad and pixel: the register `r` of pixel `p`
    /// of quad `q` is at `(4 * q + p) * output_regs + r`.
    pub outputs: Vec<[u32; 4]>,
    /// Output registers per pixel.
    pub output_regs: u32,
    /// Per quad, the pixels covered and not discarded (bit p = pixel p).
    pub alive: Vec<u8>,
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
        self.require(Stage::Pixel, "shade_quads")?;
        let kernel = self.kernel();
        let (ni, no) = (kernel.input_regs as usize, kernel.output_regs as usize);
        if !pixel_center.is_finite() {
            return Err(RunError::Invalid("pixel_center is not finite".into()));
        }
        let evaluated;
        let per_pixel = match inputs {
            QuadInputs::PerPixel(values) => {
                if values.len() < quads.len() * 4 * ni {
                    return Err(RunError::Invalid(format!(
                        "{} quads of {ni} input registers need {} registers, {} given",
                        quads.len(),
                        quads.len() * 4 * ni,
                        values.len()
                    )));
                }
                values
            }
            QuadInputs::Planes(planes) => {
                if let Some(p) = planes.iter().find(|p| p.reg as usize >= ni) {
                    return Err(RunError::Invalid(format!(
                        "input register {} is past the shader's {ni}",
                        p.reg
                    )));
                }
                evaluated = evaluate_planes(quads, pixel_center, planes, ni);
                &evaluated[..]
            }
        };
        let mut outputs = vec![[0u32; 4]; quads.len() * 4 * no];
        let mut alive = vec![0u8; quads.len()];
        self.guarded(bindings, options, |raw| {
            // SAFETY: as in `dispatch_with`; `per_pixel` holds 4 * ni
            // registers per quad (checked or built above), `outputs` 4 * no
            // per quad and `alive` one entry per quad.
            unsafe {
                dispatch::shade_quads(
                    &kernel,
                    raw,
                    quads,
                    pixel_center,
                    per_pixel,
                    &mut outputs,
                    &mut alive,
                )
            }
        })?;
        Ok(QuadResults {
            outputs,
            output_regs: no as u32,
            alive,
        })
    }
}

/// Every pixel's input registers from plane equations: per quad and
/// pixel, `input_regs` registers (those no plane names are 0). For callers
/// of the raw [`dispatch::shade_quads`] (the C API).
pub fn evaluate_planes(
    quads: &[Quad],
    center: f32,
    planes: &[PlaneInput],
    input_regs: usize,
) -> Vec<[u32; 4]> {
    let ni = input_regs;
    let mut values = vec![[0u32; 4]; quads.len() * 4 * ni];
    if ni == 0 {
        return values;
    }
    values
        .par_chunks_mut(4 * ni)
        .zip(quads.par_iter())
        .for_each(|(quad_values, quad)| {
            for p in 0..4 {
                let x = quad.x as f32 + (p & 1) as f32 + center;
                let y = quad.y as f32 + (p >> 1) as f32 + center;
                let at = |[a, b, c]: [f32; 3]| a * x + b * y + c;
                for input in planes.iter().filter(|p| (p.reg as usize) < ni) {
                    let w = input.one_over_w.map_or(1.0, at);
                    quad_values[p * ni + input.reg as usize] =
                        input.planes.map(|pl| (at(pl) / w).to_bits());
                }
            }
        });
    values
}
