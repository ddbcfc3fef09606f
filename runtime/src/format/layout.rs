//! How each family of formats lays out its bytes, and the per-family load
//! and store.

use super::bc::Codec;
use super::packed::{self, Fields, RGB10A2};
use super::small_float::{F10, F11, F16};
use super::{depth, shared_exponent, srgb, unorm, FormatKind};

/// How a format's bytes are laid out.
#[derive(Debug, Clone, Copy)]
pub(super) enum Layout {
    /// One 32-bit word per component.
    Words,
    /// One IEEE half per component.
    Half,
    /// One byte per component, converted by the format's kind.
    Int8,
    /// One 16-bit integer per component, converted by the format's kind.
    Int16,
    /// Four 8-bit unorms in b, g, r, a order.
    Bgra8,
    /// Three 8-bit unorms in b, g, r order and an unused byte (alpha 1).
    Bgrx8,
    /// Four 8-bit unorms, r, g, b sRGB-encoded.
    Srgb8,
    /// Four 8-bit unorms in b, g, r, a order, r, g, b sRGB-encoded.
    BgraSrgb8,
    /// One 8-bit unorm alpha; r, g, b read 0.
    Alpha8,
    /// One 8-bit unorm luminance read into r, g and b.
    Luminance8,
    /// One 16-bit unorm luminance read into r, g and b.
    Luminance16,
    /// 8-bit unorm luminance, then 8-bit unorm alpha.
    LuminanceAlpha8,
    /// Two 8-bit snorms (u, v); b and a read 1.0 as D3D9 gives them.
    Bump8,
    /// Unorm fields in one 16-bit word.
    Packed16(Fields),
    /// 10:10:10:2 unorm or uint fields in one word, r lowest.
    Rgb10A2,
    /// 11:11:10 unsigned floats in one word, r lowest.
    Rg11B10,
    /// Three 9-bit mantissas and a shared exponent.
    Rgb9e5,
    /// A 16-bit unorm depth.
    Depth16,
    /// A 24-bit unorm depth in the low bits of a word.
    Depth24,
    /// A 32-bit float depth in the first word.
    Depth32F,
    /// Compressed 4×4 blocks.
    Block(Codec),
}

/// The bits of 1.0f32, the default alpha of float and normalized formats.
const ONE_F32: u32 = 0x3f80_0000;

/// Byte of each of r, g, b, a in a b, g, r, a texel.
const BGRA: [usize; 4] = [2, 1, 0, 3];

impl Layout {
    /// Whether shaders can write this layout.
    pub fn is_writable(self) -> bool {
        !matches!(
            self,
            Layout::Rgb9e5
                | Layout::Depth16
                | Layout::Depth24
                | Layout::Depth32F
                | Layout::Block(_)
        )
    }

