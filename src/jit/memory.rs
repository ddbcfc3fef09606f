//! Loads, stores and atomics on buffers and group-shared memory.
//!
//! Every access is per lane with a bounds check on every 32-bit component:
//! the address of an out-of-bounds (or masked-off) lane is redirected to the
//! frame's zero slot for loads and its sink slot for stores, so compiled code
//! never touches memory outside what was bound.

use super::lanes::Lanes;
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{AtomicOp, Dst, Resource, ResourceKind, Src};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::{Frame, View};
use std::mem::{offset_of, size_of};

/// A resource as compiled code addresses it.
#[derive(Clone, Copy)]
pub struct Mem {
    /// First byte (i64).
    pub ptr: Value,
    /// Bytes in the view (i64).
    pub size: Value,
    /// Structure stride in bytes (i64), for structured access.
    pub stride: Value,
}

/// How a lane's byte address is formed.
#[derive(Clone, Copy)]
pub enum Addr<'a> {
    /// `offset` bytes (low two bits ignored).
    Raw(&'a Lanes),
    /// Element `index`, byte `offset` inside it.
    Structured(&'a Lanes, &'a Lanes),
}

impl Tr<'_, '_> {
    /// The declared kind of a resource.
    pub fn kind_of(&self, res: Resource) -> Option<ResourceKind> {
        let p = self.prog;
        match res {
            Resource::Srv(s) => p.srvs.iter().find(|d| d.slot == s).map(|d| d.kind),
            Resource::Uav(s) => p.uavs.iter().find(|d| d.slot == s).map(|d| d.kind),
            Resource::Tgsm(id) => p.tgsm.iter().find(|d| d.id == id).map(|d| {
                if d.stride == 0 {
                    ResourceKind::Raw
                } else {
                    ResourceKind::Structured(d.stride)
                }
            }),
        }
    }

    /// The view record address of an SRV or UAV slot.
    pub fn view_addr(&mut self, res: Resource) -> Result<Value, JitError> {
        let (field, slot, max) = match res {
            Resource::Srv(s) => (offset_of!(Frame, srvs), s, dxjit_runtime::abi::SRV_SLOTS),
            Resource::Uav(s) => (offset_of!(Frame, uavs), s, dxjit_runtime::abi::UAV_SLOTS),
            Resource::Tgsm(_) => return Err(JitError::Invalid("g# has no view".into())),
        };
        if slot as usize >= max {
            return Err(JitError::Invalid(format!(
                "resource slot {slot} out of range"
            )));
        }
        let views = self.frame_ptr(field);
        if let Some((view, _)) = self.func.slot_offsets {
            return Ok(self.b.ins().iadd(views, view));
        }
        Ok(self
            .b
            .ins()
            .iadd_imm_s(views, slot as i64 * size_of::<View>() as i64))
    }

    /// The sampler state address of a sampler slot (below `SAMPLER_SLOTS`).
    pub fn sampler_addr(&mut self, sampler: u32) -> Value {
        let samplers = self.frame_ptr(offset_of!(Frame, samplers));
        if let Some((_, state)) = self.func.slot_offsets {
            return self.b.ins().iadd(samplers, state);
        }
        self.b.ins().iadd_imm_s(
            samplers,
            i64::from(sampler) * size_of::<dxjit_runtime::sampler::SamplerState>() as i64,
        )
    }

    /// The address, size and stride of a resource.
    pub fn mem(&mut self, res: Resource) -> Result<Mem, JitError> {
        if let Resource::Tgsm(id) = res {
            if self.prog.stage != crate::ir::Stage::Compute {
                return Err(JitError::Invalid(format!(
                    "g{id}: group-shared memory exists only in compute shaders"
                )));
            }
            let (offset, d) = self
                .prog
                .tgsm_block(id)
                .ok_or_else(|| JitError::Invalid(format!("g{id} is not declared")))?;
            let base = self.frame_ptr(offset_of!(Frame, tgsm));
            let ptr = self.b.ins().iadd_imm_s(base, i64::from(offset));
            if let Some((at, size, stride)) = self.func.block {
                let ptr = self.b.ins().iadd(ptr, at);
                return Ok(Mem { ptr, size, stride });
            }
            let size = self.b.ins().iconst(types::I64, i64::from(d.size));
            let stride = self.b.ins().iconst(types::I64, i64::from(d.stride.max(1)));
            return Ok(Mem { ptr, size, stride });
        }
        let view = self.view_addr(res)?;
        let flags = MemFlagsData::trusted();
        let ptr = self
            .b
            .ins()
            .load(types::I64, flags, view, offset_of!(View, ptr) as i32);
        let size = self
            .b
            .ins()
            .load(types::I32, flags, view, offset_of!(View, size) as i32);
        let size = self.b.ins().uextend(types::I64, size);
        let stride = match self.kind_of(res) {
            Some(ResourceKind::Structured(s)) => match self.func.structure_stride {
                Some(stride) => stride,
                None => self.b.ins().iconst(types::I64, i64::from(s.max(1))),
            },
            _ => {
                let s = self
                    .b
                    .ins()
                    .load(types::I32, flags, view, offset_of!(View, stride) as i32);
                let s = self.b.ins().uextend(types::I64, s);
                let one = self.b.ins().iconst(types::I64, 1);
                self.b.ins().umax(s, one)
            }
        };
        Ok(Mem { ptr, size, stride })
    }

