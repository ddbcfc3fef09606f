//! Compiling one stencil: a Cranelift function whose operands are loaded
//! from and stored to addresses left as holes, whose body is the same
//! translator code the other tiers run, and which ends by jumping (a tail
//! call) to an exit left as a hole too.
//!
//! Holes and exits are symbols Cranelift relocates: a hole is a
//! `symbol_value` (an 8-byte absolute relocation, `movabs`), an exit a
//! colocated function (`jmp rel32`). The stitcher copies the code and
//! writes each hole's value and each exit's distance itself.

use super::flow_body;
use super::key::{Access, Body, InstBody, Key, Place};
use super::layout::{component_bytes, MASKS};
use super::Stencil;
use crate::ir::{AluOp, Dst, File, Inst, Program, Src, SysVal};
use crate::jit::helpers::{HelperId, HelperRefs};
use crate::jit::lanes::{LaneBuilder, Lanes};
use crate::jit::operand::Ty;
use crate::jit::state::{Analyses, Control, FuncState, Masks, ScratchLayout, Tr};
use crate::jit::vertex_run::RunRegs;
use crate::jit::{reuse, JitError};
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, ExtFuncData, ExternalName, FuncRef, Function, GlobalValueData,
    InstBuilder, MemFlagsData, Signature, UserExternalName, Value,
};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::{Context, FinalizedRelocTarget};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use dxjit_runtime::abi::{Frame, View, STATUS_DONE};
use std::mem::{offset_of, size_of};
use std::sync::OnceLock;

/// The relocation namespace of helpers: the module crate's function
/// namespace, so that the image's helper relocations read as they do for
/// Cranelift-compiled shaders.
const HELPER_NAMESPACE: u32 = 0;
/// The relocation namespace of holes (index: the hole's number).
const HOLE_NAMESPACE: u32 = 10;
/// The relocation namespace of exits (index: the exit's number).
const EXIT_NAMESPACE: u32 = 11;
/// The relocation namespace of the immediate constant buffer, which a
/// relatively indexed read reaches (its rows lead the shader's data).
const ICB_NAMESPACE: u32 = 12;

/// The ISA stencils are compiled for: the top tier's settings, with frame
/// pointers kept (Cranelift's tail calls need them).
fn isa() -> Result<&'static OwnedTargetIsa, JitError> {
    static ISA: OnceLock<Result<OwnedTargetIsa, JitError>> = OnceLock::new();
    ISA.get_or_init(crate::jit::module::stencil_isa)
        .as_ref()
        .map_err(Clone::clone)
}

