//! Structured control flow over lanes: `if`/`else`, loops, switches, calls,
//! returns, discards and barriers, with execution masks.

use super::lanes::{LaneVar, Lanes};
use super::operand::Ty;
use super::state::{Flow, Saved, Tr};
use super::JitError;
use crate::ir::{Inst, Src};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::Variable;
use dxjit_runtime::abi::{Frame, STATUS_BARRIER, STATUS_INTERRUPTED};
use std::mem::offset_of;

/// Whether restoring saved masks restores the `ret` mask too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RetMask {
    /// Leaving a loop or switch: lanes that returned inside stay returned.
    Keep,
    /// Leaving a call: the caller's lanes run on.
    Restore,
}

/// Where a conditional `breakc` / `continuec` sends the lanes passing its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopExit {
    /// Out of the innermost loop or switch.
    Break,
    /// To the next iteration of the innermost loop.
    Continue,
}

impl Tr<'_, '_> {
    /// The lanes whose `cond.x` is nonzero (`nz`) or zero.
    pub fn test(&mut self, cond: &Src, nz: bool) -> Result<Lanes, JitError> {
        let v = self.read(cond, 0, Ty::I)?;
        let z = self.lb().splat(0);
        Ok(self.lb().map2(v, z, |b, x, zero| {
            super::peephole::test_zero(b, x, zero, nz)
        }))
    }

    /// Restores saved masks; `ret` only when leaving a call (lanes that
    /// returned inside a loop or switch stay returned).
    fn restore(&mut self, s: &Saved, ret: RetMask) {
        let m = self.ctl.masks;
        let mut pairs = vec![
            (m.cond, s.cond),
            (m.brk, s.brk),
            (m.cont, s.cont),
            (m.sw, s.sw),
        ];
        if ret == RetMask::Restore {
            pairs.push((m.ret, s.ret));
        }
        for (to, from) in pairs {
            let v = self.lb().use_var(from);
            self.lb().def_var(to, v);
        }
    }

    /// if: lanes whose test fails leave `cond`; a block no lane enters is skipped.
    pub fn emit_if(&mut self, cond: &Src, nz: bool) -> Result<(), JitError> {
        if self.is_uniform(cond) {
            // Every active lane agrees: branch on the scalar condition, or
            // on whether any active lane takes it.
            let any = match self.scalar_test(cond, nz) {
                Some(t) => t,
                None => {
                    let taken = self.test(cond, nz)?;
                    let exec = self.exec();
                    let live = self.lb().and(taken, exec);
                    self.lb().any(live)
                }
            };
            let then = self.b.create_block();
            let skip = self.b.create_block();
            self.b.ins().brif(any, then, &[], skip, &[]);
            self.b.seal_block(then);
            self.b.switch_to_block(then);
            self.ctl.flow.push(Flow::UniformIf { skip, merge: None });
            return Ok(());
        }
        let taken = self.test(cond, nz)?;
        let m = self.ctl.masks;
        let saved = self.lb().use_var(m.cond);
        let c = self.lb().and(saved, taken);
        let saved_cond = self.keep(saved);
        let taken = self.keep(taken);
        self.lb().def_var(m.cond, c);
        self.update_exec();
        let exec = self.exec();
        let any = self.lb().any(exec);
        let then = self.b.create_block();
        let skip = self.b.create_block();
        self.b.ins().brif(any, then, &[], skip, &[]);
        self.b.seal_block(then);
        self.b.switch_to_block(then);
        self.ctl.flow.push(Flow::If {
            saved_cond,
            taken,
            skip,
            merge: None,
        });
        Ok(())
    }

    /// else: the lanes of the enclosing `if` that did not take it.
    pub fn emit_else(&mut self) -> Result<(), JitError> {
        if let Some(Flow::UniformIf { skip, merge }) = self.ctl.flow.last_mut() {
            let skip = *skip;
            let join = self.b.create_block();
            *merge = Some(join);
            self.fall_into(join);
            self.b.seal_block(skip);
            self.b.switch_to_block(skip);
            return Ok(());
        }
        let Some(Flow::If {
            saved_cond,
            taken,
            skip,
            merge,
        }) = self.ctl.flow.last_mut()
        else {
            return Err(JitError::Invalid("else without if".into()));
        };
        let (saved_cond, taken, skip) = (*saved_cond, *taken, *skip);
        let join = self.b.create_block();
        *merge = Some(join);
        // The taken side falls into the test for the other side: lanes that
        // did not take the `if` may exist even when some lanes did.
        self.b.ins().jump(skip, &[]);
        self.b.seal_block(skip);
        self.b.switch_to_block(skip);
        let m = self.ctl.masks;
        let saved = self.lb().use_var(saved_cond);
        let taken = self.lb().use_var(taken);
        let c = self.lb().and_not(saved, taken);
        self.lb().def_var(m.cond, c);
        self.update_exec();
        let exec = self.exec();
        let any = self.lb().any(exec);
        let body = self.b.create_block();
        self.b.ins().brif(any, body, &[], join, &[]);
        self.b.seal_block(body);
        self.b.switch_to_block(body);
        Ok(())
    }

