//! What a stencil is: the key the library finds it by, and the values its
//! holes take in one shader.
//!
//! A key says everything the stencil's machine code depends on and
//! nothing that changes from one use to the next: which register file an
//! operand lives in is part of the key, the operand's byte offset in that
//! file is a hole.

use crate::ir::{Inst, ResourceDecl, Stage, TgsmDecl};
use std::hash::Hash;
use xxhash_rust::xxh3::Xxh3;

/// Where one component of an operand lives, as a stencil addresses it,
/// with the holes each takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// A lane vector in the call's scratch memory (temps, indexable
    /// temps): hole = byte offset.
    Scratch,
    /// A lane vector at a byte offset (the hole) from the pointer held in
    /// the frame field at this offset (`Frame::inputs`, `outputs`,
    /// `sysvals`).
    Framed(u16),
    /// One word, broadcast: constant-buffer words read with a literal row
    /// the runtime pads the bound buffer to cover (`Kernel::cb_static_bytes`).
    /// Holes: the view's byte offset in `Frame::cbs`, the word's byte offset.
    CbWord,
    /// One word of a constant buffer, broadcast, read only when it lies
    /// inside the bound size (0 otherwise). Holes as [`Place::CbWord`].
    CbChecked,
    /// One word, broadcast, at an address in the shader's data (literals,
    /// immediate-constant-buffer rows): hole = the address.
    Data,
    /// One word of the frame, broadcast (`SV_GroupID`): hole = its offset.
    FrameWord,
    /// `SV_DispatchThreadID`: the group-id word (hole: frame offset) times
    /// the group size (hole) plus `SV_GroupThreadID` (hole: byte offset in
    /// the system-value block).
    DispatchThread,
    /// Nowhere: a write is dropped (a register past its file, `null`).
    Dropped,
}

/// The components of one canonical register a stencil loads or stores,
/// and where they live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// The register file, the same for every component.
    pub place: Place,
    /// The components accessed: bit `c` = component `c`.
    pub mask: u8,
    /// Whether an integer (a hole after the place's) is added to each
    /// component loaded: the static part of a relative index.
    pub plus: bool,
}

/// What of the program an instruction's code depends on besides its
/// operands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstContext {
    /// The stage (sampling picks its level of detail by it).
    pub stage: Stage,
    /// D3D9's unbound-texture rule (see `Program::unbound_texture_alpha_one`).
    pub unbound_alpha_one: bool,
    /// Whether the shader runs per sample.
    pub per_sample: bool,
    /// Whether `SV_Position` is the sample's position.
    pub sample_position: bool,
    /// The declarations of the SRVs the instruction names.
    pub srvs: Vec<ResourceDecl>,
    /// The declarations of the UAVs the instruction names.
    pub uavs: Vec<ResourceDecl>,
    /// Every group-shared block, when the instruction names one (their
    /// order places them).
    pub tgsm: Vec<TgsmDecl>,
    /// Registers in the input block, when a relative index reads it.
    pub input_regs: u32,
    /// Registers in the output block, when a relative index reaches it.
    pub output_regs: u32,
    /// Scratch offset and register count of each indexable temp a relative
    /// index reaches, by declaration number.
    pub indexables: Vec<(u32, u32, u32)>,
    /// Rows of the immediate constant buffer, when a relative index reads
    /// it (its data is reached through its own relocation).
    pub icb_rows: u32,
    /// Whether the instruction's SRV or UAV slot and sampler slot stand
    /// for any: they read 0, and the view and sampler records' offsets are
    /// holes (after the loaded registers').
    pub any_slot: bool,
    /// Whether the group-shared block the instruction names stands for
    /// any of its kind (raw or structured): it is declared alone, as block
    /// 0 with size 0 and stride 0 or 1, and its byte offset in the group's
    /// memory, its size and its stride are holes (after the slots').
    pub any_block: bool,
    /// Whether the structured buffer a load, store or atomic names stands
    /// for any stride: declared with stride 0, its stride is a hole (after
    /// the block's).
    pub any_stride: bool,
}

/// A mask of the execution-mask block (`state::Masks`), by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaskId {
    /// `cond`.
    Cond = 0,
    /// `brk`.
    Brk = 1,
    /// `cont`.
    Cont = 2,
    /// `sw`.
    Sw = 3,
    /// `ret`.
    Ret = 4,
    /// `alive`.
    Alive = 5,
}

