//! The ABI compiled shaders are called with.
//!
//! A compiled shader is `extern "C" fn(*mut Frame) -> u32`. It runs
//! several invocations at once (lane `l` of every SoA array), and
//! returns [`STATUS_DONE`] when they have finished, or [`STATUS_BARRIER`]
//! when they reached a group barrier (call again with the same frame to
//! resume). The backend reads every field through `std::mem::offset_of!`
//! on these types, so this file is the one source of truth for the layout.

/// The lanes have finished.
pub const STATUS_DONE: u32 = 0;
/// The lanes stopped at a group barrier; call again to resume.
pub const STATUS_BARRIER: u32 = 1;
/// The call stopped at a loop's back edge because `Frame::interrupt` was
/// set: its invocations are abandoned (memory they wrote keeps what they
/// wrote; nothing outside the bindings was touched). Do not call again.
pub const STATUS_INTERRUPTED: u32 = 2;

/// A view of a buffer or texture as compiled code sees it.
///
/// Raw and structured buffers use `ptr` and `size`; typed views also use
/// `width`/`height`/`depth`, `format` (a [`crate::format::Format`] id) and
/// the pitches. Compiled code bounds-checks every access against these
/// fields and never touches memory outside `ptr .. ptr + size`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// First byte of the view; null when nothing is bound.
    pub ptr: *mut u8,
    /// Bytes in the view.
    pub size: u32,
    /// Structure stride (structured), element size (typed), 0 (raw).
    pub stride: u32,
    /// Elements (typed buffers) or texels along x.
    pub width: u32,
    /// Texels along y (1 when absent).
    pub height: u32,
    /// Texels along z, or array slices (1 when absent).
    pub depth: u32,
    /// Mip levels (1 for buffers).
    pub mips: u32,
    /// The format id (`Format as u32`), 0 when untyped.
    pub format: u32,
    /// Bytes between rows of mip 0.
    pub row_pitch: u32,
    /// Bytes between slices of mip 0.
    pub slice_pitch: u32,
    /// Opaque pointer to the full texture for the sampler (null for buffers).
    pub texture: *const u8,
}

impl View {
    /// A view with nothing bound: every load returns 0, every store is dropped.
    pub const EMPTY: View = View {
        ptr: std::ptr::null_mut(),
        size: 0,
        stride: 0,
        width: 0,
        height: 0,
        depth: 0,
        mips: 0,
        format: 0,
        row_pitch: 0,
        slice_pitch: 0,
        texture: std::ptr::null(),
    };
}

impl Default for View {
    fn default() -> Self {
        View::EMPTY
    }
}

/// Constant-buffer slots a frame carries (D3D11's 14, plus D3D9's c#, i#, b#
/// files, which front ends place in slots 0, 1 and 2 of their own programs).
pub const CB_SLOTS: usize = 16;
/// SRV slots a frame carries.
pub const SRV_SLOTS: usize = 128;
/// UAV slots a frame carries.
pub const UAV_SLOTS: usize = 64;
/// Sampler slots a frame carries.
pub const SAMPLER_SLOTS: usize = 16;

