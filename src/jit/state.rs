//! The translation state of one function: register variables, execution
//! masks, the control-flow stack and the frame layout.

use super::helpers::{HelperId, HelperRefs};
use super::lanes::{LaneBuilder, LaneVar, Lanes, MAX_K, VEC};
use super::JitError;
use crate::ir::Program;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, FuncRef, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;
use dxjit_runtime::abi::Frame;
use std::collections::HashMap;
use std::mem::offset_of;

/// The masks whose conjunction is the execution mask (the llvmpipe scheme):
/// `exec = cond & brk & cont & sw & ret & alive`.
#[derive(Clone, Copy)]
pub struct Masks {
    /// Lanes inside the taken side of every enclosing `if`.
    pub cond: LaneVar,
    /// Lanes that have not left the innermost loop or switch.
    pub brk: LaneVar,
    /// Lanes that have not continued in the innermost loop.
    pub cont: LaneVar,
    /// Lanes that matched a case of the innermost switch.
    pub sw: LaneVar,
    /// Lanes that have not returned from the current function.
    pub ret: LaneVar,
    /// Lanes that are real invocations and not discarded.
    pub alive: LaneVar,
    /// The conjunction of the above.
    pub exec: LaneVar,
}

/// Masks saved when a construct begins, restored when it ends. They live
/// in variables (not SSA values) so that they survive barrier resumption.
#[derive(Clone, Copy)]
pub struct Saved {
    pub cond: LaneVar,
    pub brk: LaneVar,
    pub cont: LaneVar,
    pub sw: LaneVar,
    pub ret: LaneVar,
}

/// An open control-flow construct.
pub enum Flow {
    /// `if`: the lanes that took it, the block after the taken side, and
    /// (once `else` is seen) the join block.
    If {
        saved_cond: LaneVar,
        taken: LaneVar,
        skip: Block,
        merge: Option<Block>,
    },
    /// An `if` every active lane takes together: plain branches.
    UniformIf { skip: Block, merge: Option<Block> },
    /// `loop`: its header, latch (continue target) and exit blocks;
    /// `uniform` when every active lane leaves it together.
    Loop {
        saved: Saved,
        header: Block,
        latch: Block,
        exit: Block,
        uniform: bool,
        /// Whether the back edge checks the interrupt word (not for uniform
        /// loops whose trip count literals bound: `bounded_loop`).
        checked: bool,
        /// What waits on the stack while the loop runs.
        parked: Option<super::park::Parked>,
    },
    /// `switch`: the selector and the case values at this level.
    Switch {
        saved: Saved,
        sel: LaneVar,
        cases: Vec<u32>,
    },
}

/// Where things live in the per-call scratch memory.
pub struct ScratchLayout {
    /// Byte offset of each indexable temp, by declaration number.
    pub indexables: HashMap<u32, (u32, u32)>,
    /// Byte offset of the helper-argument area.
    pub args: u32,
    /// Byte offset of the barrier spill area.
    pub spill: u32,
    /// Bytes of scratch in all.
    pub size: u32,
}

/// Bytes reserved for arguments passed to runtime helpers.
pub const ARGS_BYTES: u32 = 1024;

/// Translation state of one compiled function, in parts: the builder, the
/// lane count and the program, then what the function is made of
/// ([`FuncState`]), where control is ([`Control`]) and what the analyses
/// found before translation ([`Analyses`]).
pub struct Tr<'p, 'f> {
    /// The Cranelift builder.
    pub b: FunctionBuilder<'f>,
    /// Vectors per component.
    pub k: usize,
    /// The program.
    pub prog: &'p Program,
    /// The frame pointer (entry-block parameter).
    pub frame: Value,
    /// The function's variables, blocks and frame layout.
    pub func: FuncState,
    /// Execution masks and the open constructs.
    pub ctl: Control,
    /// What the analyses found before translation.
    pub facts: Analyses,
}

