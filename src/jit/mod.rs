//! The Cranelift backend: turns an IR [`Program`] into one native function
//! that runs `4 * k` invocations per call in SIMD lanes. The only place that
//! knows Cranelift.

mod alu;
mod bounded_loop;
mod const_block;
mod counter;
mod dead_code;
mod denormal;
mod distribute;
mod double;
mod draw_row;
mod eval;
mod flow;
mod gather;
mod geometry;
mod group_loop;
mod helpers;
mod image;
mod inline_sample;
mod lane_addr;
mod lanes;
mod loader;
mod local_cse;
mod main_flow;
mod memory;
mod module;
mod msaa;
mod operand;
mod park;
mod peephole;
mod reuse;
mod rotate;
mod sample_indexed;
mod scalar;
mod shared_quiet;
mod sink;
mod state;
mod stencil;
mod stride;
mod stride_copy;
mod strided;
mod target_store;
mod translate;
mod typed;
mod typed_store;
mod uniform;
mod vector_memory;
pub(crate) mod vertex_run;
mod webs;
mod wide_sample;
mod zero_sign;

use crate::ir::{Program, Stage};
use cranelift_codegen::ir::{
    types, AbiParam, ExternalName, GlobalValueData, InstBuilder, MemFlagsData, UserExternalName,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;
use cranelift_jit::JITModule;
use cranelift_module::{DataDescription, DataId, Linkage, Module};
use dxjit_runtime::abi::{Frame, ShaderFn, STATUS_DONE};
use helpers::HelperId;
pub use image::{Image, RelocKind, RelocTarget, Relocation};
use lanes::{LaneBuilder, MAX_K};
pub use module::Codegen;
use state::{Analyses, Control, FuncState, Masks, ScratchLayout, Tr, ARGS_BYTES};
use std::collections::HashMap;
use std::mem::offset_of;
use std::time::Instant;
pub(crate) use stencil::{choose_prewarm, prewarm as prewarm_programs};
pub use stencil::{
    keep_in as keep_stencils_in, library_made as stencil_library_made,
    library_size as stencil_library_size, takes as stencil_tier_takes, PrewarmChoice, Prewarmed,
    STENCIL_K,
};

/// Why a program could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JitError {
    /// The program uses something the backend does not implement.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// The program is malformed in a way the front end did not catch.
    #[error("invalid program: {0}")]
    Invalid(String),
    /// Cranelift refused the generated code.
    #[error("code generation failed: {0}")]
    Backend(String),
    /// Inlining made the program larger than the compiler accepts.
    #[error("program too large after inlining calls")]
    TooLarge,
    /// `ir::validate` refused the program.
    #[error("invalid program: {0}")]
    Ir(#[from] crate::ir::IrError),
    /// An error at an instruction of a function body.
    #[error("{place}: {source}")]
    At {
        /// The instruction: its index in its function and bytecode position.
        place: crate::ir::Place,
        /// The error.
        source: Box<JitError>,
    },
}

impl JitError {
    /// Attaches an instruction's place (once: the innermost, the
    /// instruction of an inlined subroutine, wins).
    fn at(self, place: crate::ir::Place) -> JitError {
        match self {
            JitError::At { .. } | JitError::TooLarge => self,
            other => JitError::At {
                place,
                source: Box::new(other),
            },
        }
    }
}

/// Temporaries a program may use: Direct3D 11's 4096 `r#` + `x#`
/// registers, plus room for the scratch temps front ends add.
pub const MAX_TEMPS: u64 = 4096 + 256;
/// Input or output registers a stage may use (Direct3D: 32, plus the
/// registers front ends place depth and D3D9 fixed outputs in).
pub const MAX_IO_REGS: u32 = 64;

/// Rejects programs past Direct3D's register limits, which would otherwise
/// ask for unbounded frame memory.
fn check_limits(prog: &Program) -> Result<(), JitError> {
    if prog.stage == Stage::Compute && !(prog.inputs.is_empty() && prog.outputs.is_empty()) {
        return Err(JitError::Invalid(
            "a compute shader has no input or output registers".into(),
        ));
    }
    if prog.stage == Stage::Compute {
        let [x, y, z] = prog.thread_group;
        let in_range = (1..=1024).contains(&x) && (1..=1024).contains(&y) && (1..=64).contains(&z);
        if !in_range || x * y * z > 1024 {
            return Err(JitError::Invalid(format!(
                "thread group {x}x{y}x{z}: Direct3D 11 allows 1-1024 x 1-1024 x 1-64, at most 1024 threads"
            )));
        }
    }
    let indexable: u64 = prog.indexables.iter().map(|x| u64::from(x.count)).sum();
    if u64::from(prog.temps) + indexable > MAX_TEMPS {
        return Err(JitError::Invalid(format!(
            "{} temporaries and {indexable} indexable registers exceed Direct3D's limit",
            prog.temps
        )));
    }
    let io = prog
        .inputs
        .iter()
        .chain(&prog.outputs)
        .map(|r| r.reg)
        .chain(prog.depth_output);
    if let Some(r) = io.filter(|r| *r >= MAX_IO_REGS).max() {
        return Err(JitError::Invalid(format!(
            "register {r} is past the {MAX_IO_REGS} input/output registers"
        )));
    }
    Ok(())
}

/// Group-shared memory a thread group may declare (Direct3D 11: 32 KiB).
pub const MAX_TGSM_BYTES: u64 = 32 * 1024;

/// Backend options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JitOptions {
    /// Vectors per register component: the function runs `4 * k` lanes.
    pub k: usize,
    /// Keep the Cranelift IR and the machine code as text ([`Compiled::listing`]).
    pub listing: bool,
    /// How much work Cranelift puts into the code.
    pub codegen: Codegen,
    /// Keep the code before relocation ([`Compiled::image`]), to store it.
    pub keep_image: bool,
    /// Let the top tier hand a lookup's lanes to the runtime's AVX2
    /// filter (`dxjit_sample_wide`) instead of filtering them itself, four
    /// lanes a vector; only where the CPU has it
    /// ([`dxjit_runtime::sampler::wide_sampling_available`]). The results
    /// are the same bit for bit.
    pub wide_sampling: bool,
}

