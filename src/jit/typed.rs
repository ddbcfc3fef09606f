//! Typed buffer and texture accesses, `resinfo`, sampling and texel fetches:
//! per-lane (or per-quad) calls into the runtime, which converts formats and
//! checks bounds in Rust.

use super::helpers::HelperId;
use super::lanes::Lanes;
use super::operand::Ty;
use super::state::Tr;
use super::wide_sample::WideCoords;
use super::JitError;
use crate::ir::{
    AtomicOp, Dim, Dst, Inst, Lod, ResInfoReturn, Resource, ResourceKind, SlotOffsets, Src,
};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::sampler::{QuadSample, LOD_BIAS, LOD_GRADIENT, LOD_IMPLICIT, LOD_LEVEL};
use std::mem::{offset_of, size_of};

/// How many address coordinates a dimension has (x; x, y; x, y, z/slice).
fn coord_count(dim: Option<Dim>) -> usize {
    match dim {
        None | Some(Dim::Buffer) | Some(Dim::Texture1D) => 1,
        Some(Dim::Texture1DArray) | Some(Dim::Texture2D) | Some(Dim::Texture2DMS) => 2,
        Some(_) => 3,
    }
}

/// A `sample*` instruction's operands, as its emitters read them.
pub struct SampleOp<'a> {
    /// The destination.
    pub dst: &'a Dst,
    /// The texture's slot.
    pub res: u32,
    /// The sampler's slot.
    pub sampler: u32,
    /// The coordinates.
    pub coord: &'a Src,
    /// How the level of detail is found.
    pub lod: &'a Lod,
    /// Texel offsets (`aoffimmi`).
    pub offset: [i8; 3],
    /// The result's swizzle.
    pub swizzle: [u8; 4],
    /// The comparison's reference, for comparison lookups.
    pub compare: Option<&'a Src>,
    /// Where the lanes' slots are, when the lanes choose them.
    pub slots: Option<&'a SlotOffsets>,
    /// Nothing reads the sign of a zero result (see `zero_sign.rs`).
    pub zero_sign_free: bool,
}

impl<'a> SampleOp<'a> {
    /// The operands of `inst` when it is a `sample*`, with
    /// `zero_sign_free` false (it depends on what follows).
    pub fn of(inst: &'a Inst) -> Option<Self> {
        let Inst::Sample {
            dst,
            res,
            sampler,
            coord,
            lod,
            offset,
            swizzle,
            compare,
            slots,
        } = inst
        else {
            return None;
        };
        Some(SampleOp {
            dst,
            res: *res,
            sampler: *sampler,
            coord,
            lod,
            offset: *offset,
            swizzle: *swizzle,
            compare: compare.as_ref(),
            slots: slots.as_deref(),
            zero_sign_free: false,
        })
    }

    /// The result components the destination's mask reads through the
    /// swizzle.
    pub fn needed(&self) -> [bool; 4] {
        let mut needed = [false; 4];
        for c in 0..4 {
            if self.dst.mask & (1 << c) != 0 {
                needed[self.swizzle[c] as usize & 3] = true;
            }
        }
        needed
    }
}

impl Tr<'_, '_> {
    /// The address coordinates of `coord` for `res` (x, y, z), with the
    /// ones its dimension lacks zeroed: they may hold anything.
    pub(super) fn coords(&mut self, res: Resource, coord: &Src) -> Result<Vec<Lanes>, JitError> {
        let dim = match self.kind_of(res) {
            Some(ResourceKind::Typed(d)) => Some(d),
            _ => None,
        };
        let n = coord_count(dim);
        let mut c = self.read_n(coord, n, Ty::I)?;
        while c.len() < 3 {
            c.push(self.lb().splat(0));
        }
        Ok(c)
    }

