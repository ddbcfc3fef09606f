//! Reading source operands and writing destination operands.

use super::lanes::{le, LaneVar, Lanes, FVEC, MAX_K};
use super::state::Tr;
use super::JitError;
use crate::ir::{Dst, File, Src, SysVal};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;
use dxjit_runtime::abi::{Frame, SysValSlot, View};
use std::collections::HashMap;
use std::mem::{offset_of, size_of};

/// How an operation reads its sources, which decides what `neg`/`abs` mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// Floats: sign-bit modifiers.
    F,
    /// Integers: two's complement negate.
    I,
}

/// The block slot of a system value.
pub(super) fn sysval_slot(sv: SysVal) -> SysValSlot {
    match sv {
        SysVal::DispatchThreadId => SysValSlot::DispatchThreadId,
        SysVal::GroupId => SysValSlot::GroupId,
        SysVal::GroupThreadId => SysValSlot::GroupThreadId,
        SysVal::GroupIndex => SysValSlot::GroupIndex,
        SysVal::Position => SysValSlot::Position,
        SysVal::FrontFace => SysValSlot::FrontFace,
        SysVal::VertexId => SysValSlot::VertexId,
        SysVal::PrimitiveId => SysValSlot::PrimitiveId,
        SysVal::InstanceId => SysValSlot::InstanceId,
        SysVal::GsInstanceId => SysValSlot::GsInstanceId,
        SysVal::Coverage => SysValSlot::Coverage,
        SysVal::SampleIndex => SysValSlot::Sample,
    }
}

/// One component of a register file in SoA memory.
struct Soa {
    /// The file's first byte.
    base: Value,
    /// The static register number.
    reg: u32,
    /// Registers in the file.
    count: u32,
    /// Words per register.
    stride: u32,
    /// The component.
    c: usize,
}

impl Tr<'_, '_> {
    /// Reads component `comp` of a source (through its swizzle), modifiers applied.
    pub fn read(&mut self, src: &Src, comp: usize, ty: Ty) -> Result<Lanes, JitError> {
        let c = src.swizzle[comp] as usize & 3;
        let raw = self.read_raw(src, c)?;
        Ok(self.modify(raw, src.abs, src.neg, ty))
    }

    /// Applies source modifiers.
    pub fn modify(&mut self, v: Lanes, abs: bool, neg: bool, ty: Ty) -> Lanes {
        let mut v = v;
        match ty {
            Ty::F => {
                if abs {
                    let m = self.lb().splat(0x7fff_ffff);
                    v = self.lb().and(v, m);
                }
                if neg {
                    let m = self.lb().splat(0x8000_0000);
                    v = self.lb().map2(v, m, |b, x, y| b.ins().bxor(x, y));
                }
            }
            Ty::I => {
                if abs {
                    v = self.lb().map1(v, |b, x| b.ins().iabs(x));
                }
                if neg {
                    v = self.lb().map1(v, |b, x| b.ins().ineg(x));
                }
            }
        }
        v
    }