/// The signature of every piece of the chain: the frame and the scratch
/// pointer in, a status out, with the tail-call convention.
fn chain_signature() -> Signature {
    let mut sig = Signature::new(CallConv::Tail);
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

/// The shader function's signature (`ShaderFn`).
fn entry_signature() -> Signature {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

/// The translator inside a stencil, with the holes and exits it has made.
pub struct Emitter<'p, 'f> {
    /// The translator.
    pub tr: Tr<'p, 'f>,
    /// The scratch pointer (the chain's second parameter).
    pub scratch: Value,
    holes: u32,
}

impl Emitter<'_, '_> {
    /// A new hole: the value the stitcher writes there.
    pub fn hole(&mut self) -> Value {
        let b = &mut self.tr.b;
        let name = b
            .func
            .declare_imported_user_function(UserExternalName::new(HOLE_NAMESPACE, self.holes));
        self.holes += 1;
        let gv = b.create_global_value(GlobalValueData::Symbol {
            name: ExternalName::user(name),
            offset: 0.into(),
            colocated: false,
            tls: false,
        });
        b.ins().symbol_value(types::I64, gv)
    }

    /// The address `base + hole`.
    pub fn at_hole(&mut self, base: Value) -> Value {
        let h = self.hole();
        self.tr.b.ins().iadd(base, h)
    }

    /// Exit `n`: a function of the chain's signature, placed by the stitcher.
    fn exit(&mut self, n: u32) -> FuncRef {
        let b = &mut self.tr.b;
        let name = b
            .func
            .declare_imported_user_function(UserExternalName::new(EXIT_NAMESPACE, n));
        let signature = b.import_signature(chain_signature());
        b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: true,
            patchable: false,
        })
    }

    /// Jumps to exit `n` (a tail call).
    pub fn jump_exit(&mut self, n: u32) {
        let f = self.exit(n);
        let args = [self.tr.frame, self.scratch];
        self.tr.b.ins().return_call(f, &args);
    }

    /// Goes to exit 1 where `cond` is nonzero, to exit 0 otherwise.
    pub fn branch_exits(&mut self, cond: Value) {
        let taken = self.tr.b.create_block();
        let other = self.tr.b.create_block();
        self.tr.b.ins().brif(cond, taken, &[], other, &[]);
        self.tr.b.switch_to_block(taken);
        self.jump_exit(1);
        self.tr.b.switch_to_block(other);
        self.jump_exit(0);
    }

    /// Calls exit 0 with the chain's signature and returns its status.
    fn call_chain(&mut self) -> Value {
        let f = self.exit(0);
        let scratch = self.tr.frame_ptr(offset_of!(Frame, scratch));
        let args = [self.tr.frame, scratch];
        let call = self.tr.b.ins().call(f, &args);
        self.tr.b.inst_results(call)[0]
    }

    /// Returns `status` from the stencil.
    pub fn return_status(&mut self, status: u32) {
        let s = self.tr.b.ins().iconst(types::I32, i64::from(status));
        self.tr.b.ins().return_(&[s]);
    }

    /// An entry whose loop (the pixel row loop, the vertex run loop) goes
    /// round a call of the chain: `begin` makes the loop from the block
    /// each turn starts in and returns its head, which an empty block
    /// (made first, filled with the jump to the head once it exists)
    /// enters; each turn runs `before`, then the chain, returns any status
    /// but done at once, and ends with `end`.
    fn looped_entry(
        &mut self,
        begin: impl FnOnce(&mut Self, Block) -> Block,
        before: impl FnOnce(&mut Self),
        end: impl FnOnce(&mut Self),
    ) {
        let enter = self.tr.b.create_block();
        self.tr.b.ins().jump(enter, &[]);
        self.tr.b.switch_to_block(enter);
        let start = self.tr.b.create_block();
        let head = begin(self, start);
        self.tr.b.switch_to_block(enter);
        self.tr.b.ins().jump(head, &[]);
        self.tr.b.switch_to_block(start);
        before(self);
        let status = self.call_chain();
        let done = self
            .tr
            .b
            .ins()
            .icmp_imm_u(IntCC::Equal, status, i64::from(STATUS_DONE));
        let next = self.tr.b.create_block();
        let stop = self.tr.b.create_block();
        self.tr.b.ins().brif(done, next, &[], stop, &[]);
        self.tr.b.switch_to_block(stop);
        self.tr.b.ins().return_(&[status]);
        self.tr.b.switch_to_block(next);
        end(self);
        self.return_status(STATUS_DONE);
    }

    /// The byte offset of mask `i` in the scratch.
    fn mask_offset(&self, i: usize) -> i32 {
        (MASKS + i as u32 * component_bytes(self.tr.k)) as i32
    }

    /// Loads every execution mask from the scratch's mask block.
    pub fn load_masks(&mut self) {
        let m = self.tr.ctl.masks;
        let vars = [m.cond, m.brk, m.cont, m.sw, m.ret, m.alive, m.exec];
        for (i, var) in vars.into_iter().enumerate() {
            let at = self.mask_offset(i);
            let v = self.tr.load_lanes(self.scratch, at);
            self.tr.lb().def_var(var, v);
        }
    }

    /// Stores every execution mask to the scratch's mask block.
    pub fn store_masks(&mut self) {
        let m = self.tr.ctl.masks;
        let vars = [m.cond, m.brk, m.cont, m.sw, m.ret, m.alive, m.exec];
        for (i, var) in vars.into_iter().enumerate() {
            let v = self.tr.lb().use_var(var);
            let at = self.mask_offset(i);
            self.tr.store_lanes(v, self.scratch, at);
        }
    }

    /// Loads a lane vector at `hole` bytes into the scratch.
    pub fn load_scratch_hole(&mut self) -> Lanes {
        let addr = self.at_hole(self.scratch);
        self.tr.load_lanes(addr, 0)
    }

    /// Stores a lane vector at `hole` bytes into the scratch.
    pub fn store_scratch_hole(&mut self, v: Lanes) {
        let addr = self.at_hole(self.scratch);
        self.tr.store_lanes(v, addr, 0);
    }

    /// One word at an address, broadcast to every lane.
    fn splat_word(&mut self, addr: Value, offset: i32) -> Lanes {
        let w = self
            .tr
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), addr, offset);
        self.tr.lb().splat_value(w)
    }

    /// Reads one component through `place`, taking its holes.
    fn load_place(&mut self, place: Place) -> Result<Lanes, JitError> {
        Ok(match place {
            Place::Scratch => self.load_scratch_hole(),
            Place::Framed(field) => {
                let base = self.tr.frame_ptr(usize::from(field));
                let addr = self.at_hole(base);
                self.tr.load_lanes(addr, 0)
            }
            Place::CbWord | Place::CbChecked => {
                let cbs = self.tr.frame_ptr(offset_of!(Frame, cbs));
                let view = self.at_hole(cbs);
                let ptr = self.tr.b.ins().load(
                    types::I64,
                    MemFlagsData::trusted(),
                    view,
                    offset_of!(View, ptr) as i32,
                );
                let word = self.hole();
                let mut addr = self.tr.b.ins().iadd(ptr, word);
                if place == Place::CbChecked {
                    let size = self.tr.b.ins().load(
                        types::I32,
                        MemFlagsData::trusted(),
                        view,
                        offset_of!(View, size) as i32,
                    );
                    let size = self.tr.b.ins().uextend(types::I64, size);
                    let end = self.tr.b.ins().iadd_imm_s(word, 4);
                    let ok = self
                        .tr
                        .b
                        .ins()
                        .icmp(IntCC::UnsignedLessThanOrEqual, end, size);
                    let zero = self.tr.frame_addr(offset_of!(Frame, zero));
                    addr = self.tr.b.ins().select(ok, addr, zero);
                }
                self.splat_word(addr, 0)
            }
            Place::Data => {
                let addr = self.hole();
                self.splat_word(addr, 0)
            }
            Place::FrameWord => {
                let addr = self.at_hole(self.tr.frame);
                self.splat_word(addr, 0)
            }
            Place::DispatchThread => {
                let addr = self.at_hole(self.tr.frame);
                let group = self
                    .tr
                    .b
                    .ins()
                    .load(types::I32, MemFlagsData::trusted(), addr, 0);
                let size = self.hole();
                let size = self.tr.b.ins().ireduce(types::I32, size);
                let base = self.tr.b.ins().imul(group, size);
                let base = self.tr.lb().splat_value(base);
                let sysvals = self.tr.frame_ptr(offset_of!(Frame, sysvals));
                let addr = self.at_hole(sysvals);
                let local = self.tr.load_lanes(addr, 0);
                self.tr.lb().map2(base, local, |b, x, y| b.ins().iadd(x, y))
            }
            Place::Dropped => {
                return Err(JitError::Invalid(
                    "stencil: a read from nowhere".to_string(),
                ))
            }
        })
    }

    /// Writes one component through `place`, taking its holes.
    fn store_place(&mut self, place: Place, v: Lanes) -> Result<(), JitError> {
        match place {
            Place::Scratch => self.store_scratch_hole(v),
            Place::Framed(field) => {
                let base = self.tr.frame_ptr(usize::from(field));
                let addr = self.at_hole(base);
                self.tr.store_lanes(v, addr, 0);
            }
            Place::Dropped => {}
            other => {
                return Err(JitError::Invalid(format!(
                    "stencil: {other:?} cannot be written"
                )))
            }
        }
        Ok(())
    }

    /// Defines canonical register `reg`'s components in `access` from
    /// their places.
    fn load_register(&mut self, reg: usize, access: Access) -> Result<(), JitError> {
        for c in (0..4).filter(|c| access.mask & (1 << c) != 0) {
            let mut v = self.load_place(access.place)?;
            if access.plus {
                let h = self.hole();
                let h = self.tr.b.ins().ireduce(types::I32, h);
                let h = self.tr.lb().splat_value(h);
                v = self.tr.lb().map2(v, h, |b, x, y| b.ins().iadd(x, y));
            }
            let var = self.tr.func.temps[reg * 4 + c];
            self.tr.lb().def_var(var, v);
        }
        Ok(())
    }

    /// Stores canonical register `reg`'s components in `access`.
    fn store_register(&mut self, reg: usize, access: Access) -> Result<(), JitError> {
        for c in (0..4).filter(|c| access.mask & (1 << c) != 0) {
            let var = self.tr.func.temps[reg * 4 + c];
            let v = self.tr.lb().use_var(var);
            self.store_place(access.place, v)?;
        }
        Ok(())
    }
}

