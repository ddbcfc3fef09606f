//! The sRGB transfer curve of `_srgb` formats, as the D3D11.3 functional
//! specification gives it (IEC 61966-2-1), evaluated in f64.

use std::sync::LazyLock;

/// The linear value of the sRGB-encoded `x` in [0, 1].
pub(crate) fn to_linear(x: f64) -> f64 {
    if x <= 0.04045 {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB encoding of the linear `x` in [0, 1].
fn from_linear(x: f64) -> f64 {
    if x <= 0.0031308 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

/// [`to_linear`] of every 8-bit code, rounded to f32.
static DECODE8: LazyLock<[f32; 256]> =
    LazyLock::new(|| std::array::from_fn(|n| to_linear(n as f64 / 255.0) as f32));

/// The linear f32 of an 8-bit sRGB code.
#[inline]
pub(crate) fn decode8(n: u8) -> f32 {
    DECODE8[usize::from(n)]
}

/// The 8-bit sRGB code of the linear `value`: NaN becomes 0, the value is
/// clamped to [0, 1], encoded with the curve, scaled by 255 and rounded to
/// the nearest integer (halves up).
pub(crate) fn encode8(value: f32) -> u8 {
    if value.is_nan() {
        return 0;
    }
    let encoded = from_linear(f64::from(value.clamp(0.0, 1.0)));
    // At least 0.5, so truncating is flooring.
    (encoded * 255.0 + 0.5) as u8
}
