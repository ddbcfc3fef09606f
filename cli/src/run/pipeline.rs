//! The `[pipeline]` action: the vertex and geometry shaders compiled and
//! bound, the draw and the stream-output buffers built, and what stream
//! output produced put in the outcome.

use super::{bind_stage, compile_stage, vertex_inputs, Bound, UavSlots};
use crate::case::{Case, Outcome, PipelineDesc, StageDesc, StreamOutputDesc};
use dxjit::api::{
    run_pipeline_raw, DrawInput, PipelineOutput, RawStage, RawStages, SoDeclEntry, StreamOutput,
};
use dxjit::shader::{CompileOptions, Shader};
use dxjit_runtime::pipeline::STRIP_CUT;
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

/// A pipeline case ready to run.
pub(super) struct PipelineReady {
    vs: (Shader, Bound),
    hs: Option<(Shader, Bound)>,
    ds: Option<(Shader, Bound)>,
    gs: Option<(Shader, Bound)>,
    draw: DrawInput,
    outputs: Vec<StreamOutput>,
    result: Option<Result<PipelineOutput, String>>,
}

/// A compiled stage and its bindings as the pipeline takes them.
fn raw_stage((shader, bound): &(Shader, Bound)) -> RawStage<'_> {
    RawStage {
        shader,
        bindings: &bound.bindings,
    }
}

/// The stream-output buffers of a case, parsed into the API's form.
fn stream_outputs(descs: &[StreamOutputDesc]) -> Result<Vec<StreamOutput>, String> {
    descs
        .iter()
        .map(|d| {
            let elements = d
                .elements
                .iter()
                .map(|e| SoDeclEntry::parse(e).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let data = std::iter::repeat_n(d.fill.to_le_bytes(), d.size.div_ceil(4) as usize)
                .flatten()
                .take(d.size as usize)
                .collect();
            Ok(StreamOutput::new(
                d.slot, d.stream, d.stride, elements, data,
            ))
        })
        .collect()
}

impl PipelineReady {
    /// Compiles and binds the stages; returns the pipeline, the compile
    /// time in microseconds and the primitives input assembly will make.
    pub(super) fn prepare(
        case: &Case,
        desc: &PipelineDesc,
        options: &CompileOptions,
        uavs: &UavSlots,
    ) -> Result<(PipelineReady, f64, u64), String> {
        let vs_desc = case.vs.as_ref().ok_or("[pipeline] needs [vs]")?;
        let vs = compile_stage("vs", vs_desc, options)?;
        let mut compile_us = vs.compile_us();
        let vs_bound = bind_stage(&vs, vs_desc, uavs)?;
        let mut later = |name: &str, desc: Option<&StageDesc>| -> Result<_, String> {
            let Some(d) = desc else {
                return Ok(None);
            };
            let shader = compile_stage(name, d, options)?;
            compile_us += shader.compile_us();
            let mut bound = bind_stage(&shader, d, uavs)?;
            bound.bindings.interrupt = vs_bound.bindings.interrupt.clone();
            Ok(Some((shader, bound)))
        };
        let hs = later("hs", case.hs.as_ref())?;
        let ds = later("ds", case.ds.as_ref())?;
        let gs = later("gs", case.gs.as_ref())?;
        let count = desc.vertex_count as usize;
        let fetched = match &desc.indices {
            Some(i) => i[..count]
                .iter()
                .filter(|&&x| x != STRIP_CUT)
                .map(|&x| x as usize + 1)
                .max()
                .unwrap_or(0),
            None => count,
        };
        let inputs = vertex_inputs(
            vs.program(),
            &vs_desc.inputs,
            fetched,
            vs.kernel().input_regs,
        )?;
        let per = desc.topology.primitive_vertices().max(1) as u64;
        let primitives = count as u64 / per * u64::from(desc.instance_count.max(1));
        let draw = DrawInput {
            topology: desc.topology,
            vertex_count: desc.vertex_count,
            indices: desc.indices.clone(),
            instance_count: desc.instance_count,
            inputs,
        };
        let ready = PipelineReady {
            vs: (vs, vs_bound),
            hs,
            ds,
            gs,
            draw,
            outputs: stream_outputs(&case.stream_outputs)?,
            result: None,
        };
        Ok((ready, compile_us, primitives))
    }

    /// Runs the pipeline once, into fresh copies of the buffers.
    pub(super) fn act(&mut self) {
        let stages = RawStages {
            vs: RawStage {
                shader: &self.vs.0,
                bindings: &self.vs.1.bindings,
            },
            hs: self.hs.as_ref().map(raw_stage),
            ds: self.ds.as_ref().map(raw_stage),
            gs: self.gs.as_ref().map(raw_stage),
        };
        // SAFETY: each `Bound` owns its views' memory (and textures) and
        // lives in `self` across the call; the UAV views point into memory
        // the `Prepared` holding `self` owns.
        let result = unsafe { run_pipeline_raw(&stages, &self.draw, self.outputs.clone()) };
        self.result = Some(result.map_err(|e| e.to_string()));
    }

    /// The word that stops the pipeline (shared by its stages).
    pub(super) fn interrupt(&self) -> Arc<AtomicU32> {
        self.vs.1.bindings.interrupt.clone()
    }

    /// The vertex shader and its bindings.
    pub(super) fn shader(&self) -> (&Shader, &Bound) {
        (&self.vs.0, &self.vs.1)
    }

    /// Why the last run failed, if it did.
    pub(super) fn failure(&self) -> Option<String> {
        self.result.as_ref().and_then(|r| r.as_ref().err().cloned())
    }

    /// Adds the buffers and counts of the last run to `outcome`.
    pub(super) fn fill(&self, outcome: &mut Outcome) {
        let Some(Ok(out)) = &self.result else {
            return;
        };
        for (o, data) in self.outputs.iter().zip(&out.buffers) {
            outcome.stream_outputs.insert(o.slot, data.clone());
        }
        outcome.primitives_written = out.counts.written;
        outcome.primitives_needed = out.counts.needed;
    }
}