impl JitOptions {
    /// The default for a stage.
    pub fn for_stage(stage: Stage) -> JitOptions {
        match stage {
            // Four quads a step: each stage of a texture lookup is made for
            // the four vectors side by side, which the processor overlaps.
            // Measured on K4 (single thread, alternating): 15.5 ms a draw
            // at k = 4 against 17.2 at k = 2 and 19.3 at k = 1, though k = 4
            // spills more. A draw narrower than 8 pixels runs idle lanes.
            Stage::Pixel => JitOptions {
                k: 4,
                listing: false,
                codegen: Codegen::Full,
                keep_image: false,
                wide_sampling: dxjit_runtime::sampler::wide_sampling_available(),
            },
            Stage::Vertex | Stage::Domain | Stage::Geometry => JitOptions {
                k: 2,
                listing: false,
                codegen: Codegen::Full,
                keep_image: false,
                wide_sampling: dxjit_runtime::sampler::wide_sampling_available(),
            },
            // A hull runs a patch per call: its few control points, or
            // one lane for fork and join phases.
            Stage::Hull => JitOptions {
                k: 1,
                listing: false,
                codegen: Codegen::Full,
                keep_image: false,
                wide_sampling: dxjit_runtime::sampler::wide_sampling_available(),
            },
            // Measured on the peer kernels: k = 4 copies 1.4x faster than
            // k = 2 and runs the ALU and barrier kernels as fast.
            Stage::Compute => JitOptions {
                k: 4,
                listing: false,
                codegen: Codegen::Full,
                keep_image: false,
                wide_sampling: dxjit_runtime::sampler::wide_sampling_available(),
            },
        }
    }
}

/// Vector registers the x86-64 backend allocates (xmm0-15).
const VECTOR_REGISTERS: usize = 16;

/// Vectors of loop state past the registers that a lane count may still
/// spill: measured on compare.py's K1 (a loop of 10 live components), k = 2
/// holds 20 state vectors, 4 of them on the stack, and still runs 1.28x
/// faster than k = 1 (60.8 against 78 ms, AMD EPYC with two FMA and two add
/// pipes), since the added independent chains fill pipes k = 1 leaves idle;
/// on the Intel machine of earlier sessions the two were even (146 against
/// 153 ms).
const SPILLED_STATE: usize = 4;

