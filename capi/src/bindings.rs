//! Resources a caller binds for a dispatch, a vertex run or a draw.

use crate::checks::Versioned;
use crate::interrupt::Interrupt;
use crate::texture::Texture;
use std::ffi::c_void;

/// A buffer in the caller's memory, bound to a constant-buffer, SRV or UAV
/// slot. The memory must stay valid, and untouched by other threads, for
/// the call; shaders only write UAVs, and only inside `data .. data + size`.
/// As in Direct3D, memory bound for reading must not also be bound as a
/// UAV: compiled code takes what it reads from a constant buffer or SRV to
/// stay the same for the whole call.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct BufferBinding {
    /// `sizeof(dxjit_buffer_binding)`.
    pub struct_size: usize,
    /// The slot (`cb#` 0..16, `t#` 0..128, `u#` 0..64).
    pub slot: u32,
    /// A `dxjit_buffer_kind`: constant buffers are raw; typed only for UAVs
    /// (bind typed SRVs as textures).
    pub kind: u32,
    /// First byte; may be null only when `size` is 0.
    pub data: *mut c_void,
    /// Bytes at `data`, at most 4 GiB - 1.
    pub size: usize,
    /// Structured: bytes per element, a non-zero multiple of 4.
    pub stride: u32,
    /// Typed: a `dxjit_format`.
    pub format: u32,
    /// Typed: elements along x.
    pub width: u32,
    /// Typed: rows (1 for buffers).
    pub height: u32,
    /// Typed: slices (1 unless 3D).
    pub depth: u32,
    /// Typed: bytes between rows; 0 for tightly packed.
    pub row_pitch: u32,
    /// Typed: bytes between slices; 0 for tightly packed.
    pub slice_pitch: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and a raw pointer.
unsafe impl Versioned for BufferBinding {
    const NAME: &'static str = "dxjit_buffer_binding";
}

/// A texture (or typed buffer) bound to an SRV slot.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct TextureBinding {
    /// `sizeof(dxjit_texture_binding)`.
    pub struct_size: usize,
    /// The slot (`t#`, 0..128).
    pub slot: u32,
    /// A live texture from `dxjit_texture_create`.
    pub texture: *const Texture,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; an integer and a raw pointer.
unsafe impl Versioned for TextureBinding {
    const NAME: &'static str = "dxjit_texture_binding";
}

/// A sampler bound to a sampler slot. Unbound slots use D3D's default
/// sampler (point, wrap, levels of detail 0..FLT_MAX).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SamplerBinding {
    /// `sizeof(dxjit_sampler_binding)`.
    pub struct_size: usize,
    /// The slot (`s#`, 0..16).
    pub slot: u32,
    /// Minification filter, and magnification filter unless `mag_filter`
    /// says otherwise: 0 point, 1 linear, 2 anisotropic.
    pub filter: u32,
    /// 0 none (mip 0), 1 point, 2 linear.
    pub mip_filter: u32,
    /// Addressing along u, v, w: 0 wrap, 1 mirror, 2 clamp, 3 border, 4 mirror once.
    pub address: [u32; 3],
    /// 0 none; 1 never, 2 less, 3 equal, 4 less-equal, 5 greater,
    /// 6 not-equal, 7 greater-equal, 8 always.
    pub compare: u32,
    /// Border colour (r, g, b, a).
    pub border: [f32; 4],
    /// Added to every computed level of detail.
    pub lod_bias: f32,
    /// Lowest mip level used.
    pub min_lod: f32,
    /// Highest mip level used (`FLT_MAX` for all).
    pub max_lod: f32,
    /// Magnification filter: 0 as `filter`, 1 point, 2 linear, 3
    /// anisotropic. Callers built against the first version of this struct
    /// (its `struct_size` ending at `max_lod`) get 0.
    pub mag_filter: u32,
    /// Most probes of the anisotropic filter, 1 to 16 (0 counts as 1).
    pub max_anisotropy: u32,
    /// How taps combine: 0 weighted (standard), 1 minimum, 2 maximum.
    pub reduction: u32,
    /// D3D9 `SRGBTEXTURE`: nonzero decodes texels' r, g, b from sRGB.
    pub srgb: u32,
    /// D3D9 hardware shadow maps: nonzero makes lookups without a
    /// comparison from `d16`/`d24s8`/`r24x8` textures compare the
    /// coordinate's z (`z <= depth`) and filter the results.
    pub shadow_map: u32,
}

/// `struct_size` of the first version of `dxjit_sampler_binding`, which
/// ended at `max_lod`; arrays of it are still accepted.
pub const SAMPLER_BINDING_V1_SIZE: usize = std::mem::offset_of!(SamplerBinding, mag_filter);

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and floats.
unsafe impl Versioned for SamplerBinding {
    const NAME: &'static str = "dxjit_sampler_binding";
}