    /// The words of the texel in `bytes` (see `Format::load`).
    pub fn load(self, bytes: &[u8], kind: FormatKind, n: u32) -> [u32; 4] {
        let one = match kind {
            FormatKind::Uint | FormatKind::Sint => 1,
            _ => ONE_F32,
        };
        let mut out = [0, 0, 0, one];
        let n = n as usize;
        match self {
            Layout::Words => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = read_u32(bytes, 4 * c);
                }
            }
            Layout::Half => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = F16.decode(read_u16(bytes, 2 * c)).to_bits();
                }
            }
            Layout::Int8 if kind == FormatKind::Unorm => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = unorm::decode8(bytes[c]).to_bits();
                }
            }
            Layout::Int8 => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = packed::decode_field(bytes[c].into(), 8, kind);
                }
            }
            Layout::Int16 => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = packed::decode_field(read_u16(bytes, 2 * c), 16, kind);
                }
            }
            Layout::Bgra8 | Layout::Bgrx8 => {
                let channels = if matches!(self, Layout::Bgra8) { 4 } else { 3 };
                for (c, word) in out.iter_mut().enumerate().take(channels) {
                    *word = unorm::decode8(bytes[BGRA[c]]).to_bits();
                }
            }
            Layout::Srgb8 | Layout::BgraSrgb8 => {
                let order = if matches!(self, Layout::Srgb8) {
                    [0, 1, 2, 3]
                } else {
                    BGRA
                };
                for (c, word) in out.iter_mut().enumerate().take(3) {
                    *word = srgb::decode8(bytes[order[c]]).to_bits();
                }
                out[3] = unorm::decode8(bytes[3]).to_bits();
            }
            Layout::Alpha8 => out[3] = unorm::decode8(bytes[0]).to_bits(),
            Layout::Luminance8 => out[..3].fill(unorm::decode8(bytes[0]).to_bits()),
            Layout::Luminance16 => out[..3].fill(unorm::decode(read_u16(bytes, 0), 16).to_bits()),
            Layout::LuminanceAlpha8 => {
                out[..3].fill(unorm::decode8(bytes[0]).to_bits());
                out[3] = unorm::decode8(bytes[1]).to_bits();
            }
            Layout::Bump8 => {
                out[0] = packed::decode_field(bytes[0].into(), 8, kind);
                out[1] = packed::decode_field(bytes[1].into(), 8, kind);
                out[2] = ONE_F32;
            }
            Layout::Packed16(fields) => out = packed::load(read_u16(bytes, 0), fields, kind, out),
            Layout::Rgb10A2 => out = packed::load(read_u32(bytes, 0), RGB10A2, kind, out),
            Layout::Rg11B10 => {
                let packed = read_u32(bytes, 0);
                out[0] = F11.decode(packed).to_bits();
                out[1] = F11.decode(packed >> 11).to_bits();
                out[2] = F10.decode(packed >> 22).to_bits();
            }
            Layout::Rgb9e5 => {
                let rgb = shared_exponent::decode(read_u32(bytes, 0));
                for (word, x) in out.iter_mut().zip(rgb) {
                    *word = x.to_bits();
                }
            }
            Layout::Depth16 => out[0] = depth::unorm16(bytes).to_bits(),
            Layout::Depth24 => out[0] = depth::unorm24(bytes).to_bits(),
            Layout::Depth32F => out[0] = depth::float32(bytes),
            Layout::Block(codec) => {
                if let Some(texels) = codec.decode(bytes) {
                    out = texels[0];
                }
            }
        }
        out
    }

    /// Writes `value` into `bytes` (see `Format::store`).
    pub fn store(self, value: [u32; 4], bytes: &mut [u8], kind: FormatKind, n: u32) {
        let n = n as usize;
        let f = value.map(f32::from_bits);
        match self {
            Layout::Words => {
                for (c, &word) in value.iter().enumerate().take(n) {
                    write_u32(bytes, 4 * c, word);
                }
            }
            Layout::Half => {
                for (c, &x) in f.iter().enumerate().take(n) {
                    write_u16(bytes, 2 * c, F16.encode(x));
                }
            }
            Layout::Int8 if kind == FormatKind::Unorm && n == 4 => {
                write_u32(bytes, 0, unorm::encode8x4(f))
            }
            Layout::Int8 => {
                for (c, &word) in value.iter().enumerate().take(n) {
                    bytes[c] = packed::encode_field(word, 8, kind) as u8;
                }
            }
            Layout::Int16 => {
                for (c, &word) in value.iter().enumerate().take(n) {
                    write_u16(bytes, 2 * c, packed::encode_field(word, 16, kind));
                }
            }
            Layout::Bgra8 => {
                let [r, g, b, a] = f;
                write_u32(bytes, 0, unorm::encode8x4([b, g, r, a]));
            }
            Layout::Bgrx8 => {
                let [r, g, b, _] = f;
                let [b, g, r] = [b, g, r].map(unorm::encode8);
                bytes[..3].copy_from_slice(&[b, g, r]);
            }
            Layout::Srgb8 | Layout::BgraSrgb8 => {
                let [r, g, b] = [f[0], f[1], f[2]].map(srgb::encode8);
                let a = unorm::encode8(f[3]);
                let texel = if matches!(self, Layout::Srgb8) {
                    [r, g, b, a]
                } else {
                    [b, g, r, a]
                };
                bytes[..4].copy_from_slice(&texel);
            }
            Layout::Alpha8 => bytes[0] = unorm::encode8(f[3]),
            Layout::Luminance8 => bytes[0] = unorm::encode8(f[0]),
            Layout::Luminance16 => write_u16(bytes, 0, unorm::encode(f[0], 16)),
            Layout::LuminanceAlpha8 => {
                bytes[0] = unorm::encode8(f[0]);
                bytes[1] = unorm::encode8(f[3]);
            }
            Layout::Bump8 => {
                for (c, &word) in value.iter().enumerate().take(2) {
                    bytes[c] = packed::encode_field(word, 8, kind) as u8;
                }
            }
            Layout::Packed16(fields) => write_u16(bytes, 0, packed::store(value, fields, kind)),
            Layout::Rgb10A2 => write_u32(bytes, 0, packed::store(value, RGB10A2, kind)),
            Layout::Rg11B10 => {
                let packed = F11.encode(f[0]) | (F11.encode(f[1]) << 11) | (F10.encode(f[2]) << 22);
                write_u32(bytes, 0, packed);
            }
            Layout::Rgb9e5
            | Layout::Depth16
            | Layout::Depth24
            | Layout::Depth32F
            | Layout::Block(_) => {}
        }
    }
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn read_u16(bytes: &[u8], at: usize) -> u32 {
    u32::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
}

fn write_u32(bytes: &mut [u8], at: usize, word: u32) {
    bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
}

fn write_u16(bytes: &mut [u8], at: usize, half: u32) {
    bytes[at..at + 2].copy_from_slice(&(half as u16).to_le_bytes());
}
