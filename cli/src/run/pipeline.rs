//! The `[pipeline]` action: the vertex and geometry shaders compiled and
//! bound, the draw and the stream-output buffers built, and what stream
//! output produced put in the outcome.

use super::{bind_stage, compile_stage, vertex_inputs, Bound, UavSlots};
use crate::case::{Case, CbDesc, Outcome, PipelineDesc, StageDesc, StreamOutputDesc};
use dxjit::api::{
    run_pipeline_raw, DrawInput, PipelineOutput, RawStage, RawStages, SoDeclEntry, SoOffset,
    StreamOutput,
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
    redraws: Vec<Redraw>,
    result: Option<Result<PipelineOutput, String>>,
}

/// A later draw: its input assembly, the offsets that bind the buffers
/// again (if any) and the stage bindings its constant-buffer changes make
/// (vs, hs, ds, gs; `None` keeps the earlier ones).
struct Redraw {
    draw: DrawInput,
    offsets: Option<Vec<Option<u32>>>,
    rebound: [Option<Bound>; 4],
}

/// A later stage as the pipeline takes it, when the case has it.
fn raw_stage<'a>(shader: Option<&'a Shader>, bound: Option<&'a Bound>) -> Option<RawStage<'a>> {
    shader.zip(bound).map(|(shader, b)| RawStage {
        shader,
        bindings: &b.bindings,
    })
}