/// The hidden counter of a UAV (append and consume buffers,
/// `IncrementCounter` / `DecrementCounter`), bound to a UAV slot.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct UavCounterBinding {
    /// `sizeof(dxjit_uav_counter_binding)`.
    pub struct_size: usize,
    /// The UAV slot (`u#`, 0..64) whose counter this is.
    pub slot: u32,
    /// The counter, 4-byte aligned: set it before the call, read it after.
    /// `imm_atomic_alloc` adds 1 and returns the value before;
    /// `imm_atomic_consume` subtracts 1 (wrapping below 0) and returns the
    /// value after. The call updates it atomically from every core; nothing
    /// else may touch it during the call. A UAV without a counter gives 0
    /// and counts nothing.
    pub counter: *mut u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and a raw pointer.
unsafe impl Versioned for UavCounterBinding {
    const NAME: &'static str = "dxjit_uav_counter_binding";
}

/// A class instance bound to an interface slot (SM5 class linkage), as
/// `ID3D11ClassLinkage::CreateClassInstance` describes one, its class given
/// by function table. A shader that declares interfaces runs only when
/// every slot it declares holds an instance of a table the interface lists
/// ([`crate::Status::Unlinked`] otherwise).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ClassInstanceBinding {
    /// `sizeof(dxjit_class_instance_binding)`.
    pub struct_size: usize,
    /// The interface slot, in `fp#` numbering (`fp2[1]` is slot 3), 0..253.
    pub slot: u32,
    /// The function table (`ft#`) of the instance's class.
    pub table: u32,
    /// The constant buffer holding the instance's data (`this[].x`).
    pub cb: u32,
    /// Where that data starts in it, in 16-byte rows (`this[].y`).
    pub cb_offset: u32,
    /// The instance's first texture slot (`this[].z`).
    pub texture: u32,
    /// The instance's first sampler slot (`this[].w`).
    pub sampler: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers only.
unsafe impl Versioned for ClassInstanceBinding {
    const NAME: &'static str = "dxjit_class_instance_binding";
}

/// Everything bound for one call. Each array may be null when its count is 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Bindings {
    /// `sizeof(dxjit_bindings)`.
    pub struct_size: usize,
    /// Constant buffers (raw; copied before the call, so D3D9 `def`
    /// constants can be applied).
    pub constant_buffers: *const BufferBinding,
    /// Entries in `constant_buffers`.
    pub constant_buffer_count: usize,
    /// Raw and structured buffers bound to SRV slots.
    pub buffers: *const BufferBinding,
    /// Entries in `buffers`.
    pub buffer_count: usize,
    /// Textures and typed buffers bound to SRV slots.
    pub textures: *const TextureBinding,
    /// Entries in `textures`.
    pub texture_count: usize,
    /// Buffers bound to UAV slots (written by the shader).
    pub uavs: *const BufferBinding,
    /// Entries in `uavs`.
    pub uav_count: usize,
    /// Samplers.
    pub samplers: *const SamplerBinding,
    /// Entries in `samplers`.
    pub sampler_count: usize,
    /// Null, or a flag from `dxjit_interrupt_create` that stops the call
    /// when set.
    pub interrupt: *const Interrupt,
    /// Stop the call once it has run this many milliseconds; 0 for no limit.
    pub timeout_ms: u32,
    /// Nonzero: before the call, compare what the shader declares with what
    /// is bound (unbound slots it reads, constant buffers smaller than
    /// declared, kind and dimension mismatches) and log each mismatch as a
    /// warning through `dxjit_set_log_callback`, like the D3D debug layer.
    /// Nothing is refused: D3D's rules for unbound resources still hold.
    pub validate: u32,
    /// Hidden counters of UAVs (append and consume buffers). Callers built
    /// against the first version of this struct (its `struct_size` ending
    /// at `validate`) bind none.
    pub uav_counters: *const UavCounterBinding,
    /// Entries in `uav_counters`.
    pub uav_counter_count: usize,
    /// Class instances by interface slot (SM5 class linkage).
    pub class_instances: *const ClassInstanceBinding,
    /// Entries in `class_instances`.
    pub class_instance_count: usize,
}

/// `struct_size` of the first version of `dxjit_bindings`, which ended at
/// `validate`; it is still accepted.
pub const BINDINGS_V1_SIZE: usize = std::mem::offset_of!(Bindings, uav_counters);

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and raw pointers.
unsafe impl Versioned for Bindings {
    const NAME: &'static str = "dxjit_bindings";
}
