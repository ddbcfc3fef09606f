//! Compute shaders with group barriers run every lane batch of a thread
//! group in one call: the compiled function loops over the group's batches
//! itself, running each to its next barrier (or its end) before the next,
//! so a barrier phase costs one call per group instead of one per batch.
//!
//! The runtime lays the batches' system values, lane masks and scratch out
//! one after another (`runtime/src/dispatch/group.rs`). Before each batch
//! the loop points the frame's `sysvals`, `lane_mask` and `scratch` at that
//! batch's, and puts them back before it returns. Each batch keeps in its
//! scratch a resume word: where it goes on at the next call (a barrier's
//! number), or [`FINISHED`] once it has run to its end, which later calls
//! skip. `Frame::resume` is 0 at a group's first call (every batch starts,
//! whatever its word holds) and the function sets it to 1 when it returns.
//! A call returns `STATUS_BARRIER` when any batch stopped at a barrier,
//! else [`STATUS_DONE`].
//!
//! When every batch reaches the same barriers in the same order (see
//! [`phasing`]), one call runs the whole group **phase by phase**: the
//! code between two barriers runs in a loop of its own over the batches,
//! which then go on together to the next phase's loop. No resume word is
//! read; a batch's state crosses a barrier through its scratch as before.
//! When every barrier stands at the top level of main, where a phase's
//! loop goes back to is known as it is compiled; when some stand in `if`s
//! or loops that every thread of the group takes alike, each phase notes
//! which barrier began it and its loop goes back through one jump table.

use super::state::{FuncState, Tr};
use super::uniform::Uniformity;
use crate::ir::{Inst, Program, Stage};
use cranelift_codegen::ir::{
    types, Block, BlockArg, Function, InstBuilder, JumpTableData, MemFlagsData, StackSlot,
    StackSlotData, StackSlotKind, Value, ValueDef,
};
use cranelift_frontend::FunctionBuilder;
use dxjit_runtime::abi::{Frame, STATUS_DONE, SYSVAL_COUNT};
use std::collections::HashMap;
use std::mem::offset_of;

/// The resume word of a batch that has run to its end; any word past the
/// last barrier's number reads as finished.
pub const FINISHED: u32 = u32::MAX;

/// The loop over a group's lane batches.
#[derive(Clone, Copy)]
pub struct BatchLoop {
    /// Lane batches in a group.
    pub batches: u32,
    /// How one call runs the whole group phase by phase, if it does.
    pub phasing: Option<Phasing>,
    /// Where each batch starts: every variable is zeroed, then the body or
    /// (one phase at a time) its first phase runs.
    pub head: Block,
    /// With [`Phasing::Uniform`], where a batch begins the phase under
    /// way: a jump on the number of the barrier that began it.
    pub again: Block,
    /// Byte offset of each batch's resume word in its scratch.
    pub resume_at: i32,
    /// Where a batch goes when it stops, with its status (an `i32` block
    /// parameter).
    pub next: Block,
    /// The batch index (word 0), the statuses ORed so far (word 1) and,
    /// run phase by phase, the number of the barrier that began the phase
    /// under way (word 2; 0 for the first phase).
    slot: StackSlot,
}

/// Byte offset of the phase's barrier number in [`BatchLoop`]'s slot.
const PHASE_WORD: i32 = 8;

/// How one call runs a whole group phase by phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phasing {
    /// Every barrier stands at the top level of main: a phase's loop goes
    /// back to the block after the barrier before it.
    Straight,
    /// Some barrier or return stands in an `if` or loop whose every test
    /// is uniform, or a return before main's end: a phase's loop goes
    /// back through [`BatchLoop::again`].
    Uniform,
}

/// Whether every batch of a group reaches the same group barriers of
/// `prog` in the same order, so that one call may run the group phase by
/// phase, and how: every barrier and every return stands in main, at its
/// top level or only in `if`s with a uniform condition and loops that
/// every active lane leaves together (`uniform`), and a conditional
/// return tests a uniform value (no subroutine calls, which may hold
/// barriers of their own). A return before main's end sends every batch
/// to it alike: the batches after the first go on from where the phase
/// began, so that phase's start must be noted.
pub fn phasing(prog: &Program, uniform: &Uniformity) -> Option<Phasing> {
    // Per open construct: whether every lane of the group takes it alike.
    let mut open: Vec<bool> = Vec::new();
    let mut phasing = Phasing::Straight;
    let last = prog.main.len().saturating_sub(1);
    for (i, inst) in prog.main.iter().enumerate() {
        let alike = !open.contains(&false);
        match inst {
            Inst::If { cond, .. } => open.push(uniform.src(cond, 0)),
            Inst::Loop => open.push(uniform.loop_is_uniform(&prog.main[i + 1..])),
            Inst::Switch { .. } => open.push(false),
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                open.pop();
            }
            Inst::Sync { group: true, .. } if !open.is_empty() => {
                if !alike {
                    return None;
                }
                phasing = Phasing::Uniform;
            }
            Inst::Ret if i < last => {
                if !alike {
                    return None;
                }
                phasing = Phasing::Uniform;
            }
            Inst::RetC { cond, .. } => {
                if !alike || !uniform.src(cond, 0) {
                    return None;
                }
                phasing = Phasing::Uniform;
            }
            Inst::Call { .. } | Inst::CallC { .. } => return None,
            _ => {}
        }
    }
    Some(phasing)
}

