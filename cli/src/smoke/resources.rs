//! Resources made from a shader's declarations: constant buffers at their
//! declared sizes, 64 KiB buffers, 16×16 textures with full mip chains and
//! default samplers, all filled with patterned values.

use std::collections::BTreeMap;

use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{Address, Compare, Filter, MipFilter};

use super::pattern;
use super::reflect::ElementType;
use crate::case::{CbDesc, SamplerDesc, SrvDesc, SrvKind, UavDesc, UavDimension, UavKind};
use dxjit::ir::{CbDecl, Dim, ResourceDecl, ResourceKind};

/// Bytes of every raw, structured or typed buffer.
pub const BUFFER_BYTES: u32 = 64 * 1024;
/// Width and height of every texture's top mip.
pub const TEXTURE_SIZE: u32 = 16;
/// Depth of 3D textures and slices of texture arrays.
pub const TEXTURE_LAYERS: u32 = 4;
/// Mips of a full chain from [`TEXTURE_SIZE`] down to 1×1.
pub const TEXTURE_MIPS: u32 = TEXTURE_SIZE.ilog2() + 1;
/// Samples a texel of a declared multisampled texture.
pub const MS_SAMPLES: u32 = 4;

/// Words of a typed resource of `format`, patterned as its type allows.
fn texel_words(format: Format, n: usize, seed: usize) -> Vec<u32> {
    match format {
        Format::Rgba32Float => pattern::float_words(n, seed),
        Format::Rgba32Uint | Format::Rgba32Sint => pattern::int_words(n, seed),
        _ => pattern::byte_words(n, seed),
    }
}

/// An SM4/5 constant buffer at its declared size, of patterned floats.
pub fn constant_buffer(decl: &CbDecl) -> CbDesc {
    CbDesc {
        slot: decl.slot,
        data: pattern::float_words(decl.rows as usize * 4, decl.slot as usize),
    }
}

/// D3D9 float constants `c0..c<rows>`, patterned.
pub fn float_constants(rows: u32) -> BTreeMap<u32, [u32; 4]> {
    (0..rows)
        .map(|r| {
            let w = pattern::float_words(4, r as usize * 4);
            (r, [w[0], w[1], w[2], w[3]])
        })
        .collect()
}

/// D3D9 integer constants `i0..i<rows>`: loop counts 1..4 from 0 by 1.
pub fn int_constants(rows: u32) -> BTreeMap<u32, [i32; 4]> {
    (0..rows)
        .map(|r| (r, [1 + (r % 4) as i32, 0, 1, 0]))
        .collect()
}

/// D3D9 boolean constants `b0..b<rows>`, alternating true and false.
pub fn bool_constants(rows: u32) -> BTreeMap<u32, bool> {
    (0..rows).map(|r| (r, r % 2 == 0)).collect()
}

/// The format of a typed texture view with elements of type `ty`.
fn texture_format(ty: ElementType, d3d9: bool) -> Format {
    match ty {
        ElementType::Uint => Format::Rgba32Uint,
        ElementType::Sint => Format::Rgba32Sint,
        ElementType::Float if d3d9 => Format::Bgra8Unorm,
        ElementType::Float => Format::Rgba8Unorm,
    }
}

/// The format of a typed buffer or UAV with elements of type `ty`.
fn buffer_format(ty: ElementType) -> Format {
    match ty {
        ElementType::Uint => Format::Rgba32Uint,
        ElementType::Sint => Format::Rgba32Sint,
        ElementType::Float => Format::Rgba32Float,
    }
}