/// The program a stencil's translator sees: the stage and declarations of
/// the key, `registers` temps, and `main` (which analyses read).
fn program(key: &Key, registers: u32) -> Program {
    let mut prog = Program::new(crate::ir::Stage::Vertex);
    prog.temps = registers;
    match &key.body {
        Body::Inst(body) => {
            let InstBody { inst, context } = &**body;
            prog.stage = context.stage;
            prog.unbound_texture_alpha_one = context.unbound_alpha_one;
            prog.per_sample = context.per_sample;
            prog.sample_position = context.sample_position;
            prog.srvs = context.srvs.clone();
            prog.uavs = context.uavs.clone();
            prog.tgsm = context.tgsm.clone();
            prog.icb = vec![[0; 4]; context.icb_rows as usize];
            prog.main = vec![inst.clone()].into();
        }
        Body::PixelEntry { reads_position, .. } => {
            prog.stage = crate::ir::Stage::Pixel;
            if *reads_position {
                // Never translated: it tells the row loop to write the
                // position's x.
                prog.main = vec![Inst::Alu {
                    op: AluOp::Mov,
                    dst: Dst::null(),
                    src: vec![Src::reg(File::SysVal(SysVal::Position), 0)],
                }]
                .into();
            }
        }
        Body::VertexEntry => prog.stage = crate::ir::Stage::Vertex,
        Body::Entry | Body::GroupEntry | Body::Flow { .. } | Body::Stage { .. } => {}
    }
    prog
}

