//! BC6H and BC7 (BPTC), decoded by `bcdec_rs`: a safe Rust port of the
//! widely used `bcdec` that implements the specification's bit-exact
//! integer decoding, every BC7 mode and both BC6H variants (reserved modes
//! decode as the specification's invalid blocks).

use super::Texels;
use crate::format::small_float::F16;
use crate::format::{srgb, unorm};

/// The texels of a 16-byte BC6H block: r, g, b as the specification's
/// halves, alpha 1.
pub(super) fn bc6h(block: &[u8], signed: bool) -> Texels {
    let mut halves = [0u16; 48];
    bcdec_rs::bc6h_half(block, &mut halves, 12, signed);
    std::array::from_fn(|i| {
        let h = |c: usize| F16.decode(u32::from(halves[3 * i + c])).to_bits();
        [h(0), h(1), h(2), 1f32.to_bits()]
    })
}

/// The texels of a 16-byte BC7 block: 8-bit unorm r, g, b, a (r, g, b
/// through the sRGB curve when `srgb`).
pub(super) fn bc7(block: &[u8], srgb: bool) -> Texels {
    let mut bytes = [0u8; 64];
    bcdec_rs::bc7(block, &mut bytes, 16);
    std::array::from_fn(|i| {
        let color = |n: u8| {
            if srgb {
                srgb::decode8(n)
            } else {
                unorm::decode8(n)
            }
        };
        let t = &bytes[4 * i..4 * i + 4];
        [color(t[0]), color(t[1]), color(t[2]), unorm::decode8(t[3])].map(f32::to_bits)
    })
}
