//! Running a pipeline up to stream output: the vertex shader, then
//! optionally hull shader → tessellator → domain shader, then optionally a
//! geometry shader, then stream output, with no rasterisation.

use crate::bindings::{Bindings, BINDINGS_V1_SIZE};
use crate::bound::Bound;
use crate::checks::{
    optional_grown, slice, versioned, versioned_slice, write_versioned, Versioned,
};
use crate::dispatch::require_stage;
use crate::enums::Stage;
use crate::guard::{call, Message};
use crate::reflect::shader_ref;
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use crate::stream_output::{read_buffers, write_buffers, StreamOutputBuffer};
use crate::topology::topology;
use dxjit::api::{run_pipeline_raw, DrawInput, RawStage, RawStages};
use dxjit_runtime::pipeline::STRIP_CUT;
use std::ffi::c_char;

/// A draw through a pipeline: its shaders and their bindings, input
/// assembly, and the stream-output buffers. The last stage before stream
/// output (vertex, domain or geometry shader) feeds them; stages link by
/// output and input register number, as D3D11 links matching signatures.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PipelineDesc {
    /// `sizeof(dxjit_pipeline_desc)`.
    pub struct_size: usize,
    /// The vertex shader.
    pub vs: *const Shader,
    /// The vertex shader's bindings, or null. Its `interrupt` and
    /// `timeout_ms` stop the whole draw.
    pub vs_bindings: *const Bindings,
    /// A hull shader, or null; set with `ds`, for a patch-list topology.
    pub hs: *const Shader,
    /// The hull shader's bindings, or null; `interrupt` null, `timeout_ms` 0.
    pub hs_bindings: *const Bindings,
    /// A domain shader, or null; set with `hs`.
    pub ds: *const Shader,
    /// The domain shader's bindings, or null; `interrupt` null, `timeout_ms` 0.
    pub ds_bindings: *const Bindings,
    /// A geometry shader, or null.
    pub gs: *const Shader,
    /// The geometry shader's bindings, or null; `interrupt` null, `timeout_ms` 0.
    pub gs_bindings: *const Bindings,
    /// A `dxjit_topology`.
    pub topology: u32,
    /// Vertices drawn; with `indices`, how many indices are read.
    pub vertex_count: u32,
    /// Null, or `vertex_count` 32-bit vertex numbers; 0xffffffff cuts a strip.
    pub indices: *const u32,
    /// Instances drawn; 0 counts as 1.
    pub instance_count: u32,
    /// The vertex shader's inputs: vertex number `v`'s register `r` starts
    /// at word `(v * input_registers + r) * 4`, for every vertex number the
    /// draw reads. `SV_VertexID` is the vertex number, `SV_InstanceID` the
    /// instance. May be null when there are no input registers.
    pub inputs: *const u32,
    /// Words at `inputs`.
    pub input_words: usize,
    /// The stream-output buffers; may be null when `stream_output_count` is 0.
    pub stream_outputs: *const StreamOutputBuffer,
    /// Entries in `stream_outputs`.
    pub stream_output_count: usize,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and raw pointers.
unsafe impl Versioned for PipelineDesc {
    const NAME: &'static str = "dxjit_pipeline_desc";
}

/// What a pipeline draw counted on each of the four streams (as
/// `D3D11_QUERY_SO_STATISTICS_STREAM#` reports it).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PipelineResult {
    /// `sizeof(dxjit_pipeline_result)`.
    pub struct_size: usize,
    /// Primitives written to the buffers of each stream.
    pub primitives_written: [u64; 4],
    /// Primitives each stream produced, written or not.
    pub primitives_needed: [u64; 4],
    /// By slot: the filled size of the buffer bound there after the draw
    /// (the byte after the last vertex written, or its starting offset
    /// when nothing was); 0 for slots without a buffer. A later draw that
    /// continues the buffer passes it with `DXJIT_SO_APPEND`.
    pub filled_sizes: [u32; 4],
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers only.
unsafe impl Versioned for PipelineResult {
    const NAME: &'static str = "dxjit_pipeline_result";
}