/// Whether `prog` is a compute shader with a group barrier, whose calls
/// run a whole group.
pub fn runs_group(prog: &Program) -> bool {
    prog.stage == Stage::Compute
        && prog
            .bodies()
            .flatten()
            .any(|inst| matches!(inst, Inst::Sync { group: true, .. }))
}

impl BatchLoop {
    /// The loop of `prog`'s groups at `lanes` lanes per batch, with its
    /// resume word at scratch offset `resume_at`.
    pub fn new(
        b: &mut FunctionBuilder,
        prog: &Program,
        uniform: &Uniformity,
        lanes: u32,
        resume_at: u32,
    ) -> BatchLoop {
        let threads: u32 = prog.thread_group.iter().map(|&d| d.max(1)).product();
        let next = b.create_block();
        b.append_block_param(next, types::I32);
        let slot =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 12, 2));
        BatchLoop {
            batches: threads.div_ceil(lanes),
            phasing: phasing(prog, uniform),
            head: b.create_block(),
            again: b.create_block(),
            resume_at: resume_at as i32,
            next,
            slot,
        }
    }
}

/// Removes each barrier's spill store of a value that a resume reloaded
/// from the same scratch slot: the slot still holds it (only barriers
/// write spill slots, and a value reloaded after one barrier reaches only
/// the next). Values are compared once every block is sealed, when the
/// variables' block parameters have resolved to what they alias, looking
/// through parameters that every predecessor passes the same value.
pub fn drop_unchanged_spills(func: &mut Function, state: &FuncState) {
    if state.spill_stores.is_empty() {
        return;
    }
    let incoming = incoming_args(func);
    for &(store, offset) in &state.spill_stores {
        let stored = func.dfg.inst_args(store)[0];
        let stored = passed_through(func, &incoming, stored);
        if state.reloaded.contains(&(offset, stored)) {
            func.layout.remove_inst(store);
        }
    }
}

/// Each block's incoming argument lists, one per branch that enters it.
fn incoming_args(func: &Function) -> HashMap<Block, Vec<Vec<Option<Value>>>> {
    let mut incoming: HashMap<Block, Vec<Vec<Option<Value>>>> = HashMap::new();
    for block in func.layout.blocks() {
        let Some(last) = func.layout.last_inst(block) else {
            continue;
        };
        let dfg = &func.dfg;
        for call in dfg.insts[last].branch_destination(&dfg.jump_tables, &dfg.exception_tables) {
            let args = call
                .args(&dfg.value_lists)
                .map(|a| match a {
                    BlockArg::Value(v) => Some(dfg.resolve_aliases(v)),
                    _ => None,
                })
                .collect();
            incoming
                .entry(call.block(&dfg.value_lists))
                .or_default()
                .push(args);
        }
    }
    incoming
}

/// `v` with its aliases resolved and, while it is a block parameter that
/// every entering branch passes one and the same other value, that value.
fn passed_through(
    func: &Function,
    incoming: &HashMap<Block, Vec<Vec<Option<Value>>>>,
    v: Value,
) -> Value {
    let mut v = func.dfg.resolve_aliases(v);
    // Parameters can pass each other around a loop: a bounded walk.
    for _ in 0..64 {
        let ValueDef::Param(block, index) = func.dfg.value_def(v) else {
            return v;
        };
        let mut only = None;
        for args in incoming.get(&block).into_iter().flatten() {
            match args.get(index) {
                Some(Some(a)) if *a == v => {}
                Some(Some(a)) if only.is_none_or(|o| o == *a) => only = Some(*a),
                _ => return v,
            }
        }
        match only {
            Some(a) => v = a,
            None => return v,
        }
    }
    v
}

