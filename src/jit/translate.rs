//! The instruction loop: one arm per IR instruction, delegating to the
//! emitter of its family.

use super::alu::src_ty;
use super::flow::LoopExit;
use super::helpers::HelperId;
use super::memory::Addr;
use super::operand::Ty;
use super::state::Tr;
use super::typed::SampleOp;
use super::JitError;
use crate::ir::{Body, Dst, Inst};

impl Tr<'_, '_> {
    /// Emits a function body.
    pub fn emit_body(&mut self, body: &Body) -> Result<(), JitError> {
        let mut i = 0;
        while let Some(inst) = body.get(i) {
            self.charge()?;
            self.unpark_for(inst);
            let rest = &body[i + 1..];
            let pos = self.main_index(rest);
            let mut fused = self
                .emit_row_copy(inst, rest.first(), pos)
                .map_err(|e| e.at(body.place(i)))?;
            if !fused {
                fused = self
                    .emit_lookup_pair(inst, rest)
                    .map_err(|e| e.at(body.place(i)))?;
            }
            if !fused {
                self.emit_inst(inst, rest)
                    .map_err(|e| e.at(body.place(i)))?;
            }
            i += if fused { 2 } else { 1 };
        }
        self.unpark_waiting();
        Ok(())
    }

    /// `inst` and the first of `rest` (what follows it) as two lookups in
    /// one wide call, when they are `sample*`s it may take and the second
    /// reads nothing `inst` writes (`wide_sample.rs`); whether they were
    /// emitted so.
    fn emit_lookup_pair(&mut self, inst: &Inst, rest: &[Inst]) -> Result<bool, JitError> {
        let Some((next, after)) = rest.split_first() else {
            return Ok(false);
        };
        if !super::wide_sample::reads_apart(inst, next) {
            return Ok(false);
        }
        let (Some(first), Some(second)) = (self.sample_op(inst, rest), self.sample_op(next, after))
        else {
            return Ok(false);
        };
        let (Some(a), Some(b)) = (self.wide_pair(&first), self.wide_pair(&second)) else {
            return Ok(false);
        };
        self.charge()?;
        self.unpark_for(next);
        self.emit_sample_pair(&first, &second, [a, b])?;
        Ok(true)
    }