/// Compiles the stencil `key` describes; with `listing`, its code as text
/// too.
pub fn build(key: &Key, listing: bool) -> Result<Stencil, JitError> {
    let reuse::Contexts { mut ctx, mut fctx } = reuse::take();
    let entry_kind = matches!(
        key.body,
        Body::Entry | Body::GroupEntry | Body::PixelEntry { .. } | Body::VertexEntry
    );
    ctx.func.signature = if entry_kind {
        entry_signature()
    } else {
        chain_signature()
    };
    translate(key, &mut ctx.func, &mut fctx)?;
    crate::jit::dead_code::remove(&mut ctx.func);
    let stencil = compile(&mut ctx, key, listing)?;
    ctx.clear();
    reuse::keep(reuse::Contexts { ctx, fctx });
    Ok(stencil)
}

/// Builds the stencil's function into `func` (its signature set).
fn translate(
    key: &Key,
    func: &mut Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<(), JitError> {
    let registers = (key.loads.len() + key.stores.len()) as u32;
    let prog = program(key, registers);
    let entry_kind = matches!(
        key.body,
        Body::Entry | Body::GroupEntry | Body::PixelEntry { .. } | Body::VertexEntry
    );
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let frame = b.block_params(entry)[0];
    let scratch = if entry_kind {
        frame
    } else {
        b.block_params(entry)[1]
    };
    let helpers = HelperRefs::new((0..HelperId::ALL.len() as u32).collect());
    let icb_name = b
        .func
        .declare_imported_user_function(UserExternalName::new(ICB_NAMESPACE, 0));
    let icb = b.create_global_value(GlobalValueData::Symbol {
        name: ExternalName::user(icb_name),
        offset: 0.into(),
        colocated: false,
        tls: false,
    });
    let exit = b.create_block();
    let placeholder = b.ins().iconst(types::I64, 0);
    let reads_interrupt = match &key.body {
        Body::Inst(body) => matches!(body.inst, Inst::Halt { .. }),
        Body::Flow { op, .. } => matches!(op, super::key::FlowOp::LoopBack { checked: true, .. }),
        // Between batches of a run, as the top tier's run loop does.
        Body::VertexEntry => true,
        _ => false,
    };
    let interrupt = if reads_interrupt {
        b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            frame,
            offset_of!(Frame, interrupt) as i32,
        )
    } else {
        placeholder
    };
    // The row loop writes the varying inputs through the input block, and
    // relatively indexed inputs are read through it.
    let context = match &key.body {
        Body::Inst(body) => Some(&body.context),
        _ => None,
    };
    let input_regs = context.map_or(0, |c| c.input_regs);
    let inputs = if entry_kind || input_regs > 0 {
        b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            frame,
            offset_of!(Frame, inputs) as i32,
        )
    } else {
        placeholder
    };
    let k = usize::from(key.k);
    let dummy = LaneBuilder { b: &mut b, k }.declare();
    let mut tr = Tr {
        b,
        k,
        prog: &prog,
        frame,
        func: FuncState {
            temps: Vec::new(),
            waiting: Default::default(),
            all_vars: Vec::new(),
            spill_vectors: 0,
            exit,
            resumes: Vec::new(),
            helpers,
            scratch: ScratchLayout {
                indexables: context
                    .map(|c| {
                        c.indexables
                            .iter()
                            .map(|&(id, at, count)| (id, (at, count)))
                            .collect()
                    })
                    .unwrap_or_default(),
                args: 0,
                spill: MASKS,
                size: MASKS,
            },
            icb,
            input_regs,
            output_regs: context.map_or(0, |c| c.output_regs),
            cb_views: Default::default(),
            cb_static_bytes: [0; dxjit_runtime::abi::CB_SLOTS],
            interrupt,
            inputs,
            slot_offsets: None,
            block: None,
            structure_stride: None,
            batch_loop: None,
            reloaded: Default::default(),
            spill_stores: Vec::new(),
            scratch_steps: Vec::new(),
            row: None,
            row_check: None,
            vertex: None,
            positive_zero_temps: Default::default(),
            never_negative_zero: Default::default(),
            wide_sampling: false,
        },
        ctl: Control::starting(dummy, u32::from(key.divergent)),
        facts: Analyses {
            uniform: Default::default(),
            scalars: Default::default(),
            liveness: crate::ir::Liveness::of(&prog),
            raw_strides: Default::default(),
            inline_pairs: Vec::new(),
        },
    };
    tr.ctl.masks = Masks {
        cond: tr.declare(),
        brk: tr.declare(),
        cont: tr.declare(),
        sw: tr.declare(),
        ret: tr.declare(),
        alive: tr.declare(),
        exec: tr.declare(),
    };
    for _ in 0..registers * 4 {
        let v = tr.declare();
        tr.func.temps.push(v);
    }
    let mut e = Emitter {
        tr,
        scratch,
        holes: 0,
    };
    emit(&mut e, key)?;
    e.tr.b.seal_all_blocks();
    let frontend = isa()?.frontend_config();
    e.tr.b.finalize(frontend);
    Ok(())
}

