//! What a pixel shader does with samples, as a draw needs to know it.

use crate::ir::{File, Interpolation, Program, SysVal};
use crate::shader::Shader;
use dxjit_runtime::dispatch::SampleShading;

/// A program's [`SampleShading`]: whether it runs per sample, where its
/// `oMask` lands and which inputs are interpolated at the sample or at
/// the centroid.
pub fn sample_shading(prog: &Program) -> SampleShading {
    SampleShading {
        per_sample: prog.per_sample,
        mask_output: prog.mask_output,
        sample_inputs: inputs_with(prog, Interpolation::Sample),
        sample_position: prog.sample_position,
        centroid_position: prog.centroid_position,
        centroid_inputs: inputs_with(prog, Interpolation::Centroid),
        reads_coverage: prog
            .bodies()
            .flatten()
            .flat_map(|inst| inst.sources())
            .any(|src| src.file == File::SysVal(SysVal::Coverage)),
    }
}

/// The input registers `prog` declares with `interpolation`.
fn inputs_with(prog: &Program, interpolation: Interpolation) -> Vec<u32> {
    prog.inputs
        .iter()
        .filter(|i| i.interpolation == interpolation)
        .map(|i| i.reg)
        .collect()
}

impl Shader {
    /// What this pixel shader does with samples (see [`sample_shading`]).
    pub fn sample_shading(&self) -> SampleShading {
        sample_shading(self.program())
    }
}