    /// Reads register component `c` without modifiers.
    pub fn read_raw(&mut self, src: &Src, c: usize) -> Result<Lanes, JitError> {
        let idx = &src.index;
        match src.file {
            File::Imm => Ok(self.lb().splat(src.imm[c])),
            File::Temp => {
                if idx.rel.is_some() {
                    return Err(JitError::Unsupported("relative indexing of r#".into()));
                }
                if let Some(var) = self.facts.scalars.var(idx.base, c as u8) {
                    let w = self.b.use_var(var);
                    return Ok(self.lb().splat_value(w));
                }
                let var = *self
                    .func
                    .temps
                    .get(idx.base as usize * 4 + c)
                    .ok_or_else(|| JitError::Invalid(format!("r{} is not declared", idx.base)))?;
                let value = self.lb().use_var(var);
                if self
                    .func
                    .positive_zero_temps
                    .contains(&(idx.base * 4 + c as u32))
                {
                    let lanes = value.v.into_iter().take(self.k);
                    self.func.never_negative_zero.extend(lanes);
                }
                Ok(value)
            }
            File::SysVal(SysVal::GroupId) => {
                let w = self.b.ins().load(
                    types::I32,
                    MemFlagsData::trusted(),
                    self.frame,
                    (offset_of!(Frame, group_id) + 4 * c.min(2)) as i32,
                );
                Ok(self.lb().splat_value(w))
            }
            File::SysVal(SysVal::DispatchThreadId) => {
                // SV_DispatchThreadID = SV_GroupID * group size + SV_GroupThreadID.
                let g = self.b.ins().load(
                    types::I32,
                    MemFlagsData::trusted(),
                    self.frame,
                    (offset_of!(Frame, group_id) + 4 * c.min(2)) as i32,
                );
                let size = if c < 3 { self.prog.thread_group[c] } else { 0 };
                let base = self.b.ins().imul_imm_s(g, i64::from(size));
                let base = self.lb().splat_value(base);
                let local = Src {
                    file: File::SysVal(SysVal::GroupThreadId),
                    ..src.clone()
                };
                let local = self.read_raw(&local, c)?;
                Ok(self.lb().map2(base, local, |b, x, y| b.ins().iadd(x, y)))
            }
            File::Input | File::Output | File::SysVal(_) | File::Indexable(_) => {
                if idx.rel.is_none() {
                    let slot = idx.base.saturating_mul(4).saturating_add(c as u32);
                    let var = match src.file {
                        File::Input => self.input_var(slot),
                        File::Output => self.output_var(slot),
                        _ => None,
                    };
                    if let Some(var) = var {
                        return Ok(self.lb().use_var(var));
                    }
                }
                let (base, stride_regs, count, off) = self.soa_block(src.file, idx.base, c)?;
                match &idx.rel {
                    None => {
                        if idx.base >= count {
                            return Ok(self.lb().splat(0));
                        }
                        Ok(self.load_lanes(base, off))
                    }
                    Some(rel) => {
                        let rel = self.read(rel, 0, Ty::I)?;
                        self.soa_gather(
                            &Soa {
                                base,
                                reg: idx.base,
                                count,
                                stride: stride_regs,
                                c,
                            },
                            rel,
                        )
                    }
                }
            }
            File::Const(slot) => self.read_cb(slot, src, c),
            File::ImmConst => self.read_icb(src, c),
            File::Null => Ok(self.lb().splat(0)),
        }
    }

    /// The base pointer, the register count and the static byte offset of a
    /// SoA register file component. Returns (base, words per register, registers, offset).
    fn soa_block(
        &mut self,
        file: File,
        reg: u32,
        c: usize,
    ) -> Result<(Value, u32, u32, i32), JitError> {
        let lanes = self.lanes();
        let reg_bytes = 4 * lanes * 4;
        let (base, count) = match file {
            File::Input => (self.func.inputs, self.func.input_regs),
            File::Output => {
                let base = match self.func.row {
                    Some(_) => self.step_outputs(),
                    None => self.frame_ptr(offset_of!(Frame, outputs)),
                };
                (base, self.func.output_regs)
            }
            File::SysVal(sv) => {
                let base = self.frame_ptr(offset_of!(Frame, sysvals));
                let slot = sysval_slot(sv) as u32;
                let off = (slot * reg_bytes) as i32 + (c as u32 * lanes * 4) as i32;
                return Ok((base, lanes * 4, slot + 1, off));
            }
            File::Indexable(id) => {
                let (off, count) = *self
                    .func
                    .scratch
                    .indexables
                    .get(&id)
                    .ok_or_else(|| JitError::Invalid(format!("x{id} is not declared")))?;
                let scratch = self.frame_ptr(offset_of!(Frame, scratch));
                let base = self.b.ins().iadd_imm_s(scratch, i64::from(off));
                (base, count)
            }
            _ => unreachable!("soa_block on a non-SoA file"),
        };
        let off = reg.saturating_mul(reg_bytes).min(i32::MAX as u32 / 2) as i32
            + (c as u32 * lanes * 4) as i32;
        Ok((base, lanes * 4, count, off))
    }

