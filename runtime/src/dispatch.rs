//! The loops that run compiled shaders: compute thread groups, vertex
//! batches and pixel quads, spread over every core.
//!
//! Each worker owns its frames, scratch and group-shared memory. Float
//! arithmetic runs with denormals flushed (MXCSR FTZ and DAZ), as Direct3D
//! requires of 32-bit float operations; moves copy bits and keep them.

use crate::abi::{
    Frame, ShaderFn, SysValSlot, VertexRun, View, CB_SLOTS, SAMPLER_SLOTS, SRV_SLOTS, SYSVAL_COUNT,
    UAV_SLOTS,
};
use crate::sampler::{InlineSampler, SamplerState, INLINE_PAIRS};
use crate::texture::Texture;
use cb_table::CbTable;
use group::{GroupLayout, GroupState};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

mod cb_table;
mod domain;
mod draw;
mod draw_samples;
mod geometry;
mod group;
mod hull;
pub(crate) mod interpolate;
pub mod patch_rows;
mod planes;
mod quads;
mod vertex_list;

pub use domain::{run_domain, DomainDesc, DomainPatch};
pub use draw::{draw, Draw, PixelInput, RenderTarget, SampleShading};
pub use geometry::{run_geometry, GeometryDesc};
pub use hull::{run_hull, HullDesc, HullOutput, HullPhaseKind, HullPhaseRun};
pub use planes::{pixel_point, plane_of, PlaneInput};
pub use quads::{shade_quads, Quad, QuadSamples, QuadValues};
pub use vertex_list::run_vertex_list;

/// What the runtime needs to know about a compiled shader.
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// The entry point.
    pub func: ShaderFn,
    /// Lanes per call.
    pub lanes: u32,
    /// Bytes of scratch per call.
    pub scratch_size: u32,
    /// Registers in the input block.
    pub input_regs: u32,
    /// Registers in the output block.
    pub output_regs: u32,
    /// Bytes of group-shared memory per group.
    pub tgsm_size: u32,
    /// Compute thread-group size.
    pub thread_group: [u32; 3],
    /// Whether calls may stop at barriers: a compute call then runs every
    /// lane batch of its group, whose system values, lane masks and scratch
    /// (`scratch_size / batches` bytes each) lie one after another.
    pub has_barriers: bool,
    /// The (SRV slot, sampler slot) pairs compiled code may filter itself;
    /// the first `inline_pair_count` are used. The runtime describes each
    /// pair's bound texture and sampler to it in `Frame::inline_samplers`.
    pub inline_pairs: [[u8; 2]; INLINE_PAIRS],
    /// How many of `inline_pairs` are used.
    pub inline_pair_count: u32,
    /// Pixel shaders: bit `r` is set when compiled code can write output
    /// register `r` to an 8-bit unorm target itself (`Frame::direct_targets`).
    pub direct_outputs: u32,
    /// Bytes of each constant-buffer slot that compiled code reads with
    /// literal row indices and no bounds test; a call binds a zero-padded
    /// copy of a smaller buffer (see `cb_table`).
    pub cb_static_bytes: [u32; CB_SLOTS],
    /// Vertex shaders: whether the function runs a [`VertexRun`] itself
    /// (`Frame::vertex_run`), so that one call shades many batches.
    pub runs_vertices: bool,
}

impl Kernel {
    /// How compiled code reads each of the kernel's inline pairs under `b`.
    fn inline_samplers(&self, b: &Bindings) -> Vec<InlineSampler> {
        let count = (self.inline_pair_count as usize).min(INLINE_PAIRS);
        self.inline_pairs[..count]
            .iter()
            .map(|&[srv, sampler]| {
                let view = b.srvs.get(usize::from(srv));
                // SAFETY: a bound view's `texture` is null or points to a live
                // Texture for as long as the bindings are used (see `Bindings`).
                let texture = unsafe { view.and_then(|v| v.texture.cast::<Texture>().as_ref()) };
                match b.samplers.get(usize::from(sampler)) {
                    Some(state) => InlineSampler::new(texture, state),
                    None => InlineSampler::RUNTIME,
                }
            })
            .collect()
    }
}