/// Everything one call of a compiled shader reads and writes.
///
/// SoA blocks hold `lanes` words per component: component `c` of register
/// `r` of lane `l` is at word `(r * 4 + c) * lanes + l`.
#[repr(C)]
pub struct Frame {
    /// Inputs `v#`, SoA.
    pub inputs: *const u32,
    /// Outputs `o#`, SoA.
    pub outputs: *mut u32,
    /// System values, SoA, one register per [`SysValSlot`].
    pub sysvals: *const u32,
    /// One word per lane: all ones where the lane runs a real invocation, 0
    /// for padding and helper lanes (they compute, but write nothing). On
    /// return the shader clears the lanes it discarded.
    pub lane_mask: *mut u32,
    /// Constant buffers: `CB_SLOTS` views.
    pub cbs: *const View,
    /// Shader resource views: `SRV_SLOTS` views.
    pub srvs: *const View,
    /// Unordered access views: `UAV_SLOTS` views.
    pub uavs: *const View,
    /// Samplers: `SAMPLER_SLOTS` states.
    pub samplers: *const crate::sampler::SamplerState,
    /// One entry per (texture, sampler) pair the kernel filters itself
    /// (`Kernel::inline_pairs`), in that order.
    pub inline_samplers: *const crate::sampler::InlineSampler,
    /// Pixel shaders: [`DIRECT_TARGETS`] entries, one per output register,
    /// for the render targets compiled code writes itself; null outside
    /// draws (compiled code then only fills `outputs`).
    pub direct_targets: *const DirectTarget,
    /// A word another thread sets nonzero to stop the call: compiled code
    /// reads it at every loop back edge and returns [`STATUS_INTERRUPTED`].
    /// Never null.
    pub interrupt: *const std::sync::atomic::AtomicU32,
    /// Pixel shaders: the pixel of lane 0 (the top-left pixel of the first
    /// quad); lane `4q + l` shades pixel (x + 2q + l % 2, y + l / 2).
    pub pixel_origin: [u32; 2],
    /// This group's shared memory (sized as the program declares).
    pub tgsm: *mut u8,
    /// Per-call scratch: indexable temporaries and the barrier spill area.
    pub scratch: *mut u8,
    /// Where to resume after a barrier: 0 at the start; otherwise each
    /// lane batch of a compute group resumes where its scratch says.
    pub resume: u32,
    /// The thread group this call runs (compute): SV_GroupID, from which
    /// compiled code derives SV_DispatchThreadID.
    pub group_id: [u32; 3],
    /// Out-of-bounds and masked-off stores are redirected here.
    pub sink: [u32; 8],
    /// Out-of-bounds loads read here: always zero.
    pub zero: [u32; 8],
    /// Geometry shaders: where `emit` and `cut` record each lane's vertices
    /// (the runtime's [`crate::pipeline::GsArea`]); null for other stages,
    /// whose emits do nothing.
    pub gs: *mut crate::pipeline::GsArea,
    /// UAV counters (`imm_atomic_alloc` / `imm_atomic_consume`):
    /// `UAV_SLOTS` pointers, null where the slot has no counter.
    pub uav_counters: *const *const std::sync::atomic::AtomicU32,
    /// Pixel shaders in a draw: the row of quads this call runs, or null
    /// (one call runs the lanes its blocks describe, as for every stage).
    pub draw_row: *const DrawRow,
    /// Pixel shaders: how the call's inputs were interpolated, which
    /// `eval_*` repeat elsewhere in the pixel (`dxjit_eval`); null outside
    /// the draw paths. Compiled code only passes the frame on.
    pub eval: *const crate::eval::Evaluation<'static>,
    /// Vertex shaders whose kernel `runs_vertices`: the vertices this call
    /// runs, batch after batch, or null (one call runs the lanes its
    /// blocks describe).
    pub vertex_run: *const VertexRun,
}

/// Vertices one call of a vertex shader runs itself, a call's lanes at a
/// time: entries `first` until `end`. Entry `i` is vertex `i` (instance 0)
/// or, when `ids` is not null, the vertex and instance `ids[i]` names.
/// Before each batch the compiled code writes the input block
/// (transposing each lane's vertex's registers from `inputs`), the lane
/// mask (lanes below `end`), `SV_VertexID` and `SV_InstanceID`, and zeros
/// the output block; after it, it writes each lane's output registers to
/// `outputs`. Lanes past `end` run entry `end - 1` and write nothing that
/// stays: their rows go to that entry's place before its own.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VertexRun {
    /// Every vertex's inputs, `Kernel::input_regs` registers each, from
    /// vertex 0; readable for every vertex an entry names.
    pub inputs: *const [u32; 4],
    /// Each entry's `[vertex, instance]`, readable up to entry `end`; or
    /// null: entry `i` is vertex `i` of instance 0.
    pub ids: *const [u32; 2],
    /// Where entry `first`'s outputs go, `Kernel::output_regs` registers
    /// each; writable for `end - first` entries.
    pub outputs: *mut [u32; 4],
    /// The first entry to run.
    pub first: u32,
    /// One past the last entry to run (more than `first`).
    pub end: u32,
}