/// What the function is made of: register variables, the blocks every
/// part may jump to, imported helpers and the frame's layout and values
/// loaded once in the entry block.
pub struct FuncState {
    /// Temps: variable of register `r`, component `c` at `r * 4 + c`.
    pub temps: Vec<LaneVar>,
    /// Components the last loop parked, not yet brought back.
    pub waiting: super::park::Parked,
    /// Every variable, for spilling at barriers.
    pub all_vars: Vec<LaneVar>,
    /// Barrier spill slots used.
    pub spill_vectors: u32,
    /// The block that stores the final state and returns.
    pub exit: Block,
    /// Blocks that resume after each barrier.
    pub resumes: Vec<Block>,
    /// Imported runtime helpers by handle.
    pub helpers: HelperRefs,
    /// Scratch layout.
    pub scratch: ScratchLayout,
    /// The immediate constant buffer (a symbol: its address is relocated).
    pub icb: cranelift_codegen::ir::GlobalValue,
    /// Input registers in the SoA input block.
    pub input_regs: u32,
    /// Output registers in the SoA output block.
    pub output_regs: u32,
    /// Each declared constant buffer's pointer, size and the zero row's
    /// address, loaded once where the body starts.
    pub cb_views: HashMap<u32, (Value, Value, Value)>,
    /// Bytes of each constant-buffer slot read so far with a literal row
    /// and no bounds test: the runtime binds at least this much
    /// (`Kernel::cb_static_bytes`).
    pub cb_static_bytes: [u32; dxjit_runtime::abi::CB_SLOTS],
    /// The address of the frame's interrupt word, loaded once in the entry
    /// block.
    pub interrupt: Value,
    /// The SoA input block (`Frame::inputs`, which no call moves), loaded
    /// once in the entry block.
    pub inputs: Value,
    /// In a stencil: the byte offsets of the instruction's view record and
    /// sampler state (holes), which stand for the slots it names, so that
    /// one stencil serves every slot.
    pub slot_offsets: Option<(Value, Value)>,
    /// In a stencil: the byte offset in the group-shared memory, the size
    /// and the stride (at least 1) of the one block an instruction names
    /// (holes), which stand for its declaration's.
    pub block: Option<(Value, Value, Value)>,
    /// In a stencil: the structure stride (at least 1) of the structured
    /// buffer an instruction names (a hole), which stands for its
    /// declaration's.
    pub structure_stride: Option<Value>,
    /// Compute shaders with barriers: the loop over the group's lane
    /// batches that each call runs.
    pub batch_loop: Option<super::group_loop::BatchLoop>,
    /// (scratch offset, value) of each load that reloads spilled state
    /// after a barrier.
    pub reloaded: std::collections::HashSet<(i32, Value)>,
    /// Each store that spills state at a barrier, with its scratch offset
    /// (see `group_loop::drop_unchanged_spills`).
    pub spill_stores: Vec<(cranelift_codegen::ir::Inst, i32)>,
    /// The constants that stand for `n` batches' scratch bytes in a group
    /// run phase by phase, with `n`, set once the body is translated.
    pub scratch_steps: Vec<(cranelift_codegen::ir::Inst, i64)>,
    /// Pixel shaders: the step's place and values kept in variables.
    pub row: Option<super::draw_row::RowVars>,
    /// Pixel shaders in a row: the block that tests for the next step.
    pub row_check: Option<Block>,
    /// Vertex shaders at the top tier: the vertex run's variables.
    pub vertex: Option<super::vertex_run::RunVars>,
    /// Temp components (`r × 4 + c`) that hold a lookup's result whose
    /// runtime path turned −0 into +0, because nothing reads the sign of
    /// its zeros (see `zero_sign.rs`), until they are written again.
    pub positive_zero_temps: std::collections::HashSet<u32>,
    /// Values (lanes read from [`FuncState::positive_zero_temps`]) that are
    /// never −0.
    pub never_negative_zero: std::collections::HashSet<Value>,
    /// Whether lookups go to the runtime's AVX2 filter
    /// ([`super::JitOptions::wide_sampling`], on a CPU that has it).
    pub wide_sampling: bool,
}

/// Where control is: the execution masks, the open constructs and the
/// inlined calls around the instruction being translated.
pub struct Control {
    /// Execution masks.
    pub masks: Masks,
    /// Open constructs.
    pub flow: Vec<Flow>,
    /// Where in the main function each open construct of `flow` begins.
    pub open_at: Vec<usize>,
    /// Lanes may have been removed by ret/discard at the top level.
    pub killed: bool,
    /// Depth of inlined calls.
    pub call_depth: u32,
    /// Instructions emitted so far (a budget against inlining blow-up).
    pub emitted: usize,
}

impl Control {
    /// Control before the first instruction: no construct open, every
    /// mask `placeholder` (the caller declares the real ones), `call_depth`
    /// calls deep.
    pub fn starting(placeholder: LaneVar, call_depth: u32) -> Control {
        Control {
            masks: Masks {
                cond: placeholder,
                brk: placeholder,
                cont: placeholder,
                sw: placeholder,
                ret: placeholder,
                alive: placeholder,
                exec: placeholder,
            },
            flow: Vec::new(),
            open_at: Vec::new(),
            killed: false,
            call_depth,
            emitted: 0,
        }
    }
}