    /// The address coordinates of `coord` for `res` as scalars (x, y, z,
    /// the missing ones zero), when each reads as one: the same in every
    /// lane.
    fn scalar_coords(&mut self, res: Resource, coord: &Src) -> Option<[Value; 3]> {
        let dim = match self.kind_of(res) {
            Some(ResourceKind::Typed(d)) => Some(d),
            _ => None,
        };
        let n = coord_count(dim);
        let mut xyz = [self.b.ins().iconst(types::I32, 0); 3];
        for (c, slot) in xyz.iter_mut().enumerate().take(n) {
            *slot = self.read_scalar(coord, c, Ty::I)?;
        }
        Some(xyz)
    }

    /// Reads components 0..n of an operand.
    fn read_n(&mut self, src: &Src, n: usize, ty: Ty) -> Result<Vec<Lanes>, JitError> {
        (0..n).map(|c| self.read(src, c, ty)).collect()
    }

    /// Writes the four per-lane words the helper left in the args area,
    /// picked through `swizzle`, to `dst`.
    pub(super) fn collect4(
        &mut self,
        per_lane: &[[Value; 4]],
        dst: &Dst,
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let mut comps = Vec::new();
        for (c, sc) in swizzle.iter().enumerate() {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            let sc = *sc as usize & 3;
            let mut v = self.lb().splat(0);
            for j in 0..self.k {
                let mut acc = v.v[j];
                for l in 0..4 {
                    acc = self
                        .b
                        .ins()
                        .insertlane(acc, per_lane[j * 4 + l][sc], l as u8);
                }
                v.v[j] = acc;
            }
            comps.push((c, v));
        }
        for (c, v) in comps {
            self.write(dst, c, v)?;
        }
        Ok(())
    }

    /// Typed load (`ld` on buffers and UAVs, `ld_uav_typed`): out of range reads 0.
    pub fn emit_typed_load(
        &mut self,
        dst: &Dst,
        res: Resource,
        coord: &Src,
        swizzle: [u8; 4],
        with_mip: bool,
    ) -> Result<(), JitError> {
        let mut c = self.coords(res, coord)?;
        c.push(self.read(coord, 3, Ty::I)?);
        self.typed_load_lanes(dst, res, &c, swizzle, with_mip)
    }

    /// Typed load at per-lane coordinates `c` (x, y, z, mip).
    fn typed_load_lanes(
        &mut self,
        dst: &Dst,
        res: Resource,
        c: &[Lanes],
        swizzle: [u8; 4],
        with_mip: bool,
    ) -> Result<(), JitError> {
        let view = self.view_addr(res)?;
        let f = self.helper(HelperId::TypedLoad);
        let out = self.args_ptr();
        let mut per_lane = Vec::new();
        for j in 0..self.k {
            for l in 0..4u8 {
                let x = self.b.ins().extractlane(c[0].v[j], l);
                let y = self.b.ins().extractlane(c[1].v[j], l);
                let z = self.b.ins().extractlane(c[2].v[j], l);
                let mip = if with_mip {
                    self.b.ins().extractlane(c[3].v[j], l)
                } else {
                    self.b.ins().iconst(types::I32, 0)
                };
                self.b.ins().call(f, &[view, x, y, z, mip, out]);
                let words = [0, 1, 2, 3].map(|i| {
                    self.b
                        .ins()
                        .load(types::I32, MemFlagsData::trusted(), out, 4 * i)
                });
                per_lane.push(words);
            }
        }
        self.collect4(&per_lane, dst, swizzle)
    }

    /// Typed store (`store_uav_typed`): active lanes in range write one texel.
    pub fn emit_typed_store(
        &mut self,
        res: Resource,
        coord: &Src,
        value: &Src,
    ) -> Result<(), JitError> {
        let view = self.view_addr(res)?;
        let uniform = self.scalar_coords(res, coord);
        let c = self.coords(res, coord)?;
        let first = self.read(value, 0, Ty::F)?;
        let exec = self.exec();
        self.typed_store_r32_or(
            view,
            |tr, ptr| match uniform {
                Some(xyz) => tr.store_r32_uniform(view, ptr, xyz, &first, &exec),
                None => tr.store_r32_lanes(view, ptr, &c, &first, &exec),
            },
            |tr| {
                let v = tr.read_n(value, 4, Ty::F)?;
                tr.typed_store_calls(view, &c, &v, &exec);
                Ok(())
            },
        )
    }

