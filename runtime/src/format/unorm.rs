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
    (clamped * f64::from(max(bits)) + 0.5).floor() as u32
}

/// [`decode`] of every 8-bit unorm, indexed by its byte.
pub(crate) const UNORM8: [f32; 256] = {
    let mut table = [0.0; 256];
    let mut n = 0;
    while n < 256 {
        table[n] = (n as f64 / 255.0) as f32;
        n += 1;
    }
    table
};

fn max(bits: u32) -> u32 {
    ((1u64 << bits) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::{decode, UNORM8};

    #[test]
    fn unorm8_table_is_decode() {
        for (n, value) in UNORM8.iter().enumerate() {
            assert_eq!(value.to_bits(), decode(n as u32, 8).to_bits(), "{n}");
        }
    }
}
