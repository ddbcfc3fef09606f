//! The stencil tier: a first tier made by copying machine code, not by
//! compiling it (copy-and-patch, as Xu and Kjolstad's baseline compilers
//! and CPython's JIT do).
//!
//! A *stencil* is the machine code of one small piece of a shader (one
//! component of an ALU instruction, a sampling instruction, an `if`'s mask
//! update) compiled once per process by Cranelift from the same translator
//! the other tiers run, with the addresses of its operands left as holes
//! and its continuations left as exits. A shader is compiled by walking
//! its IR, looking each piece's stencil up by its key (what the code
//! depends on: the operation, the register files of its operands, whether
//! writes blend with the execution mask), copying the stencils one after
//! another and patching the holes (operand offsets, literal addresses) and
//! exits (jumps to the next piece, to a loop's header, past an `if`).
//! Once the stencils a program needs exist, compiling it costs a hash
//! lookup and a copy per piece, not Cranelift's lowering and allocation.
//! With a persistent cache, stencils are kept on disk (`disk`, `record`)
//! for later processes, and stitching a few chosen programs ahead of
//! time makes most of them (`prewarm`, `cover`).
//!
//! A key is kept as general as the code allows, so that a first launch
//! compiles few stencils: an operand read from anywhere but the scratch
//! (a constant buffer, a literal, an input) or with modifiers is read from
//! a staging slot instead, which a piece of its own fills (once a call,
//! before the body, for what stays the same through a call; before each
//! use for the output block and modified registers), and a load's or
//! sample's result goes to a staging register whatever its destination's
//! mask and swizzle, then to the destination by `mov` pieces; group-shared
//! blocks and structure strides are holes. Over 269 game shaders this
//! took the stencils from 2059 to 708. The stencils a program still lacks
//! are made once its walk ends, on the calling thread and the spawner's
//! (`make`).
//!
//! Registers and masks live in the call's scratch memory between pieces
//! (`layout`); each piece loads what it reads and stores what it writes.
//! Pieces are `tail`-convention functions of the frame and scratch
//! pointers that end in a tail call to their exit, entered by a `SystemV`
//! entry stencil (the pixel row loop of `draw_row.rs` for pixel shaders,
//! the vertex-range loop of `vertex_run.rs` for vertex shaders).
//! The results are the translator's own, bit for bit: every operation's
//! code is what `Tr` emits for it, and the control-flow pieces make the
//! choices `jit/flow.rs` makes.
//!
//! Programs with what stencils do not cover (hull and geometry shaders,
//! a few rare operand forms found while stitching) are left to the
//! Cranelift first tier.

mod build;
mod cover;
mod disk;
mod emit;
mod flow_body;
mod key;
mod layout;
mod library;
mod make;
mod operands;
mod prewarm;
mod record;
#[cfg(test)]
mod sharing_tests;
mod stitch;

use super::{Compiled, JitError, JitOptions, KernelInfo, Listing, Memory};
use crate::ir::{Program, Stage};
pub use cover::{choose as choose_prewarm, PrewarmChoice};
use cranelift_codegen::binemit::Reloc;
pub use disk::keep_in;
pub use library::{made as library_made, size as library_size};
pub use prewarm::{prewarm, Prewarmed};
use std::time::Instant;

/// One compiled stencil: its code and where to patch it.
pub struct Stencil {
    /// What it was compiled from.
    pub key: key::Key,
    /// The machine code, constant pool included.
    pub code: Vec<u8>,
    /// Each hole: the code offset of its 8-byte value, and its number.
    pub holes: Vec<(u32, u32)>,
    /// Each exit: the code offset of its 4-byte distance, its number and
    /// the relocation's addend.
    pub exits: Vec<(u32, u32, i64)>,
    /// Each reference to the immediate constant buffer: code offset and
    /// addend (the buffer's rows lead the shader's data).
    pub icb: Vec<(u32, i64)>,
    /// Relocations against helpers and libcalls.
    pub symbols: Vec<SymbolReloc>,
    /// The code as text, when it was compiled with a listing.
    pub listing: Option<String>,
}