    /// The runtime's typed store, called once per lane.
    fn typed_store_calls(&mut self, view: Value, c: &[Lanes], v: &[Lanes], exec: &Lanes) {
        let f = self.helper(HelperId::TypedStore);
        let out = self.args_ptr();
        for j in 0..self.k {
            for l in 0..4u8 {
                for (i, comp) in v.iter().enumerate() {
                    let w = self.b.ins().extractlane(comp.v[j], l);
                    self.b
                        .ins()
                        .store(MemFlagsData::trusted(), w, out, 4 * i as i32);
                }
                let x = self.b.ins().extractlane(c[0].v[j], l);
                let y = self.b.ins().extractlane(c[1].v[j], l);
                let z = self.b.ins().extractlane(c[2].v[j], l);
                let active = self.b.ins().extractlane(exec.v[j], l);
                self.b.ins().call(f, &[view, x, y, z, out, active]);
            }
        }
    }

    /// Atomics on typed UAVs (32-bit integer formats).
    pub fn emit_typed_atomic(
        &mut self,
        op: AtomicOp,
        dst: Option<&Dst>,
        res: Resource,
        addr: &Src,
        value: &Src,
        compare: Option<&Src>,
    ) -> Result<(), JitError> {
        let view = self.view_addr(res)?;
        let f = self.helper(HelperId::TypedAtomic);
        let c = self.coords(res, addr)?;
        let v = self.read(value, 0, Ty::I)?;
        let cmp = match compare {
            Some(s) => self.read(s, 0, Ty::I)?,
            None => self.lb().splat(0),
        };
        let exec = self.exec();
        let code = self.b.ins().iconst(types::I32, i64::from(op as u32));
        let out = self.lane_by_lane(v, |t, j, l| {
            let x = t.b.ins().extractlane(c[0].v[j], l);
            let y = t.b.ins().extractlane(c[1].v[j], l);
            let z = t.b.ins().extractlane(c[2].v[j], l);
            let val = t.b.ins().extractlane(v.v[j], l);
            let e = t.b.ins().extractlane(cmp.v[j], l);
            let active = t.b.ins().extractlane(exec.v[j], l);
            let call = t.b.ins().call(f, &[view, code, x, y, z, val, e, active]);
            t.b.inst_results(call)[0]
        });
        self.write_if(dst, out)
    }

    /// resinfo: width, height, depth or layers, and mip count at a level;
    /// a level past the last gives zeros (the mip count stays). A level
    /// that reads as a scalar (an immediate, a constant, a scalar temp) is
    /// the same in every lane: the runtime is asked once.
    pub fn emit_resinfo(
        &mut self,
        dst: &Dst,
        res: Resource,
        mip: &Src,
        ret: ResInfoReturn,
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        if let Some(level) = self.read_scalar(mip, 0, Ty::I) {
            let words = self.resinfo_call(res, level, ret)?;
            return self.write_uniform_words(dst, words, swizzle);
        }
        let m = self.read(mip, 0, Ty::I)?;
        let mut per_lane = Vec::new();
        for j in 0..self.k {
            for l in 0..4u8 {
                let level = self.b.ins().extractlane(m.v[j], l);
                per_lane.push(self.resinfo_call(res, level, ret)?);
            }
        }
        self.collect4(&per_lane, dst, swizzle)
    }

    /// One `resinfo` of `res` at `level`: the four result words, converted
    /// as `ret` asks.
    fn resinfo_call(
        &mut self,
        res: Resource,
        level: Value,
        ret: ResInfoReturn,
    ) -> Result<[Value; 4], JitError> {
        let dim = match self.kind_of(res) {
            Some(ResourceKind::Typed(d)) => d,
            _ => Dim::Buffer,
        };
        let view = self.view_addr(res)?;
        let f = self.helper(HelperId::ResInfo);
        let code = self.b.ins().iconst(types::I32, i64::from(dim as u32));
        let out = self.args_ptr();
        self.b.ins().call(f, &[view, code, level, out]);
        let mut words = [0, 1, 2, 3].map(|i| {
            self.b
                .ins()
                .load(types::I32, MemFlagsData::trusted(), out, 4 * i)
        });
        if ret == ResInfoReturn::Uint {
            return Ok(words);
        }
        for (i, x) in words.iter_mut().enumerate() {
            let mut f = self.b.ins().fcvt_from_uint(types::F32, *x);
            if ret == ResInfoReturn::RcpFloat && i < 3 {
                let one = self.b.ins().f32const(1.0);
                f = self.b.ins().fdiv(one, f);
            }
            *x = self.b.ins().bitcast(types::I32, MemFlagsData::new(), f);
        }
        Ok(words)
    }

