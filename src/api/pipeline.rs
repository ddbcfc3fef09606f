//! Running a pipeline up to stream output: the vertex shader, then
//! optionally hull shader → tessellator → domain shader, then optionally a
//! geometry shader, then stream output, no rasterisation.
//!
//! Everything after the vertex stage reads a [`VertexSource`]: output
//! registers per vertex, a topology, optional indices and the output
//! signature. The vertex shader makes one per instance, and so does the
//! domain shader from that instance's patches; [`run_from_sources`] takes
//! it from there.

use super::bindings::Bindings;
use super::definitions;
use super::error::RunError;
use super::stream_output::{resolve, SoOffset, StreamOutput};
use crate::ir::{OutputElement, Stage};
use crate::shader::Shader;
use dxjit_runtime::dispatch::{self, Bindings as RawBindings, GeometryDesc};
use dxjit_runtime::pipeline::{
    self as rt, assemble, stream_out, Primitives, SoCounts, Topology, MAX_STREAMS, STRIP_CUT,
};

/// A shader and what is bound to it.
#[derive(Clone, Copy)]
pub struct StageBinding<'s, 'b> {
    /// The shader.
    pub shader: &'s Shader,
    /// Its resources.
    pub bindings: &'s Bindings<'b>,
}

/// The stages of a pipeline, each a `T` (a shader and its bindings): a
/// vertex shader and optional later stages.
#[derive(Clone, Copy)]
pub struct Stages<T> {
    /// The vertex shader.
    pub vs: T,
    /// A hull shader (with `ds`, for a patch-list draw).
    pub hs: Option<T>,
    /// A domain shader (with `hs`).
    pub ds: Option<T>,
    /// A geometry shader.
    pub gs: Option<T>,
}

impl<T> Stages<T> {
    /// Each stage, in pipeline order.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        std::iter::once(&self.vs).chain([&self.hs, &self.ds, &self.gs].into_iter().flatten())
    }

    /// The stages with `f` applied to each.
    pub fn map<'a, U>(&'a self, mut f: impl FnMut(&'a T) -> U) -> Stages<U> {
        Stages {
            vs: f(&self.vs),
            hs: self.hs.as_ref().map(&mut f),
            ds: self.ds.as_ref().map(&mut f),
            gs: self.gs.as_ref().map(&mut f),
        }
    }
}

/// The shaders of a pipeline with their safe bindings.
pub type PipelineStages<'s, 'b> = Stages<StageBinding<'s, 'b>>;

/// A shader and the runtime's bindings for it (see [`run_pipeline_raw`]).
#[derive(Clone, Copy)]
pub struct RawStage<'a> {
    /// The shader.
    pub shader: &'a Shader,
    /// Its views, samplers and interrupt word.
    pub bindings: &'a RawBindings,
}

/// [`PipelineStages`] over the runtime's bindings.
pub type RawStages<'a> = Stages<RawStage<'a>>;

/// What a draw reads.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawInput {
    /// How vertices form primitives.
    pub topology: Topology,
    /// Vertices drawn: positions in `indices` when given, else vertices 0, 1, ...
    pub vertex_count: u32,
    /// Vertex numbers by position (32-bit; `u32::MAX` cuts a strip).
    pub indices: Option<Vec<u32>>,
    /// Instances drawn (at least 1).
    pub instance_count: u32,
    /// The vertex shader's input registers of each vertex number, vertex-major.
    pub inputs: Vec<[u32; 4]>,
}

/// The vertices one instance of a draw hands on after its vertex stages.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexSource {
    /// The registers, topology and indices.
    pub vertices: rt::VertexSource,
    /// The output signature of the stage that wrote them.
    pub signature: Vec<OutputElement>,
}

