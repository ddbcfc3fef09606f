//! The table of every format's name, size, components, kind and layout.

use super::bc::Codec;
use super::layout::Layout;
use super::packed::{A1R5G5B5, A4R4G4B4, R5G6B5};
use super::{Format, FormatKind};

/// What the rest of the module needs to know about a format.
#[derive(Debug, Clone, Copy)]
pub(super) struct Info {
    /// The case-file name.
    pub name: &'static str,
    /// Bytes per texel (per 4×4 block when block-compressed).
    pub bytes: u32,
    /// Components stored.
    pub components: u32,
    /// How components convert.
    pub kind: FormatKind,
    /// How the bytes are laid out.
    pub layout: Layout,
}

const fn row(
    name: &'static str,
    bytes: u32,
    components: u32,
    kind: FormatKind,
    layout: Layout,
) -> Info {
    Info {
        name,
        bytes,
        components,
        kind,
        layout,
    }
}

/// The description of `format`.
pub(super) fn info(format: Format) -> Info {
    use FormatKind::{Float, Sint, Snorm, Uint, Unorm};
    use Layout as L;
    match format {
        Format::R32Uint => row("r32_uint", 4, 1, Uint, L::Words),
        Format::R32Sint => row("r32_sint", 4, 1, Sint, L::Words),
        Format::R32Float => row("r32_float", 4, 1, Float, L::Words),
        Format::Rg32Uint => row("rg32_uint", 8, 2, Uint, L::Words),
        Format::Rg32Sint => row("rg32_sint", 8, 2, Sint, L::Words),
        Format::Rg32Float => row("rg32_float", 8, 2, Float, L::Words),
        Format::Rgba32Uint => row("rgba32_uint", 16, 4, Uint, L::Words),
        Format::Rgba32Sint => row("rgba32_sint", 16, 4, Sint, L::Words),
        Format::Rgba32Float => row("rgba32_float", 16, 4, Float, L::Words),
        Format::R16Float => row("r16_float", 2, 1, Float, L::Half),
        Format::Rg16Float => row("rg16_float", 4, 2, Float, L::Half),
        Format::Rgba16Float => row("rgba16_float", 8, 4, Float, L::Half),
        Format::R8Unorm => row("r8_unorm", 1, 1, Unorm, L::Int8),
        Format::Rg8Unorm => row("rg8_unorm", 2, 2, Unorm, L::Int8),
        Format::Rgba8Unorm => row("rgba8_unorm", 4, 4, Unorm, L::Int8),
        Format::Bgra8Unorm => row("bgra8_unorm", 4, 4, Unorm, L::Bgra8),
        Format::Rgba8UnormSrgb => row("rgba8_unorm_srgb", 4, 4, Unorm, L::Srgb8),
        Format::Bgra8UnormSrgb => row("bgra8_unorm_srgb", 4, 4, Unorm, L::BgraSrgb8),
        Format::R8Snorm => row("r8_snorm", 1, 1, Snorm, L::Int8),
        Format::Rg8Snorm => row("rg8_snorm", 2, 2, Snorm, L::Int8),
        Format::Rgba8Snorm => row("rgba8_snorm", 4, 4, Snorm, L::Int8),
        Format::R8Uint => row("r8_uint", 1, 1, Uint, L::Int8),
        Format::Rg8Uint => row("rg8_uint", 2, 2, Uint, L::Int8),
        Format::Rgba8Uint => row("rgba8_uint", 4, 4, Uint, L::Int8),
        Format::R8Sint => row("r8_sint", 1, 1, Sint, L::Int8),
        Format::Rg8Sint => row("rg8_sint", 2, 2, Sint, L::Int8),
        Format::Rgba8Sint => row("rgba8_sint", 4, 4, Sint, L::Int8),
        Format::R16Unorm => row("r16_unorm", 2, 1, Unorm, L::Int16),
        Format::Rg16Unorm => row("rg16_unorm", 4, 2, Unorm, L::Int16),
        Format::Rgba16Unorm => row("rgba16_unorm", 8, 4, Unorm, L::Int16),
        Format::R16Snorm => row("r16_snorm", 2, 1, Snorm, L::Int16),
        Format::Rg16Snorm => row("rg16_snorm", 4, 2, Snorm, L::Int16),
        Format::Rgba16Snorm => row("rgba16_snorm", 8, 4, Snorm, L::Int16),
        Format::R16Uint => row("r16_uint", 2, 1, Uint, L::Int16),
        Format::Rg16Uint => row("rg16_uint", 4, 2, Uint, L::Int16),
        Format::Rgba16Uint => row("rgba16_uint", 8, 4, Uint, L::Int16),
        Format::R16Sint => row("r16_sint", 2, 1, Sint, L::Int16),
        Format::Rg16Sint => row("rg16_sint", 4, 2, Sint, L::Int16),
        Format::Rgba16Sint => row("rgba16_sint", 8, 4, Sint, L::Int16),
        Format::A8Unorm => row("a8_unorm", 1, 1, Unorm, L::Alpha8),
        Format::R10g10b10a2Unorm => row("r10g10b10a2_unorm", 4, 4, Unorm, L::Rgb10A2),
        Format::R10g10b10a2Uint => row("r10g10b10a2_uint", 4, 4, Uint, L::Rgb10A2),
        Format::R11g11b10Float => row("r11g11b10_float", 4, 3, Float, L::Rg11B10),
        Format::Rgb9e5 => row("rgb9e5", 4, 3, Float, L::Rgb9e5),
        Format::Bc1Unorm => row(
            "bc1_unorm",
            8,
            4,
            Unorm,
            L::Block(Codec::Bc1 { srgb: false }),
        ),
        Format::Bc1UnormSrgb => row(
            "bc1_unorm_srgb",
            8,
            4,
            Unorm,
            L::Block(Codec::Bc1 { srgb: true }),
        ),
        Format::Bc2Unorm => row(
            "bc2_unorm",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc2 { srgb: false }),
        ),
        Format::Bc2UnormSrgb => row(
            "bc2_unorm_srgb",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc2 { srgb: true }),
        ),
        Format::Bc3Unorm => row(
            "bc3_unorm",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc3 { srgb: false }),
        ),
        Format::Bc3UnormSrgb => row(
            "bc3_unorm_srgb",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc3 { srgb: true }),
        ),
        Format::Bc4Unorm => row(
            "bc4_unorm",
            8,
            1,
            Unorm,
            L::Block(Codec::Bc4 { signed: false }),
        ),
        Format::Bc4Snorm => row(
            "bc4_snorm",
            8,
            1,
            Snorm,
            L::Block(Codec::Bc4 { signed: true }),
        ),
        Format::Bc5Unorm => row(
            "bc5_unorm",
            16,
            2,
            Unorm,
            L::Block(Codec::Bc5 { signed: false }),
        ),
        Format::Bc5Snorm => row(
            "bc5_snorm",
            16,
            2,
            Snorm,
            L::Block(Codec::Bc5 { signed: true }),
        ),
        Format::Bc6hUf16 => row(
            "bc6h_uf16",
            16,
            3,
            Float,
            L::Block(Codec::Bc6h { signed: false }),
        ),
        Format::Bc6hSf16 => row(
            "bc6h_sf16",
            16,
            3,
            Float,
            L::Block(Codec::Bc6h { signed: true }),
        ),
        Format::Bc7Unorm => row(
            "bc7_unorm",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc7 { srgb: false }),
        ),
        Format::Bc7UnormSrgb => row(
            "bc7_unorm_srgb",
            16,
            4,
            Unorm,
            L::Block(Codec::Bc7 { srgb: true }),
        ),
        Format::L8 => row("l8", 1, 1, Unorm, L::Luminance8),
        Format::A8L8 => row("a8l8", 2, 2, Unorm, L::LuminanceAlpha8),
        Format::L16 => row("l16", 2, 1, Unorm, L::Luminance16),
        Format::V8U8 => row("v8u8", 2, 2, Snorm, L::Bump8),
        Format::Q8W8V8U8 => row("q8w8v8u8", 4, 4, Snorm, L::Int8),
        Format::R5G6B5 => row("r5g6b5", 2, 3, Unorm, L::Packed16(R5G6B5)),
        Format::X8R8G8B8 => row("x8r8g8b8", 4, 3, Unorm, L::Bgrx8),
        Format::A1R5G5B5 => row("a1r5g5b5", 2, 4, Unorm, L::Packed16(A1R5G5B5)),
        Format::A4R4G4B4 => row("a4r4g4b4", 2, 4, Unorm, L::Packed16(A4R4G4B4)),
        Format::D16 => row("d16", 2, 1, Unorm, L::Depth16),
        Format::D24S8 => row("d24s8", 4, 1, Unorm, L::Depth24),
        Format::R24X8 => row("r24x8", 4, 1, Unorm, L::Depth24),
        Format::D32F => row("d32f", 4, 1, Float, L::Depth32F),
        Format::D32FS8X24 => row("d32f_s8x24", 8, 1, Float, L::Depth32F),
    }
}
