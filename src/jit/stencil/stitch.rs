//! Walking a program into pieces: one stencil (from the library) per
//! instruction component, construct boundary and entry, with the values of
//! its holes and where each of its exits goes. The control-flow choices
//! are the ones `jit/flow.rs` makes (uniform branches and loops by the same
//! analysis), so the masks, and with them the results, are the same.

use super::key::{
    Access, Accesses, Body, FlowOp, HoleValue, Holes, InstBody, InstContext, Key, MaskId, Place,
    PlaceHoles,
};
use super::layout::Layout;
use super::library;
use super::Stencil;
use crate::ir::{
    AluOp, Dst, File, Index, Inst, Program, Resource, ResourceKind, Src, SrcTy, Stage, XYZW,
};
use crate::jit::uniform::Uniformity;
use crate::jit::JitError;
use dxjit_runtime::abi::CB_SLOTS;
use rustc_hash::FxHashMap as HashMap;
use smallvec::{smallvec, SmallVec};
use std::mem::size_of;
use std::sync::Arc;

/// Why a program is left to the Cranelift first tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

/// A stitch that could not finish.
#[derive(Debug)]
pub enum StitchError {
    /// The program needs something stencils do not do.
    Unsupported(Unsupported),
    /// A stencil failed to compile, or the program is malformed.
    Jit(JitError),
}

impl From<Unsupported> for StitchError {
    fn from(u: Unsupported) -> Self {
        StitchError::Unsupported(u)
    }
}

impl From<JitError> for StitchError {
    fn from(e: JitError) -> Self {
        StitchError::Jit(e)
    }
}

/// A place in the chain: a piece's position once bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label(pub usize);

/// Where an exit goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The piece after.
    Next,
    /// A label's piece.
    Label(Label),
}

/// One stencil in the chain.
pub struct Piece {
    /// The code.
    pub stencil: Arc<Stencil>,
    /// Its holes' values, in the order the stencil numbers them.
    pub holes: Holes,
    /// Where each exit goes.
    pub exits: Exits,
}

/// The shader's read-only data: literal words, each stored once.
pub struct Data {
    /// The words.
    pub words: Vec<u32>,
    index: HashMap<u32, u32>,
}

impl Data {
    /// Data that starts with the immediate constant buffer's rows.
    pub fn with_rows(rows: &[[u32; 4]]) -> Data {
        Data {
            words: rows.iter().flatten().copied().collect(),
            index: HashMap::default(),
        }
    }

    /// The byte offset of `w` in the data.
    pub fn word(&mut self, w: u32) -> u32 {
        let next = 4 * self.words.len() as u32;
        *self.index.entry(w).or_insert_with(|| {
            self.words.push(w);
            next
        })
    }
}

/// Where a piece's exits go, kept inline.
type Exits = SmallVec<[Target; 2]>;

/// An open construct.
enum Open {
    If {
        uniform: bool,
        slot: u32,
        skip: Label,
        end: Label,
        else_seen: bool,
    },
    Loop {
        uniform: bool,
        slot: u32,
        header: Label,
        latch: Label,
        exit: Label,
        checked: bool,
    },
    Switch {
        slot: u32,
        selector: u32,
        matched: u32,
        cases: Vec<u32>,
    },
}

/// A compute shader's group loop.
pub struct Group {
    /// Lane batches in a group.
    pub batches: u32,
    /// Byte offset of each batch's resume word in its scratch.
    pub resume_word: u32,
    /// Where each barrier's batch goes on, in barrier order.
    resumes: Vec<Label>,
}

/// What a piece holds until its stencil is made: no code at all.
fn pending() -> &'static Arc<Stencil> {
    static PENDING: std::sync::OnceLock<Arc<Stencil>> = std::sync::OnceLock::new();
    PENDING.get_or_init(|| {
        Arc::new(Stencil {
            key: Key {
                k: 0,
                body: Body::Entry,
                loads: Accesses::new(),
                stores: Accesses::new(),
                divergent: false,
                masks: false,
            },
            code: Vec::new(),
            holes: Vec::new(),
            exits: Vec::new(),
            icb: Vec::new(),
            symbols: Vec::new(),
            listing: None,
        })
    })
}

/// The walk's state.
pub struct Stitcher<'p> {
    /// The program.
    pub prog: &'p Program,
    /// Where its state lives in the scratch.
    pub layout: Layout,
    /// Its data.
    pub data: Data,
    /// Bytes of each constant buffer read with literal rows (see
    /// `Kernel::cb_static_bytes`).
    pub cb_static_bytes: [u32; CB_SLOTS],
    /// Registers in the input block.
    pub input_regs: u32,
    /// Registers in the output block.
    pub output_regs: u32,
    /// The pieces so far.
    pub pieces: Vec<Piece>,
    /// Each label's piece, once bound.
    pub labels: Vec<Option<usize>>,
    /// The group loop, for a compute shader with group barriers.
    pub group: Option<Group>,
    /// Where the stencils the process lacks are made besides the calling
    /// thread (see `make`).
    pub helpers: Option<crate::compile::Spawner>,
    /// The keys of the stencils the process lacks, each once.
    missing: Vec<Key>,
    /// Each missing key's place in `missing`.
    missing_index: HashMap<Key, usize>,
    /// Pieces waiting for a missing stencil: piece, key in `missing`.
    waiting: Vec<(usize, usize)>,
    uniform: Uniformity,
    /// Scratch offsets of the staging registers (see [`Body::Stage`]),
    /// made as a piece first needs each.
    staging: Vec<u32>,
    /// The scratch slot of each operand component constant during a call
    /// (by its staging piece, place and holes), staged once a call.
    hoisted: HashMap<(Body, Place, PlaceHoles), u32>,
    /// The same, in the order they were met.
    hoist_order: Vec<(Body, Place, PlaceHoles, u32)>,
    /// Scratch offset of the register results are staged in (see
    /// [`Stitcher::staged_result`]), made when first needed.
    result_staging: Option<u32>,
    flow: Vec<Open>,
    killed: bool,
    call_depth: u32,
    exit: Label,
}

/// The slot's `n` components as holes.
fn vectors(layout: &Layout, slot: u32, n: u32) -> Vec<HoleValue> {
    (0..n)
        .map(|i| {
            HoleValue::Const(u64::from(
                slot + i * super::layout::component_bytes(layout.k),
            ))
        })
        .collect()
}

/// The canonical source `reg`, read as `src` is (its modifiers).
fn canonical_src(src: &Src, reg: u32) -> Src {
    Src {
        file: File::Temp,
        index: Index::fixed(reg),
        swizzle: XYZW,
        neg: src.neg,
        abs: src.abs,
        imm: [0; 4],
    }
}

/// The operands of a piece in canonical form: the canonical registers it
/// loads (numbered from `next`) and the holes of their places.
struct Canon {
    loads: Accesses,
    holes: Holes,
    next: u32,
    /// What relative indices reach, for the instruction's context.
    reach: Reach,
    /// Operands moved to staging registers so far (see [`Body::Stage`]).
    staged: usize,
}

/// The register files relative indices of a piece reach.
#[derive(Default)]
struct Reach {
    inputs: bool,
    outputs: bool,
    indexables: Vec<u32>,
    icb: bool,
}

impl Canon {
    /// No operands yet; loaded registers are numbered from `first`.
    fn new(first: u32) -> Canon {
        Canon {
            loads: Accesses::new(),
            holes: Holes::new(),
            next: first,
            reach: Reach::default(),
            staged: 0,
        }
    }

