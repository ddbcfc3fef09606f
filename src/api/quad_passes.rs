//! How often a batch of quads runs its shader a pixel, and each run's
//! inputs: once at the pixel centre, or, for a shader that runs per
//! sample (it reads `SV_SampleIndex` or has `sample` inputs), once per
//! sample of the rasterizer, its `sample` inputs evaluated at that
//! sample's position in D3D's standard pattern (D3D11.3, "Multisample
//! Rasterization"), as the draw path does.

use super::quads::{PlaneInput, QuadInputs};
use dxjit_runtime::dispatch::{Quad, SampleShading};
use dxjit_runtime::msaa::standard_pattern;
use rayon::prelude::*;

/// The runs of a batch's shader per pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadPasses {
    /// Per run, the offset of its sample from the pixel centre, in pixels:
    /// one run at (0, 0) for a shader that runs once a pixel.
    pub offsets: Vec<[f32; 2]>,
    /// The input registers evaluated at the sample's position in a
    /// per-sample run (the others at the pixel centre).
    pub moved: Vec<u32>,
}

impl QuadPasses {
    /// The runs of a shader that does `shading` on a rasterizer of `count`
    /// samples a pixel.
    pub fn of(shading: &SampleShading, count: u32) -> QuadPasses {
        if !shading.per_sample {
            return QuadPasses {
                offsets: vec![[0.0; 2]],
                moved: Vec::new(),
            };
        }
        let pattern = standard_pattern(count.max(1));
        QuadPasses {
            offsets: pattern
                .iter()
                .map(|o| o.map(|c| f32::from(c) / 16.0))
                .collect(),
            moved: shading.sample_inputs.clone(),
        }
    }

    /// Runs a pixel.
    pub fn count(&self) -> usize {
        self.offsets.len()
    }

    /// Every run's `input_regs` input registers, per quad, pixel and run
    /// (register `r` of run `s` of pixel `p` of quad `q` at
    /// `((4 * q + p) * runs + s) * input_regs + r`): per-pixel values
    /// repeated for each run, or planes evaluated where each run samples.
    pub fn inputs(
        &self,
        quads: &[Quad],
        center: f32,
        inputs: QuadInputs<'_>,
        input_regs: usize,
    ) -> Vec<[u32; 4]> {
        if input_regs == 0 {
            return Vec::new();
        }
        match inputs {
            QuadInputs::PerPixel(values) => values
                .chunks(input_regs)
                .take(quads.len() * 4)
                .flat_map(|pixel| (0..self.count()).flat_map(move |_| pixel.iter().copied()))
                .collect(),
            QuadInputs::Planes(planes) => self.evaluate(quads, center, planes, input_regs),
        }
    }

    /// The planes evaluated for every run of every pixel (registers no
    /// plane names are 0).
    fn evaluate(
        &self,
        quads: &[Quad],
        center: f32,
        planes: &[PlaneInput],
        input_regs: usize,
    ) -> Vec<[u32; 4]> {
        let (ni, runs) = (input_regs, self.count());
        let mut values = vec![[0u32; 4]; quads.len() * 4 * runs * ni];
        values
            .par_chunks_mut(4 * runs * ni)
            .zip(quads.par_iter())
            .for_each(|(quad_values, quad)| {
                for p in 0..4 {
                    for (s, [dx, dy]) in self.offsets.iter().enumerate() {
                        let run = &mut quad_values[(p * runs + s) * ni..][..ni];
                        for input in planes.iter().filter(|p| (p.reg as usize) < ni) {
                            let [dx, dy] = match self.moved.contains(&input.reg) {
                                true => [*dx, *dy],
                                false => [0.0; 2],
                            };
                            let x = quad.x as f32 + (p & 1) as f32 + center + dx;
                            let y = quad.y as f32 + (p >> 1) as f32 + center + dy;
                            let at = |[a, b, c]: [f32; 3]| a * x + b * y + c;
                            let w = input.one_over_w.map_or(1.0, at);
                            run[input.reg as usize] = input.planes.map(|pl| (at(pl) / w).to_bits());
                        }
                    }
                }
            });
        values
    }
}