/// A row of a draw's quads that one call of a pixel shader runs, call-sized
/// step after step, from the frame's `pixel_origin` (the row's first
/// quad) until `pixel_origin[0]` reaches `end_x`. Before each step the
/// compiled code writes, itself:
/// - the lane mask (`Frame::lane_mask`): lanes inside `columns` and
///   `row_mask`;
/// - the x of the position system value (the pixel's column as f32 plus
///   `center`, exact for columns below 2^24, beyond any render target),
///   when the shader reads it;
/// - the varying inputs: component `varying[i]` of each lane from entry
///   `table[(quad column × varying_count + i) × 8 ..][..8]`, the quad's
///   left and right columns' tops twice, `[left, right, left, right]`,
///   then their rises the same way, as `top + rise × places[row]` in one
///   f32 fused multiply-add (a 128-bit vector of tops and one of rises
///   give the quad's four values at once);
/// - zeros over the step's output block.
///
/// After each step (and its direct-target stores) it moves
/// `pixel_origin[0]` one call's width right and the output block and lane
/// mask pointers on by `output_stride` and `mask_stride` bytes. The input
/// and system-value blocks are written in place, so the caller fills only
/// what does not vary along the row: flat inputs, and the position's y, z
/// and w and the front-face flag.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DrawRow {
    /// The column at which the row ends (one call's width past its last call).
    pub end_x: u32,
    /// The column of the row's first quad: quad column 0 of `table`.
    pub first_x: u32,
    /// Columns covered: `columns[0] .. columns[1]`.
    pub columns: [u32; 2],
    /// Per lane of a quad: all ones where the lane's row (`lane / 2`) is
    /// covered.
    pub row_mask: [u32; 4],
    /// Where a pixel is sampled within it (0.5 for D3D10+, 0 for D3D9).
    pub center: f32,
    /// Entries of `varying`.
    pub varying_count: u32,
    /// The same components as a set: bit `s % 64` of word `s / 64` for
    /// each entry `s` of `varying` ([`varying_set`]). Code compiled for one
    /// set of varying components tests it to write them without reading
    /// `varying`.
    pub varying_set: [u64; 2],
    /// The places of the quad's two rows across the rectangle (0 at its
    /// top edge, 1 at its bottom edge), rounded to f32.
    pub places: [f32; 2],
    /// The input-block components that vary (register × 4 + component).
    pub varying: *const u32,
    /// Per quad column and varying component, eight f32s as above.
    pub table: *const f32,
    /// Bytes from one step's output block to the next (0 reuses one block).
    pub output_stride: u32,
    /// Bytes from one step's lane mask to the next.
    pub mask_stride: u32,
}

/// The [`DrawRow::varying_set`] of the input-block components `varying`
/// (register × 4 + component, ascending): all ones when one of them is
/// 128 or more, which no compiled set equals.
pub fn varying_set(varying: &[u32]) -> [u64; 2] {
    let mut set = [0u64; 2];
    for &slot in varying {
        match set.get_mut(slot as usize / 64) {
            Some(word) => *word |= 1 << (slot % 64),
            None => return [u64::MAX; 2],
        }
    }
    set
}

/// Output registers [`Frame::direct_targets`] describes.
pub const DIRECT_TARGETS: usize = 8;

/// A render target a pixel shader writes itself at its end, converting
/// output register `r` (entry `r` of [`Frame::direct_targets`]) to
/// 8-bit unorm as D3D does: NaN to 0, clamped to [0, 1], scaled by 255 and
/// rounded to nearest with halves up. Only covered pixels inside `width` ×
/// `height` are written.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectTarget {
    /// First byte of row 0, or null: the runtime stores this register.
    pub ptr: *mut u8,
    /// Bytes between rows.
    pub row_pitch: u32,
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Where each byte of a quad's four texels comes from, as a byte
    /// shuffle (`pshufb`) of its components packed channel by channel
    /// (the four lanes' red, then green, blue and alpha):
    /// [`DirectTarget::RGBA8`] or [`DirectTarget::BGRA8`].
    pub texel_order: [u8; 16],
}

// SAFETY: a direct target describes memory the caller of `draw` owns for
// the draw; threads write disjoint pixels of it.
unsafe impl Send for DirectTarget {}
// SAFETY: as above.
unsafe impl Sync for DirectTarget {}

