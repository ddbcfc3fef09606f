//! Pixel shaders that run a whole row of a draw's quads in one call.
//!
//! When the runtime hands a pixel shader a [`DrawRow`], the compiled
//! function loops over the row itself: before each call-sized step it
//! writes the step's lane mask, the x of the position and the varying
//! inputs (interpolated from the row's table with one f32 FMA a quad, as
//! the runtime's `corner_value` computes them); after the body and the direct-target stores it moves on by one
//! step. A call without a row runs its lanes once, as for every other
//! stage.
//!
//! The step's place lives in variables ([`RowVars`]), not in the frame:
//! its first column, its lane mask and output block pointers, and the lane
//! mask's value, which the body starts from. At the top tier the varying
//! inputs and the outputs are variables too (when no instruction indexes
//! them by a register): the body reads the values the step computed, and
//! the step's outputs reach the target stores without passing through
//! memory; they are stored to the output block only when the runtime reads
//! it (a call without a row, or a row whose outputs the runtime stores).

use super::lanes::{LaneVar, Lanes, FVEC, VEC};
use super::state::Tr;
use crate::ir::{File, Interpolation, Program, SysVal};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::Variable;
use dxjit_runtime::abi::{DrawRow, Frame, SysValSlot};
use std::mem::offset_of;

mod varying;

/// What a pixel shader keeps of its step in variables.
#[derive(Clone)]
pub struct RowVars {
    /// The [`DrawRow`], or 0 for a call without a row.
    pub(in crate::jit) row: Variable,
    /// The step's first column.
    x: Variable,
    /// The step's lane mask and output block.
    mask: Variable,
    outputs: Variable,
    /// Where the step's first quad column's entries start in the row's
    /// varying table (straight-line varyings only).
    pub(in crate::jit) entry: Variable,
    /// The step's lane mask's value.
    pub alive: LaneVar,
    /// Whether every lane of the step is alive (an `i8`): the step lies
    /// inside the row's columns and both its rows are covered.
    full: Variable,
    /// Whether both of the row's pixel rows are covered (an `i8`): tested
    /// once per row, where the loop starts, not at every step.
    covered: Variable,
    /// Whether the row's varying components are written in straight-line
    /// code (an `i8`, [`Tr::row_has_unrolled_varyings`]): tested once per
    /// row too.
    unrolled: Variable,
    /// Varying input components kept in variables: (input-block
    /// component, variable), ascending.
    inputs: Vec<(u32, LaneVar)>,
    /// Every output component (register × 4 + component) as a variable,
    /// or none: outputs live in the output block.
    output_vars: Vec<LaneVar>,
    /// Whether the step's varying inputs come from the row's table in
    /// straight-line code (an `i8`): wide lookups then interpolate the
    /// inputs of `table_only` themselves.
    pub(in crate::jit) table: Variable,
    /// The straight-line varying inputs (input-block components) that
    /// only wide lookups read ([`Tr::table_only_inputs`]): the row loop
    /// leaves them out of a step with the table, and of `inputs`.
    pub(in crate::jit) table_only: Vec<u32>,
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

/// Whether any instruction of `prog` is an `eval_*` (its runtime call reads
/// the step's place from the frame).
fn evaluates(prog: &Program) -> bool {
    prog.bodies()
        .flatten()
        .any(|inst| matches!(inst, crate::ir::Inst::Eval { .. }))
}

/// Whether any instruction of `prog` indexes register file `file` by a
/// register (its values must then stay in memory).
fn indexes(prog: &Program, file: File) -> bool {
    prog.bodies().flatten().any(|inst| {
        inst.sources()
            .iter()
            .any(|s| s.file == file && s.index.rel.is_some())
            || inst
                .destinations()
                .iter()
                .any(|d| d.file == file && d.index.rel.is_some())
    })
}

impl Tr<'_, '_> {
    /// Declares a pixel shader's [`RowVars`]: with `in_variables`, its
    /// varying inputs and its outputs live in variables where no
    /// instruction indexes them by a register.
    pub fn declare_row_vars(&mut self, in_variables: bool) {
        let mut scalar = |ty| self.b.declare_var(ty);
        let (row, x, mask, outputs, entry) = (
            scalar(types::I64),
            scalar(types::I32),
            scalar(types::I64),
            scalar(types::I64),
            scalar(types::I64),
        );
        let [full, table, covered, unrolled] = [(); 4].map(|()| scalar(types::I8));
        let alive = self.lb().declare();
        let inputs = if in_variables && !indexes(self.prog, File::Input) {
            compiled_varying(self.prog)
                .into_iter()
                .map(|slot| (slot, self.lb().declare()))
                .collect()
        } else {
            Vec::new()
        };
        let output_vars = if in_variables && !indexes(self.prog, File::Output) {
            (0..4 * self.func.output_regs)
                .map(|_| self.lb().declare())
                .collect()
        } else {
            Vec::new()
        };
        self.func.row = Some(RowVars {
            row,
            x,
            mask,
            outputs,
            entry,
            alive,
            full,
            covered,
            unrolled,
            inputs,
            output_vars,
            table,
            table_only: Vec::new(),
        });
        // Inputs only wide lookups read are never variables (see
        // `wide_sample/table.rs`).
        let table_only = self.table_only_inputs(&self.unrolled_slots());
        if let Some(vars) = &mut self.func.row {
            vars.inputs.retain(|(slot, _)| !table_only.contains(slot));
            vars.table_only = table_only;
        }
    }