/// The resources bound to a stage. Views point to memory the caller owns
/// and keeps alive (and does not touch) while a dispatch or draw runs.
#[derive(Debug, Clone)]
pub struct Bindings {
    /// Constant buffers by slot.
    pub cbs: Vec<View>,
    /// Shader resource views by slot.
    pub srvs: Vec<View>,
    /// Unordered access views by slot.
    pub uavs: Vec<View>,
    /// Samplers by slot.
    pub samplers: Vec<SamplerState>,
    /// The hidden counter of each UAV slot (append/consume buffers), null
    /// where none is bound: `imm_atomic_alloc` / `imm_atomic_consume` then
    /// return 0 and change nothing. Counters outlive the calls, like views.
    pub uav_counters: Vec<*const AtomicU32>,
    /// Set it nonzero (from any thread) to stop a dispatch, draw or vertex
    /// batch running with these bindings: running calls return at their
    /// next loop back edge and no further work starts. It stays set; clear
    /// it before the next call.
    pub interrupt: Arc<AtomicU32>,
}

impl Bindings {
    /// Whether `interrupt` is set.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) != 0
    }
}

impl Default for Bindings {
    fn default() -> Self {
        Bindings {
            cbs: vec![View::EMPTY; CB_SLOTS],
            srvs: vec![View::EMPTY; SRV_SLOTS],
            uavs: vec![View::EMPTY; UAV_SLOTS],
            samplers: vec![SamplerState::default(); SAMPLER_SLOTS],
            uav_counters: vec![std::ptr::null(); UAV_SLOTS],
            interrupt: Arc::new(AtomicU32::new(0)),
        }
    }
}

// SAFETY: the views are plain descriptions of memory the caller owns; shader
// invocations on several threads may write UAVs concurrently, which Direct3D
// allows (results of unsynchronised writes are the application's concern).
// Counters are atomics, shared between threads by design.
unsafe impl Send for Bindings {}
// SAFETY: as above.
unsafe impl Sync for Bindings {}

/// 16-byte aligned, zeroed memory.
struct Block(Vec<u128>);

impl Block {
    fn new(bytes: usize) -> Block {
        Block(vec![0u128; bytes.div_ceil(16).max(1)])
    }
    fn ptr(&mut self) -> *mut u8 {
        self.0.as_mut_ptr() as *mut u8
    }
    fn words_ptr(&self) -> *const u32 {
        self.0.as_ptr() as *const u32
    }
    fn words(&mut self) -> &mut [u32] {
        let n = self.0.len() * 4;
        // SAFETY: a Vec<u128> of n/4 elements is n u32 words, suitably aligned.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr() as *mut u32, n) }
    }
    /// Zeros the block with one `memset` (a `fill` of `u128`s compiles to
    /// a loop of 16-byte stores, which cost K3 a tenth of its time).
    fn zero(&mut self) {
        // SAFETY: the pointer and length are the Vec's own, and all-zero
        // bytes are a valid u128.
        unsafe { std::ptr::write_bytes(self.0.as_mut_ptr(), 0, self.0.len()) };
    }
}

/// Runs `f` with denormals flushed in SSE arithmetic (MXCSR FTZ and DAZ),
/// restoring MXCSR after: the mode compiled code runs in, and the one
/// every draw path interpolates inputs in.
pub fn with_flushed_denormals<R>(f: impl FnOnce() -> R) -> R {
    let mut old: u32 = 0;
    // SAFETY: stmxcsr stores the 32-bit MXCSR to the given address.
    unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut old, options(nostack)) };
    let new = old | 0x8040;
    // SAFETY: setting FTZ (bit 15) and DAZ (bit 6) changes only float results.
    unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &new, options(nostack)) };
    let r = f();
    // SAFETY: restores the caller's MXCSR.
    unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &old, options(nostack)) };
    r
}

/// A copy of `table` filled to `slots` entries with `empty`, when it is
/// shorter.
fn padded<T: Clone>(table: &[T], slots: usize, empty: T) -> Option<Vec<T>> {
    (table.len() < slots).then(|| {
        let mut full = table.to_vec();
        full.resize(slots, empty);
        full
    })
}

/// A frame with its memory.
struct Call {
    frame: Box<Frame>,
    /// Owns the memory `frame.scratch` points to.
    _scratch: Block,
    /// Owns the descriptions `frame.inline_samplers` points to.
    _inline_samplers: Vec<InlineSampler>,
    /// Owns the constant-buffer views `frame.cbs` points to.
    cbs: CbTable,
    /// Owns full-size copies of the SRV and sampler tables when the
    /// bindings' are shorter than the runtime's slots: lookups whose slots
    /// compiled code chooses at run time index the whole tables.
    _tables: (Option<Vec<View>>, Option<Vec<SamplerState>>),
    lane_mask: Block,
}