/// A view of a declared SRV: a 64 KiB buffer, or a 16×16 texture with a full
/// mip chain (3D: 4 deep; arrays: 4 slices) in a format of type `ty`.
/// `d3d9` textures are B8G8R8A8 like D3DFMT_A8R8G8B8.
pub fn srv(decl: &ResourceDecl, ty: ElementType, d3d9: bool) -> Result<SrvDesc, String> {
    let mut desc = SrvDesc {
        slot: decl.slot,
        kind: SrvKind::Raw,
        format: None,
        size: Some(BUFFER_BYTES),
        width: None,
        height: 1,
        depth: 1,
        array_size: 1,
        mips: 1,
        samples: 1,
        data: Vec::new(),
        fill: 0,
    };
    let dim = match decl.kind {
        ResourceKind::Raw => Dim::Buffer,
        ResourceKind::Structured(stride) => {
            desc.kind = SrvKind::Structured { stride };
            Dim::Buffer
        }
        ResourceKind::Typed(dim) => dim,
    };
    if let ResourceKind::Typed(_) = decl.kind {
        desc.size = None;
        desc.kind = match dim {
            Dim::Buffer => SrvKind::Buffer,
            Dim::Texture1D => SrvKind::Texture1d,
            Dim::Texture1DArray => SrvKind::Texture1dArray,
            Dim::Texture2D => SrvKind::Texture2d,
            Dim::Texture2DArray => SrvKind::Texture2dArray,
            Dim::Texture3D => SrvKind::Texture3d,
            Dim::TextureCube => SrvKind::TextureCube,
            Dim::TextureCubeArray => SrvKind::TextureCubeArray,
            Dim::Texture2DMS => SrvKind::Texture2dMs,
            Dim::Texture2DMSArray => SrvKind::Texture2dMsArray,
        };
        let format = if dim == Dim::Buffer {
            buffer_format(ty)
        } else {
            texture_format(ty, d3d9)
        };
        desc.format = Some(format);
        if dim == Dim::Buffer {
            desc.width = Some(BUFFER_BYTES / format.bytes_per_texel());
        } else {
            desc.width = Some(TEXTURE_SIZE);
            if dim.is_multisampled() {
                desc.samples = MS_SAMPLES;
            } else {
                desc.mips = TEXTURE_MIPS;
            }
            if dim != Dim::Texture1D {
                desc.height = TEXTURE_SIZE;
            }
            match dim {
                Dim::Texture3D => desc.depth = TEXTURE_LAYERS,
                Dim::Texture2DArray | Dim::Texture2DMSArray => desc.array_size = TEXTURE_LAYERS,
                _ => {}
            }
        }
        let words = (desc.byte_size() / 4) as usize;
        desc.data = texel_words(format, words, decl.slot as usize);
    } else {
        desc.data = pattern::int_words(BUFFER_BYTES as usize / 4, decl.slot as usize);
    }
    Ok(desc)
}

/// A view of a declared UAV: 64 KiB raw or structured, a typed buffer of
/// 64 KiB, or a 16×16 texture (3D and arrays: 4 deep) of type `ty`.
pub fn uav(decl: &ResourceDecl, ty: ElementType) -> UavDesc {
    let mut desc = UavDesc {
        slot: decl.slot,
        kind: UavKind::Raw,
        size: Some(BUFFER_BYTES),
        height: 1,
        depth: 1,
        data: Vec::new(),
        fill: 0,
        counter: None,
    };
    match decl.kind {
        ResourceKind::Raw => {}
        ResourceKind::Structured(stride) => {
            desc.kind = UavKind::Structured { stride };
            desc.counter = Some(0);
        }
        ResourceKind::Typed(dim) => {
            let format = buffer_format(ty);
            let (dimension, width, height, depth) = match dim {
                Dim::Buffer => (
                    UavDimension::Buffer,
                    BUFFER_BYTES / format.bytes_per_texel(),
                    1,
                    1,
                ),
                Dim::Texture1D => (UavDimension::Texture1d, TEXTURE_SIZE, 1, 1),
                Dim::Texture1DArray => (UavDimension::Texture2d, TEXTURE_SIZE, TEXTURE_LAYERS, 1),
                Dim::Texture2D => (UavDimension::Texture2d, TEXTURE_SIZE, TEXTURE_SIZE, 1),
                _ => (
                    UavDimension::Texture3d,
                    TEXTURE_SIZE,
                    TEXTURE_SIZE,
                    TEXTURE_LAYERS,
                ),
            };
            desc.kind = UavKind::Typed { format, dimension };
            desc.size = Some(width);
            desc.height = height;
            desc.depth = depth;
        }
    }
    let words = (desc.byte_size() / 4) as usize;
    desc.data = match desc.kind {
        UavKind::Typed { format, .. } => texel_words(format, words, decl.slot as usize),
        _ => pattern::int_words(words, decl.slot as usize),
    };
    desc
}

/// A linear, wrapping sampler with a linear mip filter; `comparison`
/// samplers compare with less-or-equal.
pub fn sampler(slot: u32, comparison: bool) -> SamplerDesc {
    SamplerDesc {
        slot,
        filter: Filter::Linear,
        mip_filter: MipFilter::Linear,
        address: [Address::Wrap; 3],
        border: [0.0; 4],
        compare: if comparison {
            Compare::LessEqual
        } else {
            Compare::None
        },
        ..SamplerDesc::default()
    }
}