/// Emits the stencil's code: operands in, the body, operands out, exits.
fn emit(e: &mut Emitter, key: &Key) -> Result<(), JitError> {
    match &key.body {
        Body::Entry => {
            let status = e.call_chain();
            e.tr.b.ins().return_(&[status]);
            return Ok(());
        }
        Body::GroupEntry => {
            group_entry(e);
            return Ok(());
        }
        Body::PixelEntry { output_regs, .. } => {
            e.tr.func.output_regs = *output_regs;
            e.looped_entry(
                |e, start| {
                    e.tr.declare_row_vars(false);
                    e.tr.begin_draw_rows(start)
                },
                |e| {
                    // The pieces find the step where the runtime puts a
                    // call's lanes: its column, lane mask and output block
                    // in the frame.
                    let x = e.tr.step_x();
                    let mask = e.tr.step_mask();
                    let outputs = e.tr.step_outputs();
                    let frame = e.tr.frame;
                    for (value, field) in [
                        (x, offset_of!(Frame, pixel_origin)),
                        (mask, offset_of!(Frame, lane_mask)),
                        (outputs, offset_of!(Frame, outputs)),
                    ] {
                        e.tr.b
                            .ins()
                            .store(MemFlagsData::trusted(), value, frame, field as i32);
                    }
                },
                |e| e.tr.end_draw_row(),
            );
            return Ok(());
        }
        Body::VertexEntry => {
            let regs = RunRegs {
                inputs: e.hole(),
                outputs: e.hole(),
            };
            e.looped_entry(
                |e, start| e.tr.begin_vertex_runs(start, |_| regs),
                |_| {},
                |e| e.tr.end_vertex_batch(),
            );
            return Ok(());
        }
        Body::Inst(_) | Body::Flow { .. } | Body::Stage { .. } => {}
    }
    let dsts = key.stores.len();
    for (i, access) in key.loads.iter().enumerate() {
        e.load_register(dsts + i, *access)?;
    }
    if let Body::Inst(body) = &key.body {
        if body.context.any_slot {
            let view = e.hole();
            let sampler = e.hole();
            e.tr.func.slot_offsets = Some((view, sampler));
        }
        if body.context.any_block {
            let at = e.hole();
            let size = e.hole();
            let stride = e.hole();
            e.tr.func.block = Some((at, size, stride));
        }
        if body.context.any_stride {
            let stride = e.hole();
            e.tr.func.structure_stride = Some(stride);
        }
    }
    if key.masks || key.divergent {
        e.load_masks();
    }
    if key.divergent {
        // The old values the writes blend with; the stores take the same
        // holes, so the stitcher gives them twice.
        for (reg, access) in key.stores.iter().enumerate() {
            if access.place != Place::Dropped {
                e.load_register(reg, *access)?;
            }
        }
    }
    match &key.body {
        Body::Inst(body) => {
            let inst = &body.inst;
            e.tr.emit_inst(inst, &[])?;
            for (reg, access) in key.stores.iter().enumerate() {
                e.store_register(reg, *access)?;
            }
            e.jump_exit(0);
        }
        Body::Stage { neg, abs, int } => {
            let ty = if *int { Ty::I } else { Ty::F };
            let temps = &e.tr.func.temps;
            let pairs: Vec<_> = (0..4).map(|c| (temps[4 + c], temps[c])).collect();
            for (c, (from, to)) in pairs.into_iter().enumerate() {
                if key.stores[0].mask & (1 << c) != 0 {
                    let v = e.tr.lb().use_var(from);
                    let v = e.tr.modify(v, *abs, *neg, ty);
                    e.tr.lb().def_var(to, v);
                }
            }
            e.store_register(0, key.stores[0])?;
            e.jump_exit(0);
        }
        Body::Flow { op, src } => flow_body::emit(e, *op, src.as_ref())?,
        Body::Entry | Body::GroupEntry | Body::PixelEntry { .. } | Body::VertexEntry => {
            unreachable!("entries return above")
        }
    }
    Ok(())
}