impl Call {
    fn new(k: &Kernel, b: &Bindings) -> Call {
        let mut scratch = Block::new(k.scratch_size as usize);
        let mut lane_mask = Block::new(4 * k.lanes as usize);
        let inline_samplers = k.inline_samplers(b);
        // SAFETY: `Bindings`' views are valid for the call (its contract).
        let cbs = unsafe { CbTable::new(k, &b.cbs) };
        let srvs = padded(&b.srvs, SRV_SLOTS, View::EMPTY);
        let samplers = padded(&b.samplers, SAMPLER_SLOTS, SamplerState::default());
        let frame = Box::new(Frame {
            inputs: std::ptr::null(),
            outputs: std::ptr::null_mut(),
            sysvals: std::ptr::null(),
            lane_mask: lane_mask.ptr() as *mut u32,
            cbs: cbs.as_ptr(),
            srvs: srvs.as_deref().unwrap_or(&b.srvs).as_ptr(),
            uavs: b.uavs.as_ptr(),
            samplers: samplers.as_deref().unwrap_or(&b.samplers).as_ptr(),
            inline_samplers: inline_samplers.as_ptr(),
            interrupt: Arc::as_ptr(&b.interrupt),
            direct_targets: std::ptr::null(),
            pixel_origin: [0; 2],
            tgsm: std::ptr::null_mut(),
            scratch: scratch.ptr(),
            resume: 0,
            group_id: [0; 3],
            sink: [0; 8],
            zero: [0; 8],
            gs: std::ptr::null_mut(),
            uav_counters: b.uav_counters.as_ptr(),
            draw_row: std::ptr::null(),
            eval: std::ptr::null(),
            vertex_run: std::ptr::null(),
        });
        Call {
            frame,
            _scratch: scratch,
            _inline_samplers: inline_samplers,
            cbs,
            _tables: (srvs, samplers),
            lane_mask,
        }
    }

    /// Binds `cbs` in place of the bindings' constant buffers.
    ///
    /// # Safety
    /// Each view in `cbs` is valid for reading while the call runs.
    unsafe fn bind_cbs(&mut self, k: &Kernel, cbs: &[View]) {
        // SAFETY: the caller's contract.
        self.cbs = unsafe { CbTable::new(k, cbs) };
        self.frame.cbs = self.cbs.as_ptr();
    }

    fn run(&mut self, func: ShaderFn) -> u32 {
        // SAFETY: the frame's pointers reference live memory sized for this
        // kernel (scratch, lane mask, SoA blocks set by the caller, bindings).
        unsafe { func(&mut *self.frame) }
    }

    /// Runs `func` once from its start on the SoA blocks `[inputs,
    /// outputs, sysvals]` (the outputs zeroed first), with denormals
    /// flushed.
    fn run_on_blocks(&mut self, func: ShaderFn, [ib, ob, sv]: [&mut Block; 3]) -> u32 {
        ob.zero();
        let frame = &mut self.frame;
        frame.inputs = ib.words().as_ptr();
        frame.outputs = ob.words().as_mut_ptr();
        frame.sysvals = sv.words().as_ptr();
        frame.resume = 0;
        with_flushed_denormals(|| self.run(func))
    }
}

/// Runs a compute shader over `groups` thread groups.
///
/// # Safety
/// `k` describes live code compiled for these bindings' ABI (a kernel from a
/// shader that outlives the call); every view in `b` is empty or points to
/// memory readable for its `size` bytes (writable too for UAVs), with
/// `texture` null or pointing to the live [`crate::texture::Texture`] the
/// view was made from; no other thread writes memory a view reads, or
/// touches memory a UAV views, during the call.
pub unsafe fn dispatch(k: &Kernel, b: &Bindings, groups: [u32; 3]) {
    let layout = GroupLayout::new(k);
    (0..group_count(groups)).into_par_iter().for_each_init(
        || GroupState::new(k, b, &layout),
        |state, g| {
            if !b.interrupted() {
                state.run(k, &layout, groups, g);
            }
        },
    );
}

/// Runs the thread groups of a `groups` dispatch whose linear indices
/// (x fastest, then y, then z) lie in `range`, in order, on the calling
/// thread: for embedders whose own job system splits a dispatch. Indices
/// past the dispatch are ignored.
///
/// # Safety
/// As for [`dispatch`].
pub unsafe fn dispatch_range(k: &Kernel, b: &Bindings, groups: [u32; 3], range: Range<u64>) {
    let layout = GroupLayout::new(k);
    let mut state = GroupState::new(k, b, &layout);
    for g in range.start..range.end.min(group_count(groups)) {
        if b.interrupted() {
            return;
        }
        state.run(k, &layout, groups, g);
    }
}