/// What the analyses found about the program before translation.
pub struct Analyses {
    /// Which values and branches are uniform across lanes.
    pub uniform: super::uniform::Uniformity,
    /// The uniform temp components kept in scalar registers.
    pub scalars: super::scalar::ScalarTemps,
    /// Which temp components are live where, in the main function.
    pub liveness: crate::ir::Liveness,
    /// The likely lane-to-lane stride of each raw load's offset in `main`.
    pub raw_strides: HashMap<usize, i64>,
    /// The (SRV, sampler) pairs compiled code may filter itself, in the
    /// order of the frame's `inline_samplers`.
    pub inline_pairs: Vec<(u32, u32)>,
}

/// Instructions a program may expand to after inlining calls.
pub const EMIT_BUDGET: usize = 1 << 20;

impl<'p, 'f> Tr<'p, 'f> {
    /// Lane helpers borrowing the builder.
    pub fn lb(&mut self) -> LaneBuilder<'_, 'f> {
        LaneBuilder {
            b: &mut self.b,
            k: self.k,
        }
    }

    /// A runtime helper, imported into the function on first use.
    pub fn helper(&mut self, id: HelperId) -> FuncRef {
        self.func.helpers.get(self.b.func, id)
    }

    /// The helper argument block in the call's scratch memory.
    pub fn args_ptr(&mut self) -> Value {
        let scratch = self.frame_ptr(offset_of!(Frame, scratch));
        self.b
            .ins()
            .iadd_imm_s(scratch, i64::from(self.func.scratch.args))
    }

    /// Whether `rest` is the main function's remainder: translating main
    /// itself (not an inlined subroutine, whose body ends before the code
    /// after its call, nor a stencil's lone instruction), so that nothing
    /// runs after `rest`'s last instruction.
    pub fn rest_of_main(&self, rest: &[crate::ir::Inst]) -> bool {
        self.ctl.call_depth == 0 && rest.as_ptr_range().end == self.prog.main.as_ptr_range().end
    }

    /// The index in the main function of the instruction followed by `rest`;
    /// `None` inside an inlined call, whose body is another function's.
    pub fn main_index(&self, rest: &[crate::ir::Inst]) -> Option<usize> {
        (self.ctl.call_depth == 0).then(|| self.prog.main.len() - rest.len() - 1)
    }

    /// Lanes per call.
    pub fn lanes(&self) -> u32 {
        4 * self.k as u32
    }

    /// Declares a component variable and registers it for spilling.
    pub fn declare(&mut self) -> LaneVar {
        let v = self.lb().declare();
        self.func.all_vars.push(v);
        v
    }