    /// Loads one word per lane from per-lane addresses.
    pub fn gather(&mut self, addrs: &[Value]) -> Lanes {
        let mut out = self.lb().splat(0);
        for j in 0..self.k {
            if j > 0 && addrs[j * 4..j * 4 + 4] == addrs[j * 4 - 4..j * 4] {
                out.v[j] = out.v[j - 1];
                continue;
            }
            let mut acc = out.v[j];
            for l in 0..4 {
                let w = self
                    .b
                    .ins()
                    .load(types::I32, MemFlagsData::trusted(), addrs[j * 4 + l], 0);
                acc = self.b.ins().insertlane(acc, w, l as u8);
            }
            out.v[j] = acc;
        }
        out
    }

    /// ld_raw / ld_structured: out-of-bounds components read 0. `stride`
    /// is the likely byte step of a raw offset from lane to lane.
    pub fn emit_load(
        &mut self,
        dst: &Dst,
        res: Resource,
        addr: Addr,
        swizzle: [u8; 4],
        stride: Option<i64>,
    ) -> Result<(), JitError> {
        let m = self.mem(res)?;
        let zero = self.frame_addr(offset_of!(Frame, zero));
        if let (Addr::Raw(off), Some(stride)) = (addr, stride) {
            if super::strided::STRIDES.contains(&stride) {
                let comps: Vec<usize> = (0..4).filter(|c| dst.mask & (1 << c) != 0).collect();
                let mut words: Vec<u8> = comps.iter().map(|c| swizzle[*c] & 3).collect();
                words.sort_unstable();
                words.dedup();
                let values = self.load_strided(&m, off, stride, &words, zero)?;
                for c in comps {
                    let at = words.binary_search(&(swizzle[c] & 3)).unwrap_or(0);
                    self.write(dst, c, values[at])?;
                }
                return Ok(());
            }
        }
        if let (Addr::Raw(off), [0, 1, 2, 3], 0b1111) = (addr, swizzle, dst.mask) {
            let comps = self.load_raw_quad(&m, off, zero)?;
            for (c, v) in comps.into_iter().enumerate() {
                self.write(dst, c, v)?;
            }
            return Ok(());
        }
        let mut results = Vec::new();
        for (c, sc) in swizzle.iter().enumerate() {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            let extra = 4 * u32::from(sc & 3);
            let addrs = self.lane_addrs(&m, addr, extra, zero, None);
            results.push((c, self.gather(&addrs)));
        }
        for (c, v) in results {
            self.write(dst, c, v)?;
        }
        Ok(())
    }

    /// store_raw / store_structured: an out-of-bounds component writes
    /// nothing while the in-bounds components land.
    /// `stride` is the likely byte step of a raw offset from lane to lane.
    pub fn emit_store(
        &mut self,
        res: Resource,
        addr: Addr,
        value: &Src,
        count: u8,
        stride: Option<i64>,
    ) -> Result<(), JitError> {
        let m = self.mem(res)?;
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let exec = self.exec();
        let mut vals = Vec::new();
        for c in 0..count.min(4) as usize {
            vals.push(self.read(value, c, Ty::F)?);
        }
        if let (Addr::Raw(off), [x, y, z, w]) = (addr, vals.as_slice()) {
            let quad = [*x, *y, *z, *w];
            if stride == Some(16) {
                return self.store_rows_strided(&m, off, &quad, sink, &exec);
            }
            return self.store_raw_quad(&m, off, &quad, sink, &exec);
        }
        if let (Addr::Raw(off), Some(stride)) = (addr, stride) {
            if stride == 16 || (stride == 4 && vals.len() == 1) {
                return self.store_words_strided(&m, off, &vals, stride, sink, &exec);
            }
        }
        self.store_words(&m, addr, &vals, sink, &exec)
    }

    /// Stores `vals[c]` at word `c` past each active lane's address, per
    /// component bounds-checked.
    pub(super) fn store_words(
        &mut self,
        m: &Mem,
        addr: Addr,
        vals: &[Lanes],
        sink: Value,
        exec: &Lanes,
    ) -> Result<(), JitError> {
        for (c, v) in vals.iter().enumerate() {
            let addrs = self.lane_addrs(m, addr, 4 * c as u32, sink, Some(exec));
            for j in 0..self.k {
                if j > 0
                    && v.v[j] == v.v[j - 1]
                    && addrs[j * 4..j * 4 + 4] == addrs[j * 4 - 4..j * 4]
                {
                    continue;
                }
                for l in 0..4 {
                    let w = self.b.ins().extractlane(v.v[j], l as u8);
                    self.b
                        .ins()
                        .store(MemFlagsData::trusted(), w, addrs[j * 4 + l], 0);
                }
            }
        }
        Ok(())
    }

