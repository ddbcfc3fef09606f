//! Running a geometry shader: one lane per (input primitive, instance),
//! each lane's emitted strips turned into lists per stream, in D3D11's
//! order (input primitive, then instance, then emission).

use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, SYSVAL_COUNT};
use crate::pipeline::{strips_to_list, GsArea, GsOutput, Primitives, MAX_STREAMS};
use rayon::prelude::*;

/// What the runtime needs to know about a geometry shader beyond its kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeometryDesc {
    /// Vertices per input primitive (`dcl_inputprimitive`).
    pub input_vertices: usize,
    /// Input registers per vertex in the kernel's input block: vertex `v`'s
    /// register `r` is block register `r * input_vertices + v`.
    pub input_stride: usize,
    /// `dcl_maxout`: vertices kept per invocation, over all streams.
    pub max_vertices: usize,
    /// `dcl_gsinstances` (1 without it).
    pub instances: u32,
    /// The output topology of each stream.
    pub outputs: [GsOutput; MAX_STREAMS],
}

/// Runs a geometry shader on `prims` (each of `desc.input_vertices`
/// vertices); returns each stream's primitives as lists, with
/// `k.output_regs` registers per vertex, numbered in output order.
///
/// # Safety
/// As for [`super::run_vertices`]; `k` is a geometry shader's kernel whose
/// input block holds `desc.input_vertices * desc.input_stride` registers.
pub unsafe fn run_geometry(
    k: &Kernel,
    b: &Bindings,
    desc: &GeometryDesc,
    prims: &Primitives,
) -> Vec<Primitives> {
    let w = k.lanes as usize;
    let instances = desc.instances.max(1) as usize;
    let total = prims.len() * instances;
    let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
    let batches: Vec<[Primitives; MAX_STREAMS]> = (0..total.div_ceil(w))
        .into_par_iter()
        .map_init(
            || {
                let mut call = Call::new(k, b);
                let area = Box::new(GsArea::new(w, no, desc.max_vertices));
                let blocks = [ni, no, SYSVAL_COUNT].map(|regs| Block::new(regs * 16 * w));
                call.frame.gs = Box::into_raw(area);
                Batch { call, blocks }
            },
            |batch, index| {
                if b.interrupted() {
                    return std::array::from_fn(|s| {
                        Primitives::empty(desc.outputs[s].list_vertices(), no)
                    });
                }
                batch.run(k, desc, prims, index * w..(index * w + w).min(total))
            },
        )
        .collect();
    let mut streams: Vec<Primitives> = (0..MAX_STREAMS)
        .map(|s| Primitives::empty(desc.outputs[s].list_vertices(), no))
        .collect();
    for batch in batches {
        for (s, p) in batch.into_iter().enumerate() {
            streams[s].extend(p);
        }
    }
    for stream in &mut streams {
        stream.ids = (0..stream.ids.len() as u32).collect();
    }
    streams
}

/// One worker's frame, output area and SoA blocks (inputs, outputs, system values).
struct Batch {
    call: Call,
    blocks: [Block; 3],
}

impl Drop for Batch {
    fn drop(&mut self) {
        // SAFETY: `gs` was made by `Box::into_raw` in `run_geometry` and
        // is freed only here.
        drop(unsafe { Box::from_raw(self.call.frame.gs) });
    }
}

impl Batch {
    /// Runs the invocations `lanes` (primitive-major, instance-minor) and
    /// returns what they emitted, per stream, as lists.
    fn run(
        &mut self,
        k: &Kernel,
        desc: &GeometryDesc,
        prims: &Primitives,
        lanes: std::ops::Range<usize>,
    ) -> [Primitives; MAX_STREAMS] {
        let w = k.lanes as usize;
        let instances = desc.instances.max(1) as usize;
        let no = k.output_regs as usize;
        let [ib, ob, sv] = &mut self.blocks;
        ob.zero();
        let (inputs, sysvals) = (ib.words(), sv.words());
        for l in 0..w {
            let lane = lanes.start + l;
            let live = lane < lanes.end;
            let (p, inst) = (lane / instances, lane % instances);
            for v in 0..desc.input_vertices {
                let regs = if live { prims.vertex(p, v) } else { &[] };
                for r in 0..desc.input_stride {
                    let val = regs.get(r).copied().unwrap_or([0; 4]);
                    for (c, x) in val.iter().enumerate() {
                        inputs[((r * desc.input_vertices + v) * 4 + c) * w + l] = *x;
                    }
                }
            }
            let id = if live { prims.ids[p] } else { 0 };
            sysvals[(SysValSlot::PrimitiveId as usize * 4) * w + l] = id;
            sysvals[(SysValSlot::GsInstanceId as usize * 4) * w + l] = inst as u32;
            self.call.lane_mask.words()[l] = if live { u32::MAX } else { 0 };
        }
        let frame = &mut self.call.frame;
        frame.inputs = ib.ptr() as *const u32;
        frame.outputs = ob.ptr() as *mut u32;
        frame.sysvals = sv.ptr() as *const u32;
        frame.resume = 0;
        // SAFETY: `gs` is this batch's own area (see `run_geometry`), not
        // borrowed elsewhere while the batch runs.
        unsafe { (*frame.gs).clear() };
        with_flushed_denormals(|| self.call.run(k.func));
        // SAFETY: as above; the call has returned.
        let area = unsafe { &*self.call.frame.gs };
        let mut out: [Primitives; MAX_STREAMS] =
            std::array::from_fn(|s| Primitives::empty(desc.outputs[s].list_vertices(), no));
        let mut positions = Vec::new();
        for l in 0..lanes.len() {
            for (s, prims) in out.iter_mut().enumerate() {
                let verts: Vec<_> = area
                    .vertices(l)
                    .filter(|(t, _)| usize::from(t.stream) == s)
                    .collect();
                for strip in verts.chunk_by(|a, b| a.0.strip == b.0.strip) {
                    positions.clear();
                    strips_to_list(desc.outputs[s], strip.len(), &mut positions);
                    for &i in &positions {
                        prims.registers.extend_from_slice(strip[i].1);
                    }
                    let made = positions.len() / prims.vertices_per_primitive;
                    prims.ids.extend(std::iter::repeat_n(0, made));
                }
            }
        }
        out
    }
}
