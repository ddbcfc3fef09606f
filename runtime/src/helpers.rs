//! Functions compiled shaders call: math the vector ISA lacks, half-float
//! conversion, typed buffer and texture access, and `resinfo`.
//!
//! Each is `extern "C"` and registered with the JIT by name. Vector helpers
//! take and return one `__m128`/`__m128i` (four lanes) in an xmm register:
//! the System V ABI passes them in xmm0, which compiled code relies on
//! (hence `improper_ctypes_definitions` is allowed for them).

use crate::abi::{AtomicOp, TextureKind, View};
use crate::format::Format;
use crate::texture::Texture;
use std::arch::x86_64::{__m128, __m128i};
use std::sync::atomic::{AtomicU32, Ordering};

fn lanes_f(x: __m128) -> [f32; 4] {
    // SAFETY: __m128 and [f32; 4] have the same size and any bits are valid.
    unsafe { std::mem::transmute::<__m128, [f32; 4]>(x) }
}

fn from_f(x: [f32; 4]) -> __m128 {
    // SAFETY: as above.
    unsafe { std::mem::transmute::<[f32; 4], __m128>(x) }
}

fn lanes_u(x: __m128i) -> [u32; 4] {
    // SAFETY: __m128i and [u32; 4] have the same size and any bits are valid.
    unsafe { std::mem::transmute::<__m128i, [u32; 4]>(x) }
}

fn from_u(x: [u32; 4]) -> __m128i {
    // SAFETY: as above.
    unsafe { std::mem::transmute::<[u32; 4], __m128i>(x) }
}

/// `2^x` per lane.
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_exp2(x: __m128) -> __m128 {
    from_f(lanes_f(x).map(f32::exp2))
}

/// `log2(x)` per lane (`log2(0) = -inf`, negative gives NaN).
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_log2(x: __m128) -> __m128 {
    from_f(lanes_f(x).map(f32::log2))
}

/// Sine per lane.
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_sin(x: __m128) -> __m128 {
    from_f(lanes_f(x).map(f32::sin))
}

/// Cosine per lane.
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_cos(x: __m128) -> __m128 {
    from_f(lanes_f(x).map(f32::cos))
}

/// `f32tof16`: each float to a half in the low 16 bits (round to nearest even).
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_f32tof16(x: __m128i) -> __m128i {
    from_u(lanes_u(x).map(|w| u32::from(half::f16::from_f32(f32::from_bits(w)).to_bits())))
}

/// `f16tof32`: the half in each lane's low 16 bits to a float.
#[allow(improper_ctypes_definitions)]
pub extern "C" fn dxjit_f16tof32(x: __m128i) -> __m128i {
    from_u(lanes_u(x).map(|w| half::f16::from_bits(w as u16).to_f32().to_bits()))
}

/// The byte offset of texel (x, y, z) of mip 0 of a typed view, when in range.
fn texel_offset(v: &View, x: i32, y: i32, z: i32) -> Option<(usize, Format)> {
    let format = Format::from_id(v.format)?;
    if v.ptr.is_null() || x < 0 || y < 0 || z < 0 {
        return None;
    }
    let (x, y, z) = (x as u32, y as u32, z as u32);
    if x >= v.width || y >= v.height.max(1) || z >= v.depth.max(1) {
        return None;
    }
    let bpt = format.bytes_per_texel() as usize;
    let off =
        z as usize * v.slice_pitch as usize + y as usize * v.row_pitch as usize + x as usize * bpt;
    (off + bpt <= v.size as usize).then_some((off, format))
}