impl JitOptions {
    /// The options for a program: the stage's default lanes, fewer when a
    /// loop's state would overflow the vector registers `k` times over by
    /// more than `SPILLED_STATE` vectors (the loop would then spill and
    /// reload much of its state every iteration, while fewer lanes per
    /// call lose only call overhead and independent work).
    pub fn for_program(prog: &Program) -> JitOptions {
        let mut opts = JitOptions::for_stage(prog.stage);
        let has_loop = prog.main.iter().any(|i| matches!(i, crate::ir::Inst::Loop));
        if !has_loop || check_limits(prog).is_err() {
            // Nothing to fit; or `compile` rejects it.
            return opts;
        }
        let liveness = crate::ir::Liveness::of(prog);
        let split = distribute::Splittable::of(prog, &liveness);
        let loop_state = prog
            .main
            .iter()
            .enumerate()
            .filter(|&(pos, inst)| matches!(inst, crate::ir::Inst::Loop) && !split.contains(pos))
            .map(|(pos, _)| liveness.after(pos).len())
            .max()
            .unwrap_or(0);
        while opts.k > 1 && loop_state * opts.k > VECTOR_REGISTERS + SPILLED_STATE {
            opts.k /= 2;
        }
        if let Some(k) = distribute::lanes_for(prog, &split, opts.k) {
            opts.k = k;
        }
        opts
    }
}

/// A compiled function as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The Cranelift IR handed to the code generator.
    pub clif: String,
    /// The machine code after register allocation, one instruction a line.
    pub native: String,
}

/// The memory a compiled function lives in.
enum Memory {
    /// Compiled in this process by Cranelift's JIT module (boxed: it is
    /// large, a mapping is small).
    Jit(Box<JITModule>),
    /// Placed by [`loader::load`] from an [`Image`]; unmapped when dropped.
    Mapped { _map: memmap2::Mmap },
}

/// What running a compiled function needs besides its code: everything of
/// a compiled function that [`Compiled::kernel`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInfo {
    /// Lanes per call.
    pub lanes: u32,
    /// Bytes of per-call scratch memory.
    pub scratch_size: u32,
    /// Registers in the SoA input block.
    pub input_regs: u32,
    /// Registers in the SoA output block.
    pub output_regs: u32,
    /// Bytes of group-shared memory per group.
    pub tgsm_size: u32,
    /// Whether the function may stop at barriers.
    pub has_barriers: bool,
    /// Whether the function runs a vertex range itself when the frame
    /// holds one (`Frame::vertex_run`).
    pub runs_vertices: bool,
    /// The (SRV, sampler) pairs the function may filter itself.
    pub inline_pairs: Vec<(u32, u32)>,
    /// Output registers stored to 8-bit unorm targets by the function.
    pub direct_outputs: u32,
    /// The stage the function runs in.
    pub stage: crate::ir::Stage,
    /// Threads per group (compute shaders; `[1, 1, 1]` otherwise).
    pub thread_group: [u32; 3],
    /// Constant-buffer rows the shader defines itself (D3D9 `def`): slot,
    /// row and words, applied over what is bound at each call.
    pub const_overrides: Vec<(u32, u32, [u32; 4])>,
    /// Bytes of each constant-buffer slot the function reads with literal
    /// rows and no bounds test (`Kernel::cb_static_bytes`).
    pub cb_static_bytes: [u32; dxjit_runtime::abi::CB_SLOTS],
}

/// A compiled shader function and what calling it needs.
pub struct Compiled {
    memory: Option<Memory>,
    func: ShaderFn,
    /// What calling the function needs besides its code.
    pub info: KernelInfo,
    /// Bytes of machine code.
    pub code_size: usize,
    /// Microseconds spent compiling.
    pub compile_us: f64,
    /// The code as text, when [`JitOptions::listing`] asked for it.
    pub listing: Option<Listing>,
    /// The code before relocation, when [`JitOptions::keep_image`] asked
    /// for it and every relocation is one the loader handles.
    pub image: Option<Image>,
    /// Whether the code was loaded from an [`Image`] rather than compiled.
    pub loaded: bool,
}

// SAFETY: the module's code and data are immutable after finalisation, and
// the function only touches memory reached through the frame it is given.
unsafe impl Send for Compiled {}
// SAFETY: as above: shared references only hand out the function pointer.
unsafe impl Sync for Compiled {}

