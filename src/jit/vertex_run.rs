//! Vertex shaders that run a whole range of vertices in one call.
//!
//! When the runtime hands a vertex shader a [`VertexRun`], the compiled
//! function loops over the range itself, a call's lanes at a time: it
//! transposes each lane's input registers into the input block (four
//! lanes' registers at once, as a 4x4 transpose), writes the lane mask,
//! `SV_VertexID` and `SV_InstanceID` (a draw's list of vertex and instance
//! per entry, or the entry itself), zeros the output block and the temps,
//! runs the body, and transposes the output block back into each entry's
//! registers. A call without a run shades its lanes once, as for every
//! other stage. The top tier emits the loop around the body; the stencil
//! tier's vertex entry stencil emits it around a call of the stitched chain
//! (`stencil/build.rs`).
//!
//! Lanes past the range's end run the last entry; their output rows are
//! written to the last entry's place before that entry's own (lanes are
//! stored from the last to the first), so no store leaves the range and
//! no branch picks the lanes.

use super::lanes::{Lanes, VEC};
use super::state::Tr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, Block, InstBuilder, InstructionData, MemFlagsData, Opcode, Value,
};
use cranelift_frontend::Variable;
use dxjit_runtime::abi::{Frame, SysValSlot, VertexRun};
use std::mem::offset_of;

/// A vertex run's state kept in variables.
#[derive(Debug, Clone, Copy)]
pub struct RunVars {
    /// The [`VertexRun`], or 0 for a call without one.
    run: Variable,
    /// The batch's first vertex.
    first: Variable,
    /// The block that tests for the next batch.
    check: Block,
    /// Registers of a vertex's inputs and of its outputs (`i64`s).
    regs: RunRegs,
}

/// How many registers each vertex's input and output rows hold, as `i64`
/// values made in the function's first block: constants at the top tier,
/// holes the stitcher patches at the stencil tier (so that one entry
/// stencil serves every vertex shader; one per count of registers would
/// be compiled on many first launches).
#[derive(Debug, Clone, Copy)]
pub struct RunRegs {
    /// Registers of the input block filled from each vertex.
    pub inputs: Value,
    /// Registers of the output block stored to each vertex.
    pub outputs: Value,
}

impl Tr<'_, '_> {
    /// Starts a vertex shader's function: a call with a run goes round the
    /// batch loop, which enters `body` once per batch; a call without one
    /// enters `body` at once. `regs` makes the register counts in the
    /// function's first block. Returns that block.
    pub fn begin_vertex_runs(
        &mut self,
        body: Block,
        regs: impl FnOnce(&mut Self) -> RunRegs,
    ) -> Block {
        let head = self.b.create_block();
        let start = self.b.create_block();
        let check = self.b.create_block();
        let batch = self.b.create_block();
        let finished = self.b.create_block();
        self.b.switch_to_block(head);
        let regs = regs(self);
        let vars = RunVars {
            run: self.b.declare_var(types::I64),
            first: self.b.declare_var(types::I32),
            check,
            regs,
        };
        self.func.vertex = Some(vars);

        let run = self.frame_ptr(offset_of!(Frame, vertex_run));
        self.b.def_var(vars.run, run);
        self.b.ins().brif(run, start, &[], body, &[]);

        self.b.switch_to_block(start);
        let first = self.load_u32(run, offset_of!(VertexRun, first));
        self.b.def_var(vars.first, first);
        self.b.ins().jump(check, &[]);

        self.b.switch_to_block(check);
        let run = self.b.use_var(vars.run);
        let first = self.b.use_var(vars.first);
        let end = self.load_u32(run, offset_of!(VertexRun, end));
        self.continue_below(first, end, batch, finished);

        self.b.switch_to_block(batch);
        self.write_batch(run, first, end, regs);
        self.zero_temps();
        self.b.ins().jump(body, &[]);
        head
    }

    /// Ends a batch: a call with a run stores the batch's outputs, moves
    /// on by a call's lanes and tests for the next batch; a call without
    /// one goes on to return.
    pub fn end_vertex_batch(&mut self) {
        let Some(vars) = self.func.vertex else {
            return;
        };
        let next = self.b.create_block();
        let out = self.b.create_block();
        let run = self.b.use_var(vars.run);
        self.b.ins().brif(run, next, &[], out, &[]);

        self.b.switch_to_block(next);
        let first = self.b.use_var(vars.first);
        let end = self.load_u32(run, offset_of!(VertexRun, end));
        self.store_batch_outputs(run, first, end, vars.regs.outputs);
        let lanes = i64::from(self.lanes());
        let first = self.b.ins().iadd_imm_s(first, lanes);
        self.b.def_var(vars.first, first);
        self.stop_if_interrupted();
        self.b.ins().jump(vars.check, &[]);
        self.b.switch_to_block(out);
    }

