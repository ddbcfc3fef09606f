//! Depth formats read as their depth value: unorm depths as n / (2^bits − 1),
//! float depths as stored. Stencil and unused bits are not read.

use super::unorm;

/// The depth of a 16-bit unorm depth texel.
pub(super) fn unorm16(bytes: &[u8]) -> f32 {
    unorm::decode(u32::from(u16::from_le_bytes([bytes[0], bytes[1]])), 16)
}

/// The depth of a texel whose low 24 bits are unorm depth.
pub(super) fn unorm24(bytes: &[u8]) -> f32 {
    unorm::decode(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], 0]), 24)
}

/// The bits of a texel whose first 4 bytes are a float depth.
pub(super) fn float32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}