impl Compiled {
    /// Places a persistent-cache entry's code in executable memory
    /// (without Cranelift) as a function that runs as its kernel info says;
    /// [`Compiled::compile_us`] counts from `started`.
    pub fn load(
        entry: crate::disk_cache::entry::Entry,
        started: Instant,
    ) -> Result<Compiled, JitError> {
        let map = loader::load_written(entry.code.len(), &entry.icb, |code| {
            code.copy_from_slice(entry.code);
            Ok(std::borrow::Cow::Borrowed(&entry.relocs))
        })?;
        // SAFETY: the mapping holds relocated code of a function with the
        // `ShaderFn` signature, compiled by this backend, starting at offset 0.
        let func: ShaderFn = unsafe { std::mem::transmute::<*const u8, ShaderFn>(map.as_ptr()) };
        Ok(Compiled {
            memory: Some(Memory::Mapped { _map: map }),
            func,
            info: entry.info,
            code_size: entry.code.len(),
            compile_us: started.elapsed().as_secs_f64() * 1e6,
            listing: None,
            image: None,
            loaded: true,
        })
    }

    /// The native entry point.
    pub fn entry(&self) -> ShaderFn {
        self.func
    }

    /// What the runtime's dispatch loops need to run it, for a compute
    /// thread-group size (ignored by other stages).
    pub fn kernel(&self) -> dxjit_runtime::dispatch::Kernel {
        let info = &self.info;
        dxjit_runtime::dispatch::Kernel {
            func: self.func,
            lanes: info.lanes,
            scratch_size: info.scratch_size,
            input_regs: info.input_regs,
            output_regs: info.output_regs,
            tgsm_size: info.tgsm_size,
            thread_group: info.thread_group,
            has_barriers: info.has_barriers,
            runs_vertices: info.runs_vertices,
            inline_pairs: std::array::from_fn(|i| {
                info.inline_pairs
                    .get(i)
                    .map_or([0; 2], |&(srv, sampler)| [srv as u8, sampler as u8])
            }),
            inline_pair_count: info.inline_pairs.len() as u32,
            direct_outputs: info.direct_outputs,
            cb_static_bytes: info.cb_static_bytes,
        }
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        if let Some(Memory::Jit(m)) = self.memory.take() {
            // SAFETY: `func` is only reachable through `self`, which is going away.
            unsafe { (*m).free_memory() };
        }
    }
}

fn scratch_layout(prog: &Program, lanes: u32) -> ScratchLayout {
    let mut indexables = HashMap::new();
    let mut off = ARGS_BYTES;
    for x in &prog.indexables {
        indexables.insert(x.id, (off, x.count));
        off += x.count * 4 * lanes * 4;
    }
    ScratchLayout {
        indexables,
        args: 0,
        spill: off,
        size: off,
    }
}

/// The code generator's target and settings as text: the host ISA with
/// every shared and ISA-specific flag (the host CPU features Cranelift
/// detected among them) for `codegen`, and whether the runtime's AVX2
/// filter runs here (compiled code may call it). Code compiled under one
/// fingerprint runs only where the fingerprint is the same.
pub fn target_fingerprint(codegen: Codegen) -> Result<String, JitError> {
    let isa = module::isa(codegen)?;
    let wide = dxjit_runtime::sampler::wide_sampling_available();
    Ok(format!("{} {} wide sampling {wide}", isa.triple(), isa))
}

/// Compiles a program into native code.
pub fn compile(prog: &Program, opts: JitOptions) -> Result<Compiled, JitError> {
    compile_on(prog, opts, None)
}