    /// The address of lane `(j, l)`'s word in register `soa.reg + rel`,
    /// or `fallback` when that register lies outside the file or `live`
    /// (the lane's mask word) is zero.
    fn soa_lane_addr(
        &mut self,
        soa: &Soa,
        rel: &Lanes,
        j: usize,
        l: u8,
        fallback: Value,
        live: Option<Value>,
    ) -> Value {
        use cranelift_codegen::ir::condcodes::IntCC;
        let b = &mut self.b;
        let r = b.ins().extractlane(rel.v[j], l);
        let r = b.ins().iadd_imm_s(r, i64::from(soa.reg));
        let mut ok = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, r, i64::from(soa.count));
        if let Some(live) = live {
            let live = b.ins().icmp_imm_u(IntCC::NotEqual, live, 0);
            ok = b.ins().band(ok, live);
        }
        let r64 = b.ins().uextend(types::I64, r);
        let lane_word = (soa.c as u32 * soa.stride / 4) + (j as u32 * 4 + u32::from(l));
        let byte = b.ins().imul_imm_s(r64, i64::from(soa.stride * 4));
        let addr = b.ins().iadd(soa.base, byte);
        let addr = b.ins().iadd_imm_s(addr, i64::from(lane_word * 4));
        b.ins().select(ok, addr, fallback)
    }

    /// Per-lane read of register `soa.reg + rel` from a SoA file; lanes whose
    /// register lies outside the file read 0.
    fn soa_gather(&mut self, soa: &Soa, rel: Lanes) -> Result<Lanes, JitError> {
        let zero = self.frame_addr(offset_of!(Frame, zero));
        let mut addrs = Vec::with_capacity(4 * self.k);
        for j in 0..self.k {
            for l in 0..4u8 {
                addrs.push(self.soa_lane_addr(soa, &rel, j, l, zero, None));
            }
        }
        Ok(self.gather(&addrs))
    }

    /// The pointer, the size (as `i64`) and the zero-slot address of
    /// constant buffer `slot`.
    fn cb_view(&mut self, slot: u32) -> (Value, Value, Value) {
        if let Some(view) = self.func.cb_views.get(&slot) {
            return *view;
        }
        self.load_cb_view(slot)
    }

    /// Constant buffer `slot`'s view, loaded here.
    fn load_cb_view(&mut self, slot: u32) -> (Value, Value, Value) {
        load_cb_view(&mut self.b, self.frame, slot)
    }

    /// Where word `c` of row `row` of constant buffer `slot` (`slot` below
    /// `CB_SLOTS`) is read: an address and an offset from it. A row below
    /// [`UNCHECKED_ROWS`] is read straight from the view, and the slot's
    /// `cb_static_bytes` grows to cover it (the runtime pads a smaller
    /// buffer with zeros); other rows read the zero row past the bound size.
    fn cb_word_addr(&mut self, slot: u32, row: u32, c: usize) -> (Value, i32) {
        let (ptr, size, zero) = self.cb_view(slot);
        let word = u64::from(row) * 16 + c as u64 * 4;
        if row < UNCHECKED_ROWS && slot != dxjit_runtime::dispatch::patch_rows::SLOT {
            let need = &mut self.func.cb_static_bytes[slot as usize];
            *need = (*need).max((row + 1) * 16);
            return (ptr, word as i32);
        }
        let limit = self.b.ins().iconst(types::I64, word as i64 + 4);
        let ok = self.b.ins().icmp(
            cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThanOrEqual,
            limit,
            size,
        );
        let addr = self.b.ins().iadd_imm_s(ptr, word as i64);
        (self.b.ins().select(ok, addr, zero), 0)
    }

    /// Word `c` of row `row` of constant buffer `slot` (`slot` below
    /// `CB_SLOTS`); 0 past the bound size.
    pub fn cb_word(&mut self, slot: u32, row: u32, c: usize) -> Value {
        let (addr, offset) = self.cb_word_addr(slot, row, c);
        self.b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), addr, offset)
    }

    /// Reads a constant-buffer component; rows past the bound size read 0.
    fn read_cb(&mut self, slot: u32, src: &Src, c: usize) -> Result<Lanes, JitError> {
        if slot as usize >= dxjit_runtime::abi::CB_SLOTS {
            return Err(JitError::Invalid(format!("cb{slot} is out of range")));
        }
        match &src.index.rel {
            None => {
                let (addr, offset) = self.cb_word_addr(slot, src.index.base, c);
                let x = self
                    .b
                    .ins()
                    .load(types::F32, MemFlagsData::trusted(), addr, offset);
                let x = self.b.ins().splat(FVEC, x);
                let v = self.b.ins().bitcast(super::lanes::VEC, le(), x);
                Ok(Lanes { v: [v; MAX_K] })
            }
            Some(rel) => {
                let rel = self.read(rel, 0, Ty::I)?;
                let (ptr, size, zero) = self.cb_view(slot);
                let word = u64::from(src.index.base) * 16 + c as u64 * 4;
                self.gather_rows(ptr, size, rel, word, zero)
            }
        }
    }

    /// Per-lane read of the word at `base_word + rel * 16` bytes of a buffer of `size` bytes.
    fn gather_rows(
        &mut self,
        ptr: Value,
        size: Value,
        rel: Lanes,
        word: u64,
        zero: Value,
    ) -> Result<Lanes, JitError> {
        use cranelift_codegen::ir::condcodes::IntCC;
        let mut addrs = Vec::with_capacity(4 * self.k);
        for j in 0..self.k {
            for l in 0..4u8 {
                let b = &mut self.b;
                let r = b.ins().extractlane(rel.v[j], l);
                let r = b.ins().sextend(types::I64, r);
                let byte = b.ins().ishl_imm_u(r, 4);
                let byte = b.ins().iadd_imm_s(byte, word as i64);
                let end = b.ins().iadd_imm_s(byte, 4);
                let ok_hi = b.ins().icmp(IntCC::SignedLessThanOrEqual, end, size);
                let ok_lo = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, byte, 0);
                let ok = b.ins().band(ok_hi, ok_lo);
                let addr = b.ins().iadd(ptr, byte);
                addrs.push(b.ins().select(ok, addr, zero));
            }
        }
        Ok(self.gather(&addrs))
    }

    /// Reads the immediate constant buffer; rows past its end read 0.
    fn read_icb(&mut self, src: &Src, c: usize) -> Result<Lanes, JitError> {
        let rows = self.prog.icb.len() as u64;
        match &src.index.rel {
            None => {
                let w = self
                    .prog
                    .icb
                    .get(src.index.base as usize)
                    .map_or(0, |row| row[c]);
                Ok(self.lb().splat(w))
            }
            Some(rel) => {
                let rel = self.read(rel, 0, Ty::I)?;
                let ptr = self.b.ins().symbol_value(types::I64, self.func.icb);
                let size = self.b.ins().iconst(types::I64, (rows * 16) as i64);
                let zero = self.frame_addr(offset_of!(Frame, zero));
                let word = u64::from(src.index.base) * 16 + c as u64 * 4;
                self.gather_rows(ptr, size, rel, word, zero)
            }
        }
    }

    /// Writes the same value to every component of the destination's mask.
    pub fn write_each(&mut self, dst: &Dst, val: Lanes) -> Result<(), JitError> {
        for c in 0..4 {
            if dst.mask & (1 << c) != 0 {
                self.write(dst, c, val)?;
            }
        }
        Ok(())
    }

    /// Saturates float lanes to [0, 1]; NaN becomes 0.
    pub fn saturate(&mut self, v: Lanes) -> Lanes {
        let zero = self.lb().splat(0);
        let one = self.lb().splat(1.0f32.to_bits());
        let v = self.lb().as_float(v);
        let zero_f = self.lb().as_float(zero);
        let one_f = self.lb().as_float(one);
        // max(v, 0) as maxps: NaN picks the second operand (0).
        let v = self.lb().map2(v, zero_f, |b, x, y| {
            let gt = b
                .ins()
                .fcmp(cranelift_codegen::ir::condcodes::FloatCC::GreaterThan, x, y);
            let gt = b.ins().bitcast(FVEC, le(), gt);
            b.ins().bitselect(gt, x, y)
        });
        let v = self.lb().map2(v, one_f, |b, x, y| {
            let lt = b
                .ins()
                .fcmp(cranelift_codegen::ir::condcodes::FloatCC::LessThan, x, y);
            let lt = b.ins().bitcast(FVEC, le(), lt);
            b.ins().bitselect(lt, x, y)
        });
        self.lb().as_int(v)
    }

    /// Defines `var` as `val`, in the executing lanes only when `blend`
    /// (the others keep the variable's value).
    fn define_masked(&mut self, var: LaneVar, val: Lanes, blend: bool) {
        let val = if blend {
            let old = self.lb().use_var(var);
            let exec = self.exec();
            self.lb().select(exec, val, old)
        } else {
            val
        };
        self.lb().def_var(var, val);
    }

    /// Writes component `c` of a destination (saturating when asked),
    /// honouring the execution mask.
    pub fn write(&mut self, dst: &Dst, c: usize, val: Lanes) -> Result<(), JitError> {
        let val = if dst.saturate {
            self.saturate(val)
        } else {
            val
        };
        match dst.file {
            File::Null => Ok(()),
            File::Temp => {
                if dst.index.rel.is_some() {
                    return Err(JitError::Unsupported("relative indexing of r#".into()));
                }
                if self.facts.scalars.var(dst.index.base, c as u8).is_some() {
                    return Err(JitError::Invalid(format!(
                        "r{}.{c} is scalar: only scalar operations write it",
                        dst.index.base
                    )));
                }
                let var = *self
                    .func
                    .temps
                    .get(dst.index.base as usize * 4 + c)
                    .ok_or_else(|| {
                        JitError::Invalid(format!("r{} is not declared", dst.index.base))
                    })?;
                let slot = dst.index.base * 4 + c as u32;
                self.func.positive_zero_temps.remove(&slot);
                let blend = self.temp_needs_blend(dst.index.base, c as u8);
                self.define_masked(var, val, blend);
                Ok(())
            }
            File::Output | File::Indexable(_) => {
                let slot = dst.index.base.saturating_mul(4).saturating_add(c as u32);
                let var = match (dst.file, &dst.index.rel) {
                    (File::Output, None) => self.output_var(slot),
                    _ => None,
                };
                if let Some(var) = var {
                    let blend = self.divergent();
                    self.define_masked(var, val, blend);
                    return Ok(());
                }
                let (base, stride, count, off) = self.soa_block(dst.file, dst.index.base, c)?;
                match &dst.index.rel {
                    None => {
                        if dst.index.base >= count {
                            return Ok(());
                        }
                        let val = if self.divergent() {
                            let old = self.load_lanes(base, off);
                            let exec = self.exec();
                            self.lb().select(exec, val, old)
                        } else {
                            val
                        };
                        self.store_lanes(val, base, off);
                        Ok(())
                    }
                    Some(rel) => {
                        let rel = self.read(rel, 0, Ty::I)?;
                        self.soa_scatter(
                            &Soa {
                                base,
                                reg: dst.index.base,
                                count,
                                stride,
                                c,
                            },
                            rel,
                            val,
                        )
                    }
                }
            }
            other => Err(JitError::Invalid(format!("{other:?} cannot be written"))),
        }
    }

    /// Per-lane write of register `soa.reg + rel` of a SoA file, for active
    /// lanes whose register lies inside the file.
    fn soa_scatter(&mut self, soa: &Soa, rel: Lanes, val: Lanes) -> Result<(), JitError> {
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let exec = self.exec();
        for j in 0..self.k {
            for l in 0..4u8 {
                let live = self.b.ins().extractlane(exec.v[j], l);
                let addr = self.soa_lane_addr(soa, &rel, j, l, sink, Some(live));
                let w = self.b.ins().extractlane(val.v[j], l);
                self.b.ins().store(MemFlagsData::trusted(), w, addr, 0);
            }
        }
        Ok(())
    }
}

