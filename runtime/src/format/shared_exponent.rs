//! `rgb9e5`: three 9-bit mantissas (r in the low bits) and a 5-bit exponent
//! in the top bits, shared by all three.

/// The r, g, b of the packed word: each mantissa × 2^(exponent − 15 − 9),
/// exact in f32. There are no denormal, infinite or NaN encodings.
pub(super) fn decode(packed: u32) -> [f32; 3] {
    let exponent = (packed >> 27) as i32;
    let scale = 2f32.powi(exponent - 15 - 9);
    [0, 9, 18].map(|shift| ((packed >> shift) & 0x1ff) as f32 * scale)
}