    /// A new canonical register loaded through `access`.
    fn register(&mut self, access: Access, holes: impl IntoIterator<Item = HoleValue>) -> u32 {
        self.loads.push(access);
        self.holes.extend(holes);
        self.next += 1;
        self.next - 1
    }
}

/// The canonical destination `reg`, written as `dst` is.
fn canonical_dst(dst: &Dst, reg: u32, mask: u8) -> Dst {
    Dst {
        file: File::Temp,
        index: Index::fixed(reg),
        mask,
        saturate: dst.saturate,
    }
}

/// The components of `mask`, ascending.
fn components(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

/// Whether computing `dst`'s components one at a time would let a later
/// component read one written before it, through a source or a source's
/// relative index.
fn split_hazard(dst: &Dst, src: &[Src]) -> bool {
    let reads_written = |s: &Src, later: usize| {
        s.file == dst.file && s.index == dst.index && {
            let c = s.swizzle[later] as usize & 3;
            c < later && dst.mask & (1 << c) != 0
        }
    };
    let index_written = |s: &Src| {
        s.index.rel.as_deref().is_some_and(|r| {
            r.file == dst.file && r.index == dst.index && dst.mask.count_ones() > 1
        })
    };
    src.iter()
        .any(|s| index_written(s) || components(dst.mask).any(|later| reads_written(s, later)))
}

/// The temp components (bit `c` per temp) a call may read before writing
/// them: read anywhere before a write at the top level of `main`, outside
/// every construct, has given them a value (such a write is on every path
/// to what follows it). A call reads whatever its subroutine and the ones
/// it calls read. Linear, and never misses a component `Liveness` would
/// find live where `main` starts.
fn read_before_written(prog: &Program) -> Vec<u8> {
    let temps = prog.temps as usize;
    let mut written = vec![0u8; temps];
    let mut read = vec![0u8; temps];
    let mut note = |s: &Src, written: &[u8]| {
        for src in std::iter::once(s).chain(s.index.rel.as_deref()) {
            if src.file != File::Temp {
                continue;
            }
            let reg = src.index.base as usize;
            for c in src.swizzle {
                let bit = 1 << (c & 3);
                if reg < temps && written[reg] & bit == 0 {
                    read[reg] |= bit;
                }
            }
        }
    };
    let mut depth = 0usize;
    for inst in prog.main.iter() {
        if let Inst::Call { label } | Inst::CallC { label, .. } = inst {
            let mut seen = Vec::new();
            let mut calls = vec![*label];
            while let Some(label) = calls.pop() {
                if seen.contains(&label) {
                    continue;
                }
                seen.push(label);
                for callee in prog.subroutine(label).into_iter().flatten() {
                    for s in callee.sources() {
                        note(s, &written);
                    }
                    for d in callee.destinations() {
                        if let Some(rel) = d.index.rel.as_deref() {
                            note(rel, &written);
                        }
                    }
                    if let Inst::Call { label } | Inst::CallC { label, .. } = callee {
                        calls.push(*label);
                    }
                }
            }
        }
        for s in inst.sources() {
            note(s, &written);
        }
        for d in inst.destinations() {
            if let Some(rel) = d.index.rel.as_deref() {
                note(rel, &written);
            }
        }
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => depth += 1,
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                for d in inst.destinations() {
                    let reg = d.index.base as usize;
                    if d.file == File::Temp && d.index.rel.is_none() && reg < temps {
                        written[reg] |= d.mask & 0xf;
                    }
                }
            }
            _ => {}
        }
    }
    read
}

/// Gives the SRV or UAV slot and the sampler slot an instruction names the
/// number 0, returning what they were, when its code reaches them only
/// through their records' addresses (so one stencil serves every slot):
/// not group-shared memory, UAV counters or slots chosen lane by lane.
fn any_slot(inst: &mut Inst) -> Option<(Resource, u32)> {
    let (res, sampler) = match inst {
        Inst::LoadRaw { res, .. }
        | Inst::StoreRaw { res, .. }
        | Inst::LoadStructured { res, .. }
        | Inst::StoreStructured { res, .. }
        | Inst::LoadTyped { res, .. }
        | Inst::StoreTyped { res, .. }
        | Inst::Atomic { res, .. }
        | Inst::BufInfo { res, .. }
        | Inst::ResInfo { res, .. } => {
            let named = *res;
            *res = match named {
                Resource::Srv(_) => Resource::Srv(0),
                Resource::Uav(_) => Resource::Uav(0),
                Resource::Tgsm(_) => return None,
            };
            return Some((named, 0));
        }
        Inst::Sample {
            res,
            sampler,
            slots: None,
            ..
        }
        | Inst::Gather {
            res,
            sampler,
            slots: None,
            ..
        }
        | Inst::QueryLod {
            res,
            sampler,
            slots: None,
            ..
        } => (res, Some(sampler)),
        Inst::Fetch {
            res, slots: None, ..
        }
        | Inst::LoadSample { res, .. }
        | Inst::SampleInfo { res: Some(res), .. }
        | Inst::SamplePos { res: Some(res), .. } => (res, None),
        _ => return None,
    };
    let named = (
        Resource::Srv(*res),
        sampler.as_deref().copied().unwrap_or(0),
    );
    *res = 0;
    if let Some(sampler) = sampler {
        *sampler = 0;
    }
    Some(named)
}

/// Declares the structured buffer a structured load or store or an atomic
/// names with stride 0 in `context`, returning its stride (a hole), so
/// that one stencil serves every stride.
fn any_stride(inst: &Inst, context: &mut InstContext) -> Option<u32> {
    let (Inst::LoadStructured { res, .. }
    | Inst::StoreStructured { res, .. }
    | Inst::Atomic { res, .. }) = inst
    else {
        return None;
    };
    let decls = match res {
        Resource::Srv(_) => &mut context.srvs,
        Resource::Uav(_) => &mut context.uavs,
        Resource::Tgsm(_) => return None,
    };
    let [decl] = decls.as_mut_slice() else {
        return None;
    };
    let ResourceKind::Structured(stride) = decl.kind else {
        return None;
    };
    decl.kind = ResourceKind::Structured(0);
    context.any_stride = true;
    Some(stride)
}

/// The destination and result swizzle of a load or sample, whose result
/// `Stitcher::staged_result` stages.
fn result_of(inst: &mut Inst) -> Option<(&mut Dst, &mut [u8; 4])> {
    match inst {
        Inst::LoadRaw { dst, swizzle, .. }
        | Inst::LoadStructured { dst, swizzle, .. }
        | Inst::LoadTyped { dst, swizzle, .. }
        | Inst::Sample { dst, swizzle, .. }
        | Inst::Fetch { dst, swizzle, .. } => Some((dst, swizzle)),
        _ => None,
    }
}

/// Whether computing a dot product once per destination component would
/// let a later component read a source the earlier ones wrote.
fn dot_hazard(dst: &Dst, a: &Src, b: &Src) -> bool {
    let aliases = |s: &Src| {
        (s.file == dst.file && s.index == dst.index)
            || s.index
                .rel
                .as_deref()
                .is_some_and(|r| r.file == dst.file && r.index == dst.index)
    };
    dst.mask.count_ones() > 1 && (aliases(a) || aliases(b))
}

