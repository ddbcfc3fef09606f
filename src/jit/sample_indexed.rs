//! Lookups whose texture or sampler slot each lane chooses at run time
//! ([`crate::ir::SlotOffsets`], SM5 class instances' `t[this[i].z]`): the
//! compiled code computes each lane's slots and makes one runtime call per
//! quad (`sample*`, `gather4*`, `lod`) or lane (`ld`) with them and the
//! frame's tables of every bound SRV and sampler, which the runtime
//! indexes (`dxjit_sample_quad_indexed`, `dxjit_gather_quad_indexed`,
//! `dxjit_lod_quad_indexed`, `dxjit_fetch_indexed`). A call site costs the
//! same code whatever slots it may reach.

use super::helpers::HelperId;
use super::lanes::{Lanes, VEC};
use super::operand::Ty;
use super::state::{Tr, ARGS_BYTES};
use super::JitError;
use crate::ir::{Dst, SlotOffsets, Src};
use cranelift_codegen::ir::{types, FuncRef, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::Frame;
use dxjit_runtime::sampler::{QuadSample, QuadSlots};
use std::mem::{offset_of, size_of};

/// Where a quad's [`QuadSlots`] lie in the helper argument area: after the
/// lookup's arguments and its result block, which together stay below
/// this offset.
pub(super) const QUAD_SLOTS_AT: i32 = 512;

const _: () = assert!(
    size_of::<QuadSample>().next_multiple_of(16) + size_of::<[[f32; 4]; 4]>()
        <= QUAD_SLOTS_AT as usize
        && QUAD_SLOTS_AT as usize + size_of::<QuadSlots>() <= ARGS_BYTES as usize
);

impl Tr<'_, '_> {
    /// Per lane, `base + offset.x` (wrapping, as unsigned integers), or
    /// `base` without an offset.
    pub(super) fn slot_lanes(
        &mut self,
        base: u32,
        offset: Option<&Src>,
    ) -> Result<Lanes, JitError> {
        let base = self.lb().splat(base);
        match offset {
            None => Ok(base),
            Some(src) => {
                let by = self.read(src, 0, Ty::I)?;
                Ok(self.lb().map2(base, by, |b, x, y| b.ins().iadd(x, y)))
            }
        }
    }

    /// Per lane, a lookup's texture and sampler slots when `slots` chooses
    /// them; `None` for fixed ones.
    pub(super) fn lookup_slots(
        &mut self,
        res: u32,
        sampler: u32,
        slots: Option<&SlotOffsets>,
    ) -> Result<Option<[Lanes; 2]>, JitError> {
        let Some(s) = slots else {
            return Ok(None);
        };
        Ok(Some([
            self.slot_lanes(res, s.texture.as_ref())?,
            self.slot_lanes(sampler, s.sampler.as_ref())?,
        ]))
    }

    /// The frame's SRV and sampler tables.
    pub(super) fn slot_tables(&mut self) -> (Value, Value) {
        let srvs = self.frame_ptr(offset_of!(Frame, srvs));
        let samplers = self.frame_ptr(offset_of!(Frame, samplers));
        (srvs, samplers)
    }

    /// Calls the quad lookup `f` with its view and sampler `fixed`, its
    /// argument block and result block `[args, out]` for vector `j` (and
    /// each lane's slots stored after the arguments when the lanes choose
    /// them), then reads the four result components into `results`.
    pub(super) fn call_quad_lookup(
        &mut self,
        f: FuncRef,
        fixed: [Value; 2],
        slots: Option<&[Lanes; 2]>,
        j: usize,
        [args, out]: [Value; 2],
        results: &mut [Lanes; 4],
    ) {
        let [view, state] = fixed;
        match slots {
            Some(slots) => {
                let at = self.store_quad_slots(slots, j, args);
                self.b.ins().call(f, &[view, state, at, args, out]);
            }
            None => {
                self.b.ins().call(f, &[view, state, args, out]);
            }
        }
        for (c, r) in results.iter_mut().enumerate() {
            r.v[j] = self
                .b
                .ins()
                .load(VEC, MemFlagsData::trusted(), out, 16 * c as i32);
        }
    }

    /// Stores quad `j`'s texture and sampler slots as a [`QuadSlots`] at
    /// [`QUAD_SLOTS_AT`] in the argument area `args`; its address.
    pub(super) fn store_quad_slots(&mut self, slots: &[Lanes; 2], j: usize, args: Value) -> Value {
        let at = self.b.ins().iadd_imm_s(args, i64::from(QUAD_SLOTS_AT));
        for (v, field) in slots
            .iter()
            .zip([offset_of!(QuadSlots, srv), offset_of!(QuadSlots, sampler)])
        {
            self.b
                .ins()
                .store(MemFlagsData::trusted(), v.v[j], at, field as i32);
        }
        at
    }

    /// `ld` from the SRV each lane's slot names (`res + texture.x`): the
    /// texel at `coord` (x, y, z or slice, mip in w) plus `offset`, read as
    /// the kind bound there; one runtime call per lane.
    pub(super) fn emit_fetch_indexed(
        &mut self,
        dst: &Dst,
        res: u32,
        texture: Option<&Src>,
        coord: &Src,
        offset: [i8; 3],
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let slot = self.slot_lanes(res, texture)?;
        let mut c = Vec::with_capacity(4);
        for comp in 0..4 {
            let v = self.read(coord, comp, Ty::I)?;
            c.push(match offset.get(comp) {
                Some(&o) if o != 0 => {
                    let d = self.lb().splat(i32::from(o) as u32);
                    self.lb().map2(v, d, |b, x, y| b.ins().iadd(x, y))
                }
                _ => v,
            });
        }
        let (srvs, _) = self.slot_tables();
        let f = self.helper(HelperId::FetchIndexed);
        let out = self.args_ptr();
        let mut per_lane = Vec::with_capacity(4 * self.k);
        for j in 0..self.k {
            for l in 0..4u8 {
                let s = self.b.ins().extractlane(slot.v[j], l);
                let [x, y, z, mip] = [0, 1, 2, 3].map(|i| self.b.ins().extractlane(c[i].v[j], l));
                self.b.ins().call(f, &[srvs, s, x, y, z, mip, out]);
                per_lane.push([0, 1, 2, 3].map(|i| {
                    self.b
                        .ins()
                        .load(types::I32, MemFlagsData::trusted(), out, 4 * i)
                }));
            }
        }
        self.collect4(&per_lane, dst, swizzle)
    }
}
