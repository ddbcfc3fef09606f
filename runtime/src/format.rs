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

/// Every format with its case-file name.
const NAMES: [(Format, &str); 18] = [
    (Format::R32Uint, "r32_uint"),
    (Format::R32Sint, "r32_sint"),
    (Format::R32Float, "r32_float"),
    (Format::Rg32Uint, "rg32_uint"),
    (Format::Rg32Sint, "rg32_sint"),
    (Format::Rg32Float, "rg32_float"),
    (Format::Rgba32Uint, "rgba32_uint"),
    (Format::Rgba32Sint, "rgba32_sint"),
    (Format::Rgba32Float, "rgba32_float"),
    (Format::R16Float, "r16_float"),
    (Format::Rgba16Float, "rgba16_float"),
    (Format::R8Unorm, "r8_unorm"),
    (Format::Rgba8Unorm, "rgba8_unorm"),
    (Format::Bgra8Unorm, "bgra8_unorm"),
    (Format::R16Unorm, "r16_unorm"),
    (Format::Rgba16Unorm, "rgba16_unorm"),
    (Format::R10g10b10a2Unorm, "r10g10b10a2_unorm"),
    (Format::R11g11b10Float, "r11g11b10_float"),
];

impl Format {
    /// The format of a case-file name such as `"rgba8_unorm"`.
    pub fn from_name(name: &str) -> Option<Format> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(f, _)| *f)
    }

    /// The case-file name of the format.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("", |(_, n)| n)
    }

    /// Bytes one texel occupies.
    pub fn bytes_per_texel(self) -> u32 {
        self.bits().iter().sum::<u32>() / 8
    }

    /// Number of components (1 to 4).
    pub fn components(self) -> u32 {
        self.bits().len() as u32
    }

    /// How the components are stored.
    pub fn kind(self) -> FormatKind {
        use Format::*;
        match self {
            R32Uint | Rg32Uint | Rgba32Uint => FormatKind::Uint,
            R32Sint | Rg32Sint | Rgba32Sint => FormatKind::Sint,
            R32Float | Rg32Float | Rgba32Float | R16Float | Rgba16Float | R11g11b10Float => {
                FormatKind::Float
            }
            _ => FormatKind::Unorm,
        }
    }

    /// Texel bytes → the four 32-bit words a shader reads (floats as f32
    /// bits, ints as words; missing components 0, 0, 0, 1).
    pub fn load(self, bytes: &[u8]) -> [u32; 4] {
        let mut packed = 0u128;
        for (i, b) in bytes.iter().take(16).enumerate() {
            packed |= u128::from(*b) << (8 * i);
        }
        let one = match self.kind() {
            FormatKind::Uint | FormatKind::Sint => 1,
            _ => 1.0f32.to_bits(),
        };
        let mut out = [0, 0, 0, one];
        let mut shift = 0;
        for (i, bits) in self.bits().iter().enumerate() {
            let raw = ((packed >> shift) as u64 & ((1u64 << bits) - 1)) as u32;
            shift += bits;
            out[i] = match (self.kind(), bits) {
                (_, 32) => raw,
                (FormatKind::Unorm, _) => (raw as f32 / ((1u64 << bits) - 1) as f32).to_bits(),
                (FormatKind::Float, 16) => small_float_to_f32(raw, 10, true),
                (FormatKind::Float, _) => small_float_to_f32(raw, bits - 5, false),
                _ => raw,
            };
        }
        if self == Format::Bgra8Unorm {
            out.swap(0, 2);
        }
        out
    }

    /// A shader's four words → texel bytes, converted as D3D does (unorm:
    /// saturate, round to nearest).
    pub fn store(self, value: [u32; 4], bytes: &mut [u8]) {
        let mut value = value;
        if self == Format::Bgra8Unorm {
            value.swap(0, 2);
        }
        let mut packed = 0u128;
        let mut shift = 0;
        for (i, bits) in self.bits().iter().enumerate() {
            let max = ((1u64 << bits) - 1) as f32;
            let raw = match (self.kind(), bits) {
                (FormatKind::Unorm, _) => {
                    let f = f32::from_bits(value[i]);
                    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    (f * max).round() as u32
                }
                (_, 32) => value[i],
                (FormatKind::Float, 16) => f32_to_small_float(value[i], 10, true),
                (FormatKind::Float, _) => f32_to_small_float(value[i], bits - 5, false),
                _ => value[i],
            };
            packed |= u128::from(raw) << shift;
            shift += bits;
        }
        for (i, b) in bytes
            .iter_mut()
            .take(self.bytes_per_texel() as usize)
            .enumerate()
        {
            *b = (packed >> (8 * i)) as u8;
        }
    }

    /// Component widths in bits, in memory order.
    fn bits(self) -> &'static [u32] {
        use Format::*;
        match self {
            R32Uint | R32Sint | R32Float => &[32],
            Rg32Uint | Rg32Sint | Rg32Float => &[32, 32],
            Rgba32Uint | Rgba32Sint | Rgba32Float => &[32, 32, 32, 32],
            R16Float | R16Unorm => &[16],
            Rgba16Float | Rgba16Unorm => &[16, 16, 16, 16],
            R8Unorm => &[8],
            Rgba8Unorm | Bgra8Unorm => &[8, 8, 8, 8],
            R10g10b10a2Unorm => &[10, 10, 10, 2],
            R11g11b10Float => &[11, 11, 10],
        }
    }
}

/// A float with a 5-bit exponent and `mant` mantissa bits → f32 bits.
fn small_float_to_f32(raw: u32, mant: u32, signed: bool) -> u32 {
    let sign = if signed { (raw >> 15) & 1 } else { 0 };
    let exp = (raw >> mant) & 0x1f;
    let m = raw & ((1 << mant) - 1);
    let magnitude = if exp == 0x1f {
        f32::from_bits(0x7f80_0000 | (m << (23 - mant)))
    } else if exp == 0 {
        m as f32 / (1u32 << mant) as f32 * 2f32.powi(-14)
    } else {
        (1.0 + m as f32 / (1u32 << mant) as f32) * 2f32.powi(exp as i32 - 15)
    };
    magnitude.to_bits() | (sign << 31)
}

/// f32 bits → a float with a 5-bit exponent and `mant` mantissa bits
/// (round to nearest; unsigned formats clamp negatives to 0).
fn f32_to_small_float(bits: u32, mant: u32, signed: bool) -> u32 {
    let f = f32::from_bits(bits);
    let sign = if signed && f.is_sign_negative() { 1 } else { 0 };
    let a = f.abs();
    let body = if f.is_nan() {
        (0x1f << mant) | 1
    } else if !signed && f < 0.0 {
        0
    } else if a >= 2f32.powi(16) * (2.0 - 2f32.powi(-(mant as i32) - 1)) {
        0x1f << mant
    } else if a < 2f32.powi(-14) {
        (a / 2f32.powi(-14) * (1u32 << mant) as f32).round() as u32
    } else {
        let e = a.log2().floor() as i32;
        let m = ((a / 2f32.powi(e) - 1.0) * (1u32 << mant) as f32).round() as u32;
        (((e + 15) as u32) << mant) + m
    };
    if signed {
        body | (sign << 15)
    } else {
        body
    }
}