/// The control-flow pieces, each the stencil form of what `jit/flow.rs`
/// emits for one construct boundary. Masks live in the scratch's mask
/// block; the masks a construct saves live in its slot (a hole).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowOp {
    /// Where a call's body starts: construct masks all ones, `alive` and
    /// `exec` from the frame's lane mask.
    InitMasks,
    /// Zeros the components (mask) of a register (hole: its offset).
    ZeroRegister(u8),
    /// The end of the body: stores `alive` back to the frame's lane mask
    /// when the program discards, marks the batch finished (its resume
    /// word, a hole) in a program with barriers, and returns `STATUS_DONE`.
    Exit {
        /// Whether `alive` goes back to the frame.
        store_alive: bool,
        /// Whether the batch's resume word becomes `FINISHED`.
        finish_batch: bool,
    },
    /// Where a batch of a program with barriers starts a call: exit 0 at
    /// the group's first call, else the exit its resume word (a hole) names:
    /// 0 the start, `i` the `i`-th barrier's continuation; a finished batch
    /// returns `STATUS_DONE`.
    Resume {
        /// The barriers.
        count: u32,
    },
    /// A group barrier: the batch's resume word (hole) becomes the
    /// barrier's number (hole) and the call returns `STATUS_BARRIER`.
    Barrier,
    /// A jump to exit 0.
    Jump,
    /// `if` under masks: holes are the slot of the saved `cond` and of the
    /// lanes that took it; exit 0 is the taken side, exit 1 where no lane
    /// takes it.
    IfMasked {
        /// Test for nonzero (else for zero).
        nz: bool,
    },
    /// `if` on a uniform condition: exit 0 when any active lane takes it,
    /// exit 1 otherwise.
    IfUniform {
        /// Test for nonzero.
        nz: bool,
    },
    /// `else` under masks (holes as `IfMasked`): exit 0 into the else
    /// side, exit 1 past it when no lane runs it.
    ElseMasked,
    /// `endif` under masks: `cond` back from the slot (hole).
    EndIfMasked,
    /// Saves `cond`, `brk`, `cont`, `sw` and `ret` to a slot (hole).
    SaveMasks,
    /// A masked loop starts: `cond = exec`, `brk = cont = sw = ones`.
    LoopEnter,
    /// A masked loop's header: exit 0 into the body when any lane runs,
    /// exit 1 out of the loop.
    LoopHeader,
    /// A loop's back edge (exit 0, the header): `cont` back to all ones
    /// under masks, and a check of the interrupt word when asked.
    LoopBack {
        /// Whether the loop runs under masks.
        masked: bool,
        /// Whether the back edge checks the interrupt word.
        checked: bool,
    },
    /// Restores the masks a construct saved (holes: the slot's `cond`,
    /// `brk`, `cont` and `sw` vectors, then `ret`'s when leaving a call).
    Restore {
        /// Whether `ret` is restored.
        ret: bool,
    },
    /// Clears the active lanes (those passing the test, when there is one)
    /// from a mask.
    ClearLanes {
        /// The mask.
        mask: MaskId,
        /// The test (nonzero or zero), or none: every active lane.
        test: Option<bool>,
    },
    /// Exit 1 when any active lane passes the test, exit 0 otherwise (a
    /// conditional break or continue of a uniform loop).
    BranchAny {
        /// Test for nonzero.
        nz: bool,
    },
    /// A switch starts (after `SaveMasks`): its selector goes to a slot
    /// (hole), `cond = exec`, `brk = ones`, `sw = 0`.
    SwitchEnter,
    /// `case`: lanes whose selector (slot: hole) equals the value (hole:
    /// its address) join `sw`.
    Case,
    /// `default`, first step: the slot's match word (hole) is cleared.
    DefaultClear,
    /// `default`, one per case: the match word (hole) gains the lanes whose
    /// selector (hole) equals the value (hole: its address).
    DefaultMatch,
    /// `default`, last step: lanes the match word (hole) misses join `sw`.
    DefaultApply,
    /// `endswitch`: the saved masks (hole) come back, `cont` as it is.
    EndSwitch,
    /// A call starts (after `SaveMasks`): the active lanes (passing the
    /// test, when there is one) run the body with fresh masks.
    CallEnter {
        /// The test (nonzero or zero), or none.
        test: Option<bool>,
    },
}

