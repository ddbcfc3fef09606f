//! Signed normalized integers and their conversions to and from f32.

/// The f32 value of a `bits`-wide snorm held in the low bits of `n`:
/// `n / (2^(bits-1) - 1)`, correctly rounded, where both the most negative
/// integer and the one above it give -1.0.
pub(crate) fn decode(n: u32, bits: u32) -> f32 {
    let max = max(bits);
    let value = sign_extend(n, bits).max(-max);
    (f64::from(value) / f64::from(max)) as f32
}

/// The `bits`-wide snorm of `value` (in the low bits of the result) as D3D
/// converts: NaN becomes 0, the value is clamped to [-1, 1], scaled by
/// `2^(bits-1) - 1` and rounded to the nearest integer (halves away from
/// zero), so -1.0 becomes the second most negative integer.
pub(crate) fn encode(value: f32, bits: u32) -> u32 {
    if value.is_nan() {
        return 0;
    }
    let scaled = (f64::from(value.clamp(-1.0, 1.0)) * f64::from(max(bits))).round();
    (scaled as i32 as u32) & ((1u32 << bits) - 1)
}

/// The signed value of the `bits`-wide two's-complement integer in the low
/// bits of `n`.
pub(crate) fn sign_extend(n: u32, bits: u32) -> i32 {
    let unused = 32 - bits;
    ((n << unused) as i32) >> unused
}

fn max(bits: u32) -> i32 {
    (1 << (bits - 1)) - 1
}