/// What stream output produced: the buffers (in `outputs` order) and the
/// primitive counts per stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineOutput {
    /// Each stream-output buffer's final contents.
    pub buffers: Vec<Vec<u8>>,
    /// Primitives written and needed per stream.
    pub counts: SoCounts,
    /// Each buffer's filled size after the draw: the byte after the last
    /// vertex written (its starting offset when nothing was written).
    pub filled_sizes: Vec<u32>,
}

impl PipelineOutput {
    /// `outputs` (the buffers this draw was given) as the next draw finds
    /// them when they stay bound: this draw's contents and filled sizes,
    /// appended to (D3D11 resumes where the last draw stopped).
    pub fn resume(&self, outputs: &[StreamOutput]) -> Vec<StreamOutput> {
        outputs
            .iter()
            .zip(self.buffers.iter().zip(&self.filled_sizes))
            .map(|(o, (data, &filled_size))| StreamOutput {
                data: data.clone(),
                offset: SoOffset::Append,
                filled_size,
                ..o.clone()
            })
            .collect()
    }
}

/// Draws `draw` through `stages` into `outputs`, on every core.
pub fn run_pipeline(
    stages: &PipelineStages<'_, '_>,
    draw: &DrawInput,
    outputs: Vec<StreamOutput>,
) -> Result<PipelineOutput, RunError> {
    for s in stages.iter() {
        s.shader.check_linkage(s.bindings)?;
    }
    let prepared = stages.map(|s| {
        let mut raw = s.bindings.raw().clone();
        let defined = definitions::apply(s.shader.defined_constants(), &mut raw);
        (s.shader, raw, defined)
    });
    let raw = prepared.map(|(shader, raw, _)| RawStage {
        shader,
        bindings: raw,
    });
    // SAFETY: every view in the raw bindings was made by `Bindings` from a
    // borrow it holds for the call (writable ones from exclusive borrows),
    // or by `definitions` from memory alive until this function returns.
    unsafe { run_pipeline_raw(&raw, draw, outputs) }
}

/// [`run_pipeline`] over the runtime's bindings. Stops with
/// [`RunError::Interrupted`] when a stage's interrupt word is set.
///
/// # Safety
/// Every view of every stage's bindings is as
/// [`dxjit_runtime::dispatch::dispatch`] requires for the whole call.
pub unsafe fn run_pipeline_raw(
    stages: &RawStages<'_>,
    draw: &DrawInput,
    outputs: Vec<StreamOutput>,
) -> Result<PipelineOutput, RunError> {
    let patches = matches!(draw.topology, Topology::PatchList(_));
    let sources = match (&stages.hs, &stages.ds) {
        (Some(hs), Some(ds)) if patches => {
            // SAFETY: as this function's contract.
            let control_points = unsafe { vertex_stage(&stages.vs, draw)? };
            control_points
                .iter()
                // SAFETY: as this function's contract.
                .map(|cp| unsafe { tessellation_stage(hs, ds, cp) })
                .collect::<Result<Vec<_>, _>>()?
        }
        (None, None) if !patches => {
            // SAFETY: as this function's contract.
            unsafe { vertex_stage(&stages.vs, draw)? }
        }
        (None, None) => {
            return Err(RunError::Invalid(
                "patch lists need hull and domain shaders".into(),
            ))
        }
        (Some(_), Some(_)) => {
            return Err(RunError::Invalid(
                "hull and domain shaders need a patch-list topology".into(),
            ))
        }
        _ => {
            return Err(RunError::Invalid(
                "a hull shader and a domain shader come together".into(),
            ))
        }
    };
    // SAFETY: as this function's contract.
    unsafe { run_from_sources(&sources, stages.gs.as_ref(), outputs) }
}

