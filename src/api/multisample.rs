//! What a pixel shader does with samples, as a draw needs to know it.

use crate::ir::{Interpolation, Program};
use crate::shader::Shader;
use dxjit_runtime::dispatch::SampleShading;

/// A program's [`SampleShading`]: whether it runs per sample, where its
/// `oMask` lands and which inputs are interpolated at the sample.
pub fn sample_shading(prog: &Program) -> SampleShading {
    SampleShading {
        per_sample: prog.per_sample,
        mask_output: prog.mask_output,
        sample_inputs: prog
            .inputs
            .iter()
            .filter(|i| i.interpolation == Interpolation::Sample)
            .map(|i| i.reg)
            .collect(),
        sample_position: prog.sample_position,
    }
}

impl Shader {
    /// What this pixel shader does with samples (see [`sample_shading`]).
    pub fn sample_shading(&self) -> SampleShading {
        sample_shading(self.program())
    }
}
