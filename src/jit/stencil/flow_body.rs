//! The code of the control-flow stencils: the mask arithmetic of
//! `jit/flow.rs`, one construct boundary at a time, with the masks in the
//! scratch's mask block (loaded before the body, stored after it) and the
//! masks a construct saves in its slot.

use super::build::Emitter;
use super::key::{FlowOp, MaskId};
use crate::ir::Src;
use crate::jit::lanes::LaneVar;
use crate::jit::JitError;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use dxjit_runtime::abi::{Frame, STATUS_DONE, STATUS_INTERRUPTED};
use std::mem::offset_of;

impl Emitter<'_, '_> {
    /// The variable of a mask.
    fn mask(&self, id: MaskId) -> LaneVar {
        let m = self.tr.ctl.masks;
        match id {
            MaskId::Cond => m.cond,
            MaskId::Brk => m.brk,
            MaskId::Cont => m.cont,
            MaskId::Sw => m.sw,
            MaskId::Ret => m.ret,
            MaskId::Alive => m.alive,
        }
    }

    /// Sets a mask to all ones.
    fn ones(&mut self, id: MaskId) {
        let ones = self.tr.lb().splat(u32::MAX);
        let var = self.mask(id);
        self.tr.lb().def_var(var, ones);
    }

    /// Loads a mask from the next hole's slot.
    fn load_slot(&mut self, id: MaskId) {
        let v = self.load_scratch_hole();
        let var = self.mask(id);
        self.tr.lb().def_var(var, v);
    }

    /// Whether any active lane passes the test of `src`.
    fn any_passing(
        &mut self,
        src: &Src,
        nz: bool,
    ) -> Result<cranelift_codegen::ir::Value, JitError> {
        let t = self.tr.test(src, nz)?;
        let exec = self.tr.exec();
        let live = self.tr.lb().and(exec, t);
        Ok(self.tr.lb().any(live))
    }

    /// The saved masks of a construct, from its slot (holes: `cond`,
    /// `brk`, `cont`, `sw`, then `ret` when `ret`), as the masks they restore.
    fn restore(&mut self, ret: bool) {
        for id in [MaskId::Cond, MaskId::Brk, MaskId::Cont, MaskId::Sw] {
            self.load_slot(id);
        }
        if ret {
            self.load_slot(MaskId::Ret);
        }
    }

    /// Stores the masks and goes to exit 0, or to exit 1 where any lane of
    /// `exec` runs (`into` is the exit taken then, the other the exit taken
    /// when no lane runs).
    fn store_and_branch_on_exec(&mut self, into: u32) {
        self.store_masks();
        let exec = self.tr.exec();
        let any = self.tr.lb().any(exec);
        if into == 1 {
            self.branch_exits(any);
        } else {
            let none = self.tr.b.ins().bxor_imm_u(any, 1);
            self.branch_exits(none);
        }
    }

    /// Writes `word` to the batch's resume word (at the next hole).
    fn store_resume_word(&mut self, word: u32) {
        let w = self.tr.b.ins().iconst(types::I32, i64::from(word));
        let at = self.at_hole(self.scratch);
        self.tr.b.ins().store(MemFlagsData::trusted(), w, at, 0);
    }

    /// Stores the masks and goes to exit 0.
    fn store_and_continue(&mut self) {
        self.store_masks();
        self.jump_exit(0);
    }
}