/// A relocation against a runtime helper or libcall.
pub struct SymbolReloc {
    /// Code offset.
    pub offset: u32,
    /// How the address is written.
    pub kind: Reloc,
    /// The symbol.
    pub symbol: String,
    /// Added to the address.
    pub addend: i64,
}

/// The stencil tier's lane count unless a compile asks for another: one
/// vector a component for every stage, as a tier built for compile speed
/// wants. Measured over the 269 game shaders, cold: p99 2.2-2.3 ms at
/// k = 1 against 2.65-3.0 ms at k = 2 (stencils half the code to compile,
/// copy and map), median 280 against 305 µs; the code runs K1 in 2.17 s
/// against 1.02 s, K3 in 34.6 against 31.3 ms and K4 in 113 against 107
/// ms, while large calls wait for the top tier anyway (`LARGE_CALL`).
/// Stencils of one k serve every stage.
pub const STENCIL_K: usize = 1;

/// Whether the stencil tier compiles programs like `prog`: not hull or
/// geometry shaders (a few rare operand forms are found out only while
/// stitching).
pub fn takes(prog: &Program) -> bool {
    !matches!(prog.stage, Stage::Hull | Stage::Geometry)
}

/// Compiles `prog` by stitching stencils, the ones the process lacks made
/// on `helpers`' threads too; `Ok(None)` when the program needs something
/// stencils do not do (the caller compiles it otherwise).
pub fn compile(
    prog: &Program,
    opts: &JitOptions,
    started: Instant,
    helpers: Option<&crate::compile::Spawner>,
) -> Result<Option<Compiled>, JitError> {
    if !takes(prog) {
        return Ok(None);
    }
    let k = opts.k.clamp(1, super::lanes::MAX_K);
    let mut s = stitch::Stitcher::new(prog, layout::Layout::of(prog, k));
    s.helpers = helpers.cloned();
    match s.program() {
        Ok(()) => {}
        Err(stitch::StitchError::Unsupported(why)) => {
            log::debug!("stencil tier: not for this program: {}", why.0);
            return Ok(None);
        }
        Err(stitch::StitchError::Jit(e)) => return Err(e),
    }
    // With a cache to store it in, the image is made first; otherwise the
    // code goes straight into executable memory.
    let (map, code_size, image) = if opts.keep_image {
        let image = emit::image(&s)?;
        let len = image.code.len();
        (super::loader::load(&image)?, len, Some(image))
    } else {
        let (map, len) = emit::load(&s)?;
        (map, len, None)
    };
    // SAFETY: the mapping holds the stitched code, whose first piece is the
    // entry stencil, a function with the `ShaderFn` signature.
    let func =
        unsafe { std::mem::transmute::<*const u8, dxjit_runtime::abi::ShaderFn>(map.as_ptr()) };
    let listing = opts.listing.then(|| emit::listing(&s)).transpose()?;
    let tgsm_size = prog.tgsm.iter().map(|d| d.size.next_multiple_of(16)).sum();
    let batches = s.group.as_ref().map_or(1, |g| g.batches);
    Ok(Some(Compiled {
        memory: Some(Memory::Mapped { _map: map }),
        func,
        info: KernelInfo {
            lanes: 4 * k as u32,
            scratch_size: s.layout.size * batches,
            input_regs: s.input_regs,
            output_regs: s.output_regs,
            tgsm_size,
            has_barriers: s.group.is_some(),
            runs_vertices: prog.stage == Stage::Vertex,
            inline_pairs: Vec::new(),
            direct_outputs: 0,
            stage: prog.stage,
            thread_group: prog.thread_group,
            const_overrides: prog.const_overrides.clone(),
            cb_static_bytes: s.cb_static_bytes,
        },
        code_size,
        compile_us: started.elapsed().as_secs_f64() * 1e6,
        listing: listing.map(|native| Listing {
            clif: String::new(),
            native,
        }),
        image,
        loaded: false,
    }))
}
