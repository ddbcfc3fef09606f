//! Texel formats of typed views and render targets, and their conversions.
//!
//! [`Format::load`] turns a texel's bytes into the four 32-bit words a shader
//! reads and [`Format::store`] turns a shader's words back into bytes, each
//! as Direct3D converts.
//! Texels are little-endian.

mod small_float;
mod unorm;

pub(crate) use unorm::decode8;

use small_float::{F10, F11, F16};

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

/// How a format's bytes are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// One 32-bit word per component.
    Words,
    /// One IEEE half per component.
    Half,
    /// One 8-bit unorm per component.
    Unorm8,
    /// One 16-bit unorm per component.
    Unorm16,
    /// Four 8-bit unorms in b, g, r, a order.
    Bgra8,
    /// 10:10:10:2 unorm in one word, r lowest.
    Rgb10A2,
    /// 11:11:10 unsigned floats in one word, r lowest.
    Rg11B10,
}

impl Format {
    /// Every format, in id order.
    pub const ALL: [Format; 18] = [
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
    ];

    /// The format a case file names (`"rgba8_unorm"`, ...).
    pub fn from_name(name: &str) -> Option<Format> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format whose id ([`crate::abi::View::format`]) is `id`.
    pub fn from_id(id: u32) -> Option<Format> {
        Self::ALL.into_iter().find(|&f| f as u32 == id)
    }