/// The SRV and UAV slots an instruction names, and whether it names
/// group-shared memory.
fn named_resources(inst: &Inst) -> (Vec<u32>, Vec<u32>, bool) {
    let res = match inst {
        Inst::LoadRaw { res, .. }
        | Inst::StoreRaw { res, .. }
        | Inst::LoadStructured { res, .. }
        | Inst::StoreStructured { res, .. }
        | Inst::LoadTyped { res, .. }
        | Inst::StoreTyped { res, .. }
        | Inst::Atomic { res, .. }
        | Inst::UavCounter { res, .. }
        | Inst::BufInfo { res, .. }
        | Inst::ResInfo { res, .. } => Some(*res),
        Inst::Sample { res, .. }
        | Inst::Fetch { res, .. }
        | Inst::Gather { res, .. }
        | Inst::QueryLod { res, .. }
        | Inst::LoadSample { res, .. } => Some(Resource::Srv(*res)),
        Inst::SampleInfo { res, .. } | Inst::SamplePos { res, .. } => res.map(Resource::Srv),
        _ => None,
    };
    match res {
        Some(Resource::Srv(s)) => (vec![s], Vec::new(), false),
        Some(Resource::Uav(u)) => (Vec::new(), vec![u], false),
        Some(Resource::Tgsm(_)) => (Vec::new(), Vec::new(), true),
        None => (Vec::new(), Vec::new(), false),
    }
}