    /// Emits the row loop's head and returns it: the function's first
    /// block for pixel shaders. Without a row it goes straight to `body`;
    /// with one it returns when the row is done, or prepares the next step
    /// and enters `body`.
    pub fn begin_draw_rows(&mut self, body: Block) -> Block {
        let vars = self.row_vars();
        let head = self.b.create_block();
        let single = self.b.create_block();
        let start = self.b.create_block();
        let check = self.b.create_block();
        let step = self.b.create_block();
        let finished = self.b.create_block();
        self.b.switch_to_block(head);
        let row = self.frame_ptr(offset_of!(Frame, draw_row));
        self.b.def_var(vars.row, row);
        let x = self.load_u32(self.frame, offset_of!(Frame, pixel_origin));
        self.b.def_var(vars.x, x);
        for (var, field) in [
            (vars.mask, offset_of!(Frame, lane_mask)),
            (vars.outputs, offset_of!(Frame, outputs)),
        ] {
            let ptr = self.frame_ptr(field);
            self.b.def_var(var, ptr);
        }
        self.b.ins().brif(row, start, &[], single, &[]);

        self.b.switch_to_block(single);
        let mask = self.b.use_var(vars.mask);
        let alive = self.load_lanes(mask, 0);
        self.lb().def_var(vars.alive, alive);
        let not_full = self.b.ins().iconst(types::I8, 0);
        for var in [vars.full, vars.table, vars.covered, vars.unrolled] {
            self.b.def_var(var, not_full);
        }
        let inputs = self.func.inputs;
        for &(slot, var) in &vars.inputs {
            let value = self.load_lanes(inputs, (slot * self.lanes() * 4) as i32);
            self.lb().def_var(var, value);
        }
        self.b.ins().jump(body, &[]);

        self.b.switch_to_block(start);
        let entry = self.first_entry(row, x);
        self.b.def_var(vars.entry, entry);
        // Both rows covered: the row mask's middle words, covered[0] and
        // covered[1], all ones.
        let covered = self.b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            row,
            offset_of!(DrawRow, row_mask) as i32 + 4,
        );
        let covered = self.b.ins().icmp_imm_s(IntCC::Equal, covered, -1);
        self.b.def_var(vars.covered, covered);
        let unrolled = self.row_has_unrolled_varyings(row);
        self.b.def_var(vars.unrolled, unrolled);
        self.b.ins().jump(check, &[]);

        self.b.switch_to_block(check);
        let x = self.b.use_var(vars.x);
        let end = self.load_u32(row, offset_of!(DrawRow, end_x));
        self.continue_below(x, end, step, finished);

        self.b.switch_to_block(step);
        let row = self.b.use_var(vars.row);
        self.write_row_mask(&vars, row, x);
        if evaluates(self.prog) {
            // `dxjit_eval` finds the step's pixels from the frame's origin.
            self.b.ins().store(
                MemFlagsData::trusted(),
                x,
                self.frame,
                offset_of!(Frame, pixel_origin) as i32,
            );
        }
        if reads_position(self.prog) {
            let columns = self.lane_columns(x);
            self.write_position_x(row, &columns);
        }
        if vars.output_vars.is_empty() {
            self.zero_outputs();
        }
        self.write_varying(&vars, row, x);
        self.b.ins().jump(body, &[]);
        self.func.row_check = Some(check);
        head
    }

    /// Ends a step: with a row, moves the step's column, lane mask,
    /// output block and table entry on and goes back to the row's check;
    /// otherwise continues in a new current block (where the caller
    /// returns).
    pub fn end_draw_row(&mut self) {
        let vars = self.row_vars();
        let check = self.func.row_check.expect("the row loop has begun");
        let next = self.b.create_block();
        let out = self.b.create_block();
        let row = self.b.use_var(vars.row);
        self.b.ins().brif(row, next, &[], out, &[]);

        self.b.switch_to_block(next);
        let x = self.b.use_var(vars.x);
        let width = i64::from(self.lanes() / 2);
        let x = self.b.ins().iadd_imm_s(x, width);
        self.b.def_var(vars.x, x);
        for (var, stride) in [
            (vars.outputs, offset_of!(DrawRow, output_stride)),
            (vars.mask, offset_of!(DrawRow, mask_stride)),
        ] {
            let ptr = self.b.use_var(var);
            let bytes = self
                .b
                .ins()
                .uload32(MemFlagsData::trusted(), row, stride as i32);
            let moved = self.b.ins().iadd(ptr, bytes);
            self.b.def_var(var, moved);
        }
        let entry = self.b.use_var(vars.entry);
        let bytes = self.step_entry_bytes();
        let entry = self.b.ins().iadd_imm_s(entry, bytes);
        self.b.def_var(vars.entry, entry);
        self.b.ins().jump(check, &[]);
        self.b.switch_to_block(out);
    }