    /// Writes the words picked through `swizzle` to `dst`, the same in
    /// every lane: into a scalar temp as is, else splatted.
    pub(super) fn write_uniform_words(
        &mut self,
        dst: &Dst,
        words: [Value; 4],
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        for (c, sc) in swizzle.iter().enumerate() {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            let word = words[*sc as usize & 3];
            match self.scalar_dst(dst, c) {
                Some(var) => self.b.def_var(var, word),
                None => {
                    let v = self.lb().splat_value(word);
                    self.write(dst, c, v)?;
                }
            }
        }
        Ok(())
    }

    /// Stores `n` components of `vals` into the `[component][lane]` array at
    /// `base + off` for quad `j`.
    fn store_quad(&mut self, vals: &[Lanes], j: usize, base: Value, off: usize) {
        for (i, v) in vals.iter().enumerate() {
            self.b
                .ins()
                .store(MemFlagsData::trusted(), v.v[j], base, (off + 16 * i) as i32);
        }
    }

    /// sample*: filtered in compiled code for the pairs the runtime
    /// describes as inline (see `inline_sample`), otherwise one runtime
    /// call per 2x2 quad with the lanes' coordinates.
    pub fn emit_sample(&mut self, op: &SampleOp) -> Result<(), JitError> {
        let slots = self.lookup_slots(op.res, op.sampler, op.slots)?;
        if slots.is_none() && op.sampler as usize >= dxjit_runtime::abi::SAMPLER_SLOTS {
            return Err(JitError::Invalid(format!("s{} out of range", op.sampler)));
        }
        let pair = match (op.compare, slots) {
            (None, None) => self.inline_pair(op.res, op.sampler),
            _ => None,
        };
        let results = match pair {
            Some(pair) => {
                // The inline path reads u and v only; the runtime's call,
                // out of line, reads its operands itself.
                let coords = self.sample_coords(op)?;
                let call = |tr: &mut Self, uv| tr.sample_runtime(op, slots, uv);
                self.sample_inline(pair, coords, op.offset, op.needed(), call)?
            }
            None => self.sample_runtime(op, slots, None)?,
        };
        self.write_sample(op, results)
    }

    /// Two consecutive `sample*`s through pairs `pairs` of the program's
    /// inline pairs ([`Self::wide_pair`]), in one call of the runtime's wide
    /// filter (`wide_sample.rs`); the second reads nothing the first
    /// writes, and both read their operands before either writes its
    /// destination.
    pub fn emit_sample_pair(
        &mut self,
        first: &SampleOp,
        second: &SampleOp,
        pairs: [usize; 2],
    ) -> Result<(), JitError> {
        let ops = [first, second];
        let mut lookups = Vec::with_capacity(2);
        for (op, pair) in ops.iter().zip(pairs) {
            lookups.push(super::wide_sample::WideArgs {
                pair,
                coords: self.sample_coords(op)?,
                needed: op.needed(),
            });
        }
        let results = self.wide_lookups(&lookups, |tr, i, uv| {
            tr.sample_runtime(ops[i], None, Some(uv))
        })?;
        for (op, found) in ops.iter().zip(results) {
            self.write_sample(op, found)?;
        }
        Ok(())
    }