/// Runs the patches of `control_points` (the vertex shader's outputs for
/// one instance, in patch-list order) through `hs`, the tessellator and
/// `ds`: the domain shader's vertices, as triangle, line or point lists.
///
/// # Safety
/// As for [`run_pipeline_raw`].
unsafe fn tessellation_stage(
    hs: &RawStage<'_>,
    ds: &RawStage<'_>,
    control_points: &VertexSource,
) -> Result<VertexSource, RunError> {
    let cp = &control_points.vertices;
    let Topology::PatchList(n) = cp.topology else {
        return Err(RunError::Invalid("not a patch list".into()));
    };
    let regs = cp.regs_per_vertex;
    let order: Vec<u32> = match &cp.indices {
        Some(i) => i.iter().copied().filter(|&x| x != STRIP_CUT).collect(),
        None => (0..(cp.registers.len() / regs.max(1)) as u32).collect(),
    };
    let whole = order.len() - order.len() % usize::from(n.max(1));
    let points: Vec<[u32; 4]> = order[..whole]
        .iter()
        .flat_map(|&v| {
            let at = v as usize * regs;
            (0..regs).map(move |r| cp.registers.get(at + r).copied().unwrap_or([0; 4]))
        })
        .collect();
    let list = super::tessellation::PatchList {
        control_points: &points,
        regs_per_point: regs as u32,
        points_per_patch: u32::from(n),
    };
    // SAFETY: as this function's contract.
    let out = unsafe {
        hs.shader
            .run_patches_raw(hs.bindings, ds.shader, ds.bindings, &list)?
    };
    check_interrupt(hs)?;
    check_interrupt(ds)?;
    let topology = match out.topology {
        dxjit_runtime::tessellator::Topology::PointList => Topology::PointList,
        dxjit_runtime::tessellator::Topology::LineList => Topology::LineList,
        dxjit_runtime::tessellator::Topology::TriangleList => Topology::TriangleList,
    };
    let signature = stream0_signature(&out.signature);
    Ok(VertexSource {
        vertices: rt::VertexSource {
            registers: out.vertices,
            regs_per_vertex: out.regs_per_vertex as usize,
            topology,
            indices: Some(out.indices),
        },
        signature,
    })
}

/// A stage's output registers as stream-output elements, all on stream 0
/// (only geometry shaders have other streams).
fn stream0_signature(outputs: &[crate::ir::IoReg]) -> Vec<OutputElement> {
    outputs
        .iter()
        .map(|o| OutputElement {
            semantic: o.semantic.clone(),
            semantic_index: o.semantic_index,
            stream: 0,
            reg: o.reg,
            mask: o.mask,
        })
        .collect()
}

/// An error when `stage`'s interrupt word is set (see [`super::stop_reason`]).
fn check_interrupt(stage: &RawStage<'_>) -> Result<(), RunError> {
    match super::stop_reason(&stage.bindings.interrupt, stage.shader) {
        Some(stop) => Err(stop),
        None => Ok(()),
    }
}

