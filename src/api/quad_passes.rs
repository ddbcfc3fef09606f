//! How often a batch of quads runs its shader a pixel, and each run's
//! inputs: once at the pixel centre, or, for a shader that runs per
//! sample (it reads `SV_SampleIndex` or has `sample` inputs), once per
//! sample of the rasterizer, its `sample` inputs evaluated at that
//! sample's position in D3D's standard pattern (D3D11.3, "Multisample
//! Rasterization"), as the draw path does. Inputs declared `centroid`
//! are evaluated at the pixel's centroid (3.5.5) in every run.

use super::quads::{PlaneInput, QuadInputs};
use dxjit_runtime::dispatch::{
    pixel_point, plane_of, with_flushed_denormals, Quad, QuadSamples, SampleShading,
};
use dxjit_runtime::msaa::{centroid, standard_pattern};
use rayon::prelude::*;

/// The runs of a batch's shader per pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadPasses {
    /// Per run, the offset of its sample from the pixel centre, in pixels:
    /// one run at (0, 0) for a shader that runs once a pixel.
    pub offsets: Vec<[f32; 2]>,
    /// The input registers evaluated at the sample's position in a
    /// per-sample run (the others at the pixel centre or centroid).
    pub moved: Vec<u32>,
    /// The input registers evaluated at the pixel's centroid.
    pub centroid: Vec<u32>,
}

impl QuadPasses {
    /// The runs of a shader that does `shading` on a rasterizer of `count`
    /// samples a pixel.
    pub fn of(shading: &SampleShading, count: u32) -> QuadPasses {
        let centroid = shading.centroid_inputs.clone();
        if !shading.per_sample {
            return QuadPasses {
                offsets: vec![[0.0; 2]],
                moved: Vec::new(),
                centroid,
            };
        }
        let pattern = standard_pattern(count.max(1));
        QuadPasses {
            offsets: pattern
                .iter()
                .map(|o| o.map(|c| f32::from(c) / 16.0))
                .collect(),
            moved: shading.sample_inputs.clone(),
            centroid,
        }
    }

    /// Runs a pixel.
    pub fn count(&self) -> usize {
        self.offsets.len()
    }

    /// Every run's `input_regs` input registers, per quad, pixel and run
    /// (register `r` of run `s` of pixel `p` of quad `q` at
    /// `((4 * q + p) * runs + s) * input_regs + r`): per-pixel values
    /// repeated for each run, or planes evaluated where each run samples
    /// (the pixels' coverage and sample mask, for centroids, from
    /// `samples`).
    pub fn inputs(
        &self,
        quads: &[Quad],
        center: f32,
        inputs: QuadInputs<'_>,
        samples: &QuadSamples<'_>,
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
            QuadInputs::Planes(planes) => self.evaluate(quads, center, planes, samples, input_regs),
        }
    }

    /// The planes evaluated for every run of every pixel (registers no
    /// plane names are 0), with denormals flushed as compiled code's
    /// `eval_*` evaluate them.
    fn evaluate(
        &self,
        quads: &[Quad],
        center: f32,
        planes: &[PlaneInput],
        samples: &QuadSamples<'_>,
        input_regs: usize,
    ) -> Vec<[u32; 4]> {
        let (ni, runs) = (input_regs, self.count());
        let mut values = vec![[0u32; 4]; quads.len() * 4 * runs * ni];
        let count = samples.count.max(1);
        values
            .par_chunks_mut(4 * runs * ni)
            .zip(quads.par_iter().enumerate())
            .for_each(|(quad_values, (q, quad))| {
                with_flushed_denormals(|| {
                    for p in 0..4 {
                        let coverage = samples.pixel_coverage(q, p, quad);
                        let at_centroid = centroid(coverage, samples.mask, count);
                        for (s, &sample) in self.offsets.iter().enumerate() {
                            let run = &mut quad_values[(p * runs + s) * ni..][..ni];
                            for reg in 0..ni as u32 {
                                let offset = if self.moved.contains(&reg) {
                                    sample
                                } else if self.centroid.contains(&reg) {
                                    at_centroid
                                } else {
                                    [0.0; 2]
                                };
                                if let Some(plane) = plane_of(planes, reg) {
                                    let point = pixel_point(quad, p, center, offset);
                                    run[reg as usize] = plane.words_at(point);
                                }
                            }
                        }
                    }
                })
            });
        values
    }
}