/// An instruction and what of the program its code depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstBody {
    /// The instruction.
    pub inst: Inst,
    /// What of the program its code depends on.
    pub context: InstContext,
}

/// The code a stencil holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Body {
    /// The function's entry for every stage but pixel: calls the chain
    /// (exit 0) and returns its status.
    Entry,
    /// The entry of a compute shader with barriers: calls the chain (exit
    /// 0) for each lane batch of the group (holes: the batches, the bytes of
    /// a batch's scratch), pointing the frame's system values, lane mask
    /// and scratch at the batch's, and returns `STATUS_BARRIER` when any
    /// batch stopped at one (the contract of `jit/group_loop.rs`).
    GroupEntry,
    /// A pixel shader's entry: the row loop of `jit/draw_row.rs` around a
    /// call of the chain (exit 0).
    PixelEntry {
        /// Whether the row loop writes the position's x.
        reads_position: bool,
        /// Output registers the row loop zeros before each step.
        output_regs: u32,
    },
    /// A vertex shader's entry: the vertex-run loop of `jit/vertex_run.rs`
    /// around a call of the chain (exit 0), which a call without a run
    /// makes once (holes: the registers of the input block, which the loop
    /// fills from each lane's vertex, and the output registers it zeros
    /// before each batch and stores to each lane's vertex after it).
    VertexEntry,
    /// An instruction over canonical registers: destinations are
    /// registers `0..`, sources the ones after.
    Inst(Box<InstBody>),
    /// An operand moved to the scratch: canonical register 1's components
    /// (the key's one load, from any place) copied, every lane, to
    /// register 0 (its one store, a staging register in the scratch), its
    /// source modifiers applied, so that the instruction piece after it
    /// reads only the scratch and one stencil serves an operation whatever
    /// files its operands come from and whatever their modifiers.
    Stage {
        /// `neg` applied.
        neg: bool,
        /// `abs` applied.
        abs: bool,
        /// The modifiers are an integer operation's (two's complement).
        int: bool,
    },
    /// A control-flow piece.
    Flow {
        /// The piece.
        op: FlowOp,
        /// Its test's or selector's source, canonical register 0 read with
        /// the original operand's modifiers.
        src: Option<crate::ir::Src>,
    },
}

/// The canonical registers a stencil loads or stores, kept inline.
pub type Accesses = smallvec::SmallVec<[Access; 4]>;

/// The values of a piece's holes, kept inline for most pieces.
pub type Holes = smallvec::SmallVec<[HoleValue; 8]>;

/// Everything a stencil's code depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// Vectors per register component.
    pub k: u8,
    /// The code.
    pub body: Body,
    /// Canonical registers loaded before the body, in order from register 0.
    pub loads: Accesses,
    /// Canonical registers stored after it (the destinations, registers
    /// `0..`).
    pub stores: Accesses,
    /// Whether writes blend with the execution mask (the destination's old
    /// value is loaded first).
    pub divergent: bool,
    /// Whether the execution masks are loaded for the body.
    pub masks: bool,
}

/// The values of one place's holes (at most three), kept inline: the
/// stitcher makes one for every operand component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlaceHoles {
    values: [HoleValue; 3],
    len: u8,
}

impl PlaceHoles {
    /// The holes `values` (at most three).
    pub fn new(values: &[HoleValue]) -> PlaceHoles {
        let mut held = [HoleValue::Const(0); 3];
        held[..values.len()].copy_from_slice(values);
        PlaceHoles {
            values: held,
            len: values.len() as u8,
        }
    }
}

impl std::ops::Deref for PlaceHoles {
    type Target = [HoleValue];

    fn deref(&self) -> &[HoleValue] {
        &self.values[..usize::from(self.len)]
    }
}

/// The value a hole takes in one piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HoleValue {
    /// A number.
    Const(u64),
    /// The address of a byte offset into the shader's data (placed after
    /// its code, so relocated when the code is placed).
    Data(u32),
}

impl Key {
    /// The key's 128-bit digest: its `Hash` fed through XXH3-128. `Hash`
    /// output is the same for equal keys within one build of dxjit, which
    /// is all a stored stencil needs (records are tied to the build).
    pub fn digest(&self) -> [u8; 16] {
        let mut h = Xxh3::new();
        self.hash(&mut h);
        h.digest128().to_le_bytes()
    }
}
