//! Running a vertex shader on the vertices a draw fetches: each with its
//! own SV_VertexID (the index value) and SV_InstanceID.

use super::{Bindings, Block, Call, Kernel, VertexBatch, RUN_BATCHES};
use crate::abi::{SysValSlot, SYSVAL_COUNT};
use rayon::prelude::*;

/// Runs a vertex shader once per `[vertex, instance]` of `ids`. Vertex
/// `v` reads `inputs[v * k.input_regs ..]` (zeros past the end), and sees
/// SV_VertexID = v and SV_InstanceID = instance. The result holds
/// `k.output_regs` registers per entry of `ids`, in order.
///
/// # Safety
/// As for [`super::run_vertices`].
pub unsafe fn run_vertex_list(
    k: &Kernel,
    b: &Bindings,
    inputs: &[[u32; 4]],
    ids: &[[u32; 2]],
) -> Vec<[u32; 4]> {
    let w = k.lanes as usize;
    let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
    let mut out = vec![[0u32; 4]; ids.len() * no];
    if no == 0 {
        return out;
    }
    if runs_list(k, inputs, ids) {
        let per_call = w * RUN_BATCHES;
        out.par_chunks_mut(per_call * no).enumerate().for_each_init(
            || VertexBatch::new(k, b),
            |batch, (i, dst)| {
                let first = i * per_call;
                let span = first..first + dst.len() / no;
                // SAFETY: forwarded contract; the kernel runs ranges, every
                // vertex an entry names has its registers in `inputs`, and
                // the chunk holds its entries' outputs.
                unsafe { batch.run_range(k, b, inputs, Some(ids), span, dst) }
            },
        );
        return out;
    }
    out.par_chunks_mut(w * no).enumerate().for_each_init(
        || {
            let call = Call::new(k, b);
            (call, [ni, no, SYSVAL_COUNT].map(|r| Block::new(r * 16 * w)))
        },
        |(call, [ib, ob, sv]), (batch, dst)| {
            if b.interrupted() {
                return;
            }
            let (words, sys) = (ib.words(), sv.words());
            for l in 0..w {
                let entry = ids.get(batch * w + l);
                let [v, inst] = entry.copied().unwrap_or([0, 0]);
                for r in 0..ni {
                    let val = match entry {
                        Some(_) => inputs.get(v as usize * ni + r).copied(),
                        None => None,
                    };
                    for (c, x) in val.unwrap_or([0; 4]).iter().enumerate() {
                        words[(r * 4 + c) * w + l] = *x;
                    }
                }
                sys[(SysValSlot::VertexId as usize * 4) * w + l] = v;
                sys[(SysValSlot::InstanceId as usize * 4) * w + l] = inst;
                call.lane_mask.words()[l] = if entry.is_some() { u32::MAX } else { 0 };
            }
            // Zeroed outputs: a lane that leaves one unwritten reads zero,
            // not what the worker's previous batch left.
            call.run_on_blocks(k.func, [ib, &mut *ob, sv]);
            let o = ob.words();
            for (i, reg) in dst.iter_mut().enumerate() {
                let (l, r) = (i / no, i % no);
                *reg = [0, 1, 2, 3].map(|c| o[(r * 4 + c) * w + l]);
            }
        },
    );
    out
}

/// Whether `k` may run `ids` in calls of many batches: compiled code
/// reads `inputs` directly, so every vertex an entry names must have its
/// registers there (the batch path reads zeros past the end).
fn runs_list(k: &Kernel, inputs: &[[u32; 4]], ids: &[[u32; 2]]) -> bool {
    let regs = k.input_regs as usize;
    k.runs_vertices
        && ids
            .iter()
            .all(|&[v, _]| (v as usize + 1) * regs <= inputs.len())
}
