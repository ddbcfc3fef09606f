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

/// Texel formats (`dxjit_format`): the runtime's own enum, whose
/// discriminants are the ids C callers pass; the header is generated from
/// it, so the two cannot drift apart.
pub use dxjit_runtime::format::Format;

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
