//! The C enums: their stable numbers and conversions to the library's types.
//! Structs a caller fills take these as `uint32_t` and are checked, since
//! an out-of-range value must be an error, not undefined behaviour.

use crate::checks::invalid;
use crate::status::Outcome;
use dxjit_runtime::format::Format as RuntimeFormat;
use dxjit_runtime::sampler::{Address, Compare, Filter, MagFilter, MipFilter, Reduction};
use dxjit_runtime::texture::TextureKind as RuntimeKind;

/// Pipeline stages.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Vertex shader.
    Vertex = 0,
    /// Pixel shader.
    Pixel = 1,
    /// Compute shader.
    Compute = 2,
    /// Hull shader (run by `dxjit_run_pipeline`).
    Hull = 3,
    /// Domain shader (run by `dxjit_run_pipeline`).
    Domain = 4,
    /// Geometry shader (run by `dxjit_run_pipeline`).
    Geometry = 5,
}

/// Bytecode families.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A DXBC container (SM4/SM5).
    Dxbc = 0,
    /// A D3D9 token stream (SM1-SM3).
    D3d9 = 1,
}

/// Texel formats; the numbers are the runtime's format ids.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// 32-bit unsigned integer.
    R32Uint = 1,
    /// 32-bit signed integer.
    R32Sint = 2,
    /// 32-bit float.
    R32Float = 3,
    /// Two 32-bit unsigned integers.
    Rg32Uint = 4,
    /// Two 32-bit signed integers.
    Rg32Sint = 5,
    /// Two 32-bit floats.
    Rg32Float = 6,
    /// Four 32-bit unsigned integers.
    Rgba32Uint = 7,
    /// Four 32-bit signed integers.
    Rgba32Sint = 8,
    /// Four 32-bit floats.
    Rgba32Float = 9,
    /// One half float.
    R16Float = 10,
    /// Four half floats.
    Rgba16Float = 11,
    /// One 8-bit unorm.
    R8Unorm = 12,
    /// Four 8-bit unorms, r first in memory.
    Rgba8Unorm = 13,
    /// Four 8-bit unorms, b first in memory (D3D9 A8R8G8B8).
    Bgra8Unorm = 14,
    /// One 16-bit unorm.
    R16Unorm = 15,
    /// Four 16-bit unorms.
    Rgba16Unorm = 16,
    /// 10:10:10:2 unorm, r in the low bits.
    R10g10b10a2Unorm = 17,
    /// 11:11:10 unsigned floats, r in the low bits.
    R11g11b10Float = 18,
    /// Four 8-bit sRGB-encoded unorms, r first (alpha is linear).
    Rgba8UnormSrgb = 19,
    /// Four 8-bit sRGB-encoded unorms, b first (alpha is linear).
    Bgra8UnormSrgb = 20,
    /// One 8-bit snorm.
    R8Snorm = 21,
    /// Two 8-bit snorms.
    Rg8Snorm = 22,
    /// Four 8-bit snorms.
    Rgba8Snorm = 23,
    /// One 16-bit snorm.
    R16Snorm = 24,
    /// Two 16-bit snorms.
    Rg16Snorm = 25,
    /// Four 16-bit snorms.
    Rgba16Snorm = 26,
    /// Two 8-bit unorms.
    Rg8Unorm = 27,
    /// One 8-bit unsigned integer.
    R8Uint = 28,
    /// Two 8-bit unsigned integers.
    Rg8Uint = 29,
    /// Four 8-bit unsigned integers.
    Rgba8Uint = 30,
    /// One 8-bit signed integer.
    R8Sint = 31,
    /// Two 8-bit signed integers.
    Rg8Sint = 32,
    /// Four 8-bit signed integers.
    Rgba8Sint = 33,
    /// Two 16-bit unorms.
    Rg16Unorm = 34,
    /// One 16-bit unsigned integer.
    R16Uint = 35,
    /// Two 16-bit unsigned integers.
    Rg16Uint = 36,
    /// Four 16-bit unsigned integers.
    Rgba16Uint = 37,
    /// One 16-bit signed integer.
    R16Sint = 38,
    /// Two 16-bit signed integers.
    Rg16Sint = 39,
    /// Four 16-bit signed integers.
    Rgba16Sint = 40,
    /// Two half floats.
    Rg16Float = 41,
    /// One 8-bit unorm alpha; r, g and b read 0.
    A8Unorm = 42,
    /// 10:10:10:2 unsigned integers, r in the low bits.
    R10g10b10a2Uint = 43,
    /// Three 9-bit mantissas sharing a 5-bit exponent, r in the low bits.
    Rgb9e5 = 44,
    /// BC1: 5:6:5 colour endpoints with 1-bit alpha, 8 bytes per 4×4 block.
    Bc1Unorm = 45,
    /// BC1 with sRGB-encoded colour.
    Bc1UnormSrgb = 46,
    /// BC2: BC1 colour with explicit 4-bit alpha, 16 bytes per block.
    Bc2Unorm = 47,
    /// BC2 with sRGB-encoded colour.
    Bc2UnormSrgb = 48,
    /// BC3: BC1 colour with interpolated 8-bit alpha, 16 bytes per block.
    Bc3Unorm = 49,
    /// BC3 with sRGB-encoded colour.
    Bc3UnormSrgb = 50,
    /// BC4: one interpolated unorm channel, 8 bytes per block.
    Bc4Unorm = 51,
    /// BC4 with a signed channel.
    Bc4Snorm = 52,
    /// BC5: two interpolated unorm channels, 16 bytes per block.
    Bc5Unorm = 53,
    /// BC5 with signed channels.
    Bc5Snorm = 54,
    /// BC6H: unsigned half-float RGB, 16 bytes per block.
    Bc6hUf16 = 55,
    /// BC6H: signed half-float RGB.
    Bc6hSf16 = 56,
    /// BC7: unorm RGBA in eight block modes, 16 bytes per block.
    Bc7Unorm = 57,
    /// BC7 with sRGB-encoded colour.
    Bc7UnormSrgb = 58,
    /// D3D9 L8: one 8-bit unorm luminance read as (l, l, l, 1).
    L8 = 59,
    /// D3D9 A8L8: luminance in the low byte, alpha in the high one.
    A8L8 = 60,
    /// D3D9 L16: one 16-bit unorm luminance read as (l, l, l, 1).
    L16 = 61,
    /// D3D9 V8U8: two 8-bit snorms (u low) read as (u, v, 1, 1).
    V8U8 = 62,
    /// D3D9 Q8W8V8U8: four 8-bit snorms, u lowest, read as (u, v, w, q).
    Q8W8V8U8 = 63,
    /// D3D9 R5G6B5: b in the low 5 bits, then 6 of g and 5 of r.
    R5G6B5 = 64,
    /// D3D9 X8R8G8B8: `bgra8_unorm` whose fourth byte is unused (alpha 1).
    X8R8G8B8 = 65,
    /// D3D9 A1R5G5B5: 5 bits each of b, g, r from the bottom, 1 of alpha.
    A1R5G5B5 = 66,
    /// D3D9 A4R4G4B4: 4 bits each of b, g, r from the bottom, then alpha.
    A4R4G4B4 = 67,
    /// 16-bit unorm depth, read as (depth, 0, 0, 1).
    D16 = 68,
    /// 24-bit unorm depth in the low bits with 8 bits of stencil above,
    /// read as (depth, 0, 0, 1).
    D24S8 = 69,
    /// 24-bit unorm depth in the low bits, 8 bits unused (R24_UNORM_X8).
    R24X8 = 70,
    /// 32-bit float depth, read as (depth, 0, 0, 1).
    D32F = 71,
    /// 32-bit float depth, then 8 bits of stencil and 24 unused.
    D32FS8X24 = 72,
}