    /// Gives every temporary a defined zero where the body starts, so that
    /// a register read before it is written does not carry one step's value
    /// into the next around the row loop (D3D leaves such reads undefined;
    /// zero is what a single call gives). Outputs kept in variables start
    /// at zero too, as the output block does.
    pub fn zero_temps_for_rows(&mut self) {
        let zero = self.lb().splat(0);
        for var in self.row_vars().output_vars {
            self.lb().def_var(var, zero);
        }
        self.zero_temps();
    }

    /// Gives every temporary, vector or scalar, a defined zero.
    pub fn zero_temps(&mut self) {
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

    /// The pixel shader's step variables.
    pub(in crate::jit) fn row_vars(&self) -> RowVars {
        self.func
            .row
            .clone()
            .expect("pixel shaders declare their row")
    }

    /// The step's first column.
    pub fn step_x(&mut self) -> Value {
        let x = self.row_vars().x;
        self.b.use_var(x)
    }

    /// Whether every lane of the step is alive at its start (an `i8`).
    pub fn step_full(&mut self) -> Value {
        let full = self.row_vars().full;
        self.b.use_var(full)
    }

    /// The step's lane mask pointer.
    pub fn step_mask(&mut self) -> Value {
        let mask = self.row_vars().mask;
        self.b.use_var(mask)
    }

    /// The step's output block pointer.
    pub fn step_outputs(&mut self) -> Value {
        let outputs = self.row_vars().outputs;
        self.b.use_var(outputs)
    }

    /// The variable that holds input-block component `slot`, if any.
    pub fn input_var(&self, slot: u32) -> Option<LaneVar> {
        let row = self.func.row.as_ref()?;
        row.inputs
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, var)| *var)
    }

    /// The variable that holds output component `slot` (register × 4 +
    /// component), if outputs live in variables.
    pub fn output_var(&self, slot: u32) -> Option<LaneVar> {
        self.func
            .row
            .as_ref()?
            .output_vars
            .get(slot as usize)
            .copied()
    }

    /// Stores the outputs kept in variables to the step's output block
    /// when the runtime reads it: without a row, or when the row's
    /// `output_stride` is not 0 (the runtime stores some target from it).
    pub fn store_output_vars(&mut self) {
        let vars = self.row_vars();
        if vars.output_vars.is_empty() {
            return;
        }
        let store = self.b.create_block();
        let check = self.b.create_block();
        let done = self.b.create_block();
        let row = self.b.use_var(vars.row);
        self.b.ins().brif(row, check, &[], store, &[]);

        self.b.switch_to_block(check);
        let stride = self.load_u32(row, offset_of!(DrawRow, output_stride));
        self.b.ins().brif(stride, store, &[], done, &[]);

        self.b.switch_to_block(store);
        let base = self.b.use_var(vars.outputs);
        for (slot, var) in vars.output_vars.iter().enumerate() {
            let value = self.lb().use_var(*var);
            self.store_lanes(value, base, (slot as u32 * self.lanes() * 4) as i32);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
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

    /// Stores the step's lane mask, and gives the step's `alive` it: lanes
    /// inside the row's columns whose row is covered. A step whose
    /// columns, `x` up to `x + 2k`, are all inside is tested with two
    /// scalar compares and takes the row mask as it is; only a step over
    /// the row's ends compares each lane.
    fn write_row_mask(&mut self, vars: &RowVars, row: Value, x: Value) {
        let first = self.load_u32(row, offset_of!(DrawRow, columns));
        let last = self.load_u32(row, offset_of!(DrawRow, columns) + 4);
        let rows = self.b.ins().load(
            VEC,
            MemFlagsData::trusted(),
            row,
            offset_of!(DrawRow, row_mask) as i32,
        );
        let mask = self.b.use_var(vars.mask);
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
        let alive = Lanes {
            v: [rows; super::lanes::MAX_K],
        };
        self.store_lanes(alive, mask, 0);
        self.lb().def_var(vars.alive, alive);
        let covered = self.b.use_var(vars.covered);
        self.b.def_var(vars.full, covered);
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(partial);
        self.b.set_cold_block(partial);
        let columns = self.lane_columns(x);
        let first = self.b.ins().splat(VEC, first);
        let last = self.b.ins().splat(VEC, last);
        let mut alive = alive;
        for (j, &x) in columns.iter().enumerate() {
            let after = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, x, first);
            let before = self.b.ins().icmp(IntCC::UnsignedLessThan, x, last);
            let inside = self.b.ins().band(after, before);
            alive.v[j] = self.b.ins().band(inside, rows);
        }
        self.store_lanes(alive, mask, 0);
        self.lb().def_var(vars.alive, alive);
        let not_full = self.b.ins().iconst(types::I8, 0);
        self.b.def_var(vars.full, not_full);
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
        let outputs = self.step_outputs();
        let zero = self.lb().splat(0).v[0];
        let vectors = self.func.output_regs as usize * 4 * self.k;
        for i in 0..vectors {
            self.b
                .ins()
                .store(MemFlagsData::trusted(), zero, outputs, 16 * i as i32);
        }
    }
}
