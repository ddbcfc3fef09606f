//! Pixel shaders that run a whole row of a draw's quads in one call.
//!
//! When the runtime hands a pixel shader a [`DrawRow`], the compiled
//! function loops over the row itself: before each call-sized step it
//! writes the step's lane mask, the x of the position, the varying inputs
//! (interpolated in f64 from the row's table, as the runtime did per
//! quad) and zeros over the step's output block; after the body and the
//! direct-target stores it moves the frame on by one step. A call without
//! a row runs its lanes once, as for every other stage.

use super::lanes::{le, FVEC, VEC};
use super::state::Tr;
use crate::ir::{File, Interpolation, Program, SysVal};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::{varying_set, DrawRow, Frame, SysValSlot, STATUS_DONE};
use std::mem::offset_of;

/// Bytes of one table entry: a quad column's (top, top, rise, rise).
const ENTRY_BYTES: i64 = 32;

/// The most varying components the row loop writes in straight-line code.
const MAX_UNROLLED: usize = 32;

/// Where a step's quad columns are in the row's table: the first quad
/// column's index, the table, and the two rows' places (splat).
struct Columns {
    quad: Value,
    table: Value,
    places: [Value; 2],
}

/// The input-block components (register × 4 + component, ascending) that
/// the runtime interpolates for `prog` when none of them is flat across
/// the primitive: the declared components of its interpolated inputs.
/// System values and constant inputs are left out.
fn compiled_varying(prog: &Program) -> Vec<u32> {
    let mut slots: Vec<u32> = prog
        .inputs
        .iter()
        .filter(|i| i.interpolation != Interpolation::Constant && !i.semantic.starts_with("SV_"))
        .flat_map(|i| {
            (0..4u32)
                .filter(move |c| i.mask & (1 << c) != 0)
                .map(move |c| 4 * i.reg + c)
        })
        .collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}

/// Whether any instruction of `prog` reads the position system value (the
/// row loop writes its x only then: nothing else reads the system values).
pub(super) fn reads_position(prog: &Program) -> bool {
    prog.bodies()
        .flatten()
        .flat_map(|inst| inst.sources())
        .any(|src| src.file == File::SysVal(SysVal::Position))
}

impl Tr<'_, '_> {
    /// Emits the row loop's head and returns it: the function's first
    /// block for pixel shaders. Without a row it goes straight to `body`;
    /// with one it returns when the row is done, or prepares the next step
    /// and enters `body`.
    pub fn begin_draw_rows(&mut self, body: Block) -> Block {
        let head = self.b.create_block();
        let check = self.b.create_block();
        let step = self.b.create_block();
        let finished = self.b.create_block();
        self.b.switch_to_block(head);
        let row = self.frame_ptr(offset_of!(Frame, draw_row));
        self.b.ins().brif(row, check, &[], body, &[]);

        self.b.switch_to_block(check);
        let x = self.load_u32(self.frame, offset_of!(Frame, pixel_origin));
        let end = self.load_u32(row, offset_of!(DrawRow, end_x));
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, x, end);
        self.b.ins().brif(more, step, &[], finished, &[]);

        self.b.switch_to_block(finished);
        let done = self.b.ins().iconst(types::I32, i64::from(STATUS_DONE));
        self.b.ins().return_(&[done]);

