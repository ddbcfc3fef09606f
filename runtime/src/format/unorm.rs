//! Unsigned normalized integers and their conversions to and from f32.

/// The f32 value of an `bits`-wide unorm: `n / (2^bits - 1)`, correctly rounded.
pub(crate) fn decode(n: u32, bits: u32) -> f32 {
    (f64::from(n) / f64::from(max(bits))) as f32
}

/// The `bits`-wide unorm of `value` as D3D converts: NaN becomes 0, the value
/// is clamped to [0, 1], scaled by `2^bits - 1`, and rounded to the nearest
/// integer (halves up).
pub(crate) fn encode(value: f32, bits: u32) -> u32 {
    if value.is_nan() {
        return 0;
    }
    let clamped = f64::from(value.clamp(0.0, 1.0));
    // At least 0.5, so truncating is flooring.
    (clamped * f64::from(max(bits)) + 0.5) as u32
}

/// [`decode`] of an 8-bit unorm. The single-precision division rounds
/// every `n / 255` as the double-precision one rounded to f32 does (the
/// tests check all 256), and four of them compile to one vector division.
#[inline]
pub(crate) fn decode8(n: u8) -> f32 {
    f32::from(n) / 255.0
}

fn max(bits: u32) -> u32 {
    ((1u64 << bits) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::{decode, decode8};

    #[test]
    fn decode8_is_decode() {
        for n in 0..=255u8 {
            assert_eq!(decode8(n).to_bits(), decode(n.into(), 8).to_bits(), "{n}");
        }
    }
}