    /// endif: restores the enclosing `cond`.
    pub fn emit_endif(&mut self) -> Result<(), JitError> {
        if let Some(Flow::UniformIf { skip, merge }) = self.ctl.flow.last() {
            let next = merge.unwrap_or(*skip);
            self.ctl.flow.pop();
            self.fall_into(next);
            self.b.seal_block(next);
            self.b.switch_to_block(next);
            return Ok(());
        }
        let Some(Flow::If {
            saved_cond,
            skip,
            merge,
            ..
        }) = self.ctl.flow.pop()
        else {
            return Err(JitError::Invalid("endif without if".into()));
        };
        let next = merge.unwrap_or(skip);
        self.b.ins().jump(next, &[]);
        self.b.seal_block(next);
        self.b.switch_to_block(next);
        let m = self.ctl.masks;
        let saved = self.lb().use_var(saved_cond);
        self.lb().def_var(m.cond, saved);
        self.update_exec();
        Ok(())
    }

    /// loop: runs while any lane has neither broken nor returned. A loop
    /// every active lane leaves together runs with its masks untouched.
    pub fn emit_loop(&mut self, rest: &[Inst]) {
        let parked = self.park_around_loop(self.main_index(rest));
        if self.ctl.call_depth == 0 && self.facts.uniform.loop_is_uniform(rest) {
            let saved = self.save_masks();
            let header = self.b.create_block();
            let latch = self.b.create_block();
            let exit = self.b.create_block();
            self.b.ins().jump(header, &[]);
            self.b.switch_to_block(header);
            self.ctl.flow.push(Flow::Loop {
                saved,
                header,
                latch,
                exit,
                uniform: true,
                checked: !super::bounded_loop::is_bounded(rest),
                parked,
            });
            return;
        }
        let saved = self.save_masks();
        let m = self.ctl.masks;
        let exec = self.exec();
        let ones = self.lb().splat(u32::MAX);
        let mut lb = self.lb();
        lb.def_var(m.cond, exec);
        lb.def_var(m.brk, ones);
        lb.def_var(m.cont, ones);
        lb.def_var(m.sw, ones);
        let header = self.b.create_block();
        let latch = self.b.create_block();
        let body = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        self.update_exec();
        let exec = self.exec();
        let any = self.lb().any(exec);
        self.b.ins().brif(any, body, &[], exit, &[]);
        self.b.seal_block(body);
        self.b.switch_to_block(body);
        self.ctl.flow.push(Flow::Loop {
            saved,
            header,
            latch,
            exit,
            uniform: false,
            checked: true,
            parked,
        });
    }

    /// Goes on in a new block that nothing branches to (code after an
    /// unconditional `break`, `continue` or `ret`), sealed at once: it
    /// has no predecessors, and [`Tr::fall_into`] then leaves it empty.
    fn switch_to_dead_block(&mut self) {
        let dead = self.b.create_block();
        self.b.seal_block(dead);
        self.b.switch_to_block(dead);
    }

    /// Ends the current block with a jump to `target`, unless the block is
    /// one nothing reaches and holds nothing: then it stays out of the
    /// function, and `target` does not merge the values its variables
    /// would read there (undefined, so zero), which would give `target`
    /// a parameter for every variable live in it.
    fn fall_into(&mut self, target: Block) {
        let empty = self
            .b
            .current_block()
            .is_some_and(|block| !self.b.func.layout.is_block_inserted(block));
        if !(empty && self.b.is_unreachable()) {
            self.b.ins().jump(target, &[]);
        }
    }

    /// The innermost loop's latch and exit blocks when it is uniform and is
    /// also the innermost construct a break or continue refers to.
    fn uniform_loop(&self) -> Option<(Block, Block)> {
        for f in self.ctl.flow.iter().rev() {
            match f {
                Flow::Loop {
                    uniform: true,
                    latch,
                    exit,
                    ..
                } => return Some((*latch, *exit)),
                Flow::Loop { .. } | Flow::Switch { .. } => return None,
                _ => {}
            }
        }
        None
    }