    /// A lookup's u and v: read, or for inputs only wide lookups read,
    /// their places in the row's table and the operand to read them by
    /// where the step has no table ([`WideCoords::Table`]).
    fn sample_coords(&mut self, op: &SampleOp) -> Result<WideCoords, JitError> {
        if let Some(positions) = self.table_positions(op.coord) {
            let coord = op.coord.clone();
            return Ok(WideCoords::Table { positions, coord });
        }
        Ok(WideCoords::Lanes([
            self.read(op.coord, 0, Ty::F)?,
            self.read(op.coord, 1, Ty::F)?,
        ]))
    }

    /// A lookup through the runtime's general path, its operands read here
    /// (u and v given as `uv` instead, when they were kept elsewhere). With
    /// `zero_sign_free` (nothing reads the sign of a zero result: see
    /// `zero_sign.rs`), its −0 results are made +0.
    fn sample_runtime(
        &mut self,
        op: &SampleOp,
        slots: Option<[Lanes; 2]>,
        uv: Option<[Lanes; 2]>,
    ) -> Result<[Lanes; 4], JitError> {
        let results = self.sample_call_reading(op, uv, slots)?;
        Ok(match op.zero_sign_free {
            true => results.map(|r| self.positive_zero(r)),
            false => results,
        })
    }

    /// Writes a lookup's components to its destination, through its
    /// swizzle; with `zero_sign_free`, notes them as never −0 (no path
    /// makes −0 then: see [`Self::sample_runtime`]).
    fn write_sample(&mut self, op: &SampleOp, results: [Lanes; 4]) -> Result<(), JitError> {
        for c in 0..4 {
            if op.dst.mask & (1 << c) == 0 {
                continue;
            }
            self.write(op.dst, c, results[op.swizzle[c] as usize & 3])?;
            if op.zero_sign_free {
                let slot = op.dst.index.base * 4 + c as u32;
                self.func.positive_zero_temps.insert(slot);
            }
        }
        Ok(())
    }

    /// One runtime call per quad for a `sample*`, reading its operands
    /// here: the coordinates (u and v given as `uv` instead, when they
    /// were kept elsewhere), level of detail or gradients and the
    /// comparison's reference.
    fn sample_call_reading(
        &mut self,
        op: &SampleOp,
        uv: Option<[Lanes; 2]>,
        slots: Option<[Lanes; 2]>,
    ) -> Result<[Lanes; 4], JitError> {
        let (coord, lod, compare) = (op.coord, op.lod, op.compare);
        let coords = match uv {
            // A component that reads u's or v's register component again
            // (`v1.xyxx`) is given too: its register may hold nothing
            // when a wide lookup interpolates u and v itself.
            Some([u, v]) => {
                let mut coords = vec![u, v];
                for c in 2..4 {
                    coords.push(match coord.swizzle[c] {
                        w if w == coord.swizzle[0] => u,
                        w if w == coord.swizzle[1] => v,
                        _ => self.read(coord, c, Ty::F)?,
                    });
                }
                coords
            }
            None => self.read_n(coord, 4, Ty::F)?,
        };
        let vertex = self.prog.stage != crate::ir::Stage::Pixel;
        let (mode, lod, grads) = match lod {
            Lod::Implicit if vertex => (LOD_LEVEL, Some(self.lb().splat(0)), None),
            Lod::Implicit => (LOD_IMPLICIT, None, None),
            Lod::Bias(s) => (LOD_BIAS, Some(self.read(s, 0, Ty::F)?), None),
            Lod::Level(s) => (LOD_LEVEL, Some(self.read(s, 0, Ty::F)?), None),
            Lod::Gradient(x, y) => (
                LOD_GRADIENT,
                None,
                Some((self.read_n(x, 4, Ty::F)?, self.read_n(y, 4, Ty::F)?)),
            ),
        };
        let reference = match compare {
            Some(s) => Some(self.read(s, 0, Ty::F)?),
            None => None,
        };
        self.sample_call(&QuadArgs {
            res: op.res,
            sampler: op.sampler,
            coords: &coords,
            mode,
            lod,
            grads: grads.as_ref(),
            reference,
            offset: op.offset,
            slots,
        })
    }

