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
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
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
}

impl Tr<'_, '_> {
    /// Starts a vertex shader's function: a call with a run goes round the
    /// batch loop, which enters `body` once per batch; a call without one
    /// enters `body` at once. Returns the block the function starts in.
    pub fn begin_vertex_runs(&mut self, body: Block) -> Block {
        let head = self.b.create_block();
        let start = self.b.create_block();
        let check = self.b.create_block();
        let batch = self.b.create_block();
        let finished = self.b.create_block();
        let vars = RunVars {
            run: self.b.declare_var(types::I64),
            first: self.b.declare_var(types::I32),
            check,
        };
        self.func.vertex = Some(vars);

        self.b.switch_to_block(head);
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
        self.write_batch(run, first, end);
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
        self.store_batch_outputs(run, first, end);
        let lanes = i64::from(self.lanes());
        let first = self.b.ins().iadd_imm_s(first, lanes);
        self.b.def_var(vars.first, first);
        self.stop_if_interrupted();
        self.b.ins().jump(vars.check, &[]);
        self.b.switch_to_block(out);
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
    fn row_offsets(&mut self, indices: &[Value], base: Value, regs: u32) -> Vec<Value> {
        indices
            .iter()
            .map(|&i| {
                let i = self.b.ins().isub(i, base);
                let i = self.b.ins().uextend(types::I64, i);
                self.b.ins().imul_imm_s(i, i64::from(regs) * 16)
            })
            .collect()
    }

    /// The batch's input block, lane mask, `SV_VertexID` and
    /// `SV_InstanceID`, and a zeroed output block.
    fn write_batch(&mut self, run: Value, first: Value, end: Value) {
        let lanes = self.lanes();
        let regs = self.func.input_regs;
        let entries = self.lane_entries(first, end);
        let ids = self.lane_ids(run, &entries);
        let vertices: Vec<Value> = ids.iter().map(|[v, _]| *v).collect();
        let inputs = self.load_ptr(run, offset_of!(VertexRun, inputs));
        let zero = self.b.ins().iconst(types::I32, 0);
        let rows = self.row_offsets(&vertices, zero, regs);
        let block = self.func.inputs;
        for j in 0..self.k {
            let at: Vec<Value> = (0..4)
                .map(|l| self.b.ins().iadd(inputs, rows[4 * j + l]))
                .collect();
            for r in 0..regs {
                let vertex_regs = [0, 1, 2, 3].map(|l| {
                    self.b
                        .ins()
                        .load(VEC, MemFlagsData::trusted(), at[l], 16 * r as i32)
                });
                let comps = self.transpose(vertex_regs);
                for (c, v) in comps.into_iter().enumerate() {
                    let offset = ((r as usize * 4 + c) * lanes as usize + 4 * j) * 4;
                    self.b
                        .ins()
                        .store(MemFlagsData::trusted(), v, block, offset as i32);
                }
            }
        }
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
            let at = slot as usize * 4 * lanes as usize * 4;
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
        let zeros = self.lb().splat(0);
        for slot in 0..self.func.output_regs * 4 {
            self.store_lanes(zeros, outputs, (slot * lanes * 4) as i32);
        }
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
    /// run's outputs, from the last lane to the first.
    fn store_batch_outputs(&mut self, run: Value, first: Value, end: Value) {
        let lanes = self.lanes();
        let regs = self.func.output_regs;
        let outputs = self.load_ptr(run, offset_of!(VertexRun, outputs));
        let run_first = self.load_u32(run, offset_of!(VertexRun, first));
        let entries = self.lane_entries(first, end);
        let rows = self.row_offsets(&entries, run_first, regs);
        let block = self.frame_ptr(offset_of!(Frame, outputs));
        for j in (0..self.k).rev() {
            let mut per_lane: Vec<Vec<Value>> = vec![Vec::new(); 4];
            for r in 0..regs {
                let comps = [0, 1, 2, 3].map(|c| {
                    let offset = ((r as usize * 4 + c) * lanes as usize + 4 * j) * 4;
                    self.b
                        .ins()
                        .load(VEC, MemFlagsData::trusted(), block, offset as i32)
                });
                for (l, v) in self.transpose(comps).into_iter().enumerate() {
                    per_lane[l].push(v);
                }
            }
            for l in (0..4).rev() {
                let at = self.b.ins().iadd(outputs, rows[4 * j + l]);
                for (r, &v) in per_lane[l].iter().enumerate() {
                    self.b
                        .ins()
                        .store(MemFlagsData::trusted(), v, at, 16 * r as i32);
                }
            }
        }
    }
}