/// The loop over a group's lane batches (see [`Body::GroupEntry`]): the
/// chain runs each batch, the frame's per-batch pointers move on after
/// each and back at the end, `Frame::resume` becomes 1, and the statuses
/// are ORed (an interrupted batch returns at once, as in the other tiers).
fn group_entry(e: &mut Emitter) {
    let flags = MemFlagsData::trusted();
    let batches = e.hole();
    let scratch_stride = e.hole();
    let lanes = e.tr.lanes();
    let sysval_stride = crate::jit::group_loop::sysval_stride(lanes);
    let strides = [
        (
            offset_of!(Frame, sysvals),
            e.tr.b.ins().iconst(types::I64, sysval_stride),
        ),
        (
            offset_of!(Frame, lane_mask),
            e.tr.b.ins().iconst(types::I64, 4 * i64::from(lanes)),
        ),
        (offset_of!(Frame, scratch), scratch_stride),
    ];
    let head: Block = e.tr.b.create_block();
    let finish = e.tr.b.create_block();
    let stop = e.tr.b.create_block();
    let go_on = e.tr.b.create_block();
    for block in [head, go_on] {
        e.tr.b.append_block_param(block, types::I64);
        e.tr.b.append_block_param(block, types::I32);
    }
    let zero = e.tr.b.ins().iconst(types::I64, 0);
    let done = e.tr.b.ins().iconst(types::I32, i64::from(STATUS_DONE));
    e.tr.b.ins().jump(head, &[zero.into(), done.into()]);

    e.tr.b.switch_to_block(head);
    let index = e.tr.b.block_params(head)[0];
    let so_far = e.tr.b.block_params(head)[1];
    let status = e.call_chain();
    let interrupted = e.tr.b.ins().icmp_imm_u(
        IntCC::Equal,
        status,
        i64::from(dxjit_runtime::abi::STATUS_INTERRUPTED),
    );
    let so_far = e.tr.b.ins().bor(so_far, status);
    e.tr.b.ins().brif(
        interrupted,
        stop,
        &[],
        go_on,
        &[index.into(), so_far.into()],
    );

    e.tr.b.switch_to_block(stop);
    e.tr.b.set_cold_block(stop);
    e.tr.b.ins().return_(&[status]);

    e.tr.b.switch_to_block(go_on);
    let index = e.tr.b.block_params(go_on)[0];
    let so_far = e.tr.b.block_params(go_on)[1];
    for (field, by) in strides {
        let p = e.tr.frame_ptr(field);
        let p = e.tr.b.ins().iadd(p, by);
        e.tr.b.ins().store(flags, p, e.tr.frame, field as i32);
    }
    let index = e.tr.b.ins().iadd_imm_s(index, 1);
    let more = e.tr.b.ins().icmp(IntCC::UnsignedLessThan, index, batches);
    e.tr.b
        .ins()
        .brif(more, head, &[index.into(), so_far.into()], finish, &[]);

    e.tr.b.switch_to_block(finish);
    for (field, by) in strides {
        let back = e.tr.b.ins().imul(by, batches);
        let p = e.tr.frame_ptr(field);
        let p = e.tr.b.ins().isub(p, back);
        e.tr.b.ins().store(flags, p, e.tr.frame, field as i32);
    }
    let one = e.tr.b.ins().iconst(types::I32, 1);
    e.tr.b
        .ins()
        .store(flags, one, e.tr.frame, offset_of!(Frame, resume) as i32);
    e.tr.b.ins().return_(&[so_far]);
}

