//! Lookups handed to the runtime's AVX2 filter, `dxjit_sample_wide`.
//!
//! Cranelift makes only 128-bit vector code; on a CPU with AVX2 and FMA
//! the runtime filters the common case (the [`InlineSampler`](dxjit_runtime::sampler::InlineSampler) subset)
//! sixteen lanes at a time in 256-bit vectors, with gathers and in-lane
//! byte shuffles, for the same results bit for bit. A lookup's lanes go in
//! a [`WideBatch`] in the argument area: the pair's description and the
//! coordinates are stored first, and one call filters every lookup of the
//! batch. A lookup it did not take (a pair without texels: another
//! format, or a texture of another dimension bound where a D3D9 shader did
//! not declare one; or coordinates that do not convert) calls the
//! runtime's general path on a cold path, with its u and
//! v loaded back from the batch and its other coordinates read from their
//! registers, so that no u or v is kept in a register into a cold path or
//! across the call; the cold path stores its results in the batch. Every
//! path so leaves the results in the batch, and they are loaded once the
//! paths join, each moved before its first reader ([`super::sink`]).
//!
//! Consecutive lookups that do not read each other's results share one
//! call ([`Tr::emit_sample_pair`]): one call's overhead, their work
//! overlapped in the runtime, and no result of the first kept across a
//! second call.

use super::draw_row::RowVars;
use super::helpers::HelperId;
use super::lanes::{LaneVar, Lanes};
use super::operand::Ty;
use super::state::Tr;
use super::typed::SampleOp;
use super::JitError;
use crate::ir::{Inst, Lod, Src};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::sampler::{QuadSample, WideBatch, WideLookup, WIDE_BATCH, WIDE_LANES};
use std::mem::{offset_of, size_of};

mod table;

pub use table::WideCoords;

/// One lookup of a wide call.
pub struct WideArgs {
    /// Its pair among the program's inline pairs.
    pub pair: usize,
    /// Its u and v.
    pub coords: WideCoords,
    /// The components to load (the others are zeros).
    pub needed: [bool; 4],
}

// A lookup the call declines runs the runtime's general path, which
// stores its arguments and results at the start of the argument area:
// they must end before the second lookup's coordinates, which are loaded
// after that.
const _: () = assert!(
    size_of::<QuadSample>().next_multiple_of(16) + size_of::<[[f32; 4]; 4]>()
        <= offset_of!(WideBatch, lookups) + size_of::<WideLookup>()
);

/// Where lookup `i` of a [`WideBatch`] starts.
fn lookup_at(i: usize) -> usize {
    offset_of!(WideBatch, lookups) + i * size_of::<WideLookup>()
}

/// Where component `c` of lookup `i`'s results starts.
fn result_at(i: usize, c: usize) -> usize {
    lookup_at(i) + offset_of!(WideLookup, out) + size_of::<[f32; WIDE_LANES]>() * c
}

/// Where lookup `i`'s u and v start.
fn coords_at(i: usize) -> [usize; 2] {
    [offset_of!(WideLookup, u), offset_of!(WideLookup, v)].map(|field| lookup_at(i) + field)
}