/// A later stage: its shader, of `stage`, and its bindings, which must
/// leave stopping the draw to the vertex shader's.
///
/// # Safety
/// `shader` is null or live; `bindings` is null or valid as
/// `dxjit_bindings` documents, for as long as the result is used.
unsafe fn later_stage<'a>(
    shader: *const Shader,
    bindings: *const Bindings,
    stage: Stage,
    name: &str,
) -> Outcome<Option<(&'a Shader, Bound)>> {
    if shader.is_null() {
        if !bindings.is_null() {
            return Err(Failure::new(
                Status::InvalidArgument,
                format!("{name}_bindings without {name}"),
            ));
        }
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    let s = unsafe { shader_ref(shader) }?;
    require_stage(s, stage, "dxjit_run_pipeline")?;
    let what = format!("{name}_bindings");
    // SAFETY: forwarded contract.
    let given = unsafe { optional_grown(bindings, &what, &[BINDINGS_V1_SIZE]) }?;
    if let Some(b) = given {
        if !b.interrupt.is_null() || b.timeout_ms != 0 {
            return Err(Failure::new(
                Status::InvalidArgument,
                format!("{name}_bindings: interrupt and timeout_ms are the vertex shader's bindings' own"),
            ));
        }
    }
    // SAFETY: forwarded contract.
    let bound = unsafe { Bound::new(s, bindings) }?;
    Ok(Some((s, bound)))
}

/// The draw `d` describes, its inputs checked against `input_regs`.
///
/// # Safety
/// `indices` and `inputs` hold their documented counts of entries.
unsafe fn draw_input(d: &PipelineDesc, input_regs: u32) -> Outcome<DrawInput> {
    let topology = topology(d.topology)?;
    let count = d.vertex_count as usize;
    let indices = if d.indices.is_null() {
        None
    } else {
        // SAFETY: `vertex_count` entries (contract).
        Some(unsafe { slice(d.indices, count, "indices") }?.to_vec())
    };
    let fetched = match &indices {
        Some(i) => i
            .iter()
            .filter(|&&x| x != STRIP_CUT)
            .map(|&x| x as usize + 1)
            .max()
            .unwrap_or(0),
        None => count,
    };
    let regs = fetched
        .checked_mul(input_regs as usize)
        .filter(|r| r.checked_mul(4).is_some())
        .ok_or_else(|| Failure::new(Status::OutOfRange, "too many vertices"))?;
    if d.input_words < regs * 4 {
        return Err(Failure::new(
            Status::InvalidArgument,
            format!(
                "inputs: {fetched} vertices of {input_regs} registers need {} words, {} given",
                regs * 4,
                d.input_words
            ),
        ));
    }
    // SAFETY: `input_words` >= `regs * 4` words (contract).
    let words = unsafe { slice(d.inputs, regs * 4, "inputs") }?;
    Ok(DrawInput {
        topology,
        vertex_count: d.vertex_count,
        indices,
        instance_count: d.instance_count.max(1),
        inputs: words
            .chunks_exact(4)
            .map(|r| [r[0], r[1], r[2], r[3]])
            .collect(),
    })
}

/// The library's view of a later stage.
fn raw_stage<'a>(stage: &'a Option<(&Shader, Bound)>) -> Option<RawStage<'a>> {
    stage.as_ref().map(|(s, b)| RawStage {
        shader: &s.shader,
        bindings: &b.bindings,
    })
}

/// Draws through a pipeline into stream-output buffers, on every core:
/// the vertex shader, then the hull shader, tessellator and domain shader
/// (both or neither, with a patch-list topology), then the geometry shader
/// if any, then stream output. Strips reach the buffers as lists in
/// D3D11's order; primitives past a buffer's end are counted, not written.
/// `result` may be null.
///
/// # Safety
/// `desc` is null or a readable `dxjit_pipeline_desc` whose shaders are
/// null or live, whose bindings are null or valid as `dxjit_bindings`
/// documents, whose arrays hold their counts, and whose stream-output
/// buffers are writable for their sizes, untouched by other threads during
/// the call; `result` is null or a writable `dxjit_pipeline_result`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_run_pipeline(
    desc: *const PipelineDesc,
    result: *mut PipelineResult,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let d = unsafe { versioned(desc, "desc") }?;
        // SAFETY: forwarded contract.
        let vs = unsafe { shader_ref(d.vs) }?;
        require_stage(vs, Stage::Vertex, "dxjit_run_pipeline")?;
        // SAFETY: forwarded contract.
        let vs_bound = unsafe { Bound::new(vs, d.vs_bindings) }?;
        // SAFETY: forwarded contract (each of the three calls).
        let mut hs = unsafe { later_stage(d.hs, d.hs_bindings, Stage::Hull, "hs") }?;
        // SAFETY: as above.
        let mut ds = unsafe { later_stage(d.ds, d.ds_bindings, Stage::Domain, "ds") }?;
        // SAFETY: as above.
        let mut gs = unsafe { later_stage(d.gs, d.gs_bindings, Stage::Geometry, "gs") }?;
        for (_, b) in [&mut hs, &mut ds, &mut gs].into_iter().flatten() {
            b.bindings.interrupt = vs_bound.bindings.interrupt.clone();
        }
        // SAFETY: forwarded contract.
        let draw = unsafe { draw_input(d, vs.kernel.input_regs) }?;
        // SAFETY: forwarded contract.
        let buffers =
            unsafe { versioned_slice(d.stream_outputs, d.stream_output_count, "stream_outputs") }?;
        // SAFETY: forwarded contract.
        let outputs = unsafe { read_buffers(buffers) }?;
        let out = vs_bound.run(&vs.shader, |b| {
            let stages = RawStages {
                vs: RawStage {
                    shader: &vs.shader,
                    bindings: b,
                },
                hs: raw_stage(&hs),
                ds: raw_stage(&ds),
                gs: raw_stage(&gs),
            };
            // SAFETY: the caller's contract keeps every stage's bound views
            // valid and untouched for the call; the shaders are live.
            unsafe { run_pipeline_raw(&stages, &draw, outputs) }
        })?;
        let out = out.map_err(Failure::from)?;
        // SAFETY: the buffers are writable for their sizes (contract);
        // stream output keeps each buffer's length.
        unsafe { write_buffers(buffers, &out.buffers) };
        if !result.is_null() {
            let mut filled_sizes = [0; 4];
            for (b, &f) in buffers.iter().zip(&out.filled_sizes) {
                filled_sizes[b.slot as usize & 3] = f;
            }
            let counts = PipelineResult {
                struct_size: std::mem::size_of::<PipelineResult>(),
                primitives_written: out.counts.written,
                primitives_needed: out.counts.needed,
                filled_sizes,
            };
            // SAFETY: non-null, a writable `dxjit_pipeline_result` (contract).
            unsafe { write_versioned(result, counts, "result") }?;
        }
        Ok(())
    })
}