/// Emits a control-flow stencil's body. The masks are loaded (the key
/// asks for them but for `InitMasks`), and `src` (canonical register 0)
/// is the test's or selector's source.
pub fn emit(e: &mut Emitter, op: FlowOp, src: Option<&Src>) -> Result<(), JitError> {
    let src =
        || src.ok_or_else(|| JitError::Invalid(format!("stencil: {op:?} without its source")));
    match op {
        FlowOp::InitMasks => {
            for id in [
                MaskId::Cond,
                MaskId::Brk,
                MaskId::Cont,
                MaskId::Sw,
                MaskId::Ret,
            ] {
                e.ones(id);
            }
            let lane_mask = e.tr.frame_ptr(offset_of!(Frame, lane_mask));
            let alive = e.tr.load_lanes(lane_mask, 0);
            let m = e.tr.ctl.masks;
            e.tr.lb().def_var(m.alive, alive);
            e.tr.lb().def_var(m.exec, alive);
            e.store_and_continue();
        }
        FlowOp::ZeroRegister(mask) => {
            let base = e.hole();
            let addr = e.tr.b.ins().iadd(e.scratch, base);
            let zero = e.tr.lb().splat(0);
            let bytes = super::layout::component_bytes(e.tr.k) as i32;
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                e.tr.store_lanes(zero, addr, bytes * c);
            }
            e.jump_exit(0);
        }
        FlowOp::Exit {
            store_alive,
            finish_batch,
        } => {
            if store_alive {
                let var = e.tr.ctl.masks.alive;
                let alive = e.tr.lb().use_var(var);
                let lane_mask = e.tr.frame_ptr(offset_of!(Frame, lane_mask));
                e.tr.store_lanes(alive, lane_mask, 0);
            }
            if finish_batch {
                e.store_resume_word(crate::jit::group_loop::FINISHED);
            }
            e.return_status(STATUS_DONE);
        }
        FlowOp::Resume { count } => resume(e, count),
        FlowOp::Barrier => {
            let word = e.hole();
            let word = e.tr.b.ins().ireduce(types::I32, word);
            let at = e.at_hole(e.scratch);
            e.tr.b.ins().store(MemFlagsData::trusted(), word, at, 0);
            e.return_status(dxjit_runtime::abi::STATUS_BARRIER);
        }
        FlowOp::Jump => e.jump_exit(0),
        FlowOp::IfMasked { nz } => {
            let taken = e.tr.test(src()?, nz)?;
            let m = e.tr.ctl.masks;
            let saved = e.tr.lb().use_var(m.cond);
            e.store_scratch_hole(saved);
            e.store_scratch_hole(taken);
            let cond = e.tr.lb().and(saved, taken);
            e.tr.lb().def_var(m.cond, cond);
            e.tr.update_exec();
            e.store_and_branch_on_exec(0);
        }
        FlowOp::IfUniform { nz } => {
            let any = e.any_passing(src()?, nz)?;
            let none = e.tr.b.ins().bxor_imm_u(any, 1);
            e.branch_exits(none);
        }
        FlowOp::ElseMasked => {
            let saved = e.load_scratch_hole();
            let taken = e.load_scratch_hole();
            let cond = e.tr.lb().and_not(saved, taken);
            let m = e.tr.ctl.masks;
            e.tr.lb().def_var(m.cond, cond);
            e.tr.update_exec();
            e.store_and_branch_on_exec(0);
        }
        FlowOp::EndIfMasked => {
            e.load_slot(MaskId::Cond);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::SaveMasks => {
            for id in [
                MaskId::Cond,
                MaskId::Brk,
                MaskId::Cont,
                MaskId::Sw,
                MaskId::Ret,
            ] {
                let var = e.mask(id);
                let v = e.tr.lb().use_var(var);
                e.store_scratch_hole(v);
            }
            e.jump_exit(0);
        }
        FlowOp::LoopEnter => {
            let exec = e.tr.exec();
            let m = e.tr.ctl.masks;
            e.tr.lb().def_var(m.cond, exec);
            for id in [MaskId::Brk, MaskId::Cont, MaskId::Sw] {
                e.ones(id);
            }
            e.store_and_continue();
        }
        FlowOp::LoopHeader => {
            e.tr.update_exec();
            e.store_and_branch_on_exec(0);
        }
        FlowOp::LoopBack { masked, checked } => {
            if masked {
                e.ones(MaskId::Cont);
                e.store_masks();
            }
            if checked {
                let flag =
                    e.tr.b
                        .ins()
                        .load(types::I32, MemFlagsData::trusted(), e.tr.func.interrupt, 0);
                let stop = e.tr.b.create_block();
                let go_on = e.tr.b.create_block();
                e.tr.b.ins().brif(flag, stop, &[], go_on, &[]);
                e.tr.b.switch_to_block(stop);
                e.tr.b.set_cold_block(stop);
                e.return_status(STATUS_INTERRUPTED);
                e.tr.b.switch_to_block(go_on);
            }
            e.jump_exit(0);
        }
        FlowOp::Restore { ret } => {
            e.restore(ret);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::ClearLanes { mask, test } => {
            let exec = e.tr.exec();
            let leaving = match test {
                Some(nz) => {
                    let t = e.tr.test(src()?, nz)?;
                    e.tr.lb().and(exec, t)
                }
                None => exec,
            };
            let var = e.mask(mask);
            let old = e.tr.lb().use_var(var);
            let new = e.tr.lb().and_not(old, leaving);
            e.tr.lb().def_var(var, new);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::BranchAny { nz } => {
            let any = e.any_passing(src()?, nz)?;
            e.branch_exits(any);
        }
        FlowOp::SwitchEnter => {
            let sel = e.tr.read(src()?, 0, crate::jit::operand::Ty::I)?;
            e.store_scratch_hole(sel);
            let exec = e.tr.exec();
            let m = e.tr.ctl.masks;
            e.tr.lb().def_var(m.cond, exec);
            e.ones(MaskId::Brk);
            let zero = e.tr.lb().splat(0);
            e.tr.lb().def_var(m.sw, zero);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::Case => {
            let hit = selector_hit(e);
            let m = e.tr.ctl.masks;
            let sw = e.tr.lb().use_var(m.sw);
            let sw = e.tr.lb().or(sw, hit);
            e.tr.lb().def_var(m.sw, sw);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::DefaultClear => {
            let zero = e.tr.lb().splat(0);
            e.store_scratch_hole(zero);
            e.jump_exit(0);
        }
        FlowOp::DefaultMatch => {
            let acc_addr = e.at_hole(e.scratch);
            let acc = e.tr.load_lanes(acc_addr, 0);
            let hit = selector_hit(e);
            let acc = e.tr.lb().or(acc, hit);
            e.tr.store_lanes(acc, acc_addr, 0);
            e.jump_exit(0);
        }
        FlowOp::DefaultApply => {
            let acc = e.load_scratch_hole();
            let missed = e.tr.lb().not(acc);
            let m = e.tr.ctl.masks;
            let sw = e.tr.lb().use_var(m.sw);
            let sw = e.tr.lb().or(sw, missed);
            e.tr.lb().def_var(m.sw, sw);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::EndSwitch => {
            let m = e.tr.ctl.masks;
            let cont = e.tr.lb().use_var(m.cont);
            e.restore(false);
            e.tr.lb().def_var(m.cont, cont);
            e.tr.update_exec();
            e.store_and_continue();
        }
        FlowOp::CallEnter { test } => {
            let exec = e.tr.exec();
            let entry = match test {
                Some(nz) => {
                    let t = e.tr.test(src()?, nz)?;
                    e.tr.lb().and(exec, t)
                }
                None => exec,
            };
            let m = e.tr.ctl.masks;
            e.tr.lb().def_var(m.cond, entry);
            for id in [MaskId::Brk, MaskId::Cont, MaskId::Sw, MaskId::Ret] {
                e.ones(id);
            }
            e.tr.update_exec();
            e.store_and_continue();
        }
    }
    Ok(())
}

/// The start of a batch's call (see `FlowOp::Resume`): a jump table on the
/// resume word (hole), read only when the group has started.
fn resume(e: &mut Emitter, count: u32) {
    let flags = MemFlagsData::trusted();
    let started = e.tr.b.ins().load(
        types::I32,
        flags,
        e.tr.frame,
        offset_of!(Frame, resume) as i32,
    );
    let at = e.at_hole(e.scratch);
    let word = e.tr.b.ins().load(types::I32, flags, at, 0);
    let zero = e.tr.b.ins().iconst(types::I32, 0);
    let at = e.tr.b.ins().select(started, word, zero);
    let targets: Vec<_> = (0..=count).map(|_| e.tr.b.create_block()).collect();
    let finished = e.tr.b.create_block();
    let calls: Vec<_> = targets
        .iter()
        .map(|&t| e.tr.b.func.dfg.block_call(t, &[]))
        .collect();
    let default = e.tr.b.func.dfg.block_call(finished, &[]);
    let table =
        e.tr.b
            .create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &calls));
    e.tr.b.ins().br_table(at, table);
    for (i, t) in targets.into_iter().enumerate() {
        e.tr.b.switch_to_block(t);
        e.jump_exit(i as u32);
    }
    e.tr.b.switch_to_block(finished);
    e.return_status(STATUS_DONE);
}

/// The lanes whose selector (in the slot at the next hole) equals the word
/// at the address in the hole after it.
fn selector_hit(e: &mut Emitter) -> crate::jit::lanes::Lanes {
    use cranelift_codegen::ir::condcodes::IntCC;
    let sel = e.load_scratch_hole();
    let addr = e.hole();
    let v =
        e.tr.b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), addr, 0);
    let v = e.tr.lb().splat_value(v);
    e.tr.lb()
        .map2(sel, v, |b, x, y| b.ins().icmp(IntCC::Equal, x, y))
}