/// Runs the vertex shader over every vertex the draw fetches, once per
/// instance, and returns one source per instance.
///
/// # Safety
/// As for [`run_pipeline_raw`].
unsafe fn vertex_stage(vs: &RawStage<'_>, draw: &DrawInput) -> Result<Vec<VertexSource>, RunError> {
    vs.shader.require(Stage::Vertex, "run_pipeline")?;
    let kernel = vs.shader.kernel();
    let fetched: Vec<u32> = match &draw.indices {
        Some(i) => {
            let used = i.get(..draw.vertex_count as usize).ok_or_else(|| {
                RunError::Invalid(format!(
                    "vertex_count {} but {} indices",
                    draw.vertex_count,
                    i.len()
                ))
            })?;
            let mut v: Vec<u32> = used.iter().copied().filter(|&x| x != STRIP_CUT).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        None => (0..draw.vertex_count).collect(),
    };
    let instances = draw.instance_count.max(1);
    let ids: Vec<[u32; 2]> = (0..instances)
        .flat_map(|i| fetched.iter().map(move |&v| [v, i]))
        .collect();
    // SAFETY: `kernel` is the shader's code, alive while it is borrowed;
    // the views are as the caller promises.
    let regs = unsafe { dispatch::run_vertex_list(&kernel, vs.bindings, &draw.inputs, &ids) };
    check_interrupt(vs)?;
    let no = kernel.output_regs as usize;
    let indices = draw.indices.as_ref().map(|i| {
        i[..draw.vertex_count as usize]
            .iter()
            .map(|&x| match fetched.binary_search(&x) {
                Ok(p) => p as u32,
                Err(_) => STRIP_CUT,
            })
            .collect::<Vec<u32>>()
    });
    let signature = stream0_signature(&vs.shader.program().outputs);
    let per = fetched.len() * no;
    Ok((0..instances as usize)
        .map(|i| VertexSource {
            vertices: rt::VertexSource {
                registers: regs[i * per..(i + 1) * per].to_vec(),
                regs_per_vertex: no,
                topology: draw.topology,
                indices: indices.clone(),
            },
            signature: signature.clone(),
        })
        .collect())
}

/// Takes the vertex sources of a draw's instances through the geometry
/// shader, if any, into stream output.
///
/// # Safety
/// As for [`run_pipeline_raw`].
pub unsafe fn run_from_sources(
    sources: &[VertexSource],
    gs: Option<&RawStage<'_>>,
    mut outputs: Vec<StreamOutput>,
) -> Result<PipelineOutput, RunError> {
    let mut prims: Option<Primitives> = None;
    for s in sources {
        let p = assemble(&s.vertices);
        match &mut prims {
            Some(all) => all.extend(p),
            None => prims = Some(p),
        }
    }
    let prims = prims.unwrap_or_default();
    let (streams, signature) = match gs {
        // SAFETY: as this function's contract.
        Some(gs) => unsafe { geometry_stage(gs, sources, &prims)? },
        None => {
            let mut streams = vec![prims.without_adjacency()];
            streams.resize(MAX_STREAMS, Primitives::empty(1, prims.regs_per_vertex));
            let sig = sources
                .first()
                .map(|s| s.signature.clone())
                .unwrap_or_default();
            (streams, sig)
        }
    };
    let mut targets = resolve(&mut outputs, &signature)?;
    let counts = stream_out(&streams, &mut targets);
    Ok(PipelineOutput {
        filled_sizes: targets
            .iter()
            .map(|t| u32::try_from(t.filled).unwrap_or(u32::MAX))
            .collect(),
        buffers: targets.into_iter().map(|t| t.data).collect(),
        counts,
    })
}

/// Runs the geometry shader on the assembled primitives.
///
/// # Safety
/// As for [`run_pipeline_raw`].
unsafe fn geometry_stage(
    gs: &RawStage<'_>,
    sources: &[VertexSource],
    prims: &Primitives,
) -> Result<(Vec<Primitives>, Vec<OutputElement>), RunError> {
    gs.shader.require(Stage::Geometry, "run_pipeline")?;
    let info = gs.shader.program().geometry.clone().ok_or_else(|| {
        RunError::Invalid("the geometry shader has no geometry declarations".into())
    })?;
    if let Some(s) = sources.first() {
        if s.vertices.topology.gs_input() != Some(info.input) {
            return Err(RunError::Invalid(format!(
                "topology {:?} does not give the geometry shader's input primitive {:?}",
                s.vertices.topology, info.input
            )));
        }
    }
    let desc = GeometryDesc {
        input_vertices: info.input.vertices(),
        input_stride: info.input_stride as usize,
        max_vertices: info.max_vertices as usize,
        instances: info.instances,
        outputs: info.outputs,
    };
    let kernel = gs.shader.kernel();
    // SAFETY: as in `vertex_stage`; the kernel is a geometry shader's whose
    // input block is `input_vertices * input_stride` registers
    // (`Program::input_block_regs`).
    let streams = unsafe { dispatch::run_geometry(&kernel, gs.bindings, &desc, prims) };
    check_interrupt(gs)?;
    Ok((streams, info.signature))
}