/// Sets each constant that stands for `n` batches' scratch bytes
/// (`FuncState::scratch_steps`) to `n × batch_scratch`.
pub fn set_scratch_steps(func: &mut Function, state: &mut FuncState, batch_scratch: u32) {
    for (placeholder, times) in std::mem::take(&mut state.scratch_steps) {
        func.replace(placeholder)
            .iconst(types::I64, i64::from(batch_scratch) * times);
    }
}

/// Bytes of one batch's system values at `lanes` lanes.
pub(super) fn sysval_stride(lanes: u32) -> i64 {
    (SYSVAL_COUNT * 16) as i64 * i64::from(lanes)
}

impl Tr<'_, '_> {
    /// Ends the running batch's part of this call: its resume word becomes
    /// `word` and the loop goes on with the next batch, which adds `status`
    /// to what the call returns.
    pub fn end_batch(&mut self, looped: &BatchLoop, word: u32, status: u32) {
        let scratch = self.frame_ptr(offset_of!(Frame, scratch));
        let w = self.b.ins().iconst(types::I32, i64::from(word));
        self.b
            .ins()
            .store(MemFlagsData::trusted(), w, scratch, looped.resume_at);
        let s = self.b.ins().iconst(types::I32, i64::from(status));
        self.b.ins().jump(looped.next, &[s.into()]);
    }

    /// Ends the running batch's part of a phase, when one call runs the
    /// group phase by phase: the next batch runs the phase from where it
    /// began; after the last one, the first batch goes on at `then`.
    pub fn end_phase_batch(&mut self, looped: &BatchLoop, then: Block) {
        let again = match looped.phasing {
            Some(Phasing::Uniform) => looped.again,
            _ => self.func.resumes.last().copied().unwrap_or(looped.head),
        };
        let more = self.next_batch(looped);
        let turn = self.b.create_block();
        self.b.ins().brif(more, again, &[], turn, &[]);

        self.b.switch_to_block(turn);
        self.step_batch_pointers(-i64::from(looped.batches));
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().stack_store(types::I64, zero, looped.slot, 0);
        self.b.ins().jump(then, &[]);
    }

    /// Moves on to the next batch: its index in the loop's slot and the
    /// frame's per-batch pointers. Returns whether there is one (the index
    /// is below the group's batches).
    fn next_batch(&mut self, looped: &BatchLoop) -> Value {
        let index = self
            .b
            .ins()
            .stack_load(types::I64, types::I32, looped.slot, 0);
        let index = self.b.ins().iadd_imm_s(index, 1);
        self.b.ins().stack_store(types::I64, index, looped.slot, 0);
        self.step_batch_pointers(1);
        self.b.ins().icmp_imm_u(
            cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThan,
            index,
            i64::from(looped.batches),
        )
    }

    /// Notes, at the start of the phase that barrier `id` (counted from 1;
    /// 0 for the first phase) begins, where its loop goes back to, when
    /// that is not known as the phase is compiled.
    pub fn begin_phase(&mut self, looped: &BatchLoop, id: u32) {
        if looped.phasing == Some(Phasing::Uniform) {
            let id = self.b.ins().iconst(types::I32, i64::from(id));
            self.b
                .ins()
                .stack_store(types::I64, id, looped.slot, PHASE_WORD);
        }
    }

