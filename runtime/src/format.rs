//! Texel formats of typed views, textures and render targets, and their
//! conversions.
//!
//! [`Format::load`] turns a texel's bytes into the four 32-bit words a shader
//! reads and [`Format::store`] turns a shader's words back into bytes, each
//! as Direct3D converts. Block-compressed formats are read a 4×4 block at a
//! time ([`Format::load_block`]). Texels are little-endian.

mod bc;
mod depth;
mod info;
mod layout;
mod packed;
mod shared_exponent;
mod small_float;
mod snorm;
mod srgb;
mod unorm;

pub(crate) use srgb::decode8 as decode8_srgb;
pub(crate) use srgb::to_linear as srgb_to_linear;
pub(crate) use unorm::decode8;

use info::info;

/// Texel formats. The discriminant is the format's id: what a view's
/// `format` field holds (0 means untyped) and what C callers pass as a
/// `dxjit_format`, whose declaration is generated from this enum.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// How a format's components are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatKind {
    /// Float components (32-bit, 16-bit or packed small floats).
    Float,
    /// Unsigned normalized components (sRGB included).
    Unorm,
    /// Signed normalized components.
    Snorm,
    /// Unsigned integers.
    Uint,
    /// Signed integers.
    Sint,
}

/// Names case files may use for a format besides [`Format::name`]: the
/// D3D9 DXTn names of BC1 to BC3 (DXT2 and DXT4 hold premultiplied alpha,
/// which decodes as DXT3 and DXT5 do).
const ALIASES: [(&str, Format); 5] = [
    ("dxt1", Format::Bc1Unorm),
    ("dxt2", Format::Bc2Unorm),
    ("dxt3", Format::Bc2Unorm),
    ("dxt4", Format::Bc3Unorm),
    ("dxt5", Format::Bc3Unorm),
];

impl Format {
    /// Every format, in id order.
    ///
    /// cbindgen:ignore
    pub const ALL: [Format; 72] = [
        Format::R32Uint,
        Format::R32Sint,
        Format::R32Float,
        Format::Rg32Uint,
        Format::Rg32Sint,
        Format::Rg32Float,
        Format::Rgba32Uint,
        Format::Rgba32Sint,
        Format::Rgba32Float,
        Format::R16Float,
        Format::Rgba16Float,
        Format::R8Unorm,
        Format::Rgba8Unorm,
        Format::Bgra8Unorm,
        Format::R16Unorm,
        Format::Rgba16Unorm,
        Format::R10g10b10a2Unorm,
        Format::R11g11b10Float,
        Format::Rgba8UnormSrgb,
        Format::Bgra8UnormSrgb,
        Format::R8Snorm,
        Format::Rg8Snorm,
        Format::Rgba8Snorm,
        Format::R16Snorm,
        Format::Rg16Snorm,
        Format::Rgba16Snorm,
        Format::Rg8Unorm,
        Format::R8Uint,
        Format::Rg8Uint,
        Format::Rgba8Uint,
        Format::R8Sint,
        Format::Rg8Sint,
        Format::Rgba8Sint,
        Format::Rg16Unorm,
        Format::R16Uint,
        Format::Rg16Uint,
        Format::Rgba16Uint,
        Format::R16Sint,
        Format::Rg16Sint,
        Format::Rgba16Sint,
        Format::Rg16Float,
        Format::A8Unorm,
        Format::R10g10b10a2Uint,
        Format::Rgb9e5,
        Format::Bc1Unorm,
        Format::Bc1UnormSrgb,
        Format::Bc2Unorm,
        Format::Bc2UnormSrgb,
        Format::Bc3Unorm,
        Format::Bc3UnormSrgb,
        Format::Bc4Unorm,
        Format::Bc4Snorm,
        Format::Bc5Unorm,
        Format::Bc5Snorm,
        Format::Bc6hUf16,
        Format::Bc6hSf16,
        Format::Bc7Unorm,
        Format::Bc7UnormSrgb,
        Format::L8,
        Format::A8L8,
        Format::L16,
        Format::V8U8,
        Format::Q8W8V8U8,
        Format::R5G6B5,
        Format::X8R8G8B8,
        Format::A1R5G5B5,
        Format::A4R4G4B4,
        Format::D16,
        Format::D24S8,
        Format::R24X8,
        Format::D32F,
        Format::D32FS8X24,
    ];