/// Thread groups in a dispatch of `groups`.
pub fn group_count(groups: [u32; 3]) -> u64 {
    groups.iter().map(|&g| u64::from(g)).product()
}

/// Runs a vertex shader over `count` vertices. `inputs` holds `input_regs`
/// registers per vertex; the result holds `output_regs` registers per vertex.
///
/// # Safety
/// `k` describes live code compiled for these bindings' ABI (a kernel from a
/// shader that outlives the call); every view in `b` is empty or points to
/// memory readable for its `size` bytes (writable too for UAVs), with
/// `texture` null or pointing to the live [`crate::texture::Texture`] the
/// view was made from; no other thread writes memory a view reads, or
/// touches memory a UAV views, during the call.
/// `inputs` holds `count * k.input_regs` registers.
pub unsafe fn run_vertices(
    k: &Kernel,
    b: &Bindings,
    inputs: &[[u32; 4]],
    count: u32,
) -> Vec<[u32; 4]> {
    let mut out = vec![[0u32; 4]; count as usize * k.output_regs as usize];
    // SAFETY: forwarded contract; `out` is sized for every vertex.
    unsafe { run_vertices_into(k, b, inputs, count, &mut out) };
    out
}

/// [`run_vertices`] into the caller's `out`, `output_regs` registers per
/// vertex; vertices that do not fit in `out` are not run.
///
/// # Safety
/// As [`run_vertices`].
pub unsafe fn run_vertices_into(
    k: &Kernel,
    b: &Bindings,
    inputs: &[[u32; 4]],
    count: u32,
    out: &mut [[u32; 4]],
) {
    let (w, no) = (k.lanes as usize, k.output_regs as usize);
    let count = out
        .len()
        .checked_div(no)
        .map_or(count, |fit| count.min(fit as u32));
    let out = &mut out[..count as usize * no];
    let per_call = if runs_ranges(k, inputs, count) {
        w * RUN_BATCHES
    } else {
        w
    };
    let starts = (0..count as usize).step_by(per_call);
    if no == 0 {
        // Nothing to write back, but the shader may still write UAVs.
        starts.collect::<Vec<_>>().into_par_iter().for_each_init(
            || VertexBatch::new(k, b),
            |batch, first| {
                let end = (first + per_call).min(count as usize);
                // SAFETY: forwarded contract.
                unsafe { batch.run_span(k, b, inputs, count, first..end, &mut []) }
            },
        );
        return;
    }
    out.par_chunks_mut(per_call * no).enumerate().for_each_init(
        || VertexBatch::new(k, b),
        |batch, (i, dst)| {
            let first = i * per_call;
            let end = first + dst.len() / no;
            // SAFETY: forwarded contract; the chunk holds its vertices' outputs.
            unsafe { batch.run_span(k, b, inputs, count, first..end, dst) }
        },
    );
}

/// Batches one call runs when the kernel runs vertex ranges itself: 64
/// calls' worth, few enough that the threads share a draw evenly.
const RUN_BATCHES: usize = 64;

/// Whether `k` may run ranges of a `count`-vertex draw's vertices in one
/// call: compiled code reads `inputs` directly, so it must hold every
/// vertex's registers.
fn runs_ranges(k: &Kernel, inputs: &[[u32; 4]], count: u32) -> bool {
    k.runs_vertices && inputs.len() >= count as usize * k.input_regs as usize
}

/// Runs the vertices of a `count`-vertex [`run_vertices`] whose indices lie
/// in `range`, on the calling thread only, and returns their outputs (the
/// first of `range` first): embedders with their own job systems split the
/// vertices into ranges and run each where they like. Indices past `count`
/// are ignored.
///
/// # Safety
/// As [`run_vertices`].
pub unsafe fn run_vertices_range(
    k: &Kernel,
    b: &Bindings,
    inputs: &[[u32; 4]],
    count: u32,
    range: Range<u32>,
) -> Vec<[u32; 4]> {
    let no = k.output_regs as usize;
    let first = range.start.min(count);
    let end = range.end.min(count).max(first) as usize;
    let first = first as usize;
    let mut out = vec![[0u32; 4]; (end - first) * no];
    // SAFETY: forwarded contract; `out` holds the range's outputs.
    unsafe { VertexBatch::new(k, b).run_span(k, b, inputs, end as u32, first..end, &mut out) };
    out
}

/// One worker's call and blocks for running vertex batches.
struct VertexBatch {
    call: Call,
    inputs: Block,
    outputs: Block,
    sysvals: Block,
}