/// [`compile`], with the stencils a stencil-tier compile lacks made on
/// `helpers`' threads as well as the calling one.
pub fn compile_on(
    prog: &Program,
    opts: JitOptions,
    helpers: Option<&crate::compile::Spawner>,
) -> Result<Compiled, JitError> {
    let started = Instant::now();
    crate::ir::validate(prog)?;
    check_limits(prog)?;
    let tgsm_total: u64 = prog
        .tgsm
        .iter()
        .map(|d| u64::from(d.size).next_multiple_of(16))
        .sum();
    if tgsm_total > MAX_TGSM_BYTES {
        return Err(JitError::Invalid(format!(
            "{tgsm_total} bytes of group-shared memory declared; Direct3D 11 allows {MAX_TGSM_BYTES}"
        )));
    }
    let k = opts.k.clamp(1, MAX_K);
    if opts.codegen == Codegen::Quick {
        if let Some(compiled) = stencil::compile(prog, &opts, started, helpers)? {
            return Ok(compiled);
        }
    }
    let webs = match opts.codegen {
        Codegen::Full => webs::split_live_ranges(prog),
        Codegen::Quick => None,
    };
    let prog = webs.as_ref().unwrap_or(prog);
    let split = match opts.codegen {
        Codegen::Full => distribute::split_loops(prog, k),
        Codegen::Quick => None,
    };
    let prog = split.as_ref().unwrap_or(prog);
    let rotated = match opts.codegen {
        Codegen::Full => rotate::rotate_loops(prog),
        Codegen::Quick => None,
    };
    let prog = rotated.as_ref().unwrap_or(prog);
    let lanes = 4 * k as u32;
    let isa = module::isa(opts.codegen)?;
    let mut module = module::new_module(isa);
    let target_config = module.target_config();
    let helper_ids = module::declare_helpers(&mut module)?;
    let reuse::Contexts { mut ctx, mut fctx } = reuse::take();
    ctx.func.signature.call_conv = CallConv::SystemV;
    ctx.func.signature.params.push(AbiParam::new(types::I64));
    ctx.func.signature.returns.push(AbiParam::new(types::I32));
    let fid = module
        .declare_function("shader_main", Linkage::Local, &ctx.func.signature)
        .map_err(|e| JitError::Backend(e.to_string()))?;
    let icb_id = module
        .declare_anonymous_data(false, false)
        .map_err(|e| JitError::Backend(e.to_string()))?;
    let max_reg = |regs: &[crate::ir::IoReg]| {
        regs.iter()
            .map(|r| r.reg.saturating_add(1))
            .max()
            .unwrap_or(0)
    };
    let input_regs = prog.input_block_regs();
    let output_regs = max_reg(&prog.outputs).max(prog.depth_output.map_or(0, |r| r + 1));
    let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
    let helpers = helpers::HelperRefs::new(helper_ids.iter().map(|id| id.as_u32()).collect());
    let icb_name = b
        .func
        .declare_imported_user_function(UserExternalName::new(1, icb_id.as_u32()));
    let icb = b.create_global_value(GlobalValueData::Symbol {
        name: ExternalName::user(icb_name),
        offset: 0.into(),
        colocated: false,
        tls: false,
    });
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let frame = b.block_params(entry)[0];
    let cb_views = operand::load_cb_views(&mut b, frame, prog);
    let interrupt = b.ins().load(
        types::I64,
        MemFlagsData::trusted(),
        frame,
        offset_of!(Frame, interrupt) as i32,
    );
    let inputs = b.ins().load(
        types::I64,
        MemFlagsData::trusted(),
        frame,
        offset_of!(Frame, inputs) as i32,
    );
    let dispatch = b.create_block();
    b.ins().jump(dispatch, &[]);
    let start = b.create_block();
    let exit = b.create_block();
    b.switch_to_block(start);
    let dummy = {
        let mut lb = LaneBuilder { b: &mut b, k };
        lb.declare()
    };
    let uniform = uniform::Uniformity::of(prog);
    // A strided access is a fast path next to the general one: it pays at
    // run time, and doubles the code of each access, so the quick tier
    // makes only the general one (the same results).
    let raw_strides = match opts.codegen {
        Codegen::Quick => Default::default(),
        Codegen::Full => stride::raw_strides(prog, &uniform),
    };
    let scalars = scalar::ScalarTemps::new(prog, &uniform, &mut b);
    let mut scratch = scratch_layout(prog, lanes);
    let batch_loop = group_loop::runs_group(prog).then(|| {
        // Each batch's resume word takes the first spill slot.
        let at = scratch.spill;
        scratch.spill += 16;
        scratch.size += 16;
        let looped = group_loop::BatchLoop::new(&mut b, prog, &uniform, lanes, at);
        if let Some(phasing) = looped.phasing {
            log::debug!("group barriers: one call runs the group phase by phase ({phasing:?})");
        }
        looped
    });
    let mut tr = Tr {
        b,
        k,
        prog,
        frame,
        func: FuncState {
            temps: Vec::new(),
            waiting: Default::default(),
            all_vars: Vec::new(),
            spill_vectors: 0,
            exit,
            resumes: Vec::new(),
            helpers,
            scratch,
            icb,
            input_regs,
            output_regs,
            cb_views,
            cb_static_bytes: [0; dxjit_runtime::abi::CB_SLOTS],
            interrupt,
            inputs,
            slot_offsets: None,
            block: None,
            structure_stride: None,
            batch_loop,
            reloaded: Default::default(),
            spill_stores: Vec::new(),
            scratch_steps: Vec::new(),
            row: None,
            row_check: None,
            vertex: None,
            positive_zero_temps: Default::default(),
            never_negative_zero: Default::default(),
            wide_sampling: opts.wide_sampling && dxjit_runtime::sampler::wide_sampling_available(),
        },
        ctl: Control::starting(dummy, 0),
        facts: Analyses {
            uniform,
            scalars,
            liveness: crate::ir::Liveness::of(prog),
            raw_strides,
            // Filtering in compiled code pays at run time but makes a lot
            // of code; the quick tier calls the runtime, with the same
            // results.
            inline_pairs: match opts.codegen {
                Codegen::Quick => Vec::new(),
                Codegen::Full => inline_sample::inline_pairs(prog),
            },
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
    for _ in 0..prog.temps as usize * 4 {
        let v = tr.declare();
        tr.func.temps.push(v);
    }
    let first = match prog.stage {
        Stage::Pixel => {
            // The top tier keeps varying inputs and outputs in registers
            // (the quick tier leaves them in memory: less to compile).
            tr.declare_row_vars(opts.codegen == Codegen::Full);
            let head = tr.begin_draw_rows(start);
            tr.b.switch_to_block(start);
            tr.zero_temps_for_rows();
            head
        }
        // Both Cranelift tiers run vertex ranges themselves, as the stencil
        // tier's entry does.
        Stage::Vertex => {
            let head = tr.begin_vertex_runs(start, |t| {
                let [inputs, outputs] = [t.func.input_regs, t.func.output_regs]
                    .map(|regs| t.b.ins().iconst(types::I64, i64::from(regs)));
                vertex_run::RunRegs { inputs, outputs }
            });
            tr.b.switch_to_block(start);
            head
        }
        _ => start,
    };
    let alive = match &tr.func.row {
        Some(row) => {
            let alive = row.alive;
            tr.lb().use_var(alive)
        }
        None => {
            let lane_mask = tr.frame_ptr(offset_of!(Frame, lane_mask));
            tr.load_lanes(lane_mask, 0)
        }
    };
    let ones = tr.lb().splat(u32::MAX);
    let m = tr.ctl.masks;
    {
        let mut lb = tr.lb();
        for var in [m.cond, m.brk, m.cont, m.sw, m.ret] {
            lb.def_var(var, ones);
        }
        lb.def_var(m.alive, alive);
        lb.def_var(m.exec, alive);
    }
    tr.emit_body(&prog.main)?;
    tr.b.ins().jump(exit, &[]);
    tr.b.switch_to_block(exit);
    let alive = tr.lb().use_var(m.alive);
    // Only a discard changes the mask, so a shader without one leaves it
    // as the runtime wrote it (no compute dispatch reads it back at all).
    if prog.stage != Stage::Compute && flow::discards(prog) {
        let lane_mask = match prog.stage {
            Stage::Pixel => tr.step_mask(),
            _ => tr.frame_ptr(offset_of!(Frame, lane_mask)),
        };
        tr.store_lanes(alive, lane_mask, 0);
    }
    if prog.stage == Stage::Pixel {
        tr.store_output_vars();
    }
    // Storing 8-bit targets in compiled code pays at run time but is half
    // the code of a small pixel shader (a conversion and a masked store per
    // output, behind a test of the bound format); the quick tier leaves
    // every target to the runtime, with the same results.
    let direct_outputs = match (prog.stage, opts.codegen) {
        (Stage::Pixel, Codegen::Full) => target_store::direct_outputs(prog),
        _ => 0,
    };
    // Without a discard the lanes alive are the step's lane mask.
    let discards = flow::discards(prog);
    tr.store_direct_targets(direct_outputs, discards.then_some(alive));
    if prog.stage == Stage::Pixel {
        tr.end_draw_row();
    }
    tr.end_vertex_batch();
    let runs_vertices = tr.func.vertex.is_some();
    let spill_bytes = tr.func.spill_vectors * 16;
    let batch_scratch = tr.func.scratch.size + spill_bytes;
    let scratch_size = match tr.func.batch_loop {
        Some(looped) if looped.phasing.is_some() => {
            let done = tr.b.create_block();
            tr.end_phase_batch(&looped, done);
            tr.close_phase_loop(&looped, dispatch, first, done);
            group_loop::set_scratch_steps(tr.b.func, &mut tr.func, batch_scratch);
            batch_scratch * looped.batches
        }
        Some(looped) => {
            tr.end_batch(&looped, group_loop::FINISHED, STATUS_DONE);
            tr.close_batch_loop(&looped, dispatch, first);
            group_loop::set_scratch_steps(tr.b.func, &mut tr.func, batch_scratch);
            batch_scratch * looped.batches
        }
        None => {
            let done = tr.b.ins().iconst(types::I32, i64::from(STATUS_DONE));
            tr.b.ins().return_(&[done]);
            tr.b.switch_to_block(dispatch);
            let resume = tr.b.ins().load(
                types::I32,
                MemFlagsData::trusted(),
                frame,
                offset_of!(Frame, resume) as i32,
            );
            let mut targets = vec![tr.b.func.dfg.block_call(first, &[])];
            for r in tr.func.resumes.clone() {
                targets.push(tr.b.func.dfg.block_call(r, &[]));
            }
            let default = tr.b.func.dfg.block_call(first, &[]);
            let jt = tr
                .b
                .create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &targets));
            tr.b.ins().br_table(resume, jt);
            batch_scratch
        }
    };
    tr.b.seal_all_blocks();
    group_loop::drop_unchanged_spills(tr.b.func, &tr.func);
    let has_barriers = !tr.func.resumes.is_empty();
    let inline_pairs = std::mem::take(&mut tr.facts.inline_pairs);
    let cb_static_bytes = tr.func.cb_static_bytes;
    tr.b.finalize(target_config);
    // Merging repeated operands pays at the quick tier; the top tier's
    // code, whose loops are measured as built, stays as it is.
    if opts.codegen == Codegen::Quick {
        local_cse::merge(&mut ctx.func);
    } else {
        dead_code::remove(&mut ctx.func);
        sink::sink(&mut ctx.func);
    }
    // The constant block folds constants into memory operands at some
    // cost to compile; the quick tier leaves them to Cranelift's pool.
    let consts = match opts.codegen {
        Codegen::Quick => Vec::new(),
        Codegen::Full => const_block::place(&mut ctx.func, icb, icb_bytes(&prog.icb)),
    };
    let data = data_rows(&prog.icb, consts);
    define_icb(&mut module, icb_id, &data)?;
    let clif = opts.listing.then(|| ctx.func.display().to_string());
    ctx.set_disasm(opts.listing);
    module
        .define_function(fid, &mut ctx)
        .map_err(|e| JitError::Backend(format!("{e:?}")))?;
    let code_size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    let listing = clif.map(|clif| Listing {
        clif,
        native: ctx
            .compiled_code()
            .and_then(|c| c.vcode.clone())
            .unwrap_or_default(),
    });
    let image = opts.keep_image.then(|| {
        let ids: Vec<_> = HelperId::ALL
            .iter()
            .zip(&helper_ids)
            .map(|(h, id)| (h.name(), id.as_u32()))
            .collect();
        let code = ctx.compiled_code()?;
        Image::of(code, &ctx.func, &ids, icb_id.as_u32(), &data)
    });
    module.clear_context(&mut ctx);
    reuse::keep(reuse::Contexts { ctx, fctx });
    module
        .finalize_definitions()
        .map_err(|e| JitError::Backend(e.to_string()))?;
    let ptr = module.get_finalized_function(fid);
    // SAFETY: `ptr` is the finalized code of a function with the `ShaderFn` signature.
    let func: ShaderFn = unsafe { std::mem::transmute::<*const u8, ShaderFn>(ptr) };
    let tgsm_size = prog.tgsm.iter().map(|d| d.size.next_multiple_of(16)).sum();
    Ok(Compiled {
        memory: Some(Memory::Jit(Box::new(module))),
        func,
        info: KernelInfo {
            lanes,
            scratch_size,
            input_regs,
            output_regs,
            tgsm_size,
            has_barriers,
            runs_vertices,
            inline_pairs,
            direct_outputs,
            stage: prog.stage,
            thread_group: prog.thread_group,
            const_overrides: prog.const_overrides.clone(),
            cb_static_bytes,
        },
        code_size,
        compile_us: started.elapsed().as_secs_f64() * 1e6,
        listing,
        image: image.flatten(),
        loaded: false,
    })
}