    /// Jumps to `target` when any active lane (so, by uniformity, all of
    /// them) passes the test, or unconditionally.
    fn uniform_jump(&mut self, target: Block, lanes: Option<Lanes>) {
        match lanes {
            Some(l) => {
                let exec = self.exec();
                let live = self.lb().and(exec, l);
                let any = self.lb().any(live);
                let next = self.b.create_block();
                self.b.ins().brif(any, target, &[], next, &[]);
                self.b.switch_to_block(next);
            }
            None => {
                self.b.ins().jump(target, &[]);
                self.switch_to_dead_block();
            }
        }
    }

    /// endloop: lanes that continued rejoin, and the loop goes round.
    pub fn emit_endloop(&mut self) -> Result<(), JitError> {
        let Some(Flow::Loop {
            saved,
            header,
            latch,
            exit,
            uniform,
            checked,
            parked,
        }) = self.ctl.flow.pop()
        else {
            return Err(JitError::Invalid("endloop without loop".into()));
        };
        self.fall_into(latch);
        self.b.seal_block(latch);
        self.b.switch_to_block(latch);
        // A loop whose every path breaks (a region run once) goes round
        // from nowhere: its latch stays empty, out of the function.
        if !self.b.is_unreachable() {
            if !uniform {
                let m = self.ctl.masks;
                let ones = self.lb().splat(u32::MAX);
                self.lb().def_var(m.cont, ones);
            }
            if checked {
                self.stop_if_interrupted();
            }
            self.b.ins().jump(header, &[]);
        }
        // Every edge into the header and out of the loop is known now.
        // Sealed here rather than at the end, the header keeps a parameter
        // only for what the loop changes: the builder drops one whose back
        // edge brings the header's own value, once nothing can still
        // branch in.
        self.b.seal_block(header);
        self.b.seal_block(exit);
        self.b.switch_to_block(exit);
        if let Some(parked) = parked {
            self.leave_parked(parked);
        }
        self.restore(&saved, RetMask::Keep);
        self.update_exec();
        Ok(())
    }