    /// The name case files use.
    pub fn name(self) -> &'static str {
        match self {
            Format::R32Uint => "r32_uint",
            Format::R32Sint => "r32_sint",
            Format::R32Float => "r32_float",
            Format::Rg32Uint => "rg32_uint",
            Format::Rg32Sint => "rg32_sint",
            Format::Rg32Float => "rg32_float",
            Format::Rgba32Uint => "rgba32_uint",
            Format::Rgba32Sint => "rgba32_sint",
            Format::Rgba32Float => "rgba32_float",
            Format::R16Float => "r16_float",
            Format::Rgba16Float => "rgba16_float",
            Format::R8Unorm => "r8_unorm",
            Format::Rgba8Unorm => "rgba8_unorm",
            Format::Bgra8Unorm => "bgra8_unorm",
            Format::R16Unorm => "r16_unorm",
            Format::Rgba16Unorm => "rgba16_unorm",
            Format::R10g10b10a2Unorm => "r10g10b10a2_unorm",
            Format::R11g11b10Float => "r11g11b10_float",
        }
    }

    /// Bytes of one texel.
    pub fn bytes_per_texel(self) -> u32 {
        match self.layout() {
            Layout::Words => 4 * self.components(),
            Layout::Half | Layout::Unorm16 => 2 * self.components(),
            Layout::Unorm8 => self.components(),
            Layout::Bgra8 | Layout::Rgb10A2 | Layout::Rg11B10 => 4,
        }
    }

    /// Components the format stores (1 to 4).
    pub fn components(self) -> u32 {
        match self {
            Format::R32Uint
            | Format::R32Sint
            | Format::R32Float
            | Format::R16Float
            | Format::R8Unorm
            | Format::R16Unorm => 1,
            Format::Rg32Uint | Format::Rg32Sint | Format::Rg32Float => 2,
            Format::R11g11b10Float => 3,
            Format::Rgba32Uint
            | Format::Rgba32Sint
            | Format::Rgba32Float
            | Format::Rgba16Float
            | Format::Rgba8Unorm
            | Format::Bgra8Unorm
            | Format::Rgba16Unorm
            | Format::R10g10b10a2Unorm => 4,
        }
    }

    /// How the components are stored.
    pub fn kind(self) -> FormatKind {
        match self {
            Format::R32Uint | Format::Rg32Uint | Format::Rgba32Uint => FormatKind::Uint,
            Format::R32Sint | Format::Rg32Sint | Format::Rgba32Sint => FormatKind::Sint,
            Format::R32Float
            | Format::Rg32Float
            | Format::Rgba32Float
            | Format::R16Float
            | Format::Rgba16Float
            | Format::R11g11b10Float => FormatKind::Float,
            Format::R8Unorm
            | Format::Rgba8Unorm
            | Format::Bgra8Unorm
            | Format::R16Unorm
            | Format::Rgba16Unorm
            | Format::R10g10b10a2Unorm => FormatKind::Unorm,
        }
    }

    fn layout(self) -> Layout {
        match self {
            Format::R16Float | Format::Rgba16Float => Layout::Half,
            Format::R8Unorm | Format::Rgba8Unorm => Layout::Unorm8,
            Format::Bgra8Unorm => Layout::Bgra8,
            Format::R16Unorm | Format::Rgba16Unorm => Layout::Unorm16,
            Format::R10g10b10a2Unorm => Layout::Rgb10A2,
            Format::R11g11b10Float => Layout::Rg11B10,
            _ => Layout::Words,
        }
    }

    /// The four words a shader reads for the texel in `bytes` (at least
    /// [`Format::bytes_per_texel`] of them): float and unorm components as
    /// f32 bits, integer components as the stored words. Components the
    /// format lacks read as 0, 0, 0 and 1 (1.0 for float and unorm formats,
    /// the integer 1 for uint and sint ones). `bgra8_unorm` reads as r, g, b, a.
    pub fn load(self, bytes: &[u8]) -> [u32; 4] {
        let one = match self.kind() {
            FormatKind::Uint | FormatKind::Sint => 1,
            FormatKind::Float | FormatKind::Unorm => ONE_F32,
        };
        let mut out = [0, 0, 0, one];
        let n = self.components() as usize;
        match self.layout() {
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
            Layout::Unorm8 => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = decode8(bytes[c]).to_bits();
                }
            }
            Layout::Unorm16 => {
                for (c, word) in out.iter_mut().enumerate().take(n) {
                    *word = unorm::decode(read_u16(bytes, 2 * c), 16).to_bits();
                }
            }
            Layout::Bgra8 => {
                for (c, word) in out.iter_mut().enumerate() {
                    *word = decode8(bytes[BGRA[c]]).to_bits();
                }
            }
            Layout::Rgb10A2 => {
                let packed = read_u32(bytes, 0);
                for (c, word) in out.iter_mut().enumerate() {
                    let (shift, bits) = RGB10A2[c];
                    *word = unorm::decode((packed >> shift) & mask(bits), bits).to_bits();
                }
            }
            Layout::Rg11B10 => {
                let packed = read_u32(bytes, 0);
                out[0] = F11.decode(packed).to_bits();
                out[1] = F11.decode(packed >> 11).to_bits();
                out[2] = F10.decode(packed >> 22).to_bits();
            }
        }
        out
    }

    /// Writes the texel a shader's four words give into `bytes` (at least
    /// [`Format::bytes_per_texel`] of them), as D3D converts: float to unorm
    /// turns NaN into 0, saturates and rounds to nearest; float to half and to
    /// the 11/10-bit floats rounds toward zero, keeps NaN and infinities, and
    /// turns finite overflow into the largest finite value (negatives become 0
    /// in the unsigned 11/10-bit floats); 32-bit components are stored as is.
    /// Components the format lacks are ignored.
    #[inline]
    pub fn store(self, value: [u32; 4], bytes: &mut [u8]) {
        let n = self.components() as usize;
        let f = value.map(f32::from_bits);
        match self.layout() {
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
            Layout::Unorm8 if n == 4 => {
                write_u32(bytes, 0, u32::from_le_bytes(f.map(unorm::encode8)))
            }
            Layout::Unorm8 => {
                for (c, &x) in f.iter().enumerate().take(n) {
                    bytes[c] = unorm::encode8(x);
                }
            }
            Layout::Unorm16 => {
                for (c, &x) in f.iter().enumerate().take(n) {
                    write_u16(bytes, 2 * c, unorm::encode(x, 16));
                }
            }
            Layout::Bgra8 => {
                let [r, g, b, a] = f;
                write_u32(bytes, 0, unorm::encode8x4([b, g, r, a]));
            }
            Layout::Rgb10A2 => {
                let packed = f.iter().zip(RGB10A2).fold(0, |acc, (&x, (shift, bits))| {
                    acc | (unorm::encode(x, bits) << shift)
                });
                write_u32(bytes, 0, packed);
            }
            Layout::Rg11B10 => {
                let packed = F11.encode(f[0]) | (F11.encode(f[1]) << 11) | (F10.encode(f[2]) << 22);
                write_u32(bytes, 0, packed);
            }
        }
    }
}

/// The bits of 1.0f32, the default alpha of float and unorm formats.
const ONE_F32: u32 = 0x3f80_0000;

/// Byte of each of r, g, b, a in a `bgra8_unorm` texel.
const BGRA: [usize; 4] = [2, 1, 0, 3];

/// (shift, width) of each of r, g, b, a in a `r10g10b10a2_unorm` texel.
const RGB10A2: [(u32, u32); 4] = [(0, 10), (10, 10), (20, 10), (30, 2)];

fn mask(bits: u32) -> u32 {
    (1 << bits) - 1
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
