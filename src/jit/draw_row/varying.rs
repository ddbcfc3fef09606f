//! The step's varying inputs: each quad column's table entry (top and rise
//! of its two columns) interpolated to the quad's two rows.

use super::{compiled_varying, RowVars};
use crate::jit::lanes::{le, Lanes, FVEC, VEC};
use crate::jit::state::Tr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::{varying_set, DrawRow};
use std::mem::offset_of;

/// Bytes of one table entry: a quad column's tops (left, right, left,
/// right) and then its rises the same way, as f32s.
const ENTRY_BYTES: i64 = 32;

/// The most varying components the row loop writes in straight-line code.
const MAX_UNROLLED: usize = 32;

/// The row's two places as a quad's lanes see them: the top row's for
/// lanes 0 and 1, the bottom row's for lanes 2 and 3 (an `f32x4`).
type Places = Value;

impl Tr<'_, '_> {
    /// The varying components written in straight-line code, or none when
    /// the row loop always walks the row's list.
    pub(in crate::jit) fn unrolled_slots(&self) -> Vec<u32> {
        let slots = compiled_varying(self.prog);
        if slots.len() > MAX_UNROLLED {
            return Vec::new();
        }
        slots
    }

    /// Where the entries of the step starting at column `x` start in the
    /// row's table, for straight-line varyings: quad column `(x −
    /// first_x) / 2`, `count` entries each.
    pub(super) fn first_entry(&mut self, row: Value, x: Value) -> Value {
        let count = self.unrolled_slots().len() as i64;
        let first = self.load_u32(row, offset_of!(DrawRow, first_x));
        let quad = self.b.ins().isub(x, first);
        let quad = self.b.ins().ushr_imm_u(quad, 1);
        let quad = self.b.ins().uextend(types::I64, quad);
        let table = self.load_ptr(row, offset_of!(DrawRow, table));
        let bytes = self.b.ins().imul_imm_s(quad, count * ENTRY_BYTES);
        self.b.ins().iadd(table, bytes)
    }

    /// Whether `row`'s varying components are the ones the program
    /// declares (an `i8`), so that straight-line code writes them: tested
    /// once per row, as the row loop starts. False without straight-line
    /// varyings.
    pub(super) fn row_has_unrolled_varyings(&mut self, row: Value) -> Value {
        let slots = self.unrolled_slots();
        if slots.is_empty() {
            return self.b.ins().iconst(types::I8, 0);
        }
        let mut same = None;
        for (i, word) in varying_set(&slots).into_iter().enumerate() {
            let found = self.b.ins().load(
                types::I64,
                MemFlagsData::trusted(),
                row,
                (offset_of!(DrawRow, varying_set) + 8 * i) as i32,
            );
            let equal = self.b.ins().icmp_imm_s(IntCC::Equal, found, word as i64);
            same = Some(match same {
                Some(all) => self.b.ins().band(all, equal),
                None => equal,
            });
        }
        same.expect("the set has two words")
    }

    /// Bytes of table entries one step covers, for straight-line varyings.
    pub(super) fn step_entry_bytes(&self) -> i64 {
        self.k as i64 * self.unrolled_slots().len() as i64 * ENTRY_BYTES
    }

