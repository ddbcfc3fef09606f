//! Row copies: an `ld_raw rN.xyzw` whose four words go unchanged to the
//! next instruction's `store_raw .xyzw` (`dst.Store4(o, src.Load4(i))`).
//!
//! When both offsets step by 16 bytes from lane to lane (see `stride`),
//! every row of both is in bounds and every lane runs, compiled code copies
//! the 16-byte rows as they are: no transpose into components and back.
//! The register is built from the rows only when something reads it
//! later. Otherwise the load and the store run as two instructions.

use super::lanes::{Lanes, MAX_K, VEC};
use super::memory::Addr;
use super::operand::Ty;
use super::state::Tr;
use super::vector_memory::flags;
use super::JitError;
use crate::ir::{File, Inst, XYZW};
use cranelift_codegen::ir::InstBuilder;

impl Tr<'_, '_> {
    /// Emits `load` and `next` as one row copy when they form one (see the
    /// module doc) and returns whether it did; `pos` is `load`'s index in
    /// the main function.
    pub fn emit_row_copy(
        &mut self,
        load: &Inst,
        next: Option<&Inst>,
        pos: Option<usize>,
    ) -> Result<bool, JitError> {
        let (
            Some(pos),
            Inst::LoadRaw {
                dst,
                res: from,
                offset: load_off,
                swizzle: XYZW,
            },
            Some(Inst::StoreRaw {
                res: to,
                offset: store_off,
                value,
                count: 4,
            }),
        ) = (pos, load, next)
        else {
            return Ok(false);
        };
        let reg = dst.index.base;
        let reads_reg = |s: &crate::ir::Src| s.file == File::Temp && s.index.base == reg;
        let strided = |p: usize| self.facts.raw_strides.get(&p) == Some(&16);
        let copies = dst.file == File::Temp
            && dst.mask == 0b1111
            && !dst.saturate
            && dst.index.rel.is_none()
            && reads_reg(value)
            && value.index.rel.is_none()
            && value.swizzle == XYZW
            && !value.neg
            && !value.abs
            && !reads_reg(store_off)
            && store_off.index.rel.is_none()
            && (0..4).all(|c| self.facts.scalars.var(reg, c).is_none())
            && strided(pos)
            && strided(pos + 1);
        if !copies {
            return Ok(false);
        }
        // The store's offset does not read the loaded register, so reading
        // it before the load changes nothing.
        let load_at = self.read(load_off, 0, Ty::I)?;
        let store_at = self.read(store_off, 0, Ty::I)?;
        let src = self.mem(*from)?;
        let out = self.mem(*to)?;
        let (load_ok, load_first) = self.strided_in_bounds(&src, &load_at, 16, 16);
        let (store_ok, store_first) = self.strided_in_bounds(&out, &store_at, 16, 16);
        let exec = self.exec();
        let active = self.every_lane_runs(&exec);
        let both = self.b.ins().band(load_ok, store_ok);
        let fast_ok = self.b.ins().band(both, active);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(fast_ok, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        let from_row = self.b.ins().iadd(src.ptr, load_first);
        let to_row = self.b.ins().iadd(out.ptr, store_first);
        let rows = self.copy_rows(from_row, to_row, from == to);
        let live = self.facts.liveness.after(pos + 1);
        if (0..4).any(|c| live.contains(&(reg, c))) {
            let mut comps = [Lanes {
                v: [from_row; MAX_K],
            }; 4];
            for j in 0..self.k {
                let columns = self.transpose([0, 1, 2, 3].map(|l| rows[4 * j + l]));
                for (comp, column) in comps.iter_mut().zip(columns) {
                    comp.v[j] = column;
                }
            }
            for (c, v) in comps.into_iter().enumerate() {
                self.write(dst, c, v)?;
            }
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        self.emit_load(dst, *from, Addr::Raw(&load_at), XYZW, Some(16))?;
        self.emit_store(*to, Addr::Raw(&store_at), value, 4, Some(16))?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(true)
    }

    /// Copies the call's `4k` rows of 16 bytes from `from` to `to` and
    /// returns them. When both are in one resource (`same`) every row is
    /// loaded before any is stored, as the two instructions would; else
    /// each vector's four rows go at once.
    fn copy_rows(
        &mut self,
        from: cranelift_codegen::ir::Value,
        to: cranelift_codegen::ir::Value,
        same: bool,
    ) -> Vec<cranelift_codegen::ir::Value> {
        let rows = 4 * self.k;
        let mut loaded = Vec::with_capacity(rows);
        let group = if same { rows } else { 4 };
        for first in (0..rows).step_by(group) {
            for r in first..first + group {
                loaded.push(self.b.ins().load(VEC, flags(), from, 16 * r as i32));
            }
            for (r, row) in loaded.iter().enumerate().skip(first) {
                self.b.ins().store(flags(), *row, to, 16 * r as i32);
            }
        }
        loaded
    }
}