    /// The operands of `inst`, a `sample*` followed by `rest`.
    fn sample_op<'a>(&self, inst: &'a Inst, rest: &[Inst]) -> Option<SampleOp<'a>> {
        let op = SampleOp::of(inst)?;
        Some(SampleOp {
            zero_sign_free: self.rest_of_main(rest)
                && super::zero_sign::zero_sign_unobserved(op.dst, rest),
            ..op
        })
    }

    /// Computes every masked component of a component-wise result first,
    /// then writes them (a destination may alias a source).
    fn emit_alu(
        &mut self,
        op: crate::ir::AluOp,
        dst: &Dst,
        src: &[crate::ir::Src],
    ) -> Result<(), JitError> {
        let mut results = Vec::with_capacity(4);
        let mut scalars = Vec::new();
        for c in 0..4 {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            if let Some(var) = self.scalar_dst(dst, c) {
                let mut args = Vec::with_capacity(src.len());
                for (i, s) in src.iter().enumerate() {
                    let v = self
                        .read_scalar(s, c, src_ty(op, i))
                        .ok_or_else(|| JitError::Invalid(format!("{op:?} source is not scalar")))?;
                    args.push(v);
                }
                scalars.push((var, self.scalar_alu(op, &args)?));
                continue;
            }
            let mut args = Vec::with_capacity(src.len());
            for (i, s) in src.iter().enumerate() {
                args.push(self.read(s, c, src_ty(op, i))?);
            }
            if args.is_empty() {
                return Err(JitError::Invalid(format!("{op:?} without sources")));
            }
            results.push((c, self.alu(op, &args)?));
        }
        let dst = if dst.saturate && op.info().result != crate::ir::ResultKind::Float {
            Dst {
                saturate: false,
                ..dst.clone()
            }
        } else {
            dst.clone()
        };
        for (c, v) in results {
            self.write(&dst, c, v)?;
        }
        for (var, v) in scalars {
            self.b.def_var(var, v);
        }
        Ok(())
    }

    /// The scalar variable component `c` of `dst` is written to, when it
    /// lives in one.
    pub(super) fn scalar_dst(&self, dst: &Dst, c: usize) -> Option<cranelift_frontend::Variable> {
        if dst.file != crate::ir::File::Temp || dst.index.rel.is_some() {
            return None;
        }
        self.facts.scalars.var(dst.index.base, c as u8)
    }

    /// dp2/dp3/dp4: the sum of the first `n` products, in every masked component.
    fn emit_dot(
        &mut self,
        n: u8,
        legacy: bool,
        dst: &Dst,
        a: &crate::ir::Src,
        b: &crate::ir::Src,
    ) -> Result<(), JitError> {
        let op = if legacy {
            crate::ir::AluOp::MulLegacy
        } else {
            crate::ir::AluOp::Mul
        };
        let mut sum = None;
        for c in 0..n.min(4) as usize {
            let x = self.read(a, c, Ty::F)?;
            let y = self.read(b, c, Ty::F)?;
            let p = self.alu(op, &[x, y])?;
            sum = Some(match sum {
                None => p,
                Some(s) => self.alu(crate::ir::AluOp::Add, &[s, p])?,
            });
        }
        let sum = sum.ok_or_else(|| JitError::Invalid("dot product of no components".into()))?;
        self.write_each(dst, sum)
    }

    /// Emits one instruction followed by `rest` (which loops and switches
    /// read ahead in).
    pub(super) fn emit_inst(&mut self, inst: &Inst, rest: &[Inst]) -> Result<(), JitError> {
        let pos = self.main_index(rest);
        if let Some(pos) = pos {
            match inst {
                Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => self.ctl.open_at.push(pos),
                Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                    self.ctl.open_at.pop();
                }
                _ => {}
            }
        }
        match inst {
            Inst::Halt { kind, offset } => {
                self.emit_halt(*kind, *offset);
                Ok(())
            }
            Inst::Alu { op, dst, src } => self.emit_alu(*op, dst, src),
            Inst::Dot {
                n,
                legacy,
                dst,
                a,
                b,
            } => self.emit_dot(*n, *legacy, dst, a, b),
            Inst::Double { op, dst, src } => self.emit_double(*op, dst, src),
            Inst::Swapc { dst, cond, a, b } => {
                let mut out = Vec::new();
                for c in 0..4 {
                    let m = self.read(cond, c, Ty::I)?;
                    let x = self.read(a, c, Ty::F)?;
                    let y = self.read(b, c, Ty::F)?;
                    let z = self.lb().splat(0);
                    let t = self.lb().map2(m, z, |b, p, q| {
                        cranelift_codegen::ir::InstBuilder::icmp(
                            b.ins(),
                            cranelift_codegen::ir::condcodes::IntCC::NotEqual,
                            p,
                            q,
                        )
                    });
                    let first = self.lb().select(t, y, x);
                    let second = self.lb().select(t, x, y);
                    out.push((c, first, second));
                }
                for (c, first, second) in out {
                    if dst[0].mask & (1 << c) != 0 {
                        self.write(&dst[0], c, first)?;
                    }
                    if dst[1].mask & (1 << c) != 0 {
                        self.write(&dst[1], c, second)?;
                    }
                }
                Ok(())
            }
            Inst::LoadRaw {
                dst,
                res,
                offset,
                swizzle,
            } => {
                let off = self.read(offset, 0, Ty::I)?;
                let stride = pos.and_then(|p| self.facts.raw_strides.get(&p).copied());
                self.emit_load(dst, *res, Addr::Raw(&off), *swizzle, stride)
            }
            Inst::StoreRaw {
                res,
                offset,
                value,
                count,
            } => {
                let off = self.read(offset, 0, Ty::I)?;
                let stride = pos.and_then(|p| self.facts.raw_strides.get(&p).copied());
                self.emit_store(*res, Addr::Raw(&off), value, *count, stride)
            }
            Inst::LoadStructured {
                dst,
                res,
                index,
                offset,
                swizzle,
            } => {
                let i = self.read(index, 0, Ty::I)?;
                let o = self.read(offset, 0, Ty::I)?;
                self.emit_load(dst, *res, Addr::Structured(&i, &o), *swizzle, None)
            }
            Inst::StoreStructured {
                res,
                index,
                offset,
                value,
                count,
            } => {
                let i = self.read(index, 0, Ty::I)?;
                let o = self.read(offset, 0, Ty::I)?;
                self.emit_store(*res, Addr::Structured(&i, &o), value, *count, None)
            }
            Inst::LoadTyped {
                dst,
                res,
                coord,
                swizzle,
                with_mip,
            } => self.emit_typed_load(dst, *res, coord, *swizzle, *with_mip),
            Inst::StoreTyped { res, coord, value } => self.emit_typed_store(*res, coord, value),
            Inst::Atomic {
                op,
                dst,
                res,
                addr,
                value,
                compare,
            } => self.emit_atomic(*op, dst.as_ref(), *res, addr, value, compare.as_ref()),
            Inst::UavCounter { dst, res, consume } => self.emit_uav_counter(dst, *res, *consume),
            Inst::BufInfo { dst, res, swizzle } => self.emit_bufinfo(dst, *res, *swizzle),
            Inst::ResInfo {
                dst,
                res,
                mip,
                ret,
                swizzle,
            } => self.emit_resinfo(dst, *res, mip, *ret, *swizzle),
            Inst::Sample { .. } => {
                let op = self.sample_op(inst, rest).expect("a sample");
                self.emit_sample(&op)
            }
            Inst::Fetch {
                dst,
                res,
                coord,
                offset,
                swizzle,
                slots: None,
            } => self.emit_fetch(dst, *res, coord, *offset, *swizzle),
            Inst::Fetch {
                dst,
                res,
                coord,
                offset,
                swizzle,
                slots: Some(slots),
            } => {
                self.emit_fetch_indexed(dst, *res, slots.texture.as_ref(), coord, *offset, *swizzle)
            }
            Inst::Gather {
                dst,
                res,
                sampler,
                coord,
                channel,
                offset,
                swizzle,
                compare,
                slots,
            } => self.emit_gather(
                dst,
                *res,
                *sampler,
                coord,
                *channel,
                offset,
                *swizzle,
                compare.as_ref(),
                slots.as_deref(),
            ),
            Inst::QueryLod {
                dst,
                res,
                sampler,
                coord,
                swizzle,
                slots,
            } => self.emit_query_lod(dst, *res, *sampler, coord, *swizzle, slots.as_deref()),
            Inst::LoadSample {
                dst,
                res,
                coord,
                sample,
                offset,
                swizzle,
            } => self.emit_load_sample(dst, *res, coord, sample, *offset, *swizzle),
            Inst::SampleInfo {
                dst,
                res,
                uint,
                swizzle,
            } => self.emit_sample_info(dst, *res, *uint, *swizzle),
            Inst::SamplePos {
                dst,
                res,
                index,
                swizzle,
            } => self.emit_sample_pos(dst, *res, index, *swizzle),
            Inst::Eval { dst, src, at } => self.emit_eval(dst, src, at),
            Inst::Sync { group, .. } => {
                if *group && self.prog.stage == crate::ir::Stage::Compute {
                    self.emit_barrier(pos)
                } else {
                    Ok(())
                }
            }
            Inst::If { cond, nz } => self.emit_if(cond, *nz),
            Inst::Else => self.emit_else(),
            Inst::EndIf => self.emit_endif(),
            Inst::Loop => {
                self.emit_loop(rest);
                Ok(())
            }
            Inst::EndLoop => self.emit_endloop(),
            Inst::Break => {
                self.emit_break(None);
                Ok(())
            }
            Inst::BreakC { cond, nz } => self.emit_break_or_continue_c(cond, *nz, LoopExit::Break),
            Inst::Continue => {
                self.emit_continue(None);
                Ok(())
            }
            Inst::ContinueC { cond, nz } => {
                self.emit_break_or_continue_c(cond, *nz, LoopExit::Continue)
            }
            Inst::Switch { sel } => self.emit_switch(sel, rest),
            Inst::Case(v) => self.emit_case(Some(*v)),
            Inst::Default => self.emit_case(None),
            Inst::EndSwitch => self.emit_endswitch(),
            Inst::Ret => {
                self.emit_ret(None);
                Ok(())
            }
            Inst::RetC { cond, nz } => {
                let t = self.test(cond, *nz)?;
                self.emit_ret(Some(t));
                Ok(())
            }
            Inst::Call { label } => self.emit_call(*label, None),
            Inst::CallC { cond, nz, label } => {
                let t = self.test(cond, *nz)?;
                self.emit_call(*label, Some(t))
            }
            Inst::Discard { cond, nz } => {
                let t = self.test(cond, *nz)?;
                self.emit_discard(t);
                Ok(())
            }
            Inst::Emit { stream } => self.emit_gs(HelperId::GsEmit, *stream),
            Inst::Cut { stream } => self.emit_gs(HelperId::GsCut, *stream),
        }
    }
}