    /// Writes each varying input component of the step starting at column
    /// `x`. When the row's varying components are the ones the program
    /// declares ([`compiled_varying`]), straight-line code computes each
    /// from the step's entries; otherwise a loop walks the row's `varying`
    /// list. Components kept in variables are given their values; the
    /// others are stored to the input block.
    pub(super) fn write_varying(&mut self, vars: &RowVars, row: Value, x: Value) {
        let slots = self.unrolled_slots();
        if slots.is_empty() {
            let table = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(vars.table, table);
            self.write_varying_loop(vars, row, x);
            return;
        }
        let unrolled = self.b.create_block();
        let looped = self.b.create_block();
        let done = self.b.create_block();
        let same = self.b.use_var(vars.unrolled);
        self.b.ins().brif(same, unrolled, &[], looped, &[]);

        self.b.switch_to_block(unrolled);
        let entries = self.b.use_var(vars.entry);
        self.write_varying_unrolled(&slots, &vars.table_only, entries, row);
        let table = self.b.ins().iconst(types::I8, 1);
        self.b.def_var(vars.table, table);
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(looped);
        self.b.set_cold_block(looped);
        let table = self.b.ins().iconst(types::I8, 0);
        self.b.def_var(vars.table, table);
        self.write_varying_loop(vars, row, x);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Writes the varying components `slots` (the row's `varying` list, as
    /// the program declares it) one after the other, from the step's
    /// entries at `entries` and `row`'s places; the ones of `table_only`,
    /// which only wide lookups read (and interpolate themselves), are left
    /// alone, and a step with nothing else to write reads no places (the
    /// backend keeps every value it is given, used or not).
    fn write_varying_unrolled(
        &mut self,
        slots: &[u32],
        table_only: &[u32],
        entries: Value,
        row: Value,
    ) {
        if slots.iter().all(|slot| table_only.contains(slot)) {
            return;
        }
        let places = self.places(row);
        let block = self.lanes() * 4;
        for (i, &slot) in slots.iter().enumerate() {
            if table_only.contains(&slot) {
                continue;
            }
            let value = self.interpolate(entries, i as u32, slots.len(), places);
            match self.input_var(slot) {
                Some(var) => self.lb().def_var(var, value),
                None => {
                    let inputs = self.func.inputs;
                    self.store_lanes(value, inputs, (slot * block) as i32);
                }
            }
        }
    }

    /// The straight-line varying component at `position` (of `count`) of
    /// the step whose entries start at `entries`.
    fn interpolate(
        &mut self,
        entries: Value,
        position: u32,
        count: usize,
        places: Places,
    ) -> Lanes {
        let mut value = self.lb().splat(0);
        for j in 0..self.k {
            let entry = (j as i64 * count as i64 + i64::from(position)) * ENTRY_BYTES;
            let column = self.b.ins().iadd_imm_s(entries, entry);
            value.v[j] = self.interpolate_quad(column, places);
        }
        value
    }

    /// The straight-line varying component at `position` of the current
    /// step, interpolated from the row's table as [`Tr::write_varying`]
    /// does (for a wide lookup's cold paths, in a step with the table).
    pub(in crate::jit) fn table_value(&mut self, position: u32) -> Lanes {
        let vars = self.row_vars();
        let row = self.b.use_var(vars.row);
        let entries = self.b.use_var(vars.entry);
        let places = self.places(row);
        let count = self.unrolled_slots().len();
        self.interpolate(entries, position, count, places)
    }

    /// Writes the row's varying components to the input block with a loop
    /// over its `varying` list, walking it and the quad column's table
    /// entries with two pointers; then loads the components kept in
    /// variables from the block.
    fn write_varying_loop(&mut self, vars: &RowVars, row: Value, x: Value) {
        let places = self.places(row);
        let first = self.load_u32(row, offset_of!(DrawRow, first_x));
        let quad = self.b.ins().isub(x, first);
        let quad = self.b.ins().ushr_imm_u(quad, 1);
        let quad = self.b.ins().uextend(types::I64, quad);
        let table = self.load_ptr(row, offset_of!(DrawRow, table));
        let count = self.load_u32(row, offset_of!(DrawRow, varying_count));
        let count64 = self.b.ins().uextend(types::I64, count);
        let inputs = self.func.inputs;
        let slots = self.load_ptr(row, offset_of!(DrawRow, varying));
        // Quad column `quad + j`'s entries start `(quad + j) · count` entries in.
        let entries = self.b.ins().imul(quad, count64);
        let entries = self.b.ins().imul_imm_s(entries, ENTRY_BYTES);
        let entries = self.b.ins().iadd(table, entries);
        let column_bytes = self.b.ins().imul_imm_s(count64, ENTRY_BYTES);
        let slots_end = self.b.ins().ishl_imm_u(count64, 2);
        let slots_end = self.b.ins().iadd(slots, slots_end);

        let head = self.b.create_block();
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(head, types::I64);
        self.b.append_block_param(head, types::I64);
        self.b.ins().jump(head, &[slots.into(), entries.into()]);

        self.b.switch_to_block(head);
        let (slot_at, entry) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let more = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, slot_at, slots_end);
        self.b.ins().brif(more, body, &[], done, &[]);

        self.b.switch_to_block(body);
        let slot = self.load_u32(slot_at, 0);
        let slot = self.b.ins().uextend(types::I64, slot);
        let block = i64::from(self.lanes() * 4);
        let block_bytes = self.b.ins().imul_imm_s(slot, block);
        let dst = self.b.ins().iadd(inputs, block_bytes);
        let mut column = entry;
        for j in 0..self.k {
            if j > 0 {
                column = self.b.ins().iadd(column, column_bytes);
            }
            let quad_values = self.interpolate_quad(column, places);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), quad_values, dst, 16 * j as i32);
        }
        let next_slot = self.b.ins().iadd_imm_s(slot_at, 4);
        let next_entry = self.b.ins().iadd_imm_s(entry, ENTRY_BYTES);
        self.b
            .ins()
            .jump(head, &[next_slot.into(), next_entry.into()]);

        self.b.switch_to_block(done);
        for &(slot, var) in &vars.inputs {
            let value = self.load_lanes(inputs, (slot * self.lanes() * 4) as i32);
            self.lb().def_var(var, value);
        }
    }

    /// The row's two places, each twice: (top, top, bottom, bottom).
    fn places(&mut self, row: Value) -> Places {
        let both = self.b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            row,
            offset_of!(DrawRow, places) as i32,
        );
        let both = self.b.ins().splat(types::I64X2, both);
        let both = self.b.ins().bitcast(types::I8X16, le(), both);
        // Bytes 0..4 twice, then 4..8 twice.
        let spread: Vec<u8> = [0, 0, 4, 4].iter().flat_map(|&at| at..at + 4).collect();
        let spread = self.b.func.dfg.immediates.push(spread.into());
        let places = self.b.ins().shuffle(both, both, spread);
        self.b.ins().bitcast(FVEC, le(), places)
    }

    /// One quad's four values of a varying component from its table entry
    /// (top-left, top-right, bottom-left, bottom-right): `top + rise ×
    /// place` as one f32 fused multiply-add (the runtime's
    /// `interpolate::blend`), the tops and rises each one 16-byte load.
    fn interpolate_quad(&mut self, entry: Value, places: Places) -> Value {
        let flags = MemFlagsData::trusted().with_readonly();
        let top = self.b.ins().load(FVEC, flags, entry, 0);
        let rise = self.b.ins().load(FVEC, flags, entry, 16);
        let value = self.b.ins().fma(rise, places, top);
        self.b.ins().bitcast(VEC, le(), value)
    }
}