/// Bytes of the immediate constant buffer in the shader's data object: its
/// rows, or one zero row when it has none.
fn icb_bytes(icb: &[[u32; 4]]) -> i32 {
    16 * icb.len().max(1) as i32
}

/// The shader's read-only data: the immediate constant buffer (one zero row
/// when empty), then the vector constants [`const_block::place`] moved out
/// of the code.
fn data_rows(icb: &[[u32; 4]], consts: Vec<[u8; 16]>) -> Vec<[u32; 4]> {
    let mut rows = icb.to_vec();
    if rows.is_empty() {
        rows.push([0; 4]);
    }
    rows.extend(consts.into_iter().map(|r| {
        std::array::from_fn(|i| {
            u32::from_le_bytes([r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]])
        })
    }));
    rows
}

/// Defines the shader's read-only data object `id` (see [`data_rows`]),
/// which the code reaches through a relocation.
fn define_icb(module: &mut JITModule, id: DataId, rows: &[[u32; 4]]) -> Result<(), JitError> {
    let bytes: Vec<u8> = rows
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut data = DataDescription::new();
    data.define(bytes.into_boxed_slice());
    data.set_align(16);
    module
        .define_data(id, &data)
        .map_err(|e| JitError::Backend(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::JitOptions;
    use crate::ir::{AluOp, Dst, Inst, Program, Src, Stage};

    /// A compute shader whose loop keeps `live` temp components across
    /// its iterations (each is read and written by the body, and each but
    /// the first reads the one before: a single chain, which no loop
    /// distribution splits).
    fn looping(live: u32) -> Program {
        let mut p = Program::new(Stage::Compute);
        p.temps = live.div_ceil(4) + 1;
        p.thread_group = [64, 1, 1];
        let comps = |n: u32| (0..n).map(|i| (i / 4, (i % 4) as u8));
        let mut main = Vec::new();
        for (reg, c) in comps(live) {
            main.push(Inst::Alu {
                op: AluOp::Mov,
                dst: Dst::temp(reg, 1 << c),
                src: vec![Src::splat(0)],
            });
        }
        main.push(Inst::Loop);
        let mut previous = None;
        for (reg, c) in comps(live) {
            let step = previous.map_or(Src::splat(1), |(r, pc)| Src::temp(r).scalar(pc));
            main.push(Inst::Alu {
                op: AluOp::Add,
                dst: Dst::temp(reg, 1 << c),
                src: vec![Src::temp(reg).scalar(c), step],
            });
            previous = Some((reg, c));
        }
        let flag = p.temps - 1;
        main.push(Inst::Alu {
            op: AluOp::Lt,
            dst: Dst::temp(flag, 1),
            src: vec![Src::temp(0).scalar(0), Src::splat(0)],
        });
        main.push(Inst::BreakC {
            cond: Src::temp(flag).scalar(0),
            nz: true,
        });
        main.push(Inst::EndLoop);
        p.main = main.into();
        p
    }

    #[test]
    fn a_loop_keeps_the_lanes_its_state_fits_give_or_take_four_vectors() {
        let stage = JitOptions::for_stage(Stage::Compute).k;
        assert_eq!(stage, 4);
        assert_eq!(JitOptions::for_program(&looping(5)).k, 4);
        assert_eq!(JitOptions::for_program(&looping(6)).k, 2);
        assert_eq!(JitOptions::for_program(&looping(10)).k, 2);
        assert_eq!(JitOptions::for_program(&looping(11)).k, 1);
    }
}