impl Tr<'_, '_> {
    /// Runs `lookups` (at most [`WIDE_BATCH`]) through one call of the
    /// wide filter; each lookup the call does not take (its pair has no
    /// texels, or its coordinates do not convert) runs through `runtime`,
    /// given the lookup's index and its u and v. (The call tests the pairs'
    /// texels itself: testing them here too cost every step two loads and
    /// a branch.) The u and v are stored in the batch first, and every
    /// path loads them back from there: kept in registers into the cold
    /// paths, they were spilled and reloaded on the hot one.
    ///
    /// Every path leaves each lookup's results in the batch, and they are
    /// loaded after the paths join, as loads that may move
    /// ([`super::sink`] puts each before its first reader): results
    /// merged from the paths in registers were all live at once from the
    /// join, and the backend spilled most of them. Returns each lookup's
    /// components.
    pub(super) fn wide_lookups(
        &mut self,
        lookups: &[WideArgs],
        mut runtime: impl FnMut(&mut Self, usize, [Lanes; 2]) -> Result<[Lanes; 4], JitError>,
    ) -> Result<Vec<[Lanes; 4]>, JitError> {
        debug_assert!(!lookups.is_empty() && lookups.len() <= WIDE_BATCH);
        let samplers: Vec<Value> = lookups
            .iter()
            .map(|l| self.inline_sampler(l.pair))
            .collect();
        let batch = self.args_ptr();
        for (i, sampler) in samplers.iter().enumerate() {
            let at = offset_of!(WideBatch, samplers) + i * size_of::<usize>();
            self.b
                .ins()
                .store(MemFlagsData::trusted(), *sampler, batch, at as i32);
        }
        self.store_coords(lookups)?;
        let cold = self.b.create_block();
        let join = self.b.create_block();
        let taken = self.b.append_block_param(cold, types::I32);
        let count = self.b.ins().iconst(types::I32, lookups.len() as i64);
        let lanes = self.b.ins().iconst(types::I32, (4 * self.k) as i64);
        let f = self.helper(HelperId::SampleWide);
        let call = self.b.ins().call(f, &[batch, count, lanes]);
        let called = self.b.inst_results(call)[0];
        let all = (1i64 << lookups.len()) - 1;
        let every_taken = self.b.ins().icmp_imm_u(IntCC::Equal, called, all);
        self.b
            .ins()
            .brif(every_taken, join, &[], cold, &[called.into()]);

        self.b.switch_to_block(cold);
        self.b.set_cold_block(cold);
        self.untaken_through_runtime(lookups, taken, &mut runtime)?;
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(join);
        let batch = self.args_ptr();
        let flags = MemFlagsData::trusted().with_can_move();
        Ok(lookups
            .iter()
            .enumerate()
            .map(|(i, lookup)| {
                let mut out = [self.lb().splat(0); 4];
                for c in (0..4).filter(|c| lookup.needed[*c]) {
                    out[c] = self.load_lanes_with(batch, result_at(i, c) as i32, flags);
                }
                out
            })
            .collect())
    }

    /// The cold path: each lookup whose bit `taken` lacks runs through
    /// `runtime`, and every lookup's results go to the batch. The
    /// runtime's arguments overlap the first lookup's results, so each
    /// taken lookup's results are read into registers first, and all are
    /// stored after the calls.
    fn untaken_through_runtime(
        &mut self,
        lookups: &[WideArgs],
        taken: Value,
        runtime: &mut impl FnMut(&mut Self, usize, [Lanes; 2]) -> Result<[Lanes; 4], JitError>,
    ) -> Result<(), JitError> {
        let mut vars = Vec::with_capacity(lookups.len());
        for (i, lookup) in lookups.iter().enumerate() {
            let needed: Vec<(usize, LaneVar)> = (0..4)
                .filter(|c| lookup.needed[*c])
                .map(|c| (c, self.lb().declare()))
                .collect();
            let done = self.b.create_block();
            let slow = self.b.create_block();
            let next = self.b.create_block();
            let bit = self.b.ins().band_imm_u(taken, 1 << i);
            self.b.ins().brif(bit, done, &[], slow, &[]);

            self.b.switch_to_block(done);
            self.b.set_cold_block(done);
            let batch = self.args_ptr();
            for (c, var) in &needed {
                let value = self.load_lanes(batch, result_at(i, *c) as i32);
                self.lb().def_var(*var, value);
            }
            self.b.ins().jump(next, &[]);

            self.b.switch_to_block(slow);
            self.b.set_cold_block(slow);
            let uv = self.wide_coords(i, &lookup.coords)?;
            let called = runtime(self, i, uv)?;
            for (c, var) in &needed {
                self.lb().def_var(*var, called[*c]);
            }
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
            self.b.set_cold_block(next);
            vars.push(needed);
        }
        let batch = self.args_ptr();
        for (i, needed) in vars.iter().enumerate() {
            for (c, var) in needed {
                let value = self.lb().use_var(*var);
                self.store_lanes(value, batch, result_at(i, *c) as i32);
            }
        }
        Ok(())
    }

    /// Stores each lookup's coordinates in the batch: its u and v, or the
    /// positions of table-only inputs in a step with the row's table
    /// (with the row and the step's entries) — a branch on the step's
    /// flag when some lookup has them.
    fn store_coords(&mut self, lookups: &[WideArgs]) -> Result<(), JitError> {
        let tables = lookups
            .iter()
            .any(|l| matches!(l.coords, WideCoords::Table { .. }));
        if !tables {
            return self.store_given(lookups, false);
        }
        self.by_table_flag(
            |tr, vars| {
                let batch = tr.args_ptr();
                for (var, field) in [
                    (vars.row, offset_of!(WideBatch, row)),
                    (vars.entry, offset_of!(WideBatch, entries)),
                ] {
                    let ptr = tr.b.use_var(var);
                    tr.b.ins()
                        .store(MemFlagsData::trusted(), ptr, batch, field as i32);
                }
                tr.store_given(lookups, true)
            },
            |tr| tr.store_given(lookups, false),
        )
    }