/// Compiles the function in `ctx` and collects what the stitcher patches.
fn compile(ctx: &mut Context, key: &Key, listing: bool) -> Result<Stencil, JitError> {
    ctx.set_disasm(listing);
    ctx.compile(&**isa()?, &mut Default::default())
        .map_err(|e| JitError::Backend(format!("stencil {key:?}: {:?}", e.inner)))?;
    let code = ctx.compiled_code().expect("compiled above");
    let names = ctx.func.params.user_named_funcs();
    let libcall_name = cranelift_module::default_libcall_names();
    let mut stencil = Stencil {
        key: key.clone(),
        code: code.code_buffer().to_vec(),
        holes: Vec::new(),
        exits: Vec::new(),
        icb: Vec::new(),
        symbols: Vec::new(),
        listing: code.vcode.clone(),
    };
    for r in code.buffer.relocs() {
        let bad = || JitError::Backend(format!("stencil {key:?}: relocation {r:?}"));
        let name = match &r.target {
            FinalizedRelocTarget::ExternalName(ExternalName::User(user)) => {
                names.get(*user).ok_or_else(bad)?.clone()
            }
            FinalizedRelocTarget::ExternalName(ExternalName::LibCall(lc)) => {
                stencil.symbols.push(super::SymbolReloc {
                    offset: r.offset,
                    kind: r.kind,
                    symbol: libcall_name(*lc),
                    addend: r.addend,
                });
                continue;
            }
            _ => return Err(bad()),
        };
        match (name.namespace, r.kind) {
            (HOLE_NAMESPACE, Reloc::Abs8) if r.addend == 0 => {
                stencil.holes.push((r.offset, name.index));
            }
            (ICB_NAMESPACE, Reloc::Abs8) => stencil.icb.push((r.offset, r.addend)),
            (EXIT_NAMESPACE, Reloc::X86CallPCRel4) => {
                stencil.exits.push((r.offset, name.index, r.addend));
            }
            (HELPER_NAMESPACE, _) => {
                let id = HelperId::ALL.get(name.index as usize).ok_or_else(bad)?;
                stencil.symbols.push(super::SymbolReloc {
                    offset: r.offset,
                    kind: r.kind,
                    symbol: id.name().to_string(),
                    addend: r.addend,
                });
            }
            _ => return Err(bad()),
        }
    }
    Ok(stencil)
}

/// The byte offset of constant buffer `slot`'s view in `Frame::cbs`.
pub fn view_offset(slot: u32) -> u64 {
    u64::from(slot) * size_of::<View>() as u64
}