impl<'p> Stitcher<'p> {
    /// A walk over `prog`, whose registers `layout` places.
    pub fn new(prog: &'p Program, layout: Layout) -> Stitcher<'p> {
        let max_reg = |regs: &[crate::ir::IoReg]| {
            regs.iter()
                .map(|r| r.reg.saturating_add(1))
                .max()
                .unwrap_or(0)
        };
        Stitcher {
            prog,
            layout,
            data: Data::with_rows(&prog.icb),
            cb_static_bytes: [0; CB_SLOTS],
            input_regs: prog.input_block_regs(),
            output_regs: max_reg(&prog.outputs).max(prog.depth_output.map_or(0, |r| r + 1)),
            // About three pieces an instruction (components and staging),
            // reserved so that the vector of pieces does not grow by copies.
            pieces: Vec::with_capacity(
                3 * (prog.main.len()
                    + prog.subroutines.iter().map(|(_, b)| b.len()).sum::<usize>())
                    + 16,
            ),
            labels: Vec::new(),
            group: None,
            helpers: None,
            missing: Vec::new(),
            missing_index: HashMap::default(),
            waiting: Vec::new(),
            uniform: Uniformity::of(prog),
            staging: Vec::new(),
            hoisted: HashMap::default(),
            hoist_order: Vec::new(),
            result_staging: None,
            flow: Vec::new(),
            killed: false,
            call_depth: 0,
            exit: Label(0),
        }
    }

    /// A new label, not yet bound.
    fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    /// Binds `l` to the next piece.
    fn bind(&mut self, l: Label) {
        self.labels[l.0] = Some(self.pieces.len());
    }

    /// Appends the stencil of `key`; one the process lacks is made when
    /// the walk ends (`make_missing`).
    fn push(
        &mut self,
        key: Key,
        holes: impl IntoIterator<Item = HoleValue>,
        exits: impl IntoIterator<Item = Target>,
    ) -> Result<(), StitchError> {
        let stencil = match library::find(&key) {
            Some(stencil) => stencil,
            None => {
                let n = self.missing.len();
                let i = *self.missing_index.entry(key.clone()).or_insert(n);
                if i == n {
                    self.missing.push(key);
                }
                self.waiting.push((self.pieces.len(), i));
                Arc::clone(pending())
            }
        };
        self.pieces.push(Piece {
            stencil,
            holes: holes.into_iter().collect(),
            exits: exits.into_iter().collect(),
        });
        Ok(())
    }

    /// Makes the stencils the walk found missing (on `helpers`' threads
    /// too) and puts each in its pieces.
    fn make_missing(&mut self) -> Result<(), StitchError> {
        if self.missing.is_empty() {
            return Ok(());
        }
        self.missing_index.clear();
        let made = super::make::make_all(std::mem::take(&mut self.missing), self.helpers.as_ref())?;
        for (piece, i) in self.waiting.drain(..) {
            self.pieces[piece].stencil = Arc::clone(&made[i]);
        }
        Ok(())
    }

    /// Appends a control-flow piece: its source (if any) is register 0.
    fn flow_piece(
        &mut self,
        op: FlowOp,
        src: Option<&Src>,
        body_holes: impl IntoIterator<Item = HoleValue>,
        exits: impl IntoIterator<Item = Target>,
    ) -> Result<(), StitchError> {
        let mut canon = Canon::new(0);
        let src = match src {
            Some(s) => {
                let orig = s.swizzle[0] as usize & 3;
                let comps = [Some(orig), None, None, None];
                Some(self.source(&mut canon, s, comps, XYZW, s.swizzle, None)?)
            }
            None => None,
        };
        if canon.reach.inputs
            || canon.reach.outputs
            || canon.reach.icb
            || !canon.reach.indexables.is_empty()
        {
            return Err(Unsupported("a relatively indexed test").into());
        }
        let mut holes = canon.holes;
        holes.extend(body_holes);
        let key = Key {
            k: self.layout.k as u8,
            body: Body::Flow { op, src },
            loads: canon.loads,
            stores: Accesses::new(),
            divergent: false,
            masks: op != FlowOp::InitMasks && !matches!(op, FlowOp::ZeroRegister(_) | FlowOp::Jump),
        };
        self.push(key, holes, exits)
    }

    /// A flow piece that goes on to the next.
    fn step(
        &mut self,
        op: FlowOp,
        src: Option<&Src>,
        holes: impl IntoIterator<Item = HoleValue>,
    ) -> Result<(), StitchError> {
        self.flow_piece(op, src, holes, [Target::Next])
    }

    /// Whether writes must blend with the execution mask (`Tr::divergent`).
    fn divergent(&self) -> bool {
        self.killed
            || self.call_depth > 0
            || self.flow.iter().any(|f| match f {
                Open::If { uniform, .. } | Open::Loop { uniform, .. } => !uniform,
                Open::Switch { .. } => true,
            })
    }

    /// The innermost loop's latch and exit when it is uniform and is the
    /// innermost construct a break or continue refers to (`Tr::uniform_loop`).
    fn uniform_loop(&self) -> Option<(Label, Label)> {
        for f in self.flow.iter().rev() {
            match f {
                Open::Loop {
                    uniform: true,
                    latch,
                    exit,
                    ..
                } => return Some((*latch, *exit)),
                Open::Loop { .. } | Open::Switch { .. } => return None,
                Open::If { .. } => {}
            }
        }
        None
    }

    /// The whole program: entry, body, exit. A compute shader with group
    /// barriers loops over its lane batches in its entry, and each batch's
    /// chain starts with the jump to where the batch goes on.
    pub fn program(&mut self) -> Result<(), StitchError> {
        let prog = self.prog;
        let looped = crate::jit::group_loop::runs_group(prog);
        let entry = match prog.stage {
            Stage::Pixel => Body::PixelEntry {
                reads_position: crate::jit::draw_row::reads_position(prog),
                output_regs: self.output_regs,
            },
            Stage::Vertex => Body::VertexEntry,
            Stage::Compute if looped => Body::GroupEntry,
            Stage::Domain | Stage::Compute => Body::Entry,
            Stage::Hull | Stage::Geometry => {
                return Err(Unsupported("hull or geometry shader").into())
            }
        };
        let entry_holes = if prog.stage == Stage::Vertex {
            vec![
                HoleValue::Const(u64::from(self.input_regs)),
                HoleValue::Const(u64::from(self.output_regs)),
            ]
        } else if looped {
            let lanes = 4 * self.layout.k as u32;
            let threads: u32 = prog.thread_group.iter().map(|&d| d.max(1)).product();
            let batches = threads.div_ceil(lanes);
            self.group = Some(Group {
                batches,
                resume_word: self.layout.slot(1),
                resumes: Vec::new(),
            });
            // The batch's scratch bytes are known once the walk has
            // placed every slot.
            vec![HoleValue::Const(u64::from(batches)), HoleValue::Const(0)]
        } else {
            Vec::new()
        };
        self.push(
            Key {
                k: self.layout.k as u8,
                body: entry,
                loads: Accesses::new(),
                stores: Accesses::new(),
                divergent: false,
                masks: false,
            },
            entry_holes,
            vec![Target::Next],
        )?;
        if looped {
            // Replaced by the resume jump once the barriers are counted.
            self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![Target::Next])?;
        }
        self.step(FlowOp::InitMasks, None, Vec::new())?;
        self.zero_temps()?;
        // The operands constant during a call are staged once a call, by
        // pieces placed after the exit: a jump there and back.
        let hoist = self.label();
        let back = self.label();
        self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![Target::Label(hoist)])?;
        self.bind(back);
        self.exit = self.label();
        self.body(&prog.main)?;
        self.bind(self.exit);
        let store_alive = prog.stage != Stage::Compute && crate::jit::flow::discards(prog);
        let exit = FlowOp::Exit {
            store_alive,
            finish_batch: looped,
        };
        let resume_word = self.group.as_ref().map(|g| g.resume_word);
        let holes = resume_word.map(|w| HoleValue::Const(u64::from(w)));
        self.flow_piece(exit, None, holes, [])?;
        self.bind(hoist);
        for (body, place, holes, slot) in std::mem::take(&mut self.hoist_order) {
            let mut holes: Holes = holes.iter().copied().collect();
            holes.push(HoleValue::Const(u64::from(slot)));
            self.push_stage(body, place, 1, holes)?;
        }
        self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![Target::Label(back)])?;
        if let Some(group) = self.group.take() {
            self.pieces[0].holes[1] = HoleValue::Const(u64::from(self.layout.size));
            let mut exits = vec![Target::Next];
            exits.extend(group.resumes.iter().map(|l| Target::Label(*l)));
            let resume = FlowOp::Resume {
                count: group.resumes.len() as u32,
            };
            let holes = vec![HoleValue::Const(u64::from(group.resume_word))];
            let at = self.pieces.len();
            self.flow_piece(resume, None, holes, exits)?;
            self.pieces.swap(1, at);
            self.pieces.pop();
            self.waiting.retain(|&(piece, _)| piece != 1);
            for (piece, _) in &mut self.waiting {
                if *piece == at {
                    *piece = 1;
                }
            }
            self.group = Some(group);
        }
        self.make_missing()
    }

    /// A group barrier: the batch stops, and the next call goes on after it.
    fn barrier(&mut self) -> Result<(), StitchError> {
        let Some(group) = self.group.as_mut() else {
            return Err(JitError::Invalid(
                "a group barrier outside a compute shader's group loop".into(),
            )
            .into());
        };
        let id = group.resumes.len() as u32 + 1;
        let holes = vec![
            HoleValue::Const(u64::from(id)),
            HoleValue::Const(u64::from(group.resume_word)),
        ];
        let after = self.label();
        self.group
            .as_mut()
            .expect("checked above")
            .resumes
            .push(after);
        self.flow_piece(FlowOp::Barrier, None, holes, Vec::new())?;
        self.bind(after);
        Ok(())
    }

    /// Zeros the temps a call must see as zero: every temp of a pixel shader
    /// (its quad's neighbours may read them, as the row loop's zeroing
    /// gives), the components other stages read before writing.
    fn zero_temps(&mut self) -> Result<(), StitchError> {
        let prog = self.prog;
        let masks = if prog.stage == Stage::Pixel {
            vec![0xf; prog.temps as usize]
        } else {
            read_before_written(prog)
        };
        for (reg, mask) in masks.into_iter().enumerate() {
            if mask != 0 {
                let at = self.layout.temp(reg as u32, 0);
                self.step(
                    FlowOp::ZeroRegister(mask),
                    None,
                    vec![HoleValue::Const(u64::from(at))],
                )?;
            }
        }
        Ok(())
    }

    /// The pieces of a function body.
    fn body(&mut self, body: &[Inst]) -> Result<(), StitchError> {
        for (i, inst) in body.iter().enumerate() {
            self.inst(inst, &body[i + 1..])?;
        }
        Ok(())
    }

    /// The pieces of one instruction, followed by `rest`.
    fn inst(&mut self, inst: &Inst, rest: &[Inst]) -> Result<(), StitchError> {
        match inst {
            Inst::If { cond, nz } => self.open_if(cond, *nz),
            Inst::Else => self.open_else(),
            Inst::EndIf => self.close_if(),
            Inst::Loop => self.open_loop(rest),
            Inst::EndLoop => self.close_loop(),
            Inst::Break => self.leave(MaskId::Brk, None),
            Inst::Continue => self.leave(MaskId::Cont, None),
            Inst::BreakC { cond, nz } => self.leave(MaskId::Brk, Some((cond, *nz))),
            Inst::ContinueC { cond, nz } => self.leave(MaskId::Cont, Some((cond, *nz))),
            Inst::Switch { sel } => self.open_switch(sel, rest),
            Inst::Case(v) => {
                let Some(Open::Switch { selector, .. }) = self.flow.last() else {
                    return Err(JitError::Invalid("case outside switch".into()).into());
                };
                let holes = vec![
                    HoleValue::Const(u64::from(*selector)),
                    HoleValue::Data(self.data.word(*v)),
                ];
                self.step(FlowOp::Case, None, holes)
            }
            Inst::Default => self.default_case(),
            Inst::EndSwitch => {
                let Some(Open::Switch { slot, .. }) = self.flow.pop() else {
                    return Err(JitError::Invalid("endswitch without switch".into()).into());
                };
                self.step(FlowOp::EndSwitch, None, vectors(&self.layout, slot, 4))
            }
            Inst::Ret if self.flow.is_empty() && self.call_depth == 0 => {
                let exit = self.exit;
                self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![Target::Label(exit)])
            }
            Inst::Ret => self.kill(MaskId::Ret, None),
            Inst::RetC { cond, nz } => self.kill(MaskId::Ret, Some((cond, *nz))),
            Inst::Discard { cond, nz } => {
                self.killed = true;
                self.kill(MaskId::Alive, Some((cond, *nz)))
            }
            Inst::Call { label } => self.call(*label, None),
            Inst::CallC { cond, nz, label } => self.call(*label, Some((cond, *nz))),
            Inst::Sync { group, .. } => {
                if *group && self.prog.stage == Stage::Compute {
                    return self.barrier();
                }
                Ok(())
            }
            Inst::Emit { .. } | Inst::Cut { .. } => Err(Unsupported("geometry output").into()),
            Inst::Alu { op, dst, src } if !split_hazard(dst, src) => self.alu(*op, dst, src),
            Inst::Dot {
                n,
                legacy,
                dst,
                a,
                b,
            } if !dot_hazard(dst, a, b) => self.dot(*n, *legacy, dst, a, b),
            _ => self.staged_result(inst),
        }
    }

    /// `ret`/`retc` below the top, `discard`: the lanes leave `mask`.
    fn kill(&mut self, mask: MaskId, test: Option<(&Src, bool)>) -> Result<(), StitchError> {
        if mask == MaskId::Ret && self.call_depth == 0 {
            self.killed = true;
        }
        self.step(
            FlowOp::ClearLanes {
                mask,
                test: test.map(|t| t.1),
            },
            test.map(|t| t.0),
            Vec::new(),
        )
    }

    fn open_if(&mut self, cond: &Src, nz: bool) -> Result<(), StitchError> {
        let uniform = self.call_depth == 0 && self.uniform.src(cond, 0);
        let skip = self.label();
        let end = self.label();
        let exits = vec![Target::Next, Target::Label(skip)];
        let slot = if uniform {
            self.flow_piece(FlowOp::IfUniform { nz }, Some(cond), Vec::new(), exits)?;
            0
        } else {
            let slot = self.layout.slot(2);
            self.flow_piece(
                FlowOp::IfMasked { nz },
                Some(cond),
                vectors(&self.layout, slot, 2),
                exits,
            )?;
            slot
        };
        self.flow.push(Open::If {
            uniform,
            slot,
            skip,
            end,
            else_seen: false,
        });
        Ok(())
    }

    fn open_else(&mut self) -> Result<(), StitchError> {
        let Some(Open::If {
            uniform,
            slot,
            skip,
            end,
            else_seen,
        }) = self.flow.last_mut()
        else {
            return Err(JitError::Invalid("else without if".into()).into());
        };
        *else_seen = true;
        let (uniform, slot, skip, end) = (*uniform, *slot, *skip, *end);
        if uniform {
            self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![Target::Label(end)])?;
            self.bind(skip);
            Ok(())
        } else {
            self.bind(skip);
            self.flow_piece(
                FlowOp::ElseMasked,
                None,
                vectors(&self.layout, slot, 2),
                vec![Target::Next, Target::Label(end)],
            )
        }
    }

    fn close_if(&mut self) -> Result<(), StitchError> {
        let Some(Open::If {
            uniform,
            slot,
            skip,
            end,
            else_seen,
        }) = self.flow.pop()
        else {
            return Err(JitError::Invalid("endif without if".into()).into());
        };
        self.bind(if else_seen { end } else { skip });
        if uniform {
            return Ok(());
        }
        self.step(FlowOp::EndIfMasked, None, vectors(&self.layout, slot, 1))
    }

    fn open_loop(&mut self, rest: &[Inst]) -> Result<(), StitchError> {
        let uniform = self.call_depth == 0 && self.uniform.loop_is_uniform(rest);
        let checked = !uniform || !crate::jit::bounded_loop::is_bounded(rest);
        let slot = self.layout.slot(5);
        self.step(FlowOp::SaveMasks, None, vectors(&self.layout, slot, 5))?;
        let header = self.label();
        let latch = self.label();
        let exit = self.label();
        if !uniform {
            self.step(FlowOp::LoopEnter, None, Vec::new())?;
        }
        self.bind(header);
        if !uniform {
            self.flow_piece(
                FlowOp::LoopHeader,
                None,
                Vec::new(),
                vec![Target::Next, Target::Label(exit)],
            )?;
        }
        self.flow.push(Open::Loop {
            uniform,
            slot,
            header,
            latch,
            exit,
            checked,
        });
        Ok(())
    }

    fn close_loop(&mut self) -> Result<(), StitchError> {
        let Some(Open::Loop {
            uniform,
            slot,
            header,
            latch,
            exit,
            checked,
        }) = self.flow.pop()
        else {
            return Err(JitError::Invalid("endloop without loop".into()).into());
        };
        self.bind(latch);
        self.flow_piece(
            FlowOp::LoopBack {
                masked: !uniform,
                checked,
            },
            None,
            Vec::new(),
            vec![Target::Label(header)],
        )?;
        self.bind(exit);
        self.step(
            FlowOp::Restore { ret: false },
            None,
            vectors(&self.layout, slot, 4),
        )
    }

    /// `break`/`continue` and their conditional forms.
    fn leave(&mut self, mask: MaskId, test: Option<(&Src, bool)>) -> Result<(), StitchError> {
        if let Some((latch, exit)) = self.uniform_loop() {
            let target = Target::Label(if mask == MaskId::Brk { exit } else { latch });
            return match test {
                Some((cond, nz)) => self.flow_piece(
                    FlowOp::BranchAny { nz },
                    Some(cond),
                    Vec::new(),
                    vec![Target::Next, target],
                ),
                None => self.flow_piece(FlowOp::Jump, None, Vec::new(), vec![target]),
            };
        }
        self.step(
            FlowOp::ClearLanes {
                mask,
                test: test.map(|t| t.1),
            },
            test.map(|t| t.0),
            Vec::new(),
        )
    }

    fn open_switch(&mut self, sel: &Src, rest: &[Inst]) -> Result<(), StitchError> {
        let slot = self.layout.slot(5);
        let selector = self.layout.slot(1);
        let matched = self.layout.slot(1);
        self.step(FlowOp::SaveMasks, None, vectors(&self.layout, slot, 5))?;
        self.step(
            FlowOp::SwitchEnter,
            Some(sel),
            vectors(&self.layout, selector, 1),
        )?;
        let cases = crate::ir::switch_cases(rest);
        self.flow.push(Open::Switch {
            slot,
            selector,
            matched,
            cases,
        });
        Ok(())
    }

    fn default_case(&mut self) -> Result<(), StitchError> {
        let Some(Open::Switch {
            selector,
            matched,
            cases,
            ..
        }) = self.flow.last()
        else {
            return Err(JitError::Invalid("default outside switch".into()).into());
        };
        let (selector, matched, cases) = (*selector, *matched, cases.clone());
        self.step(
            FlowOp::DefaultClear,
            None,
            vectors(&self.layout, matched, 1),
        )?;
        for v in cases {
            let holes = vec![
                HoleValue::Const(u64::from(matched)),
                HoleValue::Const(u64::from(selector)),
                HoleValue::Data(self.data.word(v)),
            ];
            self.step(FlowOp::DefaultMatch, None, holes)?;
        }
        self.step(
            FlowOp::DefaultApply,
            None,
            vectors(&self.layout, matched, 1),
        )
    }

    /// `call`/`callc`: the subroutine inlined under fresh masks.
    fn call(&mut self, label: u32, test: Option<(&Src, bool)>) -> Result<(), StitchError> {
        let prog = self.prog;
        let body = prog
            .subroutine(label)
            .ok_or_else(|| JitError::Invalid(format!("call to undefined label l{label}")))?;
        if self.call_depth >= crate::ir::MAX_CALL_DEPTH {
            return Err(JitError::Invalid("calls nested too deep".into()).into());
        }
        let slot = self.layout.slot(5);
        self.step(FlowOp::SaveMasks, None, vectors(&self.layout, slot, 5))?;
        self.step(
            FlowOp::CallEnter {
                test: test.map(|t| t.1),
            },
            test.map(|t| t.0),
            Vec::new(),
        )?;
        let outer = std::mem::take(&mut self.flow);
        self.call_depth += 1;
        let result = self.body(body);
        self.call_depth -= 1;
        self.flow = outer;
        result?;
        self.step(
            FlowOp::Restore { ret: true },
            None,
            vectors(&self.layout, slot, 5),
        )
    }

    /// The context an instruction's code needs. Arithmetic reads nothing of the program, so its stencils are
    /// shared by every stage.
    fn context(&self, inst: &Inst) -> InstContext {
        let prog = self.prog;
        let (srvs, uavs, tgsm) = named_resources(inst);
        let arithmetic = matches!(
            inst,
            Inst::Alu { .. } | Inst::Dot { .. } | Inst::Double { .. } | Inst::Swapc { .. }
        );
        InstContext {
            stage: if arithmetic {
                Stage::Vertex
            } else {
                prog.stage
            },
            unbound_alpha_one: prog.unbound_texture_alpha_one && !arithmetic,
            per_sample: prog.per_sample && !arithmetic,
            sample_position: prog.sample_position && !arithmetic,
            srvs: prog
                .srvs
                .iter()
                .filter(|d| srvs.contains(&d.slot))
                .copied()
                .collect(),
            uavs: prog
                .uavs
                .iter()
                .filter(|d| uavs.contains(&d.slot))
                .copied()
                .collect(),
            tgsm: if tgsm { prog.tgsm.clone() } else { Vec::new() },
            input_regs: 0,
            output_regs: 0,
            indexables: Vec::new(),
            icb_rows: 0,
            any_slot: false,
            any_block: false,
            any_stride: false,
        }
    }

    /// The relative index of an operand of `file` as a canonical register
    /// holding the index plus the static part `base`; its canonical form.
    fn relative_index(
        &mut self,
        canon: &mut Canon,
        file: File,
        base: u32,
        rel: &Src,
    ) -> Result<Index, StitchError> {
        if rel.index.rel.is_some() || rel.neg || rel.abs {
            return Err(
                Unsupported("a relative index read with modifiers or itself relative").into(),
            );
        }
        match file {
            File::Input => canon.reach.inputs = true,
            File::Output => canon.reach.outputs = true,
            File::Indexable(id) => canon.reach.indexables.push(id),
            File::ImmConst => canon.reach.icb = true,
            File::Const(_) => {}
            _ => return Err(Unsupported("a relatively indexed register file").into()),
        }
        let (place, holes) = self.source_place(rel, rel.swizzle[0] as usize & 3)?;
        let mut holes = holes.to_vec();
        holes.push(HoleValue::Const(u64::from(base)));
        let reg = canon.register(
            Access {
                place,
                mask: 1,
                plus: true,
            },
            holes,
        );
        Ok(Index {
            base: 0,
            rel: Some(Box::new(canonical_src(rel, reg))),
        })
    }

    /// The canonical form of `src` read through the original components
    /// `comps` (after its swizzle; `None` for components not read): a
    /// canonical register loaded with them, read through `swizzle`; or, for
    /// a relatively indexed operand, the operand itself with its index in a
    /// canonical register, read through `relative_swizzle`. An operand of a
    /// place other than the scratch is staged (see [`Body::Stage`]), and
    /// so is one with modifiers when the operation reads it as `ty` says.
    fn source(
        &mut self,
        canon: &mut Canon,
        src: &Src,
        comps: [Option<usize>; 4],
        swizzle: [u8; 4],
        relative_swizzle: [u8; 4],
        ty: Option<SrcTy>,
    ) -> Result<Src, StitchError> {
        if let Some(rel) = &src.index.rel {
            let index = self.relative_index(canon, src.file, src.index.base, rel)?;
            return Ok(Src {
                index,
                swizzle: relative_swizzle,
                ..src.clone()
            });
        }
        let mut place = Place::Dropped;
        let mut holes = Holes::new();
        let mut each: SmallVec<[PlaceHoles; 4]> = SmallVec::new();
        let mut mask = 0;
        for (c, orig) in comps.iter().enumerate() {
            if let Some(orig) = orig {
                let (p, h) = self.source_place(src, *orig)?;
                place = p;
                holes.extend_from_slice(&h);
                each.push(h);
                mask |= 1 << c;
            }
        }
        let modifiers = ty.filter(|_| mask != 0 && (src.neg || src.abs));
        let body = Body::Stage {
            neg: modifiers.is_some() && src.neg,
            abs: modifiers.is_some() && src.abs,
            int: modifiers == Some(SrcTy::Int),
        };
        if self.constant_during_call(place) {
            holes = each
                .into_iter()
                .map(|h| HoleValue::Const(u64::from(self.hoist(&body, place, h))))
                .collect();
            place = Place::Scratch;
        } else if modifiers.is_some() || !matches!(place, Place::Scratch | Place::Dropped) {
            holes = self.stage(canon, body, place, mask, holes)?;
            place = Place::Scratch;
        }
        let reg = canon.register(
            Access {
                place,
                mask,
                plus: false,
            },
            holes,
        );
        let kept = modifiers.is_none();
        Ok(Src {
            swizzle,
            neg: src.neg && kept,
            abs: src.abs && kept,
            ..canonical_src(src, reg)
        })
    }

    /// Whether what `place` holds stays the same through a call: everything
    /// but the registers (the scratch) and the output block.
    fn constant_during_call(&self, place: Place) -> bool {
        let outputs =
            Place::Framed(std::mem::offset_of!(dxjit_runtime::abi::Frame, outputs) as u16);
        !matches!(place, Place::Scratch | Place::Dropped) && place != outputs
    }

    /// The scratch slot that holds one operand component constant during a
    /// call (at `place`, its holes `holes`) staged by `body` (a
    /// [`Body::Stage`]), made on first use: the pieces that fill the slots
    /// run once a call, before the body (see `program`).
    fn hoist(&mut self, body: &Body, place: Place, holes: PlaceHoles) -> u32 {
        let key = (body.clone(), place, holes);
        if let Some(&slot) = self.hoisted.get(&key) {
            return slot;
        }
        let slot = self.layout.slot(1);
        self.hoisted.insert(key, slot);
        self.hoist_order.push((body.clone(), place, holes, slot));
        slot
    }

    /// Pushes the piece `body` (a [`Body::Stage`]) that copies an operand's
    /// components `mask` from `place` (its holes `holes`) to the next
    /// staging register of `canon`'s piece, and returns that register's
    /// holes: pieces then read every
    /// operand from the scratch, and a stencil serves its operation whatever
    /// files the operands come from (the reason: a piece per combination of
    /// files made stencils a first launch compiled by the thousand).
    fn stage(
        &mut self,
        canon: &mut Canon,
        body: Body,
        place: Place,
        mask: u8,
        mut holes: Holes,
    ) -> Result<Holes, StitchError> {
        if self.staging.len() <= canon.staged {
            let slot = self.layout.slot(4);
            self.staging.push(slot);
        }
        let register = self.staging[canon.staged];
        canon.staged += 1;
        let staged: Holes = components(mask)
            .map(|c| HoleValue::Const(u64::from(self.layout.component(register, 0, c))))
            .collect();
        holes.extend_from_slice(&staged);
        self.push_stage(body, place, mask, holes)?;
        Ok(staged)
    }

    /// Pushes the [`Body::Stage`] piece `body` copying components `mask`
    /// from `place` to the scratch; `holes` are the place's, then the
    /// scratch's.
    fn push_stage(
        &mut self,
        body: Body,
        place: Place,
        mask: u8,
        holes: Holes,
    ) -> Result<(), StitchError> {
        let access = |place| Access {
            place,
            mask,
            plus: false,
        };
        let key = Key {
            k: self.layout.k as u8,
            body,
            loads: smallvec![access(place)],
            stores: smallvec![access(Place::Scratch)],
            divergent: false,
            masks: false,
        };
        self.push(key, holes, [Target::Next])
    }

    /// The canonical form of a relatively indexed destination: written in
    /// place by the translator, its index in a canonical register.
    fn relative_destination(
        &mut self,
        canon: &mut Canon,
        dst: &Dst,
        mask: u8,
    ) -> Result<Dst, StitchError> {
        let rel = dst.index.rel.as_deref().expect("a relative destination");
        let index = self.relative_index(canon, dst.file, dst.index.base, rel)?;
        Ok(Dst {
            index,
            mask,
            ..dst.clone()
        })
    }

    /// The instruction context with what `reach` says relative indices reach.
    fn reaching(&self, mut context: InstContext, reach: &Reach) -> InstContext {
        if reach.inputs {
            context.input_regs = self.input_regs;
        }
        if reach.outputs {
            context.output_regs = self.output_regs;
        }
        for id in &reach.indexables {
            if let Some(&(at, count)) = self.layout.indexables.get(id) {
                context.indexables.push((*id, at, count));
            }
        }
        context.indexables.sort_unstable();
        context.indexables.dedup();
        if reach.icb {
            context.icb_rows = self.prog.icb.len() as u32;
        }
        context
    }

    /// Where component `c` of `dst` is written by a one-component piece:
    /// the canonical destination, the store and its holes (none when a
    /// relative index writes the component in place).
    fn component_destination(
        &mut self,
        canon: &mut Canon,
        dst: &Dst,
        c: usize,
    ) -> Result<(Dst, Accesses, Holes), StitchError> {
        if dst.index.rel.is_some() {
            let d = self.relative_destination(canon, dst, 1 << c)?;
            return Ok((d, Accesses::new(), Holes::new()));
        }
        let (place, holes) = self.destination_place(dst, c)?;
        let access = Access {
            place,
            mask: 1,
            plus: false,
        };
        Ok((
            canonical_dst(dst, 0, 1),
            smallvec![access],
            holes.iter().copied().collect(),
        ))
    }

    /// Pushes the piece of a one-component `inst` over `canon`'s loads,
    /// storing through `write` (its stores and their holes, taken twice
    /// when divergent: the old value's load and the store).
    fn push_component(
        &mut self,
        inst: Inst,
        context: InstContext,
        canon: Canon,
        write: (Accesses, Holes),
        divergent: bool,
        relative: bool,
    ) -> Result<(), StitchError> {
        let (stores, store_holes) = write;
        let mut holes = canon.holes;
        if divergent {
            holes.extend(store_holes.iter().copied());
        }
        holes.extend(store_holes);
        let key = Key {
            k: self.layout.k as u8,
            body: Body::Inst(Box::new(InstBody {
                inst,
                context: self.reaching(context, &canon.reach),
            })),
            loads: canon.loads,
            stores,
            divergent,
            masks: relative,
        };
        self.push(key, holes, vec![Target::Next])
    }

    /// A component-wise operation, a piece per component: each reads its
    /// sources' components into component x of canonical registers and
    /// writes component x of canonical register 0 (or, through a relative
    /// index, the component itself).
    fn alu(&mut self, op: AluOp, dst: &Dst, src: &[Src]) -> Result<(), StitchError> {
        let base = self.context(&Inst::Alu {
            op,
            dst: dst.clone(),
            src: Vec::new(),
        });
        let divergent = self.divergent();
        for c in components(dst.mask) {
            let relative = dst.index.rel.is_some();
            let mut canon = Canon::new(u32::from(!relative));
            let (canonical, stores, store_holes) =
                self.component_destination(&mut canon, dst, c)?;
            let mut sources = Vec::with_capacity(src.len());
            for (i, s) in src.iter().enumerate() {
                let orig = s.swizzle[c] as usize & 3;
                let comps = [Some(orig), None, None, None];
                let ty = op.info().source(i);
                let rel = [orig as u8; 4];
                sources.push(self.source(&mut canon, s, comps, [0; 4], rel, Some(ty))?);
            }
            let inst = Inst::Alu {
                op,
                dst: canonical,
                src: sources,
            };
            let write = (stores, store_holes);
            self.push_component(inst, base.clone(), canon, write, divergent, relative)?;
        }
        Ok(())
    }

    /// A dot product, a piece per destination component (each computes the
    /// sum again), so that pieces are shared whatever the write mask.
    fn dot(&mut self, n: u8, legacy: bool, dst: &Dst, a: &Src, b: &Src) -> Result<(), StitchError> {
        let divergent = self.divergent();
        let read = (1u8 << n.min(4)) - 1;
        for c in components(dst.mask) {
            let relative = dst.index.rel.is_some();
            let mut canon = Canon::new(u32::from(!relative));
            let (canonical, stores, store_holes) =
                self.component_destination(&mut canon, dst, c)?;
            let mut operand = |s: &Src, canon: &mut Canon| {
                let comps = std::array::from_fn(|i| {
                    (read & (1 << i) != 0).then_some(s.swizzle[i] as usize & 3)
                });
                self.source(canon, s, comps, XYZW, s.swizzle, Some(SrcTy::Float))
            };
            let a = operand(a, &mut canon)?;
            let b = operand(b, &mut canon)?;
            let inst = Inst::Dot {
                n,
                legacy,
                dst: canonical,
                a,
                b,
            };
            let context = self.context(&inst);
            let write = (stores, store_holes);
            self.push_component(inst, context, canon, write, divergent, relative)?;
        }
        Ok(())
    }

    /// Any other instruction; a load or sample whose result is read
    /// through a swizzle into a destination without a relative index is
    /// staged: its piece computes the components the swizzle reads, in
    /// order, into a staging register (whatever the write mask and
    /// swizzle, and every lane), and a `mov` piece per written component
    /// copies one to the destination (blending with the execution mask
    /// where writes do). One stencil of the operation then serves every
    /// mask and swizzle reading the same components. A saturating write
    /// saturates in the operation's piece.
    fn staged_result(&mut self, inst: &Inst) -> Result<(), StitchError> {
        let mut whole = inst.clone();
        let Some((d, s)) = result_of(&mut whole) else {
            return self.instruction(inst, None);
        };
        if d.index.rel.is_some() || d.mask == 0 {
            return self.instruction(inst, None);
        }
        let (dst, swizzle) = (d.clone(), *s);
        d.mask = components(dst.mask).fold(0u8, |m, c| m | 1 << (swizzle[c] & 3));
        *s = XYZW;
        let register = *self
            .result_staging
            .get_or_insert_with(|| self.layout.slot(4));
        self.instruction(&whole, Some(register))?;
        let divergent = self.divergent();
        for c in components(dst.mask) {
            let mut canon = Canon::new(1);
            let (mut canonical, stores, store_holes) =
                self.component_destination(&mut canon, &dst, c)?;
            canonical.saturate = false;
            let from = self
                .layout
                .component(register, 0, usize::from(swizzle[c] & 3));
            let access = Access {
                place: Place::Scratch,
                mask: 1,
                plus: false,
            };
            let reg = canon.register(access, vec![HoleValue::Const(u64::from(from))]);
            let mov = Inst::Alu {
                op: AluOp::Mov,
                dst: canonical,
                src: vec![Src {
                    swizzle: [0; 4],
                    ..canonical_src(&Src::reg(File::Temp, 0), reg)
                }],
            };
            let context = self.context(&mov);
            let write = (stores, store_holes);
            self.push_component(mov, context, canon, write, divergent, false)?;
        }
        Ok(())
    }

    /// Gives the group-shared block `inst` names the number 0 and declares
    /// it alone in `context`, returning its byte offset in the group's
    /// memory, size and stride (holes), so that one stencil serves every
    /// block of its kind wherever the program's declarations place it.
    fn any_block(&self, inst: &mut Inst, context: &mut InstContext) -> Option<[u32; 3]> {
        let (Inst::LoadRaw { res, .. }
        | Inst::StoreRaw { res, .. }
        | Inst::LoadStructured { res, .. }
        | Inst::StoreStructured { res, .. }
        | Inst::Atomic { res, .. }) = inst
        else {
            return None;
        };
        let Resource::Tgsm(id) = *res else {
            return None;
        };
        let (at, d) = self.prog.tgsm_block(id)?;
        *res = Resource::Tgsm(0);
        context.tgsm = vec![crate::ir::TgsmDecl {
            id: 0,
            size: 0,
            stride: u32::from(d.stride != 0),
        }];
        context.any_block = true;
        Some([at, d.size, d.stride.max(1)])
    }

    /// Any other instruction, as one piece over canonical registers: its
    /// destinations are registers `0..` (relatively indexed ones are
    /// written in place), its sources the ones after.
    /// With `staged`, the one destination is the staging register at that
    /// scratch offset instead, written whole (every lane).
    fn instruction(&mut self, inst: &Inst, staged: Option<u32>) -> Result<(), StitchError> {
        let divergent = staged.is_none() && self.divergent();
        let context = self.context(inst);
        let mut canon_inst = inst.clone();
        let mut stores = Accesses::new();
        let mut store_holes = Holes::new();
        let mut relative_dsts = Vec::new();
        for (d, out) in inst
            .destinations()
            .into_iter()
            .zip(canon_inst.destinations_mut())
        {
            if d.index.rel.is_some() {
                relative_dsts.push((d, out));
                continue;
            }
            let mut place = Place::Dropped;
            for c in components(d.mask) {
                let (p, h) = match staged {
                    Some(register) => (
                        Place::Scratch,
                        PlaceHoles::new(&[HoleValue::Const(u64::from(
                            self.layout.component(register, 0, c),
                        ))]),
                    ),
                    None => self.destination_place(d, c)?,
                };
                place = p;
                store_holes.extend_from_slice(&h);
            }
            *out = canonical_dst(d, stores.len() as u32, d.mask);
            stores.push(Access {
                place,
                mask: d.mask,
                plus: false,
            });
        }
        let mut canon = Canon::new(stores.len() as u32);
        for (d, out) in relative_dsts {
            *out = self.relative_destination(&mut canon, d, d.mask)?;
        }
        let read = match inst {
            Inst::Dot { n, .. } => (1u8 << (*n).min(4)) - 1,
            _ => 0xf,
        };
        // `eval_*` names its input register itself: only its operand is
        // an ordinary source.
        let named = usize::from(matches!(inst, Inst::Eval { .. }));
        for (s, out) in inst
            .sources()
            .into_iter()
            .zip(canon_inst.sources_mut())
            .skip(named)
        {
            let comps = std::array::from_fn(|c| {
                (read & (1 << c) != 0).then_some(s.swizzle[c] as usize & 3)
            });
            *out = self.source(&mut canon, s, comps, XYZW, s.swizzle, None)?;
        }
        let mut holes = canon.holes;
        let mut context = self.reaching(context, &canon.reach);
        if let Some((res, sampler)) = any_slot(&mut canon_inst) {
            let (slot, decls) = match res {
                Resource::Srv(slot) => (slot, &mut context.srvs),
                Resource::Uav(slot) => (slot, &mut context.uavs),
                Resource::Tgsm(_) => unreachable!("any_slot leaves group-shared memory"),
            };
            decls.retain(|d| d.slot == slot);
            for d in decls.iter_mut() {
                d.slot = 0;
            }
            context.any_slot = true;
            let sampler_bytes = size_of::<dxjit_runtime::sampler::SamplerState>() as u64;
            holes.push(HoleValue::Const(super::build::view_offset(slot)));
            holes.push(HoleValue::Const(u64::from(sampler) * sampler_bytes));
        }
        if let Some(block) = self.any_block(&mut canon_inst, &mut context) {
            holes.extend(block.map(|v| HoleValue::Const(u64::from(v))));
        }
        if let Some(stride) = any_stride(&canon_inst, &mut context) {
            holes.push(HoleValue::Const(u64::from(stride.max(1))));
        }
        if divergent {
            holes.extend(store_holes.iter().copied());
        }
        holes.extend(store_holes);
        let masks = canon.reach.outputs
            || !canon.reach.indexables.is_empty()
            || !matches!(
                inst,
                Inst::Alu { .. } | Inst::Dot { .. } | Inst::Double { .. } | Inst::Swapc { .. }
            );
        let key = Key {
            k: self.layout.k as u8,
            body: Body::Inst(Box::new(InstBody {
                inst: canon_inst,
                context,
            })),
            loads: canon.loads,
            stores,
            divergent,
            masks,
        };
        self.push(key, holes, vec![Target::Next])
    }
}