    /// Emits `with_table` (given the step's variables) where the step has
    /// the row's table, by its flag, and `without` elsewhere; continues
    /// after both.
    fn by_table_flag(
        &mut self,
        with_table: impl FnOnce(&mut Self, &RowVars) -> Result<(), JitError>,
        without: impl FnOnce(&mut Self) -> Result<(), JitError>,
    ) -> Result<(), JitError> {
        let vars = self.row_vars();
        let yes = self.b.create_block();
        let no = self.b.create_block();
        let join = self.b.create_block();
        let flag = self.b.use_var(vars.table);
        self.b.ins().brif(flag, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        with_table(self, &vars)?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(no);
        without(self)?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }

    /// Stores each lookup's u and v and `-1` positions, or (`table`) the
    /// positions of a table lookup's u and v instead. A table lookup's u
    /// and v are read here when they are stored.
    fn store_given(&mut self, lookups: &[WideArgs], table: bool) -> Result<(), JitError> {
        let batch = self.args_ptr();
        for (i, lookup) in lookups.iter().enumerate() {
            let (positions, lanes) = match &lookup.coords {
                WideCoords::Table { positions, .. } if table => (positions.map(i64::from), None),
                WideCoords::Table { coord, .. } => (
                    [-1, -1],
                    Some([self.read(coord, 0, Ty::F)?, self.read(coord, 1, Ty::F)?]),
                ),
                WideCoords::Lanes(lanes) => ([-1, -1], Some(*lanes)),
            };
            let both = (positions[0] & 0xffff_ffff) | (positions[1] << 32);
            let both = self.b.ins().iconst(types::I64, both);
            let at = offset_of!(WideBatch, varying) + i * size_of::<[i32; 2]>();
            self.b
                .ins()
                .store(MemFlagsData::trusted(), both, batch, at as i32);
            for (coord, at) in lanes.into_iter().flatten().zip(coords_at(i)) {
                self.store_lanes(coord, batch, at as i32);
            }
        }
        Ok(())
    }

    /// Lookup `i`'s u and v for a cold path: loaded back from the batch,
    /// or, for a table lookup in a step with the table, interpolated as
    /// the filter interpolates them.
    fn wide_coords(&mut self, i: usize, coords: &WideCoords) -> Result<[Lanes; 2], JitError> {
        let WideCoords::Table { positions, .. } = coords else {
            return Ok(self.given_coords(i));
        };
        let uv = [self.lb().declare(), self.lb().declare()];
        self.by_table_flag(
            |tr, _| {
                for (var, position) in uv.into_iter().zip(*positions) {
                    let value = tr.table_value(position);
                    tr.lb().def_var(var, value);
                }
                Ok(())
            },
            |tr| {
                let given = tr.given_coords(i);
                for (var, value) in uv.into_iter().zip(given) {
                    tr.lb().def_var(var, value);
                }
                Ok(())
            },
        )?;
        Ok(uv.map(|var| self.lb().use_var(var)))
    }

    /// Lookup `i`'s u and v, loaded back from the batch.
    fn given_coords(&mut self, i: usize) -> [Lanes; 2] {
        let batch = self.args_ptr();
        coords_at(i).map(|at| self.load_lanes(batch, at as i32))
    }

    /// The inline pair of `op` when the wide filter may take it: a lookup
    /// without comparison, slots chosen by the lanes, or offsets, through
    /// one of the program's inline pairs, in a function that may call the
    /// filter.
    pub(super) fn wide_pair(&self, op: &SampleOp) -> Option<usize> {
        let plain = op.compare.is_none() && op.slots.is_none() && op.offset == [0; 3];
        if !(plain && self.func.wide_sampling) {
            return None;
        }
        self.inline_pair(op.res, op.sampler)
    }
}

/// Whether `second` reads no register `first` writes, so that both may
/// read their operands before either writes: `first` writes a register
/// without a relative index, and none of `second`'s operands names it or
/// is relative.
pub fn reads_apart(first: &Inst, second: &Inst) -> bool {
    let (Inst::Sample { dst, .. }, Inst::Sample { coord, lod, .. }) = (first, second) else {
        return false;
    };
    if dst.index.rel.is_some() {
        return false;
    }
    let clear =
        |s: &Src| s.index.rel.is_none() && !(s.file == dst.file && s.index.base == dst.index.base);
    let lod_clear = match lod {
        Lod::Implicit => true,
        Lod::Bias(s) | Lod::Level(s) => clear(s),
        Lod::Gradient(x, y) => clear(x) && clear(y),
    };
    clear(coord) && lod_clear
}