impl DirectTarget {
    /// No target: the runtime stores the register.
    pub const NONE: DirectTarget = DirectTarget {
        ptr: std::ptr::null_mut(),
        row_pitch: 0,
        width: 0,
        height: 0,
        texel_order: Self::RGBA8,
    };

    /// Byte `4p + c` of the quad's texels is channel `c` of lane `p`.
    pub const RGBA8: [u8; 16] = Self::order([0, 1, 2, 3]);

    /// Byte `4p` is lane `p`'s blue, `4p + 2` its red.
    pub const BGRA8: [u8; 16] = Self::order([2, 1, 0, 3]);

    /// The shuffle that puts channel `channels[i]` of lane `p` at byte
    /// `4p + i`, from bytes packed channel by channel.
    const fn order(channels: [u8; 4]) -> [u8; 16] {
        let mut order = [0; 16];
        let mut byte = 0;
        while byte < 16 {
            order[byte] = 4 * channels[byte % 4] + (byte / 4) as u8;
            byte += 1;
        }
        order
    }
}

/// The order of system-value registers in [`Frame::sysvals`].
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SysValSlot {
    /// SV_DispatchThreadID.
    DispatchThreadId = 0,
    /// SV_GroupID.
    GroupId = 1,
    /// SV_GroupThreadID.
    GroupThreadId = 2,
    /// SV_GroupIndex (x).
    GroupIndex = 3,
    /// Pixel position (x, y, z, w).
    Position = 4,
    /// Front-face flag (x): all ones.
    FrontFace = 5,
    /// SV_VertexID (x).
    VertexId = 6,
    /// SV_PrimitiveID (x).
    PrimitiveId = 7,
    /// SV_InstanceID (x).
    InstanceId = 8,
    /// SV_GSInstanceID (x).
    GsInstanceId = 9,
    /// Pixel shaders: SV_Coverage / `vCoverage` (x): the samples of the
    /// pixel the invocation covers, bit i for sample i (only the shaded
    /// sample's bit when shading per sample).
    Coverage = 10,
    /// Pixel shaders: SV_SampleIndex / `vSampleIndex` (x, the sample shaded
    /// when shading per sample, else 0) and the rasterizer's sample count
    /// (y, as `sample_info rasterizer` reports it; 0 reads as 1).
    Sample = 11,
}

/// Number of system-value registers.
pub const SYSVAL_COUNT: usize = 12;

/// The signature of a compiled shader.
pub type ShaderFn = unsafe extern "C" fn(*mut Frame) -> u32;

/// Atomic read-modify-write operations on a 32-bit word; compiled code
/// passes the discriminant to `dxjit_typed_atomic`.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Bitwise and.
    And = 0,
    /// Bitwise or.
    Or = 1,
    /// Bitwise xor.
    Xor = 2,
    /// Integer add.
    IAdd = 3,
    /// Signed maximum.
    IMax = 4,
    /// Signed minimum.
    IMin = 5,
    /// Unsigned maximum.
    UMax = 6,
    /// Unsigned minimum.
    UMin = 7,
    /// Exchange.
    Exchange = 8,
    /// Compare and exchange: stores the second value where memory equals the first.
    CompareExchange = 9,
}

impl AtomicOp {
    /// Every operation, in discriminant order.
    pub const ALL: [AtomicOp; 10] = [
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::IAdd,
        AtomicOp::IMax,
        AtomicOp::IMin,
        AtomicOp::UMax,
        AtomicOp::UMin,
        AtomicOp::Exchange,
        AtomicOp::CompareExchange,
    ];

    /// The operation with discriminant `code`.
    pub fn from_code(code: u32) -> Option<AtomicOp> {
        Self::ALL.get(code as usize).copied()
    }
}

/// Where an `eval_*` evaluates its input; compiled code passes the
/// discriminant to `dxjit_eval`, with each lane's operand words.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvalMode {
    /// `eval_centroid`: the pixel's centroid; no operand.
    Centroid = 0,
    /// `eval_sample_index`: a sample of the rasterizer's pattern; the
    /// operand's first word is the index.
    SampleIndex = 1,
    /// `eval_snapped`: the pixel centre plus an offset; the operand's two
    /// words hold x and y in sixteenths of a pixel in their low 4 bits.
    Snapped = 2,
}