#[cfg(test)]
mod tests {
    use super::read_before_written;
    use crate::ir::{AluOp, Dst, Inst, Program, Src, Stage};

    fn mov(dst: Dst, src: Src) -> Inst {
        Inst::Alu {
            op: AluOp::Mov,
            dst,
            src: vec![src],
        }
    }

    fn program(main: Vec<Inst>, sub: Vec<Inst>) -> Program {
        let mut p = Program::new(Stage::Vertex);
        p.temps = 4;
        p.main = main.into();
        p.subroutines.push((7, sub.into()));
        p
    }

    #[test]
    fn what_a_call_may_read_before_writing() {
        let main = vec![
            // r0.xy written at the top: read after, not zeroed.
            mov(Dst::temp(0, 0b0011), Src::splat(1)),
            mov(Dst::temp(1, 0b0001), Src::temp(0).scalar(1)),
            // r0.z read before any write.
            mov(Dst::temp(1, 0b0010), Src::temp(0).scalar(2)),
            // r2.x written only inside the if, read after it.
            Inst::If {
                cond: Src::temp(1).scalar(0),
                nz: true,
            },
            mov(Dst::temp(2, 0b0001), Src::splat(2)),
            Inst::EndIf,
            mov(Dst::temp(1, 0b0100), Src::temp(2).scalar(0)),
            // r3.w read by the subroutine the call runs.
            Inst::Call { label: 7 },
        ];
        let sub = vec![mov(Dst::temp(1, 0b1000), Src::temp(3).scalar(3))];
        let read = read_before_written(&program(main, sub));
        assert_eq!(read, vec![0b0100, 0, 0b0001, 0b1000]);
    }

    #[test]
    fn a_loop_reads_what_its_own_body_writes_later() {
        let main = vec![
            Inst::Loop,
            mov(Dst::temp(1, 0b0001), Src::temp(0).scalar(0)),
            mov(Dst::temp(0, 0b0001), Src::splat(3)),
            Inst::Break,
            Inst::EndLoop,
        ];
        let read = read_before_written(&program(main, Vec::new()));
        assert_eq!(read, vec![0b0001, 0, 0, 0]);
    }
}