/// The runtime format a `dxjit_format` number names.
pub fn format(id: u32, what: &str) -> Outcome<RuntimeFormat> {
    RuntimeFormat::from_id(id).map_or_else(|| invalid(format!("{what}: unknown format {id}")), Ok)
}

/// Texture dimensions.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureKind {
    /// A typed buffer: `width` elements, height, depth and mips 1.
    Buffer = 0,
    /// A row of texels.
    Texture1d = 1,
    /// An array of rows; `depth_or_array` layers.
    Texture1dArray = 2,
    /// A 2D image.
    Texture2d = 3,
    /// An array of 2D images; `depth_or_array` layers.
    Texture2dArray = 4,
    /// A volume; `depth_or_array` is the depth.
    Texture3d = 5,
    /// A cube: `depth_or_array` is 6.
    TextureCube = 6,
    /// An array of cubes: `depth_or_array` is 6 per cube.
    TextureCubeArray = 7,
    /// A multisampled 2D image (`Texture2DMS`): one mip; its samples
    /// come from `dxjit_texture_create_multisampled` (1 otherwise).
    Texture2dMs = 8,
    /// An array of multisampled 2D images (`Texture2DMSArray`);
    /// `depth_or_array` layers.
    Texture2dMsArray = 9,
}

/// The runtime texture kind a `dxjit_texture_kind` number names.
pub fn texture_kind(id: u32) -> Outcome<RuntimeKind> {
    Ok(match id {
        0 => RuntimeKind::Buffer,
        1 => RuntimeKind::Texture1D,
        2 => RuntimeKind::Texture1DArray,
        3 => RuntimeKind::Texture2D,
        4 => RuntimeKind::Texture2DArray,
        5 => RuntimeKind::Texture3D,
        6 => RuntimeKind::TextureCube,
        7 => RuntimeKind::TextureCubeArray,
        8 => RuntimeKind::Texture2DMS,
        9 => RuntimeKind::Texture2DMSArray,
        _ => return invalid(format!("unknown texture kind {id}")),
    })
}