    /// Moves the frame's per-batch pointers on by `times` batches. One
    /// batch's scratch bytes are not known until the body is translated:
    /// the scratch pointer's step is a constant recorded in
    /// `FuncState::scratch_steps` with `times`, and set then
    /// ([`set_scratch_steps`]).
    fn step_batch_pointers(&mut self, times: i64) {
        let lanes = self.lanes();
        for (field, by) in [
            (offset_of!(Frame, sysvals), sysval_stride(lanes)),
            (offset_of!(Frame, lane_mask), 4 * i64::from(lanes)),
        ] {
            let p = self.frame_ptr(field);
            let p = self.b.ins().iadd_imm_s(p, by * times);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), p, self.frame, field as i32);
        }
        let field = offset_of!(Frame, scratch);
        let p = self.frame_ptr(field);
        let by = self.b.ins().iconst(types::I64, 0);
        let placeholder = self.b.func.dfg.value_def(by).unwrap_inst();
        self.func.scratch_steps.push((placeholder, times));
        let p = self.b.ins().iadd(p, by);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), p, self.frame, field as i32);
    }

    /// Fills in the loop of a group run phase by phase once the body is
    /// translated: `dispatch` (entered from the entry block) starts the
    /// first batch at the loop's head, which zeroes every variable and
    /// enters `first` (the body's start); each phase's end moves on by
    /// itself ([`Self::end_phase_batch`]). Returns [`STATUS_DONE`] from
    /// `done`, which the last phase ends at.
    pub fn close_phase_loop(
        &mut self,
        looped: &BatchLoop,
        dispatch: Block,
        first: Block,
        done: Block,
    ) {
        self.b.switch_to_block(dispatch);
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().stack_store(types::I64, zero, looped.slot, 0);
        self.begin_phase(looped, 0);
        self.b.ins().jump(looped.head, &[]);
        self.b.switch_to_block(looped.head);
        self.zero_batch_vars();
        self.b.ins().jump(first, &[]);
        if looped.phasing == Some(Phasing::Uniform) {
            self.b.switch_to_block(looped.again);
            let phase = self
                .b
                .ins()
                .stack_load(types::I64, types::I32, looped.slot, PHASE_WORD);
            let head = self.b.func.dfg.block_call(looped.head, &[]);
            let mut targets = vec![head];
            for r in self.func.resumes.clone() {
                targets.push(self.b.func.dfg.block_call(r, &[]));
            }
            let table = JumpTableData::new(head, &targets);
            let table = self.b.create_jump_table(table);
            self.b.ins().br_table(phase, table);
        }
        self.b.switch_to_block(done);
        let status = self.b.ins().iconst(types::I32, i64::from(STATUS_DONE));
        self.b.ins().return_(&[status]);
    }

    /// Gives every variable zero, as a call does: no value flows from one
    /// batch into the next.
    fn zero_batch_vars(&mut self) {
        let zero_lanes = self.lb().splat(0);
        for var in self.func.all_vars.clone() {
            self.lb().def_var(var, zero_lanes);
        }
        let zero_word = self.b.ins().iconst(types::I32, 0);
        for var in self.facts.scalars.all().collect::<Vec<_>>() {
            self.b.def_var(var, zero_word);
        }
    }

    /// Fills in the loop once the body is translated: `dispatch` (entered
    /// from the entry block) starts it, and each batch enters `first` (the
    /// body's start) or the resume block its word names.
    pub fn close_batch_loop(&mut self, looped: &BatchLoop, dispatch: Block, first: Block) {
        let flags = MemFlagsData::trusted();
        let head = looped.head;
        let skip = self.b.create_block();
        let finish = self.b.create_block();
        self.b.switch_to_block(dispatch);
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().stack_store(types::I64, zero, looped.slot, 0);
        self.b.ins().stack_store(types::I64, zero, looped.slot, 4);
        self.b.ins().jump(head, &[]);

        self.b.switch_to_block(head);
        self.zero_batch_vars();
        let zero_word = self.b.ins().iconst(types::I32, 0);
        let started = self.b.ins().load(
            types::I32,
            flags,
            self.frame,
            offset_of!(Frame, resume) as i32,
        );
        let scratch = self.frame_ptr(offset_of!(Frame, scratch));
        let word = self
            .b
            .ins()
            .load(types::I32, flags, scratch, looped.resume_at);
        let at = self.b.ins().select(started, word, zero_word);
        let mut targets = vec![self.b.func.dfg.block_call(first, &[])];
        for r in self.func.resumes.clone() {
            targets.push(self.b.func.dfg.block_call(r, &[]));
        }
        let default = self.b.func.dfg.block_call(skip, &[]);
        let jt = self
            .b
            .create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &targets));
        self.b.ins().br_table(at, jt);

        self.b.switch_to_block(skip);
        let done = self.b.ins().iconst(types::I32, i64::from(STATUS_DONE));
        self.b.ins().jump(looped.next, &[done.into()]);

        self.b.switch_to_block(looped.next);
        let status = self.b.block_params(looped.next)[0];
        let so_far = self
            .b
            .ins()
            .stack_load(types::I64, types::I32, looped.slot, 4);
        let so_far = self.b.ins().bor(so_far, status);
        self.b.ins().stack_store(types::I64, so_far, looped.slot, 4);
        let more = self.next_batch(looped);
        self.b.ins().brif(more, head, &[], finish, &[]);

        self.b.switch_to_block(finish);
        self.step_batch_pointers(-i64::from(looped.batches));
        let one = self.b.ins().iconst(types::I32, 1);
        self.b
            .ins()
            .store(flags, one, self.frame, offset_of!(Frame, resume) as i32);
        let result = self
            .b
            .ins()
            .stack_load(types::I64, types::I32, looped.slot, 4);
        // Only ends (STATUS_DONE, 0) and barriers (STATUS_BARRIER) reach
        // `next`, so the OR is STATUS_BARRIER when any batch stopped at one.
        self.b.ins().return_(&[result]);
    }
}

#[cfg(test)]
mod tests;