    /// Returns [`STATUS_INTERRUPTED`] when the frame's interrupt word is
    /// set: one load of the word (its address is loaded once per call, in
    /// the entry block) and a branch, at every loop back edge, so no loop
    /// runs on after an interrupt.
    pub(super) fn stop_if_interrupted(&mut self) {
        let flag = self
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), self.func.interrupt, 0);
        self.return_interrupted_if(flag, |_| {});
    }

    /// Returns [`STATUS_INTERRUPTED`] where `cond` is nonzero, after
    /// `before` emits what the cold path does first; code after this goes
    /// on where `cond` is zero.
    fn return_interrupted_if(&mut self, cond: Value, before: impl FnOnce(&mut Self)) {
        let stop = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(cond, stop, &[], go_on, &[]);
        self.b.switch_to_block(stop);
        self.b.set_cold_block(stop);
        before(self);
        let status = self
            .b
            .ins()
            .iconst(types::I32, i64::from(STATUS_INTERRUPTED));
        self.b.ins().return_(&[status]);
        self.b.switch_to_block(go_on);
    }

    /// `abort` / `debug_break`: when any lane runs it, stores the halt word
    /// (`ir::halt`) in the frame's interrupt word, which stops the other
    /// calls of the draw or dispatch too, and returns
    /// [`STATUS_INTERRUPTED`].
    pub fn emit_halt(&mut self, kind: crate::ir::HaltKind, offset: u32) {
        let exec = self.exec();
        let mut any = exec.v[0];
        for j in 1..self.k {
            any = self.b.ins().bor(any, exec.v[j]);
        }
        let any = self.b.ins().vany_true(any);
        let word = crate::ir::halt::halt_word(kind, offset);
        self.return_interrupted_if(any, |t| {
            let word = t.b.ins().iconst(types::I32, i64::from(word));
            t.b.ins()
                .atomic_store(MemFlagsData::trusted(), word, t.func.interrupt);
        });
    }

    /// breakc / continuec: a uniform loop whose condition reads as a
    /// scalar branches on it; otherwise the lanes passing the test break
    /// or continue.
    pub fn emit_break_or_continue_c(
        &mut self,
        cond: &Src,
        nz: bool,
        exit: LoopExit,
    ) -> Result<(), JitError> {
        if let Some((latch, exit_block)) = self.uniform_loop() {
            if let Some(t) = self.scalar_test(cond, nz) {
                let next = self.b.create_block();
                let target = match exit {
                    LoopExit::Break => exit_block,
                    LoopExit::Continue => latch,
                };
                self.b.ins().brif(t, target, &[], next, &[]);
                self.b.switch_to_block(next);
                return Ok(());
            }
        }
        let t = self.test(cond, nz)?;
        match exit {
            LoopExit::Break => self.emit_break(Some(t)),
            LoopExit::Continue => self.emit_continue(Some(t)),
        }
        Ok(())
    }

    /// break / breakc: the lanes leave the innermost loop or switch.
    pub fn emit_break(&mut self, lanes: Option<Lanes>) {
        if let Some((_, exit)) = self.uniform_loop() {
            self.uniform_jump(exit, lanes);
            return;
        }
        let brk = self.ctl.masks.brk;
        self.clear_lanes(brk, lanes);
    }

    /// Clears from `mask` the active lanes (those passing `lanes`, when given).
    fn clear_lanes(&mut self, mask: super::lanes::LaneVar, lanes: Option<Lanes>) {
        let exec = self.exec();
        let leaving = match lanes {
            Some(l) => self.lb().and(exec, l),
            None => exec,
        };
        let old = self.lb().use_var(mask);
        let new = self.lb().and_not(old, leaving);
        self.lb().def_var(mask, new);
        self.update_exec();
    }

    /// continue / continuec: the lanes wait for the next iteration.
    pub fn emit_continue(&mut self, lanes: Option<Lanes>) {
        if let Some((latch, _)) = self.uniform_loop() {
            self.uniform_jump(latch, lanes);
            return;
        }
        let cont = self.ctl.masks.cont;
        self.clear_lanes(cont, lanes);
    }

    /// switch: lanes join at the case matching their selector and fall through.
    pub fn emit_switch(&mut self, sel: &Src, rest: &[Inst]) -> Result<(), JitError> {
        let sel = self.read(sel, 0, Ty::I)?;
        let saved = self.save_masks();
        let m = self.ctl.masks;
        let exec = self.exec();
        let ones = self.lb().splat(u32::MAX);
        let zero = self.lb().splat(0);
        let mut lb = self.lb();
        lb.def_var(m.cond, exec);
        lb.def_var(m.brk, ones);
        lb.def_var(m.sw, zero);
        self.update_exec();
        let cases = crate::ir::switch_cases(rest);
        let sel = self.keep(sel);
        self.ctl.flow.push(Flow::Switch { saved, sel, cases });
        Ok(())
    }

    /// case / default: matching lanes become active.
    pub fn emit_case(&mut self, value: Option<u32>) -> Result<(), JitError> {
        let Some(Flow::Switch { sel, cases, .. }) = self.ctl.flow.last() else {
            return Err(JitError::Invalid("case outside switch".into()));
        };
        let (sel, cases) = (*sel, cases.clone());
        let sel = self.lb().use_var(sel);
        let hit = match value {
            Some(v) => {
                let c = self.lb().splat(v);
                self.lb()
                    .map2(sel, c, |b, x, y| b.ins().icmp(IntCC::Equal, x, y))
            }
            None => {
                let mut any = self.lb().splat(0);
                for v in cases {
                    let c = self.lb().splat(v);
                    let h = self
                        .lb()
                        .map2(sel, c, |b, x, y| b.ins().icmp(IntCC::Equal, x, y));
                    any = self.lb().or(any, h);
                }
                self.lb().not(any)
            }
        };
        let m = self.ctl.masks;
        let sw = self.lb().use_var(m.sw);
        let sw = self.lb().or(sw, hit);
        self.lb().def_var(m.sw, sw);
        self.update_exec();
        Ok(())
    }

    /// endswitch: restores the enclosing masks.
    pub fn emit_endswitch(&mut self) -> Result<(), JitError> {
        let Some(Flow::Switch { saved, .. }) = self.ctl.flow.pop() else {
            return Err(JitError::Invalid("endswitch without switch".into()));
        };
        let m = self.ctl.masks;
        let cont = self.lb().use_var(m.cont);
        self.restore(&saved, RetMask::Keep);
        self.lb().def_var(m.cont, cont);
        self.update_exec();
        Ok(())
    }

    /// ret / retc: the lanes finish the current function. An unconditional
    /// return at the top of `main` ends the function outright.
    pub fn emit_ret(&mut self, lanes: Option<Lanes>) {
        if lanes.is_none() && self.ctl.flow.is_empty() && self.ctl.call_depth == 0 {
            self.b.ins().jump(self.func.exit, &[]);
            self.switch_to_dead_block();
            return;
        }
        if self.ctl.call_depth == 0 {
            self.ctl.killed = true;
        }
        let ret = self.ctl.masks.ret;
        self.clear_lanes(ret, lanes);
    }

    /// discard: the lanes stop and write nothing.
    pub fn emit_discard(&mut self, lanes: Lanes) {
        self.ctl.killed = true;
        let alive = self.ctl.masks.alive;
        self.clear_lanes(alive, Some(lanes));
    }

    /// call / callc: the subroutine is inlined with its own return mask.
    pub fn emit_call(&mut self, label: u32, lanes: Option<Lanes>) -> Result<(), JitError> {
        let prog = self.prog;
        let body = prog
            .subroutine(label)
            .ok_or_else(|| JitError::Invalid(format!("call to undefined label l{label}")))?;
        if self.ctl.call_depth >= crate::ir::MAX_CALL_DEPTH {
            return Err(JitError::Invalid("calls nested too deep".into()));
        }
        let saved = self.save_masks();
        let m = self.ctl.masks;
        let exec = self.exec();
        let entry = match lanes {
            Some(l) => self.lb().and(exec, l),
            None => exec,
        };
        let ones = self.lb().splat(u32::MAX);
        let mut lb = self.lb();
        lb.def_var(m.cond, entry);
        lb.def_var(m.brk, ones);
        lb.def_var(m.cont, ones);
        lb.def_var(m.sw, ones);
        lb.def_var(m.ret, ones);
        self.update_exec();
        let outer_flow = std::mem::take(&mut self.ctl.flow);
        self.ctl.call_depth += 1;
        let result = self.emit_body(body);
        self.ctl.call_depth -= 1;
        self.ctl.flow = outer_flow;
        result?;
        self.restore(&saved, RetMask::Restore);
        self.update_exec();
        Ok(())
    }

    /// What a barrier at `main[pos]` must keep: the live temp components,
    /// the masks that may not be all ones, and the saved masks of open
    /// constructs.
    fn kept_state(&self, pos: Option<usize>) -> Kept {
        let Some(pos) = pos else {
            // The caller's open constructs are out of sight: keep everything.
            return Kept {
                whole: self.func.all_vars.clone(),
                uniform: Vec::new(),
                ones: Vec::new(),
                scalars: self.facts.scalars.all().collect(),
                alive_from_frame: false,
            };
        };
        let m = self.ctl.masks;
        let mut kept = Kept {
            whole: Vec::new(),
            uniform: Vec::new(),
            ones: Vec::new(),
            scalars: Vec::new(),
            alive_from_frame: false,
        };
        // `ret` stays all ones when main returns only at its top level;
        // `alive` is what the frame holds when nothing discards.
        if returns_only_at_top(self.prog) {
            kept.ones.push(m.ret);
        } else {
            kept.whole.push(m.ret);
        }
        kept.alive_from_frame = !discards(self.prog);
        if !kept.alive_from_frame {
            kept.whole.push(m.alive);
        }
        // With no construct open, the construct masks are all ones.
        if self.ctl.flow.is_empty() {
            kept.ones.extend([m.cond, m.brk, m.cont, m.sw]);
        } else {
            kept.whole.extend([m.cond, m.brk, m.cont, m.sw]);
        }
        for (reg, comp) in self.facts.liveness.after(pos).iter() {
            if let Some(var) = self.facts.scalars.var(reg, comp) {
                kept.scalars.push(var);
            } else if let Some(v) = self.func.temps.get(reg as usize * 4 + comp as usize) {
                if self.facts.uniform.temp(reg, comp) {
                    kept.uniform.push(*v);
                } else {
                    kept.whole.push(*v);
                }
            }
        }
        for f in &self.ctl.flow {
            match f {
                Flow::If {
                    saved_cond, taken, ..
                } => kept.whole.extend([*saved_cond, *taken]),
                Flow::Loop { saved, .. } | Flow::Switch { saved, .. } => {
                    kept.whole
                        .extend([saved.cond, saved.brk, saved.cont, saved.sw, saved.ret]);
                    if let Flow::Switch { sel, .. } = f {
                        kept.whole.push(*sel);
                    }
                }
                Flow::UniformIf { .. } => {}
            }
        }
        kept
    }

    /// A group barrier at `main[pos]` (`None` inside an inlined call): the
    /// live state is spilled, the resume point recorded, and the group loop
    /// goes on with the next batch; the next call reloads the state and goes
    /// on (see `group_loop`).
    pub fn emit_barrier(&mut self, pos: Option<usize>) -> Result<(), JitError> {
        let Some(looped) = self.func.batch_loop else {
            return Err(JitError::Invalid(
                "a group barrier outside a compute shader's group loop".into(),
            ));
        };
        let id = self.func.resumes.len() as u32 + 1;
        let scratch = self.frame_ptr(offset_of!(Frame, scratch));
        let spill = self.func.scratch.spill as i32;
        let kept = self.kept_state(pos);
        let k = self.k;
        let spilled = kept
            .whole
            .iter()
            .flat_map(|var| var.v[..k].iter())
            .chain(kept.uniform.iter().map(|var| &var.v[0]));
        let mut slot = 0i32;
        for var in spilled.chain(&kept.scalars) {
            let v = self.b.use_var(*var);
            let store = self
                .b
                .ins()
                .store(MemFlagsData::trusted(), v, scratch, spill + 16 * slot);
            self.func.spill_stores.push((store, spill + 16 * slot));
            slot += 1;
        }
        self.func.spill_vectors = self.func.spill_vectors.max(slot as u32);
        let resume = self.b.create_block();
        if looped.phasing.is_some() {
            self.end_phase_batch(&looped, resume);
        } else {
            self.end_batch(&looped, id, STATUS_BARRIER);
        }
        self.func.resumes.push(resume);
        self.b.switch_to_block(resume);
        self.begin_phase(&looped, id);
        let scratch = self.frame_ptr(offset_of!(Frame, scratch));
        let mut slot = 0i32;
        let reloaded = &mut self.func.reloaded;
        let mut reload = |b: &mut cranelift_frontend::FunctionBuilder, vars: &[Variable]| {
            let v = b.ins().load(
                super::lanes::VEC,
                MemFlagsData::trusted(),
                scratch,
                spill + 16 * slot,
            );
            reloaded.insert((spill + 16 * slot, v));
            slot += 1;
            for var in vars {
                b.def_var(*var, v);
            }
        };
        for var in &kept.whole {
            for j in 0..k {
                reload(&mut self.b, &var.v[j..=j]);
            }
        }
        for var in &kept.uniform {
            reload(&mut self.b, &var.v[..k]);
        }
        for var in &kept.scalars {
            let v = self.b.ins().load(
                types::I32,
                MemFlagsData::trusted(),
                scratch,
                spill + 16 * slot,
            );
            self.func.reloaded.insert((spill + 16 * slot, v));
            slot += 1;
            self.b.def_var(*var, v);
        }
        let ones = self.lb().splat(u32::MAX);
        for var in &kept.ones {
            self.lb().def_var(*var, ones);
        }
        if kept.alive_from_frame {
            let lane_mask = self.frame_ptr(offset_of!(Frame, lane_mask));
            let alive = self.load_lanes(lane_mask, 0);
            let m = self.ctl.masks;
            self.lb().def_var(m.alive, alive);
        }
        self.update_exec();
        Ok(())
    }
}

