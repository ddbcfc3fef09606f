//! Block-compressed formats: each 4×4 block of texels is decoded whole.
//!
//! BC1 to BC5 are decoded here with the D3D11.3 functional specification's
//! exact arithmetic (endpoints converted to float, interpolants such as
//! 2/3·c0 + 1/3·c1 computed in f64 and rounded once to f32). BC6H and BC7,
//! which the specification defines bit-exactly in integers, are decoded by
//! `bcdec_rs` (see the `bptc` module).

mod bptc;
mod channel;
mod color;

use super::srgb;

/// Sixteen texels of a block, row by row, as the words a shader reads.
pub(crate) type Texels = [[u32; 4]; 16];

/// A block-compression scheme and its variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    /// BC1 (DXT1); `srgb` decodes colour through the sRGB curve.
    Bc1 {
        /// Whether colour is sRGB-encoded.
        srgb: bool,
    },
    /// BC2 (DXT2/3).
    Bc2 {
        /// Whether colour is sRGB-encoded.
        srgb: bool,
    },
    /// BC3 (DXT4/5).
    Bc3 {
        /// Whether colour is sRGB-encoded.
        srgb: bool,
    },
    /// BC4: one channel.
    Bc4 {
        /// Whether the channel is snorm.
        signed: bool,
    },
    /// BC5: two channels.
    Bc5 {
        /// Whether the channels are snorm.
        signed: bool,
    },
    /// BC6H: half-float RGB.
    Bc6h {
        /// Whether the halves are signed (SF16).
        signed: bool,
    },
    /// BC7: unorm RGBA.
    Bc7 {
        /// Whether colour is sRGB-encoded.
        srgb: bool,
    },
}

impl Codec {
    /// Bytes of one block.
    fn block_bytes(self) -> usize {
        match self {
            Codec::Bc1 { .. } | Codec::Bc4 { .. } => 8,
            _ => 16,
        }
    }

    /// The texels of the block at the start of `bytes`; `None` when `bytes`
    /// is shorter than a block.
    pub fn decode(self, bytes: &[u8]) -> Option<Texels> {
        let block = bytes.get(..self.block_bytes())?;
        let one = 1f32.to_bits();
        let f = |x: f64| (x as f32).to_bits();
        Some(match self {
            Codec::Bc1 { srgb } => rgba(color::decode(block, false), [1.0; 16], srgb),
            Codec::Bc2 { srgb } => rgba(
                color::decode(&block[8..], true),
                channel::explicit4(block),
                srgb,
            ),
            Codec::Bc3 { srgb } => rgba(
                color::decode(&block[8..], true),
                channel::interpolated(block, false),
                srgb,
            ),
            Codec::Bc4 { signed } => {
                channel::interpolated(block, signed).map(|r| [f(r), 0, 0, one])
            }
            Codec::Bc5 { signed } => {
                let r = channel::interpolated(block, signed);
                let g = channel::interpolated(&block[8..], signed);
                std::array::from_fn(|i| [f(r[i]), f(g[i]), 0, one])
            }
            Codec::Bc6h { signed } => bptc::bc6h(block, signed),
            Codec::Bc7 { srgb } => bptc::bc7(block, srgb),
        })
    }
}

/// Texels from BC1-style colours (with their own alpha) times the separate
/// `alpha` channel, decoding colour through the sRGB curve when `srgb`.
fn rgba(colors: [[f64; 4]; 16], alpha: [f64; 16], srgb: bool) -> Texels {
    std::array::from_fn(|i| {
        let [r, g, b, a] = colors[i];
        let rgb = [r, g, b].map(|c| if srgb { srgb::to_linear(c) } else { c });
        [rgb[0], rgb[1], rgb[2], a * alpha[i]].map(|c| (c as f32).to_bits())
    })
}
