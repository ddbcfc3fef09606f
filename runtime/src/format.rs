//! Texel formats of typed views and render targets, and their conversions.

/// The formats of the case-file specification. The discriminant is the id
/// stored in [`crate::abi::View::format`]; 0 means "untyped".
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
}

/// How a format's components are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatKind {
    /// Float components (32-bit, 16-bit or packed small floats).
    Float,
    /// Unsigned normalized components.
    Unorm,
    /// Unsigned integers.
    Uint,
    /// Signed integers.
    Sint,
}