    /// The value of `v` when an `iconst` makes it.
    fn constant(&self, v: Value) -> Option<i64> {
        let inst = self.b.func.dfg.value_def(v).inst()?;
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// Each lane's entry, `first + lane` but at most `end − 1`.
    fn lane_entries(&mut self, first: Value, end: Value) -> Vec<Value> {
        let last = self.b.ins().iadd_imm_s(end, -1);
        (0..self.lanes())
            .map(|lane| {
                let i = self.b.ins().iadd_imm_s(first, i64::from(lane));
                self.b.ins().umin(i, last)
            })
            .collect()
    }

    /// Each lane's `[vertex, instance]`: its entry of the run's `ids`, or
    /// its entry and 0 when the run has none.
    fn lane_ids(&mut self, run: Value, entries: &[Value]) -> Vec<[Value; 2]> {
        let vars: Vec<[Variable; 2]> = entries
            .iter()
            .map(|_| [0; 2].map(|_| self.b.declare_var(types::I32)))
            .collect();
        let listed = self.b.create_block();
        let plain = self.b.create_block();
        let join = self.b.create_block();
        let ids = self.load_ptr(run, offset_of!(VertexRun, ids));
        self.b.ins().brif(ids, listed, &[], plain, &[]);
        self.b.switch_to_block(listed);
        for (&entry, [vertex, instance]) in entries.iter().zip(&vars) {
            let entry = self.b.ins().uextend(types::I64, entry);
            let bytes = self.b.ins().ishl_imm_u(entry, 3);
            let at = self.b.ins().iadd(ids, bytes);
            let v = self.load_u32(at, 0);
            let i = self.load_u32(at, 4);
            self.b.def_var(*vertex, v);
            self.b.def_var(*instance, i);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(plain);
        let zero = self.b.ins().iconst(types::I32, 0);
        for (&entry, [vertex, instance]) in entries.iter().zip(&vars) {
            self.b.def_var(*vertex, entry);
            self.b.def_var(*instance, zero);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        vars.iter()
            .map(|pair| pair.map(|var| self.b.use_var(var)))
            .collect()
    }

    /// The byte offset of register 0 of each of `indices` in a block of
    /// `regs` registers a vertex, counted from `base`.
    fn row_offsets(&mut self, indices: &[Value], base: Value, regs: Value) -> Vec<Value> {
        let row = self.b.ins().ishl_imm_u(regs, 4);
        indices
            .iter()
            .map(|&i| {
                let i = self.b.ins().isub(i, base);
                let i = self.b.ins().uextend(types::I64, i);
                self.b.ins().imul(i, row)
            })
            .collect()
    }

    /// Emits `body` once for each register `r` below `regs` (an `i64`),
    /// handing it `r`'s byte offset in a vertex's row (`16 r`) and in a
    /// block of `lanes` lanes a component (`16 r × lanes`): unrolled when
    /// `regs` is a constant (the top tier), in a loop when it is not.
    fn each_register(&mut self, regs: Value, mut body: impl FnMut(&mut Self, [Value; 2])) {
        let lanes = i64::from(self.lanes());
        if let Some(count) = self.constant(regs) {
            for r in 0..count {
                let offsets = [16 * r, 16 * r * lanes].map(|o| self.b.ins().iconst(types::I64, o));
                body(self, offsets);
            }
            return;
        }
        let head = self.b.create_block();
        let looped = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(head, types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(head, &[zero.into()]);
        self.b.switch_to_block(head);
        let r = self.b.block_params(head)[0];
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, r, regs);
        self.b.ins().brif(more, looped, &[], done, &[]);
        self.b.switch_to_block(looped);
        let in_row = self.b.ins().ishl_imm_u(r, 4);
        let in_block = self.b.ins().imul_imm_s(in_row, lanes);
        body(self, [in_row, in_block]);
        let next = self.b.ins().iadd_imm_s(r, 1);
        self.b.ins().jump(head, &[next.into()]);
        self.b.switch_to_block(done);
    }

    /// The batch's input block, lane mask, `SV_VertexID` and
    /// `SV_InstanceID`, and a zeroed output block.
    fn write_batch(&mut self, run: Value, first: Value, end: Value, regs: RunRegs) {
        let lanes = self.lanes() as usize;
        let entries = self.lane_entries(first, end);
        let ids = self.lane_ids(run, &entries);
        let vertices: Vec<Value> = ids.iter().map(|[v, _]| *v).collect();
        let inputs = self.load_ptr(run, offset_of!(VertexRun, inputs));
        let zero = self.b.ins().iconst(types::I32, 0);
        let rows = self.row_offsets(&vertices, zero, regs.inputs);
        let at: Vec<Value> = rows
            .iter()
            .map(|row| self.b.ins().iadd(inputs, *row))
            .collect();
        let block = self.func.inputs;
        self.each_register(regs.inputs, |t, [in_row, in_block]| {
            let to = t.b.ins().iadd(block, in_block);
            for j in 0..t.k {
                let vertex_regs = [0, 1, 2, 3].map(|l| {
                    let from = t.b.ins().iadd(at[4 * j + l], in_row);
                    t.b.ins().load(VEC, MemFlagsData::trusted(), from, 0)
                });
                let comps = t.transpose(vertex_regs);
                for (c, v) in comps.into_iter().enumerate() {
                    let offset = (c * lanes + 4 * j) * 4;
                    t.b.ins()
                        .store(MemFlagsData::trusted(), v, to, offset as i32);
                }
            }
        });
        let numbers = self.lane_numbers(first);
        let ends = self.lb().splat_value(end);
        let mut alive = numbers;
        for j in 0..self.k {
            alive.v[j] = self
                .b
                .ins()
                .icmp(IntCC::UnsignedLessThan, numbers.v[j], ends.v[j]);
        }
        let mask = self.frame_ptr(offset_of!(Frame, lane_mask));
        self.store_lanes(alive, mask, 0);
        let sysvals = self.frame_ptr(offset_of!(Frame, sysvals));
        for (slot, which) in [(SysValSlot::VertexId, 0), (SysValSlot::InstanceId, 1)] {
            let at = slot as usize * 4 * lanes * 4;
            for (lane, pair) in ids.iter().enumerate() {
                self.b.ins().store(
                    MemFlagsData::trusted(),
                    pair[which],
                    sysvals,
                    (at + 4 * lane) as i32,
                );
            }
        }
        let outputs = self.frame_ptr(offset_of!(Frame, outputs));
        self.each_register(regs.outputs, |t, [_, in_block]| {
            let to = t.b.ins().iadd(outputs, in_block);
            let zeros = t.lb().splat(0);
            for c in 0..4 {
                t.store_lanes(zeros, to, (c * lanes * 4) as i32);
            }
        });
    }

    /// Each lane's entry number, `first + lane`.
    fn lane_numbers(&mut self, first: Value) -> Lanes {
        let base = self.lb().splat_value(first);
        let mut ids = base;
        for j in 0..self.k {
            let lane = 4 * j as u32;
            let step = self.lb().splat_words([lane, lane + 1, lane + 2, lane + 3]);
            ids.v[j] = self.b.ins().iadd(base.v[j], step);
        }
        ids
    }

    /// Writes each lane's output registers from the output block to the
    /// run's outputs, register by register, each from the last lane to
    /// the first (so that a lane past the end, which ran the last entry,
    /// stores before that entry's own lane).
    fn store_batch_outputs(&mut self, run: Value, first: Value, end: Value, regs: Value) {
        let lanes = self.lanes() as usize;
        let outputs = self.load_ptr(run, offset_of!(VertexRun, outputs));
        let run_first = self.load_u32(run, offset_of!(VertexRun, first));
        let entries = self.lane_entries(first, end);
        let rows = self.row_offsets(&entries, run_first, regs);
        let at: Vec<Value> = rows
            .iter()
            .map(|row| self.b.ins().iadd(outputs, *row))
            .collect();
        let block = self.frame_ptr(offset_of!(Frame, outputs));
        self.each_register(regs, |t, [in_row, in_block]| {
            let from = t.b.ins().iadd(block, in_block);
            for j in (0..t.k).rev() {
                let comps = [0, 1, 2, 3].map(|c| {
                    let offset = (c * lanes + 4 * j) * 4;
                    t.b.ins()
                        .load(VEC, MemFlagsData::trusted(), from, offset as i32)
                });
                let per_lane = t.transpose(comps);
                for l in (0..4).rev() {
                    let to = t.b.ins().iadd(at[4 * j + l], in_row);
                    t.b.ins().store(MemFlagsData::trusted(), per_lane[l], to, 0);
                }
            }
        });
    }
}