/// Typed load of texel (x, y, z) at `mip`: four words as the shader reads
/// them into `out`; out-of-range reads 0.
///
/// # Safety
/// `view` points to a valid view whose memory is readable, `out` to 4 words.
pub unsafe extern "C" fn dxjit_typed_load(
    view: *const View,
    x: i32,
    y: i32,
    z: i32,
    mip: i32,
    out: *mut u32,
) {
    // SAFETY: the caller passes a valid view record.
    let v = unsafe { &*view };
    let words = if !v.texture.is_null() {
        // SAFETY: a non-null `texture` is set only by `Texture::view` and the texture outlives the call.
        let t = unsafe { &*(v.texture as *const Texture) };
        t.fetch(x, y, z, mip)
    } else {
        match (mip == 0).then(|| texel_offset(v, x, y, z)).flatten() {
            Some((off, format)) => {
                let n = format.bytes_per_texel() as usize;
                // SAFETY: `texel_offset` checked `off + n <= size`.
                let bytes = unsafe { std::slice::from_raw_parts(v.ptr.add(off), n) };
                format.load(bytes)
            }
            None => [0; 4],
        }
    };
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

/// Typed store of `value` (four words) at texel (x, y, z) when `active` is
/// nonzero and the texel is in range.
///
/// # Safety
/// `view` points to a valid view whose memory is writable, `value` to 4 words.
pub unsafe extern "C" fn dxjit_typed_store(
    view: *const View,
    x: i32,
    y: i32,
    z: i32,
    value: *const u32,
    active: i32,
) {
    if active == 0 {
        return;
    }
    // SAFETY: the caller passes a valid view record.
    let v = unsafe { &*view };
    if let Some((off, format)) = texel_offset(v, x, y, z) {
        let n = format.bytes_per_texel() as usize;
        // SAFETY: `value` holds four words.
        let words = unsafe { *(value as *const [u32; 4]) };
        // SAFETY: `texel_offset` checked `off + n <= size`; the view's memory is writable.
        let bytes = unsafe { std::slice::from_raw_parts_mut(v.ptr.add(off), n) };
        format.store(words, bytes);
    }
}

/// An atomic operation on a 32-bit integer texel; returns the original
/// value (0 when inactive or out of range). `op` is an [`AtomicOp`]
/// discriminant (an unknown one acts as compare-exchange).
///
/// # Safety
/// `view` points to a valid view whose memory is writable.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn dxjit_typed_atomic(
    view: *const View,
    op: u32,
    x: i32,
    y: i32,
    z: i32,
    value: i32,
    compare: i32,
    active: i32,
) -> i32 {
    if active == 0 {
        return 0;
    }
    // SAFETY: the caller passes a valid view record.
    let v = unsafe { &*view };
    let Some((off, format)) = texel_offset(v, x, y, z) else {
        return 0;
    };
    if format.bytes_per_texel() != 4 || off % 4 != 0 {
        return 0;
    }
    // SAFETY: in range and 4-byte aligned (views start aligned); shared by invocations only through atomics.
    let cell = unsafe { &*(v.ptr.add(off) as *const AtomicU32) };
    let val = value as u32;
    let old = match AtomicOp::from_code(op) {
        Some(AtomicOp::And) => cell.fetch_and(val, Ordering::SeqCst),
        Some(AtomicOp::Or) => cell.fetch_or(val, Ordering::SeqCst),
        Some(AtomicOp::Xor) => cell.fetch_xor(val, Ordering::SeqCst),
        Some(AtomicOp::IAdd) => cell.fetch_add(val, Ordering::SeqCst),
        Some(AtomicOp::IMax) => cell
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |o| {
                Some((o as i32).max(value) as u32)
            })
            .unwrap_or(0),
        Some(AtomicOp::IMin) => cell
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |o| {
                Some((o as i32).min(value) as u32)
            })
            .unwrap_or(0),
        Some(AtomicOp::UMax) => cell.fetch_max(val, Ordering::SeqCst),
        Some(AtomicOp::UMin) => cell.fetch_min(val, Ordering::SeqCst),
        Some(AtomicOp::Exchange) => cell.swap(val, Ordering::SeqCst),
        Some(AtomicOp::CompareExchange) | None => {
            match cell.compare_exchange(compare as u32, val, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(o) | Err(o) => o,
            }
        }
    };
    old as i32
}

/// `resinfo` at `mip`: width, height, depth or layers, mip count, by the
/// [`TextureKind`] discriminant `dim` (an unknown one acts as a buffer).
/// A level past the last gives zero sizes.
///
/// # Safety
/// `view` points to a valid view, `out` to 4 words.
pub unsafe extern "C" fn dxjit_resinfo(view: *const View, dim: u32, mip: i32, out: *mut u32) {
    // SAFETY: the caller passes a valid view record.
    let v = unsafe { &*view };
    let (size, layers, mips) = if !v.texture.is_null() {
        // SAFETY: a non-null `texture` is set only by `Texture::view`.
        let t = unsafe { &*(v.texture as *const Texture) };
        let size = if mip >= 0 && (mip as u32) < t.mips() {
            t.level_size(mip as u32)
        } else {
            [0; 3]
        };
        (size, t.layers(), t.mips())
    } else if v.ptr.is_null() {
        ([0; 3], 0, 0)
    } else {
        let size = if mip == 0 {
            [v.width, v.height, v.depth]
        } else {
            [0; 3]
        };
        (size, v.depth, v.mips.max(1))
    };
    let in_range = size[0] != 0;
    let layers = if in_range { layers } else { 0 };
    let words = match TextureKind::from_code(dim) {
        Some(TextureKind::Texture1D) => [size[0], 0, 0, mips],
        Some(TextureKind::Texture1DArray) => [size[0], layers, 0, mips],
        Some(TextureKind::Texture2D | TextureKind::TextureCube | TextureKind::Texture2DMS) => {
            [size[0], size[1], 0, mips]
        }
        Some(TextureKind::Texture2DArray | TextureKind::Texture2DMSArray) => {
            [size[0], size[1], layers, mips]
        }
        Some(TextureKind::Texture3D) => [size[0], size[1], size[2], mips],
        Some(TextureKind::TextureCubeArray) => [size[0], size[1], layers / 6, mips],
        Some(TextureKind::Buffer) | None => [v.width, 0, 0, 0],
    };
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

/// `fmaf` for Cranelift's libcalls.
pub extern "C" fn fmaf(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// `fma` for Cranelift's libcalls.
pub extern "C" fn fma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// `floorf` for Cranelift's libcalls.
pub extern "C" fn floorf(a: f32) -> f32 {
    a.floor()
}

/// `ceilf` for Cranelift's libcalls.
pub extern "C" fn ceilf(a: f32) -> f32 {
    a.ceil()
}

/// `truncf` for Cranelift's libcalls.
pub extern "C" fn truncf(a: f32) -> f32 {
    a.trunc()
}

/// `nearbyintf` for Cranelift's libcalls (round half to even).
pub extern "C" fn nearbyintf(a: f32) -> f32 {
    a.round_ties_even()
}

/// `floor` for Cranelift's libcalls.
pub extern "C" fn floor(a: f64) -> f64 {
    a.floor()
}

/// `ceil` for Cranelift's libcalls.
pub extern "C" fn ceil(a: f64) -> f64 {
    a.ceil()
}

/// `trunc` for Cranelift's libcalls.
pub extern "C" fn trunc(a: f64) -> f64 {
    a.trunc()
}

/// `nearbyint` for Cranelift's libcalls (round half to even).
pub extern "C" fn nearbyint(a: f64) -> f64 {
    a.round_ties_even()
}