        self.b.switch_to_block(step);
        self.write_row_mask(row, x);
        if reads_position(self.prog) {
            let columns = self.lane_columns(x);
            self.write_position_x(row, &columns);
        }
        self.zero_outputs();
        self.write_varying(row, x);
        self.b.ins().jump(body, &[]);
        head
    }

    /// Ends a step: with a row, moves the frame one step on and goes back
    /// to `head`; otherwise continues in a new current block (where the
    /// caller returns).
    pub fn end_draw_row(&mut self, head: Block) {
        let next = self.b.create_block();
        let out = self.b.create_block();
        let row = self.frame_ptr(offset_of!(Frame, draw_row));
        self.b.ins().brif(row, next, &[], out, &[]);

        self.b.switch_to_block(next);
        let x = self.load_u32(self.frame, offset_of!(Frame, pixel_origin));
        let width = i64::from(self.lanes() / 2);
        let x = self.b.ins().iadd_imm_s(x, width);
        self.store_at(x, self.frame, offset_of!(Frame, pixel_origin));
        for (field, stride) in [
            (
                offset_of!(Frame, outputs),
                offset_of!(DrawRow, output_stride),
            ),
            (
                offset_of!(Frame, lane_mask),
                offset_of!(DrawRow, mask_stride),
            ),
        ] {
            let ptr = self.frame_ptr(field);
            let bytes = self.load_u32(row, stride);
            let bytes = self.b.ins().uextend(types::I64, bytes);
            let moved = self.b.ins().iadd(ptr, bytes);
            self.store_at(moved, self.frame, field);
        }
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(out);
    }

    /// Gives every temporary a defined zero where the body starts, so that
    /// a register read before it is written does not carry one step's value
    /// into the next around the row loop (D3D leaves such reads undefined;
    /// zero is what a single call gives).
    pub fn zero_temps_for_rows(&mut self) {
        let zero = self.lb().splat(0);
        for var in self.func.temps.clone() {
            self.lb().def_var(var, zero);
        }
        let scalar_zero = self.b.ins().iconst(types::I32, 0);
        for reg in 0..self.prog.temps {
            for c in 0..4u8 {
                if let Some(var) = self.facts.scalars.var(reg, c) {
                    self.b.def_var(var, scalar_zero);
                }
            }
        }
    }

    /// The pixel column of each lane of the step starting at column `x`:
    /// quad `j` of the call covers columns `x + 2j` and `x + 2j + 1`.
    fn lane_columns(&mut self, x: Value) -> Vec<Value> {
        let base = self.b.ins().splat(VEC, x);
        (0..self.k as u32)
            .map(|j| {
                let offsets = self.lb().splat_words([2 * j, 2 * j + 1, 2 * j, 2 * j + 1]);
                self.b.ins().iadd(base, offsets)
            })
            .collect()
    }

    /// Stores the step's lane mask: lanes inside the row's columns whose
    /// row is covered. A step whose columns, `x` up to `x + 2k`, are all
    /// inside is tested with two scalar compares and stores the row mask
    /// as it is; only a step over the row's ends compares each lane.
    fn write_row_mask(&mut self, row: Value, x: Value) {
        let first = self.load_u32(row, offset_of!(DrawRow, columns));
        let last = self.load_u32(row, offset_of!(DrawRow, columns) + 4);
        let rows = self.b.ins().load(
            VEC,
            MemFlagsData::trusted(),
            row,
            offset_of!(DrawRow, row_mask) as i32,
        );
        let mask = self.frame_ptr(offset_of!(Frame, lane_mask));
        let whole = self.b.create_block();
        let partial = self.b.create_block();
        let join = self.b.create_block();
        let after = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, x, first);
        let end = self.b.ins().iadd_imm_s(x, 2 * self.k as i64);
        let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, last);
        let inside = self.b.ins().band(after, before);
        self.b.ins().brif(inside, whole, &[], partial, &[]);

        self.b.switch_to_block(whole);
        for j in 0..self.k {
            self.b
                .ins()
                .store(MemFlagsData::trusted(), rows, mask, 16 * j as i32);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(partial);
        self.b.set_cold_block(partial);
        let columns = self.lane_columns(x);
        let first = self.b.ins().splat(VEC, first);
        let last = self.b.ins().splat(VEC, last);
        for (j, &x) in columns.iter().enumerate() {
            let after = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, x, first);
            let before = self.b.ins().icmp(IntCC::UnsignedLessThan, x, last);
            let inside = self.b.ins().band(after, before);
            let inside = self.b.ins().band(inside, rows);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), inside, mask, 16 * j as i32);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// Stores the x of the position system value: each lane's column as
    /// f32 plus the row's sample `center`.
    fn write_position_x(&mut self, row: Value, columns: &[Value]) {
        let center = self.b.ins().load(
            types::F32,
            MemFlagsData::trusted(),
            row,
            offset_of!(DrawRow, center) as i32,
        );
        let center = self.b.ins().splat(FVEC, center);
        let sysvals = self.frame_ptr(offset_of!(Frame, sysvals));
        let at = (SysValSlot::Position as u32 * 4 * self.lanes() * 4) as i32;
        for (j, &x) in columns.iter().enumerate() {
            let x = self.b.ins().fcvt_from_sint(FVEC, x);
            let x = self.b.ins().fadd(x, center);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), x, sysvals, at + 16 * j as i32);
        }
    }

    /// Zeros the step's output block (outputs the body leaves unwritten
    /// read as 0, as in a single call).
    fn zero_outputs(&mut self) {
        if self.func.output_regs == 0 {
            return;
        }
        let outputs = self.frame_ptr(offset_of!(Frame, outputs));
        let zero = self.lb().splat(0).v[0];
        let vectors = self.func.output_regs as usize * 4 * self.k;
        for i in 0..vectors {
            self.b
                .ins()
                .store(MemFlagsData::trusted(), zero, outputs, 16 * i as i32);
        }
    }

    /// Writes each varying input component of the step starting at column
    /// `x`. When the row's varying components are the ones the program
    /// declares ([`compiled_varying`]), straight-line code writes each at
    /// its place; otherwise a loop walks the row's `varying` list.
    fn write_varying(&mut self, row: Value, x: Value) {
        let first = self.load_u32(row, offset_of!(DrawRow, first_x));
        let quad = self.b.ins().isub(x, first);
        let quad = self.b.ins().ushr_imm_u(quad, 1);
        let quad = self.b.ins().uextend(types::I64, quad);
        let places = [0, 1].map(|p| {
            let v = self.b.ins().load(
                types::F64,
                MemFlagsData::trusted(),
                row,
                (offset_of!(DrawRow, places) + 8 * p) as i32,
            );
            self.b.ins().splat(types::F64X2, v)
        });
        let table = self.load_ptr(row, offset_of!(DrawRow, table));
        let at = Columns {
            quad,
            table,
            places,
        };
        let slots = compiled_varying(self.prog);
        if slots.is_empty() || slots.len() > MAX_UNROLLED {
            self.write_varying_loop(row, &at);
            return;
        }
        let unrolled = self.b.create_block();
        let looped = self.b.create_block();
        let done = self.b.create_block();
        let expected = varying_set(&slots);
        let mut same = None;
        for (i, word) in expected.into_iter().enumerate() {
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
        let same = same.expect("the set has two words");
        self.b.ins().brif(same, unrolled, &[], looped, &[]);

        self.b.switch_to_block(unrolled);
        self.write_varying_unrolled(&slots, &at);
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(looped);
        self.b.set_cold_block(looped);
        self.write_varying_loop(row, &at);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Writes the varying components `slots` (the row's `varying` list, as
    /// the program declares it) one after the other.
    fn write_varying_unrolled(&mut self, slots: &[u32], at: &Columns) {
        let count = slots.len() as i64;
        let entries = self.b.ins().imul_imm_s(at.quad, count * ENTRY_BYTES);
        let entries = self.b.ins().iadd(at.table, entries);
        let block = self.lanes() * 4;
        for (i, &slot) in slots.iter().enumerate() {
            for j in 0..self.k {
                let entry = (j as i64 * count + i as i64) * ENTRY_BYTES;
                let column = self.b.ins().iadd_imm_s(entries, entry);
                let quad_values = self.interpolate_quad(column, at.places);
                let offset = slot * block + 16 * j as u32;
                self.b.ins().store(
                    MemFlagsData::trusted(),
                    quad_values,
                    self.func.inputs,
                    offset as i32,
                );
            }
        }
    }

    /// Writes the row's varying components with a loop over its `varying`
    /// list, walking it and the quad column's table entries with two
    /// pointers.
    fn write_varying_loop(&mut self, row: Value, at: &Columns) {
        let count = self.load_u32(row, offset_of!(DrawRow, varying_count));
        let count64 = self.b.ins().uextend(types::I64, count);
        let places = at.places;
        let inputs = self.func.inputs;
        let slots = self.load_ptr(row, offset_of!(DrawRow, varying));
        // Quad column `quad + j`'s entries start `(quad + j) · count` entries in.
        let entries = self.b.ins().imul(at.quad, count64);
        let entries = self.b.ins().imul_imm_s(entries, ENTRY_BYTES);
        let entries = self.b.ins().iadd(at.table, entries);
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
    }

    /// One quad's four values of a varying component from its table entry
    /// (top-left, top-right, bottom-left, bottom-right): `top + rise × place`
    /// in f64, each rounded to f32 once.
    fn interpolate_quad(&mut self, entry: Value, places: [Value; 2]) -> Value {
        let flags = MemFlagsData::trusted().with_readonly();
        let top = self.b.ins().load(types::F64X2, flags, entry, 0);
        let rise = self.b.ins().load(types::F64X2, flags, entry, 16);
        let rows = places.map(|place| {
            let scaled = self.b.ins().fmul(rise, place);
            let value = self.b.ins().fadd(top, scaled);
            let narrow = self.b.ins().fvdemote(value);
            self.b.ins().bitcast(types::I8X16, le(), narrow)
        });
        // The low halves of both rows: bytes 0..8 of each.
        let lows: Vec<u8> = (0..8).chain(16..24).collect();
        let lows = self.b.func.dfg.immediates.push(lows.into());
        let both = self.b.ins().shuffle(rows[0], rows[1], lows);
        self.b.ins().bitcast(VEC, le(), both)
    }

    /// The u32 at `base + offset`.
    fn load_u32(&mut self, base: Value, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), base, offset as i32)
    }

    /// The pointer at `base + offset`.
    fn load_ptr(&mut self, base: Value, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), base, offset as i32)
    }

    /// Stores `value` at `base + offset`.
    fn store_at(&mut self, value: Value, base: Value, offset: usize) {
        self.b
            .ins()
            .store(MemFlagsData::trusted(), value, base, offset as i32);
    }
}