impl VertexBatch {
    fn new(k: &Kernel, b: &Bindings) -> VertexBatch {
        let w = k.lanes as usize;
        VertexBatch {
            call: Call::new(k, b),
            inputs: Block::new(k.input_regs as usize * 16 * w),
            outputs: Block::new(k.output_regs as usize * 16 * w),
            sysvals: Block::new(SYSVAL_COUNT * 16 * w),
        }
    }

    /// Shades the vertices of `span` (none at or past `count`) into `dst`,
    /// `output_regs` registers each: in one call when the kernel runs
    /// ranges itself, else a call's lanes at a time.
    ///
    /// # Safety
    /// As [`run_vertices`].
    unsafe fn run_span(
        &mut self,
        k: &Kernel,
        b: &Bindings,
        inputs: &[[u32; 4]],
        count: u32,
        span: Range<usize>,
        dst: &mut [[u32; 4]],
    ) {
        let (w, no) = (k.lanes as usize, k.output_regs as usize);
        let (first, end) = (span.start, span.end.min(count as usize));
        if !runs_ranges(k, inputs, count) {
            for start in (first..end).step_by(w) {
                let len = dst.len();
                let at = ((start - first) * no).min(len);
                let dst = &mut dst[at..(at + w * no).min(len)];
                // SAFETY: forwarded contract; `dst` holds this batch's outputs.
                unsafe { self.run(k, b, inputs, count, start, dst) };
            }
            return;
        }
        // SAFETY: forwarded contract; `dst` holds the span's outputs.
        unsafe { self.run_range(k, b, inputs, None, first..end, dst) };
    }

    /// Runs entries `span` in one call of a kernel that runs ranges itself:
    /// vertex `i` for entry `i`, or the vertex and instance `ids[i]`
    /// names; `dst` holds the entries' outputs.
    ///
    /// # Safety
    /// As [`run_vertices`]; `k.runs_vertices`; `inputs` holds every
    /// vertex's registers an entry names, and `ids`, when given, every
    /// entry of `span`.
    unsafe fn run_range(
        &mut self,
        k: &Kernel,
        b: &Bindings,
        inputs: &[[u32; 4]],
        ids: Option<&[[u32; 2]]>,
        span: Range<usize>,
        dst: &mut [[u32; 4]],
    ) {
        if b.interrupted() || span.is_empty() {
            return;
        }
        let run = VertexRun {
            inputs: inputs.as_ptr(),
            ids: ids.map_or(std::ptr::null(), <[_]>::as_ptr),
            outputs: dst.as_mut_ptr(),
            first: span.start as u32,
            end: span.end as u32,
        };
        self.call.frame.vertex_run = &run;
        self.run_blocks(k.func);
        self.call.frame.vertex_run = std::ptr::null();
    }

    /// Runs `func` on the worker's blocks, its outputs zeroed first.
    fn run_blocks(&mut self, func: ShaderFn) {
        let blocks = [&mut self.inputs, &mut self.outputs, &mut self.sysvals];
        self.call.run_on_blocks(func, blocks);
    }

    /// Shades the vertices from `first` (up to one call's lanes, none at
    /// or past `count`) into `dst`, `output_regs` registers each.
    ///
    /// # Safety
    /// As [`run_vertices`].
    unsafe fn run(
        &mut self,
        k: &Kernel,
        b: &Bindings,
        inputs: &[[u32; 4]],
        count: u32,
        first: usize,
        dst: &mut [[u32; 4]],
    ) {
        if b.interrupted() {
            return;
        }
        let w = k.lanes as usize;
        let (ni, no) = (k.input_regs as usize, k.output_regs as usize);
        let words = self.inputs.words();
        for l in 0..w {
            let v = first + l;
            for r in 0..ni {
                let val = if v < count as usize {
                    inputs.get(v * ni + r).copied().unwrap_or([0; 4])
                } else {
                    [0; 4]
                };
                for (c, x) in val.iter().enumerate() {
                    words[(r * 4 + c) * w + l] = *x;
                }
            }
            self.sysvals.words()[(SysValSlot::VertexId as usize * 4) * w + l] = v as u32;
            self.call.lane_mask.words()[l] = if v < count as usize { u32::MAX } else { 0 };
        }
        // Zeroed outputs: a lane that leaves one unwritten reads zero, as in
        // a first call, not what the worker's previous batch left.
        self.run_blocks(k.func);
        let o = self.outputs.words();
        for (i, reg) in dst.iter_mut().enumerate() {
            let (l, r) = (i / no.max(1), i % no.max(1));
            *reg = [0, 1, 2, 3].map(|c| o[(r * 4 + c) * w + l]);
        }
    }
}