/// The view of every constant buffer `prog` declares, loaded where `b` is
/// (the function's entry block, which dominates every read and runs once
/// per call), for [`Tr::cb_view`] to reuse.
pub fn load_cb_views(
    b: &mut FunctionBuilder,
    frame: Value,
    prog: &crate::ir::Program,
) -> HashMap<u32, (Value, Value, Value)> {
    prog.cbs
        .iter()
        .map(|d| d.slot)
        .filter(|slot| (*slot as usize) < dxjit_runtime::abi::CB_SLOTS)
        .map(|slot| (slot, load_cb_view(b, frame, slot)))
        .collect()
}

/// Rows of a constant buffer compiled code reads with literal indices and
/// no bounds test: D3D11's largest constant buffer.
pub const UNCHECKED_ROWS: u32 = 4096;

/// Constant buffer `slot`'s pointer, size (as `i64`) and the address of the
/// frame's zero row.
fn load_cb_view(b: &mut FunctionBuilder, frame: Value, slot: u32) -> (Value, Value, Value) {
    let cbs = b.ins().load(
        types::I64,
        MemFlagsData::trusted(),
        frame,
        offset_of!(Frame, cbs) as i32,
    );
    let view_off = slot as i32 * size_of::<View>() as i32;
    let ptr = b.ins().load(
        types::I64,
        MemFlagsData::trusted(),
        cbs,
        view_off + offset_of!(View, ptr) as i32,
    );
    let size = b.ins().load(
        types::I32,
        MemFlagsData::trusted(),
        cbs,
        view_off + offset_of!(View, size) as i32,
    );
    let size = b.ins().uextend(types::I64, size);
    let zero = b.ins().iadd_imm_s(frame, offset_of!(Frame, zero) as i64);
    (ptr, size, zero)
}
