//! The `dxjit_texture` handle: textures and typed buffers made from the
//! caller's bytes, which are copied in.

use crate::checks::{slice, versioned, write_out, Versioned};
use crate::enums::{format, texture_kind};
use crate::guard::{call, call_quietly, Message};
use crate::status::{Failure, Status};
use std::ffi::{c_char, c_void};

/// A texture or typed buffer (`dxjit_texture` in C). Immutable once made:
/// it may be bound by several calls and threads at once.
pub struct Texture(pub(crate) dxjit_runtime::texture::Texture);

/// What texture to make.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct TextureDesc {
    /// `sizeof(dxjit_texture_desc)`.
    pub struct_size: usize,
    /// A `dxjit_texture_kind`.
    pub kind: u32,
    /// A `dxjit_format`.
    pub format: u32,
    /// Texels along x (elements of a typed buffer).
    pub width: u32,
    /// Texels along y; 1 for buffers and 1D kinds.
    pub height: u32,
    /// Depth (3D), layers (arrays) or faces (cubes: 6 per cube); else 1.
    pub depth_or_array: u32,
    /// Mip levels, at least 1 (1 for buffers).
    pub mips: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`, integers only.
unsafe impl Versioned for TextureDesc {
    const NAME: &'static str = "dxjit_texture_desc";
}

/// Makes a texture from `size` bytes at `data`, copied in. The layout is
/// mip 0 of slice 0 first, rows tightly packed, then the next mips of that
/// slice, then the next slice (a 3D texture's mips are whole volumes; cube
/// faces are slices in the order +X, -X, +Y, -Y, +Z, -Z). Data shorter than
/// the layout is refused; bytes past it are ignored. On success `*out` is a
/// new texture to free with `dxjit_texture_free`. A multisampled kind made
/// here has one sample a texel.
///
/// # Safety
/// `desc` is null or a readable `dxjit_texture_desc`; `data` is null or
/// `size` readable bytes; `out` is null or a writable `dxjit_texture*`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_texture_create(
    desc: *const TextureDesc,
    data: *const c_void,
    size: usize,
    out: *mut *mut Texture,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { create(desc, None, data, size, out, message) }
}

/// Makes a multisampled texture (`desc.kind` `DXJIT_TEXTURE_KIND_TEXTURE2D_MS`
/// or `..._MS_ARRAY`, one mip) with `samples` samples a texel (1, 2, 4, 8 or
/// 16, as D3D11 allows), from `size` bytes at `data`: each texel's samples
/// one after another (sample 0 first), rows tightly packed, then the next
/// layer. Otherwise as `dxjit_texture_create`.
///
/// # Safety
/// As `dxjit_texture_create`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_texture_create_multisampled(
    desc: *const TextureDesc,
    samples: u32,
    data: *const c_void,
    size: usize,
    out: *mut *mut Texture,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: forwarded contract.
    unsafe { create(desc, Some(samples), data, size, out, message) }
}

/// Both texture constructors: `samples` is `Some` for a multisampled one.
///
/// # Safety
/// As `dxjit_texture_create`.
unsafe fn create(
    desc: *const TextureDesc,
    samples: Option<u32>,
    data: *const c_void,
    size: usize,
    out: *mut *mut Texture,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let d = unsafe { versioned(desc, "desc") }?;
        // SAFETY: the caller passes `size` readable bytes at `data`.
        let bytes = unsafe { slice(data.cast::<u8>(), size, "data") }?;
        let kind = texture_kind(d.kind)?;
        let fmt = format(d.format, "desc.format")?;
        let texture = match samples {
            None => dxjit_runtime::texture::Texture::new(
                kind,
                fmt,
                d.width,
                d.height,
                d.depth_or_array,
                d.mips,
                bytes.to_vec(),
            ),
            Some(samples) => dxjit_runtime::texture::Texture::new_multisampled(
                kind,
                fmt,
                d.width,
                d.height,
                d.depth_or_array,
                samples,
                bytes.to_vec(),
            ),
        }
        .map_err(|e| Failure::new(Status::Texture, e.to_string()))?;
        let handle = Box::into_raw(Box::new(Texture(texture)));
        // SAFETY: `out` is documented as a writable `dxjit_texture*`.
        unsafe { write_out(out, handle, "out") }.inspect_err(|_| {
            // SAFETY: `handle` came from `Box::into_raw` just above and was not handed out.
            drop(unsafe { Box::from_raw(handle) });
        })
    })
}

/// Frees a texture. Null is ignored.
///
/// # Safety
/// `texture` is null or a texture from this library, not yet freed, that no
/// call is using.
#[no_mangle]
pub unsafe extern "C" fn dxjit_texture_free(texture: *mut Texture) {
    call_quietly(|| {
        if !texture.is_null() {
            // SAFETY: the caller passes a handle made by `Box::into_raw`, freed once.
            drop(unsafe { Box::from_raw(texture) });
        }
    });
}