    /// Loads a pointer-sized field of the frame.
    pub fn frame_ptr(&mut self, offset: usize) -> Value {
        self.b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            self.frame,
            offset as i32,
        )
    }

    /// Ends a loop's test: on to `more` while `at` is below `end`
    /// (unsigned), else to `finished`, which returns `STATUS_DONE`.
    pub fn continue_below(&mut self, at: Value, end: Value, more: Block, finished: Block) {
        let below = self.b.ins().icmp(IntCC::UnsignedLessThan, at, end);
        self.b.ins().brif(below, more, &[], finished, &[]);
        self.b.switch_to_block(finished);
        let done = self
            .b
            .ins()
            .iconst(types::I32, i64::from(dxjit_runtime::abi::STATUS_DONE));
        self.b.ins().return_(&[done]);
    }

    /// The u32 at `base + offset`.
    pub fn load_u32(&mut self, base: Value, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), base, offset as i32)
    }

    /// The pointer at `base + offset`.
    pub fn load_ptr(&mut self, base: Value, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), base, offset as i32)
    }

    /// The address of a field of the frame.
    pub fn frame_addr(&mut self, offset: usize) -> Value {
        self.b.ins().iadd_imm_s(self.frame, offset as i64)
    }

    /// Loads `k` vectors from consecutive 16-byte slots.
    pub fn load_lanes(&mut self, base: Value, offset: i32) -> Lanes {
        self.load_lanes_with(base, offset, MemFlagsData::trusted())
    }

    /// [`Tr::load_lanes`] with the loads' flags `flags`.
    pub fn load_lanes_with(&mut self, base: Value, offset: i32, flags: MemFlagsData) -> Lanes {
        let mut out = Lanes { v: [base; MAX_K] };
        for j in 0..self.k {
            out.v[j] = self.b.ins().load(VEC, flags, base, offset + 16 * j as i32);
        }
        out
    }

    /// Stores `k` vectors to consecutive 16-byte slots.
    pub fn store_lanes(&mut self, val: Lanes, base: Value, offset: i32) {
        for j in 0..self.k {
            self.b.ins().store(
                MemFlagsData::trusted(),
                val.v[j],
                base,
                offset + 16 * j as i32,
            );
        }
    }

    /// The current execution mask.
    pub fn exec(&mut self) -> Lanes {
        let e = self.ctl.masks.exec;
        self.lb().use_var(e)
    }

    /// Whether writes must blend with the execution mask.
    pub fn divergent(&self) -> bool {
        self.ctl.killed
            || self.ctl.call_depth > 0
            || self
                .ctl
                .flow
                .iter()
                .any(|f| !matches!(f, Flow::UniformIf { .. } | Flow::Loop { uniform: true, .. }))
    }

    /// Whether a write to component `comp` of temp `reg` must blend with the
    /// execution mask. It need not when no masked-off lane can read the
    /// component again before writing it: the component is dead wherever
    /// such a lane resumes (at the `else`, after the `if`, at the loop header, after the
    /// loop), and no lane left by `ret` or `discard` still feeds derivatives.
    pub fn temp_needs_blend(&self, reg: u32, comp: u8) -> bool {
        if self.ctl.call_depth > 0
            || (self.ctl.killed && self.prog.stage == crate::ir::Stage::Pixel)
        {
            return true;
        }
        let key = (reg, comp);
        self.ctl
            .flow
            .iter()
            .zip(&self.ctl.open_at)
            .any(|(f, &open)| {
                if matches!(f, Flow::UniformIf { .. } | Flow::Loop { uniform: true, .. }) {
                    return false;
                }
                let close = self.facts.liveness.close(open);
                match (self.prog.main.get(open), f) {
                    (Some(crate::ir::Inst::If { .. }), Flow::If { merge, .. }) => {
                        // Inside the taken side of an `if` with an `else`,
                        // the masked-off lanes resume at the `else`.
                        let resume = match (merge, self.facts.liveness.else_of(open)) {
                            (None, Some(e)) => e + 1,
                            _ => close,
                        };
                        self.facts.liveness.before(resume).contains(&key)
                    }
                    (Some(crate::ir::Inst::Loop), _) => {
                        self.facts.liveness.before(close).contains(&key)
                            || self.facts.liveness.after(close).contains(&key)
                    }
                    _ => true,
                }
            })
    }

    /// Whether `src.x` is known to be the same in every active lane.
    pub fn is_uniform(&self, src: &crate::ir::Src) -> bool {
        self.ctl.call_depth == 0 && self.facts.uniform.src(src, 0)
    }

    /// Recomputes `exec` from its parts.
    pub fn update_exec(&mut self) {
        let m = self.ctl.masks;
        let mut lb = self.lb();
        let cond = lb.use_var(m.cond);
        let brk = lb.use_var(m.brk);
        let cont = lb.use_var(m.cont);
        let sw = lb.use_var(m.sw);
        let ret = lb.use_var(m.ret);
        let alive = lb.use_var(m.alive);
        let a = lb.and(cond, brk);
        let a = lb.and(a, cont);
        let a = lb.and(a, sw);
        let a = lb.and(a, ret);
        let a = lb.and(a, alive);
        lb.def_var(m.exec, a);
    }

    /// A new spilled variable holding `v`.
    pub fn keep(&mut self, v: Lanes) -> LaneVar {
        let var = self.declare();
        self.lb().def_var(var, v);
        var
    }

    /// A new spilled variable holding the current value of `var`.
    pub fn keep_var(&mut self, var: LaneVar) -> LaneVar {
        let v = self.lb().use_var(var);
        self.keep(v)
    }

    /// Saves the restorable masks.
    pub fn save_masks(&mut self) -> Saved {
        let m = self.ctl.masks;
        Saved {
            cond: self.keep_var(m.cond),
            brk: self.keep_var(m.brk),
            cont: self.keep_var(m.cont),
            sw: self.keep_var(m.sw),
            ret: self.keep_var(m.ret),
        }
    }

    /// Counts an emitted instruction against the budget.
    pub fn charge(&mut self) -> Result<(), JitError> {
        self.ctl.emitted += 1;
        if self.ctl.emitted > EMIT_BUDGET {
            return Err(JitError::TooLarge);
        }
        Ok(())
    }
}