/// The later draws of `desc`: each one's input assembly (the first
/// draw's, with its own counts) and, where its constant-buffer changes
/// touch a stage, that stage bound again with every change so far.
fn redraws(
    case: &Case,
    desc: &PipelineDesc,
    first: &DrawInput,
    shaders: [Option<&Shader>; 4],
    uavs: &UavSlots,
    vs_bound: &Bound,
) -> Result<Vec<Redraw>, String> {
    let names = ["vs", "hs", "ds", "gs"];
    let mut stage_descs = [&case.vs, &case.hs, &case.ds, &case.gs].map(|d| d.clone());
    let mut out = Vec::with_capacity(desc.redraws.len());
    for (k, r) in desc.redraws.iter().enumerate() {
        if let Some(o) = &r.offsets {
            if o.len() != case.stream_outputs.len() {
                return Err(format!(
                    "[[pipeline.redraw]] #{k}: {} offsets for {} stream-output buffers",
                    o.len(),
                    case.stream_outputs.len()
                ));
            }
        }
        let mut rebound: [Option<Bound>; 4] = Default::default();
        for (i, name) in names.iter().enumerate() {
            let changes: Vec<&CbDesc> = r
                .cbs
                .iter()
                .filter(|(s, _)| s == name)
                .map(|(_, cb)| cb)
                .collect();
            if changes.is_empty() {
                continue;
            }
            let (Some(d), Some(shader)) = (stage_descs[i].as_mut(), shaders[i]) else {
                return Err(format!(
                    "[[pipeline.redraw]] #{k} changes a cb of [{name}], which the case lacks"
                ));
            };
            for cb in changes {
                d.cbs.retain(|c| c.slot != cb.slot);
                d.cbs.push(cb.clone());
            }
            let mut b = bind_stage(shader, d, uavs)?;
            b.bindings.interrupt = vs_bound.bindings.interrupt.clone();
            rebound[i] = Some(b);
        }
        out.push(Redraw {
            draw: DrawInput {
                vertex_count: r.vertex_count,
                instance_count: r.instance_count,
                ..first.clone()
            },
            offsets: r.offsets.clone(),
            rebound,
        });
    }
    Ok(out)
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
            Ok(StreamOutput {
                offset: d.offset.map_or(SoOffset::Append, SoOffset::At),
                filled_size: d.filled_size,
                ..StreamOutput::new(d.slot, d.stream, d.stride, elements, data)
            })
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
        let most = desc
            .redraws
            .iter()
            .map(|r| r.vertex_count as usize)
            .fold(count, usize::max);
        let fetched = match &desc.indices {
            Some(i) => i[..count]
                .iter()
                .filter(|&&x| x != STRIP_CUT)
                .map(|&x| x as usize + 1)
                .max()
                .unwrap_or(0),
            None => most,
        };
        let inputs = vertex_inputs(
            vs.program(),
            &vs_desc.inputs,
            fetched,
            vs.kernel().input_regs,
        )?;
        let per = desc.topology.primitive_vertices().max(1) as u64;
        let primitives = std::iter::once((desc.vertex_count, desc.instance_count))
            .chain(
                desc.redraws
                    .iter()
                    .map(|r| (r.vertex_count, r.instance_count)),
            )
            .map(|(v, i)| u64::from(v) / per * u64::from(i.max(1)))
            .sum();
        let draw = DrawInput {
            topology: desc.topology,
            vertex_count: desc.vertex_count,
            indices: desc.indices.clone(),
            instance_count: desc.instance_count,
            inputs,
        };
        let shaders = [
            Some(&vs),
            hs.as_ref().map(|h| &h.0),
            ds.as_ref().map(|d| &d.0),
            gs.as_ref().map(|g| &g.0),
        ];
        let redraws = redraws(case, desc, &draw, shaders, uavs, &vs_bound)?;
        let ready = PipelineReady {
            vs: (vs, vs_bound),
            hs,
            ds,
            gs,
            draw,
            outputs: stream_outputs(&case.stream_outputs)?,
            redraws,
            result: None,
        };
        Ok((ready, compile_us, primitives))
    }

    /// Runs the draw and its redraws once, into fresh copies of the
    /// buffers; the result holds the last draw's buffers and filled sizes
    /// and the counts of all draws added up.
    pub(super) fn act(&mut self) {
        let mut bound = [
            Some(&self.vs.1),
            self.hs.as_ref().map(|h| &h.1),
            self.ds.as_ref().map(|d| &d.1),
            self.gs.as_ref().map(|g| &g.1),
        ];
        let mut result = self.draw_once(&self.draw, self.outputs.clone(), bound);
        for r in &self.redraws {
            let Ok(last) = &result else { break };
            for (b, new) in bound.iter_mut().zip(&r.rebound) {
                if let Some(n) = new {
                    *b = Some(n);
                }
            }
            let mut outputs = last.resume(&self.outputs);
            if let Some(offsets) = &r.offsets {
                for (o, at) in outputs.iter_mut().zip(offsets) {
                    o.offset = at.map_or(SoOffset::Append, SoOffset::At);
                }
            }
            let counts = last.counts;
            result = self.draw_once(&r.draw, outputs, bound).map(|mut out| {
                for s in 0..out.counts.written.len() {
                    out.counts.written[s] += counts.written[s];
                    out.counts.needed[s] += counts.needed[s];
                }
                out
            });
        }
        self.result = Some(result);
    }

    /// One draw with the stages' bindings `bound` (vs, hs, ds, gs).
    fn draw_once(
        &self,
        draw: &DrawInput,
        outputs: Vec<StreamOutput>,
        bound: [Option<&Bound>; 4],
    ) -> Result<PipelineOutput, String> {
        let [vs, hs, ds, gs] = bound;
        let stages = RawStages {
            vs: RawStage {
                shader: &self.vs.0,
                bindings: &vs.unwrap_or(&self.vs.1).bindings,
            },
            hs: raw_stage(self.hs.as_ref().map(|h| &h.0), hs),
            ds: raw_stage(self.ds.as_ref().map(|d| &d.0), ds),
            gs: raw_stage(self.gs.as_ref().map(|g| &g.0), gs),
        };
        // SAFETY: each `Bound` owns its views' memory (and textures) and
        // lives in `self` across the call; the UAV views point into memory
        // the `Prepared` holding `self` owns.
        unsafe { run_pipeline_raw(&stages, draw, outputs) }.map_err(|e| e.to_string())
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
        for (o, &filled) in self.outputs.iter().zip(&out.filled_sizes) {
            outcome.stream_output_filled.insert(o.slot, filled);
        }
    }
}
