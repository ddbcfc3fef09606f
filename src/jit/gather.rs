//! `gather4*` and `lod`: one runtime call per 2x2 quad
//! (`dxjit_gather_quad`, `dxjit_lod_quad`), like the sample calls of
//! `typed.rs`.

use super::helpers::HelperId;
use super::lanes::Lanes;
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{Dst, GatherOffset, Resource, SlotOffsets, Src};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::SAMPLER_SLOTS;
use dxjit_runtime::sampler::{GatherSample, QuadSample};
use std::mem::{offset_of, size_of};

/// A quad call's operands: the helper (and the one that takes per-lane
/// slots), its argument block's fields as (field offset, lanes by
/// component), and the integer words to store.
struct QuadCall<'a> {
    helper: HelperId,
    indexed: HelperId,
    res: u32,
    sampler: u32,
    /// Per lane, the texture and sampler slots, when the lanes choose them.
    slots: Option<[Lanes; 2]>,
    args_size: usize,
    lanes: Vec<(usize, &'a [Lanes])>,
    words: Vec<(usize, u32)>,
}

impl Tr<'_, '_> {
    /// `gather4`, `gather4_c`, `gather4_po`, `gather4_po_c`.
    #[allow(clippy::too_many_arguments)]
    pub fn emit_gather(
        &mut self,
        dst: &Dst,
        res: u32,
        sampler: u32,
        coord: &Src,
        channel: u8,
        offset: &GatherOffset,
        swizzle: [u8; 4],
        compare: Option<&Src>,
        slots: Option<&SlotOffsets>,
    ) -> Result<(), JitError> {
        let slots = self.lookup_slots(res, sampler, slots)?;
        let coords = self.components(coord, 4, Ty::F)?;
        let offsets = match offset {
            GatherOffset::Immediate(o) => {
                vec![self.lb().splat(o[0] as u32), self.lb().splat(o[1] as u32)]
            }
            GatherOffset::Programmable(src) => self.components(src, 2, Ty::I)?,
        };
        let reference = match compare {
            Some(s) => vec![self.read(s, 0, Ty::F)?],
            None => Vec::new(),
        };
        let call = QuadCall {
            helper: HelperId::GatherQuad,
            indexed: HelperId::GatherQuadIndexed,
            res,
            sampler,
            slots,
            args_size: size_of::<GatherSample>(),
            lanes: vec![
                (offset_of!(GatherSample, coord), &coords),
                (offset_of!(GatherSample, offset), &offsets),
                (offset_of!(GatherSample, reference), &reference),
            ],
            words: vec![
                (offset_of!(GatherSample, channel), u32::from(channel)),
                (
                    offset_of!(GatherSample, compare),
                    u32::from(compare.is_some()),
                ),
            ],
        };
        let results = self.quad_call(&call)?;
        self.write_swizzled(dst, &results, swizzle)
    }

    /// `lod`.
    pub fn emit_query_lod(
        &mut self,
        dst: &Dst,
        res: u32,
        sampler: u32,
        coord: &Src,
        swizzle: [u8; 4],
        slots: Option<&SlotOffsets>,
    ) -> Result<(), JitError> {
        let slots = self.lookup_slots(res, sampler, slots)?;
        let coords = self.components(coord, 4, Ty::F)?;
        let call = QuadCall {
            helper: HelperId::LodQuad,
            indexed: HelperId::LodQuadIndexed,
            res,
            sampler,
            slots,
            args_size: size_of::<QuadSample>(),
            lanes: vec![(offset_of!(QuadSample, coord), &coords)],
            words: Vec::new(),
        };
        let results = self.quad_call(&call)?;
        self.write_swizzled(dst, &results, swizzle)
    }

    /// Components 0..n of an operand.
    fn components(&mut self, src: &Src, n: usize, ty: Ty) -> Result<Vec<Lanes>, JitError> {
        (0..n).map(|c| self.read(src, c, ty)).collect()
    }

    /// Writes the components of `dst`'s mask from `results` through `swizzle`.
    fn write_swizzled(
        &mut self,
        dst: &Dst,
        results: &[Lanes; 4],
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        for c in 0..4 {
            if dst.mask & (1 << c) != 0 {
                self.write(dst, c, results[swizzle[c] as usize & 3])?;
            }
        }
        Ok(())
    }

    /// One helper call per quad (the indexed helper when the lanes choose
    /// their slots); the four result components.
    fn quad_call(&mut self, call: &QuadCall) -> Result<[Lanes; 4], JitError> {
        let (view, state, f) = match call.slots {
            Some(_) => {
                let (srvs, samplers) = self.slot_tables();
                (srvs, samplers, self.helper(call.indexed))
            }
            None => {
                if call.sampler as usize >= SAMPLER_SLOTS {
                    return Err(JitError::Invalid(format!("s{} out of range", call.sampler)));
                }
                let view = self.view_addr(Resource::Srv(call.res))?;
                let state = self.sampler_addr(call.sampler);
                (view, state, self.helper(call.helper))
            }
        };
        let args = self.args_ptr();
        let out = self
            .b
            .ins()
            .iadd_imm_s(args, call.args_size.next_multiple_of(16) as i64);
        let words: Vec<(usize, Value)> = call
            .words
            .iter()
            .map(|&(at, w)| (at, self.b.ins().iconst(types::I32, i64::from(w))))
            .collect();
        let mut results = [self.lb().splat(0); 4];
        for j in 0..self.k {
            for (at, lanes) in &call.lanes {
                for (i, v) in lanes.iter().enumerate() {
                    self.b
                        .ins()
                        .store(MemFlagsData::trusted(), v.v[j], args, (at + 16 * i) as i32);
                }
            }
            for &(at, w) in &words {
                self.b
                    .ins()
                    .store(MemFlagsData::trusted(), w, args, at as i32);
            }
            self.call_quad_lookup(
                f,
                [view, state],
                call.slots.as_ref(),
                j,
                [args, out],
                &mut results,
            );
        }
        Ok(results)
    }
}