    /// The format a case file names (`"rgba8_unorm"`, `"bc1_unorm"`, or a
    /// D3D9 alias such as `"dxt5"`).
    pub fn from_name(name: &str) -> Option<Format> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .or_else(|| ALIASES.iter().find(|(a, _)| *a == name).map(|&(_, f)| f))
    }

    /// The format whose id ([`crate::abi::View::format`]) is `id`.
    pub fn from_id(id: u32) -> Option<Format> {
        Self::ALL.into_iter().find(|&f| f as u32 == id)
    }

    /// The name case files use.
    pub fn name(self) -> &'static str {
        info(self).name
    }

    /// Bytes of one texel; for block-compressed formats, of one 4×4 block.
    pub fn bytes_per_texel(self) -> u32 {
        info(self).bytes
    }

    /// Texels along each side of a block: 4 for block-compressed formats,
    /// 1 for the others.
    pub fn block_size(self) -> u32 {
        if self.is_block_compressed() {
            4
        } else {
            1
        }
    }

    /// Whether texels are stored in compressed 4×4 blocks.
    pub fn is_block_compressed(self) -> bool {
        matches!(info(self).layout, layout::Layout::Block(_))
    }

    /// Bytes of a `width` × `height` × `depth` image: whole blocks of
    /// [`Format::block_size`] texels along x and y.
    pub fn image_bytes(self, width: u32, height: u32, depth: u32) -> u64 {
        let block = self.block_size();
        u64::from(width.div_ceil(block))
            * u64::from(height.div_ceil(block))
            * u64::from(depth)
            * u64::from(self.bytes_per_texel())
    }

    /// Components the format stores (1 to 4).
    pub fn components(self) -> u32 {
        info(self).components
    }

    /// How the components are stored.
    pub fn kind(self) -> FormatKind {
        info(self).kind
    }

    /// Whether shaders can write the format (as a render target or typed
    /// UAV): every format but the block-compressed ones, `rgb9e5` and the
    /// depth formats. [`Format::store`] leaves the others' bytes unchanged.
    pub fn is_writable(self) -> bool {
        info(self).layout.is_writable()
    }

    /// The four words a shader reads for the texel in `bytes` (at least
    /// [`Format::bytes_per_texel`] of them): float, unorm and snorm
    /// components as f32 bits, integer components as the stored words
    /// (sign-extended for sint). Components the format lacks read as 0, 0, 0
    /// and 1 (1.0 for float and normalized formats, the integer 1 for uint
    /// and sint ones), except where the format's description says otherwise
    /// (the D3D9 luminance and bump formats, `a8_unorm`). `bgra8_unorm`
    /// reads as r, g, b, a. For a block-compressed format `bytes` is a block
    /// and this is its top-left texel (see [`Format::load_block`]).
    pub fn load(self, bytes: &[u8]) -> [u32; 4] {
        let i = info(self);
        i.layout.load(bytes, i.kind, i.components)
    }

    /// The sixteen texels of the 4×4 block in `bytes`, row by row, each as
    /// [`Format::load`] gives a texel; `None` unless the format is
    /// block-compressed and `bytes` holds a whole block.
    pub fn load_block(self, bytes: &[u8]) -> Option<[[u32; 4]; 16]> {
        match info(self).layout {
            layout::Layout::Block(codec) => codec.decode(bytes),
            _ => None,
        }
    }

    /// Writes the texel a shader's four words give into `bytes` (at least
    /// [`Format::bytes_per_texel`] of them), as D3D converts: float to unorm
    /// turns NaN into 0, saturates and rounds to nearest (sRGB formats
    /// encode r, g and b with the sRGB curve first); float to snorm turns
    /// NaN into 0, clamps to [-1, 1] and rounds to nearest (halves away from
    /// zero); float to half and to the 11/10-bit floats rounds toward zero,
    /// keeps NaN and infinities, and turns finite overflow into the largest
    /// finite value (negatives become 0 in the unsigned 11/10-bit floats);
    /// integers narrower than 32 bits saturate to their range; 32-bit
    /// components are stored as is. Components the format lacks are ignored;
    /// formats that are not [`Format::is_writable`] are left unchanged.
    #[inline]
    pub fn store(self, value: [u32; 4], bytes: &mut [u8]) {
        let i = info(self);
        i.layout.store(value, bytes, i.kind, i.components);
    }
}
