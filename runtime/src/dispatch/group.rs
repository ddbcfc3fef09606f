//! Compute thread groups: the per-batch system values and lane masks every
//! group shares, and one worker's calls and group-shared memory.
//!
//! What stays the same from group to group is set once per worker: each
//! call's system-value block, group-shared memory and lane-mask pointer.
//! A group then costs a reset of its group-shared memory and lane masks,
//! its id, and the calls themselves.

use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::{SysValSlot, STATUS_BARRIER, SYSVAL_COUNT};

/// Per-batch system values and lane masks of a compute dispatch: they are
/// the same for every group (SV_GroupID comes through the frame).
pub(super) struct GroupLayout {
    /// System-value blocks, one per lane batch.
    sysvals: Vec<Block>,
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
        let mut sysvals = Vec::with_capacity(batches);
        let mut masks = vec![0u32; batches * w];
        for batch in 0..batches {
            let mut block = Block::new(SYSVAL_COUNT * 16 * w);
            let words = block.words();
            for l in 0..w {
                let t = (batch * w + l) as u32;
                let at = |slot: SysValSlot, c: usize| (slot as usize * 4 + c) * w + l;
                words[at(SysValSlot::GroupThreadId, 0)] = t % tx;
                words[at(SysValSlot::GroupThreadId, 1)] = (t / tx) % ty;
                words[at(SysValSlot::GroupThreadId, 2)] = t / (tx * ty);
                words[at(SysValSlot::GroupIndex, 0)] = t;
                if (t as usize) < threads {
                    masks[batch * w + l] = u32::MAX;
                }
            }
            sysvals.push(block);
        }
        GroupLayout { sysvals, masks }
    }

    /// Lane batches per group.
    fn batches(&self) -> usize {
        self.sysvals.len()
    }
}

/// What one worker reuses from group to group: its calls (one per lane
/// batch when the shader has barriers), group-shared memory and the lane
/// masks the calls read.
pub(super) struct GroupState {
    calls: Vec<Call>,
    tgsm: Block,
    /// The layout's lane masks, copied afresh for each group: compiled
    /// code may write its lane mask back, and no group sees another's.
    masks: Block,
    /// Per batch, whether it has run to its end in the current group.
    done: Vec<bool>,
}

impl GroupState {
    /// A worker's state for running `k`'s groups under `b`.
    pub(super) fn new(k: &Kernel, b: &Bindings, layout: &GroupLayout) -> GroupState {
        let batches = layout.batches();
        let w = k.lanes as usize;
        let mut calls: Vec<Call> = (0..if k.has_barriers { batches } else { 1 })
            .map(|_| Call::new(k, b))
            .collect();
        let mut tgsm = Block::new(k.tgsm_size as usize);
        let mut masks = Block::new(4 * layout.masks.len());
        let mask_words = masks.words().as_mut_ptr();
        for (batch, call) in calls.iter_mut().enumerate() {
            call.frame.sysvals = layout.sysvals[batch].words_ptr();
            // `batch * w` words lie inside `masks`, sized for every batch.
            call.frame.lane_mask = mask_words.wrapping_add(batch * w);
            call.frame.tgsm = tgsm.ptr();
        }
        GroupState {
            calls,
            tgsm,
            masks,
            done: vec![false; batches],
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
        if !k.has_barriers {
            let w = k.lanes as usize;
            let masks = self.masks.words().as_mut_ptr();
            let call = &mut self.calls[0];
            call.frame.group_id = id;
            for (batch, sysvals) in layout.sysvals.iter().enumerate() {
                call.frame.sysvals = sysvals.words_ptr();
                call.frame.lane_mask = masks.wrapping_add(batch * w);
                call.frame.resume = 0;
                call.run(k.func);
            }
            return;
        }
        for call in &mut self.calls {
            call.frame.group_id = id;
            call.frame.resume = 0;
        }
        self.done.fill(false);
        let mut running = self.calls.len();
        while running > 0 {
            for (call, done) in self.calls.iter_mut().zip(&mut self.done) {
                if !*done && call.run(k.func) != STATUS_BARRIER {
                    *done = true;
                    running -= 1;
                }
            }
        }
    }
}