/// The state a barrier keeps.
struct Kept {
    /// Variables spilled vector by vector.
    whole: Vec<LaneVar>,
    /// Uniform variables: one vector is spilled and reloads all of them.
    uniform: Vec<LaneVar>,
    /// Masks known to be all ones: nothing is spilled, they are reset.
    ones: Vec<LaneVar>,
    /// Scalar temps: one word each.
    scalars: Vec<Variable>,
    /// The alive mask is reloaded from the frame's lane mask, which the
    /// dispatcher set and nothing changed.
    alive_from_frame: bool,
}

/// Whether `prog` can only return with an unconditional `ret` at the top
/// level of main (which ends the function), so the `ret` mask of main
/// never changes.
fn returns_only_at_top(prog: &crate::ir::Program) -> bool {
    let mut depth = 0usize;
    for inst in &prog.main {
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => depth += 1,
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => depth = depth.saturating_sub(1),
            Inst::RetC { .. } => return false,
            Inst::Ret if depth > 0 => return false,
            _ => {}
        }
    }
    true
}

/// Whether any function of `prog` discards lanes.
pub(super) fn discards(prog: &crate::ir::Program) -> bool {
    prog.bodies()
        .flatten()
        .any(|inst| matches!(inst, Inst::Discard { .. }))
}