impl EvalMode {
    /// Every mode, in discriminant order.
    pub const ALL: [EvalMode; 3] = [EvalMode::Centroid, EvalMode::SampleIndex, EvalMode::Snapped];

    /// The mode with discriminant `code`.
    pub fn from_code(code: u32) -> Option<EvalMode> {
        Self::ALL.get(code as usize).copied()
    }
}

/// The dimension of a texture or typed view; compiled code passes the
/// discriminant to `dxjit_resinfo`.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureKind {
    /// A typed buffer: `width` elements, one level.
    Buffer = 0,
    /// A row of texels.
    Texture1D = 1,
    /// An array of rows; `depth_or_array` is the layer count.
    Texture1DArray = 2,
    /// A 2D image.
    Texture2D = 3,
    /// An array of 2D images; `depth_or_array` is the layer count.
    Texture2DArray = 4,
    /// A volume; `depth_or_array` is the depth.
    Texture3D = 5,
    /// A cube: six square faces (`depth_or_array` is 6).
    TextureCube = 6,
    /// An array of cubes; `depth_or_array` counts faces, six per cube.
    TextureCubeArray = 7,
    /// A multisampled 2D image: one mip, 1, 2, 4, 8 or 16 samples a texel.
    Texture2DMS = 8,
    /// An array of multisampled 2D images; `depth_or_array` is the layer count.
    Texture2DMSArray = 9,
}

impl TextureKind {
    /// Every dimension, in discriminant order.
    pub const ALL: [TextureKind; 10] = [
        TextureKind::Buffer,
        TextureKind::Texture1D,
        TextureKind::Texture1DArray,
        TextureKind::Texture2D,
        TextureKind::Texture2DArray,
        TextureKind::Texture3D,
        TextureKind::TextureCube,
        TextureKind::TextureCubeArray,
        TextureKind::Texture2DMS,
        TextureKind::Texture2DMSArray,
    ];

    /// The dimension with discriminant `code`.
    pub fn from_code(code: u32) -> Option<TextureKind> {
        Self::ALL.get(code as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::{varying_set, AtomicOp, DirectTarget, EvalMode, TextureKind};

    /// t0.xy and t1.xy (slots 0, 1, 4, 5), a slot in the second word
    /// (v17.y: 69 = 64 + 5), and a slot past the set.
    #[test]
    fn varying_sets() {
        assert_eq!(varying_set(&[]), [0, 0]);
        assert_eq!(varying_set(&[0, 1, 4, 5]), [0b11_0011, 0]);
        assert_eq!(varying_set(&[1, 69]), [0b10, 0b10_0000]);
        assert_eq!(varying_set(&[0, 128]), [u64::MAX; 2]);
    }

    /// The packed bytes are r0 r1 r2 r3 g0 .. a3 (channel c of lane p at
    /// 4c + p); a texel's bytes follow its format's order, lane by lane.
    #[test]
    fn texel_orders() {
        assert_eq!(
            DirectTarget::RGBA8,
            [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
        );
        assert_eq!(
            DirectTarget::BGRA8,
            [8, 4, 0, 12, 9, 5, 1, 13, 10, 6, 2, 14, 11, 7, 3, 15]
        );
    }

    #[test]
    fn codes_round_trip() {
        for op in AtomicOp::ALL {
            assert_eq!(AtomicOp::from_code(op as u32), Some(op));
        }
        for kind in TextureKind::ALL {
            assert_eq!(TextureKind::from_code(kind as u32), Some(kind));
        }
        for mode in EvalMode::ALL {
            assert_eq!(EvalMode::from_code(mode as u32), Some(mode));
        }
        assert_eq!(EvalMode::from_code(EvalMode::ALL.len() as u32), None);
        assert_eq!(AtomicOp::from_code(AtomicOp::ALL.len() as u32), None);
        assert_eq!(TextureKind::from_code(TextureKind::ALL.len() as u32), None);
    }
}