/// How a bound buffer is viewed.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferKind {
    /// Byte-addressed (`ByteAddressBuffer`); also every constant buffer.
    Raw = 0,
    /// Structured, `stride` bytes per element.
    Structured = 1,
    /// Typed (UAVs only): `format`, `width` × `height` × `depth` elements.
    Typed = 2,
}

/// The `dxjit_buffer_kind` a number names.
pub fn buffer_kind(id: u32) -> Outcome<BufferKind> {
    Ok(match id {
        0 => BufferKind::Raw,
        1 => BufferKind::Structured,
        2 => BufferKind::Typed,
        _ => return invalid(format!("unknown buffer kind {id}")),
    })
}

/// The sampler filter a `dxjit_filter` number names (0 point, 1 linear,
/// 2 anisotropic).
pub fn filter(id: u32) -> Outcome<Filter> {
    Ok(match id {
        0 => Filter::Point,
        1 => Filter::Linear,
        2 => Filter::Anisotropic,
        _ => return invalid(format!("unknown filter {id}")),
    })
}

/// The magnification filter a number names (0 as the minification
/// filter, 1 point, 2 linear, 3 anisotropic).
pub fn mag_filter(id: u32) -> Outcome<MagFilter> {
    Ok(match id {
        0 => MagFilter::AsMin,
        1 => MagFilter::Point,
        2 => MagFilter::Linear,
        3 => MagFilter::Anisotropic,
        _ => return invalid(format!("unknown magnification filter {id}")),
    })
}

/// The reduction a number names (0 standard, 1 minimum, 2 maximum).
pub fn reduction(id: u32) -> Outcome<Reduction> {
    Ok(match id {
        0 => Reduction::Standard,
        1 => Reduction::Minimum,
        2 => Reduction::Maximum,
        _ => return invalid(format!("unknown reduction {id}")),
    })
}

/// The mip filter a number names (0 none, 1 point, 2 linear).
pub fn mip_filter(id: u32) -> Outcome<MipFilter> {
    Ok(match id {
        0 => MipFilter::None,
        1 => MipFilter::Point,
        2 => MipFilter::Linear,
        _ => return invalid(format!("unknown mip filter {id}")),
    })
}

/// The addressing mode a number names (0 wrap, 1 mirror, 2 clamp,
/// 3 border, 4 mirror once).
pub fn address(id: u32) -> Outcome<Address> {
    Ok(match id {
        0 => Address::Wrap,
        1 => Address::Mirror,
        2 => Address::Clamp,
        3 => Address::Border,
        4 => Address::MirrorOnce,
        _ => return invalid(format!("unknown address mode {id}")),
    })
}

/// The comparison a number names (0 none, then never, less, equal,
/// less-equal, greater, not-equal, greater-equal, always).
pub fn compare(id: u32) -> Outcome<Compare> {
    Ok(match id {
        0 => Compare::None,
        1 => Compare::Never,
        2 => Compare::Less,
        3 => Compare::Equal,
        4 => Compare::LessEqual,
        5 => Compare::Greater,
        6 => Compare::NotEqual,
        7 => Compare::GreaterEqual,
        8 => Compare::Always,
        _ => return invalid(format!("unknown comparison {id}")),
    })
}

/// Where a declared resource is bound.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceSpace {
    /// A constant buffer (`cb#`; D3D9 `c#`, `i#`, `b#` are slots 0, 1, 2).
    ConstantBuffer = 0,
    /// A shader resource view (`t#`).
    ShaderResource = 1,
    /// An unordered access view (`u#`).
    UnorderedAccess = 2,
}

/// How a declared resource is viewed.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceKind {
    /// Constant buffer rows.
    Constants = 0,
    /// Byte-addressed buffer.
    Raw = 1,
    /// Structured buffer.
    Structured = 2,
    /// Typed buffer or texture.
    Typed = 3,
}

/// Resource dimensions of typed views.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    /// Not a typed view.
    None = 0,
    /// Typed buffer.
    Buffer = 1,
    /// 1D texture.
    Texture1d = 2,
    /// 1D texture array.
    Texture1dArray = 3,
    /// 2D texture.
    Texture2d = 4,
    /// 2D texture array.
    Texture2dArray = 5,
    /// 3D texture.
    Texture3d = 6,
    /// Cube texture.
    TextureCube = 7,
    /// Cube texture array.
    TextureCubeArray = 8,
    /// Multisampled 2D texture.
    Texture2dMs = 9,
    /// Multisampled 2D texture array.
    Texture2dMsArray = 10,
}