    /// atomic_* / imm_atomic_*: one read-modify-write per active in-bounds
    /// lane, in lane order; other lanes touch only the sink and return 0.
    pub fn emit_atomic(
        &mut self,
        op: AtomicOp,
        dst: Option<&Dst>,
        res: Resource,
        addr: &Src,
        value: &Src,
        compare: Option<&Src>,
    ) -> Result<(), JitError> {
        if matches!(self.kind_of(res), Some(ResourceKind::Typed(_))) {
            return self.emit_typed_atomic(op, dst, res, addr, value, compare);
        }
        let m = self.mem(res)?;
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let exec = self.exec();
        let a0 = self.read(addr, 0, Ty::I)?;
        let a1 = self.read(addr, 1, Ty::I)?;
        let v = self.read(value, 0, Ty::I)?;
        let cmp = match compare {
            Some(c) => Some(self.read(c, 0, Ty::I)?),
            None => None,
        };
        let form = match self.kind_of(res) {
            Some(ResourceKind::Structured(_)) => Addr::Structured(&a0, &a1),
            _ => Addr::Raw(&a0),
        };
        let addrs = self.lane_addrs(&m, form, 0, sink, Some(&exec));
        let out = self.lane_by_lane(v, |t, j, l| {
            let a = addrs[j * 4 + l as usize];
            let x = t.b.ins().extractlane(v.v[j], l);
            let flags = MemFlagsData::trusted();
            let old = match (op, cmp) {
                (AtomicOp::CompareExchange, Some(c)) => {
                    let e = t.b.ins().extractlane(c.v[j], l);
                    t.b.ins().atomic_cas(flags, a, e, x)
                }
                _ => {
                    let rmw = match op {
                        AtomicOp::And => AtomicRmwOp::And,
                        AtomicOp::Or => AtomicRmwOp::Or,
                        AtomicOp::Xor => AtomicRmwOp::Xor,
                        AtomicOp::IAdd => AtomicRmwOp::Add,
                        AtomicOp::IMax => AtomicRmwOp::Smax,
                        AtomicOp::IMin => AtomicRmwOp::Smin,
                        AtomicOp::UMax => AtomicRmwOp::Umax,
                        AtomicOp::UMin => AtomicRmwOp::Umin,
                        AtomicOp::Exchange | AtomicOp::CompareExchange => AtomicRmwOp::Xchg,
                    };
                    t.b.ins().atomic_rmw(types::I32, flags, rmw, a, x)
                }
            };
            let is_sink = t.b.ins().icmp(IntCC::Equal, a, sink);
            let zero = t.b.ins().iconst(types::I32, 0);
            t.b.ins().select(is_sink, zero, old)
        });
        self.write_if(dst, out)
    }

    /// Builds lanes like `init`, lane `l` of vector `j` from `lane(self,
    /// j, l)`, in lane order (atomics and helper calls run one lane at a
    /// time).
    pub(super) fn lane_by_lane(
        &mut self,
        init: Lanes,
        mut lane: impl FnMut(&mut Self, usize, u8) -> Value,
    ) -> Lanes {
        let mut out = init;
        for j in 0..self.k {
            let mut acc = init.v[j];
            for l in 0..4u8 {
                let x = lane(self, j, l);
                acc = self.b.ins().insertlane(acc, x, l);
            }
            out.v[j] = acc;
        }
        out
    }

    /// Writes `v` to every masked component of `dst`, when there is one.
    pub(super) fn write_if(&mut self, dst: Option<&Dst>, v: Lanes) -> Result<(), JitError> {
        match dst {
            Some(d) => self.write_each(d, v),
            None => Ok(()),
        }
    }

    /// bufinfo: every component gets the element count (typed), the byte
    /// size (raw) or the structure count (structured).
    pub fn emit_bufinfo(
        &mut self,
        dst: &Dst,
        res: Resource,
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let kind = self.kind_of(res);
        let vals: [Value; 4] = if let Resource::Tgsm(_) = res {
            return Err(JitError::Invalid("bufinfo on g#".into()));
        } else {
            let view = self.view_addr(res)?;
            let flags = MemFlagsData::trusted();
            let size = self
                .b
                .ins()
                .load(types::I32, flags, view, offset_of!(View, size) as i32);
            match kind {
                Some(ResourceKind::Structured(stride)) => {
                    let n = self.b.ins().udiv_imm_u(size, i64::from(stride.max(1)));
                    [n, n, n, n]
                }
                Some(ResourceKind::Typed(_)) => {
                    let w =
                        self.b
                            .ins()
                            .load(types::I32, flags, view, offset_of!(View, width) as i32);
                    [w, w, w, w]
                }
                _ => [size, size, size, size],
            }
        };
        for c in 0..4 {
            if dst.mask & (1 << c) != 0 {
                let v = vals[swizzle[c] as usize & 3];
                let l = self.lb().splat_value(v);
                self.write(dst, c, l)?;
            }
        }
        Ok(())
    }
}
