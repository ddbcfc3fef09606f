//! Multisampled resources: `ld2dms` (one `dxjit_load_sample` call a lane),
//! `sample_info` (one `dxjit_sample_count` call, the same in every lane)
//! and `sample_pos` (one `dxjit_sample_pos` call a lane). The rasterizer's
//! sample count is the y of the `Sample` system value, the same in every
//! lane (the runtime leaves 0 for a single-sampled draw, read as 1).

use super::helpers::HelperId;
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{Dst, Resource, Src};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::{Frame, SysValSlot};
use std::mem::offset_of;

impl Tr<'_, '_> {
    /// `ld2dms`: sample `sample.x` of texel `coord + offset` of SRV `res`.
    pub fn emit_load_sample(
        &mut self,
        dst: &Dst,
        res: u32,
        coord: &Src,
        sample: &Src,
        offset: [i8; 3],
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let res = Resource::Srv(res);
        let mut c = self.coords(res, coord)?;
        for (comp, o) in offset.iter().enumerate().take(2) {
            if *o != 0 {
                let d = self.lb().splat(i32::from(*o) as u32);
                c[comp] = self.lb().map2(c[comp], d, |b, x, y| b.ins().iadd(x, y));
            }
        }
        let s = self.read(sample, 0, Ty::I)?;
        let view = self.view_addr(res)?;
        let f = self.helper(HelperId::LoadSample);
        let out = self.args_ptr();
        let mut per_lane = Vec::new();
        for j in 0..self.k {
            for l in 0..4u8 {
                let args = [c[0], c[1], c[2], s].map(|v| self.b.ins().extractlane(v.v[j], l));
                self.b
                    .ins()
                    .call(f, &[view, args[0], args[1], args[2], args[3], out]);
                per_lane.push(self.four_words(out));
            }
        }
        self.collect4(&per_lane, dst, swizzle)
    }

    /// `sample_info`: (count, 0, 0, 0) of SRV `res` or the rasterizer.
    pub fn emit_sample_info(
        &mut self,
        dst: &Dst,
        res: Option<u32>,
        uint: bool,
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let count = match res {
            Some(r) => {
                let view = self.view_addr(Resource::Srv(r))?;
                let f = self.helper(HelperId::SampleCount);
                let call = self.b.ins().call(f, &[view]);
                self.b.inst_results(call)[0]
            }
            None => self.raster_samples(),
        };
        let count = if uint {
            count
        } else {
            let f = self.b.ins().fcvt_from_uint(types::F32, count);
            self.b.ins().bitcast(types::I32, MemFlagsData::new(), f)
        };
        let zero = self.b.ins().iconst(types::I32, 0);
        self.write_uniform_words(dst, [count, zero, zero, zero], swizzle)
    }

    /// `sample_pos`: (x, y, 0, 0) of sample `index.x` of SRV `res` or the
    /// rasterizer (a null view to the helper).
    pub fn emit_sample_pos(
        &mut self,
        dst: &Dst,
        res: Option<u32>,
        index: &Src,
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let (f, first) = match res {
            Some(r) => (
                self.helper(HelperId::SamplePos),
                self.view_addr(Resource::Srv(r))?,
            ),
            None => (
                self.helper(HelperId::RasterSamplePos),
                self.raster_samples(),
            ),
        };
        let out = self.args_ptr();
        if let Some(i) = self.read_scalar(index, 0, Ty::I) {
            self.b.ins().call(f, &[first, i, out]);
            let words = self.four_words(out);
            return self.write_uniform_words(dst, words, swizzle);
        }
        let idx = self.read(index, 0, Ty::I)?;
        let mut per_lane = Vec::new();
        for j in 0..self.k {
            for l in 0..4u8 {
                let i = self.b.ins().extractlane(idx.v[j], l);
                self.b.ins().call(f, &[first, i, out]);
                per_lane.push(self.four_words(out));
            }
        }
        self.collect4(&per_lane, dst, swizzle)
    }

    /// The rasterizer's sample count: lane 0 of the `Sample` system
    /// value's y, at least 1.
    fn raster_samples(&mut self) -> Value {
        let sysvals = self.frame_ptr(offset_of!(Frame, sysvals));
        let at = (SysValSlot::Sample as u32 * 4 + 1) * self.lanes() * 4;
        let count = self
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), sysvals, at as i32);
        let one = self.b.ins().iconst(types::I32, 1);
        self.b.ins().umax(count, one)
    }

    /// The four words a helper left at `out`.
    fn four_words(&mut self, out: Value) -> [Value; 4] {
        [0, 1, 2, 3].map(|i| {
            self.b
                .ins()
                .load(types::I32, MemFlagsData::trusted(), out, 4 * i)
        })
    }
}