    /// One `dxjit_sample_quad` call per quad (`dxjit_sample_quad_indexed`
    /// when the lanes choose their slots); the four result components.
    fn sample_call(&mut self, a: &QuadArgs) -> Result<[Lanes; 4], JitError> {
        let (view, state, f) = match a.slots {
            Some(_) => {
                let (srvs, samplers) = self.slot_tables();
                (srvs, samplers, self.helper(HelperId::SampleQuadIndexed))
            }
            None => {
                let view = self.view_addr(Resource::Srv(a.res))?;
                let state = self.sampler_addr(a.sampler);
                (view, state, self.helper(HelperId::SampleQuad))
            }
        };
        let args = self.args_ptr();
        let out = self
            .b
            .ins()
            .iadd_imm_s(args, size_of::<QuadSample>().next_multiple_of(16) as i64);
        let mode_v = self.b.ins().iconst(types::I32, i64::from(a.mode));
        let alpha = if self.prog.unbound_texture_alpha_one {
            1.0
        } else {
            0.0
        };
        let unbound_alpha = self.b.ins().f32const(alpha);
        let mut results = [self.lb().splat(0); 4];
        for j in 0..self.k {
            self.store_quad(a.coords, j, args, offset_of!(QuadSample, coord));
            if let Some((gx, gy)) = a.grads {
                self.store_quad(gx, j, args, offset_of!(QuadSample, ddx));
                self.store_quad(gy, j, args, offset_of!(QuadSample, ddy));
            }
            if let Some(l) = a.lod {
                self.store_quad(&[l], j, args, offset_of!(QuadSample, lod));
            }
            if let Some(r) = a.reference {
                self.store_quad(&[r], j, args, offset_of!(QuadSample, reference));
            }
            for (i, o) in a.offset.iter().enumerate() {
                let v = self.b.ins().iconst(types::I32, i64::from(*o));
                self.b.ins().store(
                    MemFlagsData::trusted(),
                    v,
                    args,
                    (offset_of!(QuadSample, offset) + 4 * i) as i32,
                );
            }
            self.b.ins().store(
                MemFlagsData::trusted(),
                mode_v,
                args,
                offset_of!(QuadSample, mode) as i32,
            );
            self.b.ins().store(
                MemFlagsData::trusted(),
                unbound_alpha,
                args,
                offset_of!(QuadSample, unbound_alpha) as i32,
            );
            self.call_quad_lookup(
                f,
                [view, state],
                a.slots.as_ref(),
                j,
                [args, out],
                &mut results,
            );
        }
        Ok(results)
    }

    /// ld on a texture SRV: integer coordinates plus the immediate offset,
    /// the mip level in `w`; out-of-range texels read 0.
    pub fn emit_fetch(
        &mut self,
        dst: &Dst,
        res: u32,
        coord: &Src,
        offset: [i8; 3],
        swizzle: [u8; 4],
    ) -> Result<(), JitError> {
        let res_id = Resource::Srv(res);
        let mut c = self.coords(res_id, coord)?;
        c.push(self.read(coord, 3, Ty::I)?);
        for (comp, o) in offset.iter().enumerate() {
            if *o != 0 {
                let d = self.lb().splat(i32::from(*o) as u32);
                c[comp] = self.lb().map2(c[comp], d, |b, x, y| b.ins().iadd(x, y));
            }
        }
        let with_mip = matches!(self.kind_of(Resource::Srv(res)), Some(ResourceKind::Typed(d)) if d != Dim::Buffer);
        self.typed_load_lanes(dst, Resource::Srv(res), &c, swizzle, with_mip)
    }
}

/// A lookup's operands as the runtime's `QuadSample` takes them.
struct QuadArgs<'a> {
    res: u32,
    sampler: u32,
    coords: &'a [Lanes],
    mode: u32,
    lod: Option<Lanes>,
    grads: Option<&'a (Vec<Lanes>, Vec<Lanes>)>,
    reference: Option<Lanes>,
    offset: [i8; 3],
    /// Per lane, the texture and sampler slots, when the lanes choose them.
    slots: Option<[Lanes; 2]>,
}
