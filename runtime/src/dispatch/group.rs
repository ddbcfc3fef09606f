//! Compute thread groups: the per-batch system values and lane masks every
//! group shares, and one worker's calls and group-shared memory.
//!
//! What stays the same from group to group is set once per worker: each
//! call's system-value block, group-shared memory and lane-mask pointer.
//! A group then costs a reset of its group-shared memory and lane masks,
//! its id, and the calls themselves.
//!
//! A shader without barriers runs one call per lane batch. A shader with
//! barriers runs every batch of the group in each call (the compiled
//! function steps through the batches' system values, lane masks and
//! scratch, laid out one after another, see `src/jit/group_loop.rs`), one
//! call per barrier phase, until a call returns something other than
//! `STATUS_BARRIER`.

use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, STATUS_BARRIER, SYSVAL_COUNT};

/// Per-batch system values and lane masks of a compute dispatch: they are
/// the same for every group (SV_GroupID comes through the frame).
pub(super) struct GroupLayout {
    /// System-value blocks, one per lane batch, one after another
    /// (`stride` words each).
    sysvals: Block,
    /// Words of one batch's system values.
    stride: usize,
    /// Lane batches per group.
    batches: usize,
    /// Every batch's lane mask, one after another (`lanes` words each).
    masks: Vec<u32>,
}

impl GroupLayout {
    /// The layout of `k`'s thread group.
    pub(super) fn new(k: &Kernel) -> GroupLayout {
        let [tx, ty, tz] = k.thread_group.map(|d| d.max(1));
        let threads = (tx * ty * tz) as usize;
        let w = k.lanes as usize;
        let batches = threads.div_ceil(w);
        let stride = SYSVAL_COUNT * 4 * w;
        let mut sysvals = Block::new(4 * stride * batches);
        let words = sysvals.words();
        let mut masks = vec![0u32; batches * w];
        for batch in 0..batches {
            for l in 0..w {
                let t = (batch * w + l) as u32;
                let at =
                    |slot: SysValSlot, c: usize| batch * stride + (slot as usize * 4 + c) * w + l;
                words[at(SysValSlot::GroupThreadId, 0)] = t % tx;
                words[at(SysValSlot::GroupThreadId, 1)] = (t / tx) % ty;
                words[at(SysValSlot::GroupThreadId, 2)] = t / (tx * ty);
                words[at(SysValSlot::GroupIndex, 0)] = t;
                if (t as usize) < threads {
                    masks[batch * w + l] = u32::MAX;
                }
            }
        }
        GroupLayout {
            sysvals,
            stride,
            batches,
            masks,
        }
    }

    /// Batch `batch`'s system values (the first batch's are the start of
    /// every batch's).
    fn sysvals(&self, batch: usize) -> *const u32 {
        // `batch * stride` words lie inside the block, sized for every batch.
        self.sysvals.words_ptr().wrapping_add(batch * self.stride)
    }
}

/// What one worker reuses from group to group: its call, group-shared
/// memory and the lane masks the call reads.
pub(super) struct GroupState {
    call: Call,
    tgsm: Block,
    /// The layout's lane masks, copied afresh for each group: compiled
    /// code may write its lane mask back, and no group sees another's.
    masks: Block,
    /// The call's scratch: a shader with barriers moves the frame's
    /// pointers from batch to batch and back, and an interrupted call
    /// leaves them moved.
    scratch: *mut u8,
}

impl GroupState {
    /// A worker's state for running `k`'s groups under `b`.
    pub(super) fn new(k: &Kernel, b: &Bindings, layout: &GroupLayout) -> GroupState {
        let mut call = Call::new(k, b);
        let mut tgsm = Block::new(k.tgsm_size as usize);
        let masks = Block::new(4 * layout.masks.len());
        call.frame.tgsm = tgsm.ptr();
        let scratch = call.frame.scratch;
        GroupState {
            call,
            tgsm,
            masks,
            scratch,
        }
    }

    /// Runs the group with linear index `g` of a `groups` dispatch.
    pub(super) fn run(&mut self, k: &Kernel, layout: &GroupLayout, groups: [u32; 3], g: u64) {
        let [gx, gy, _] = groups.map(u64::from);
        let id = [
            (g % gx) as u32,
            ((g / gx) % gy) as u32,
            (g / (gx * gy)) as u32,
        ];
        self.tgsm.zero();
        let n = layout.masks.len();
        self.masks.words()[..n].copy_from_slice(&layout.masks);
        with_flushed_denormals(|| self.run_group(k, layout, id));
    }

    fn run_group(&mut self, k: &Kernel, layout: &GroupLayout, id: [u32; 3]) {
        let w = k.lanes as usize;
        let masks = self.masks.words().as_mut_ptr();
        let frame = &mut self.call.frame;
        frame.group_id = id;
        frame.resume = 0;
        if !k.has_barriers {
            for batch in 0..layout.batches {
                let frame = &mut self.call.frame;
                frame.sysvals = layout.sysvals(batch);
                // `batch * w` words lie inside `masks`, sized for every batch.
                frame.lane_mask = masks.wrapping_add(batch * w);
                self.call.run(k.func);
            }
            return;
        }
        frame.sysvals = layout.sysvals(0);
        frame.lane_mask = masks;
        frame.scratch = self.scratch;
        while self.call.run(k.func) == STATUS_BARRIER {}
    }
}
