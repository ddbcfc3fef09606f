//! Single-channel blocks: BC4's (also BC3's and BC5's) interpolated channel
//! and BC2's explicit 4-bit alpha.

/// The sixteen values of the 8-byte interpolated block `block`: two 8-bit
/// endpoints (unorm, or snorm when `signed`, where -128 and -127 are both
/// -1) and sixteen 3-bit indices. With e0 > e1 (compared as stored
/// integers) the palette is e0, e1 and six interpolants in sevenths;
/// otherwise e0, e1, four interpolants in fifths, then the range's minimum
/// (0, or -1 when signed) and 1.
pub(super) fn interpolated(block: &[u8], signed: bool) -> [f64; 16] {
    let (e0, e1, above, min) = if signed {
        let [a, b] = [block[0], block[1]].map(|n| n as i8);
        let v = |n: i8| f64::from(n.max(-127)) / 127.0;
        (v(a), v(b), a > b, -1.0)
    } else {
        let v = |n: u8| f64::from(n) / 255.0;
        (v(block[0]), v(block[1]), block[0] > block[1], 0.0)
    };
    let mut palette = [e0, e1, 0.0, 0.0, 0.0, 0.0, min, 1.0];
    let steps = if above { 7 } else { 5 };
    for k in 1..steps {
        let w1 = f64::from(k);
        palette[k as usize + 1] = ((f64::from(steps) - w1) * e0 + w1 * e1) / f64::from(steps);
    }
    let mut bits = 0u64;
    for (k, &byte) in block[2..8].iter().enumerate() {
        bits |= u64::from(byte) << (8 * k);
    }
    std::array::from_fn(|i| palette[((bits >> (3 * i)) & 7) as usize])
}

/// The sixteen alphas of BC2's 8-byte explicit alpha block: 4-bit unorms,
/// texel 0 in the low bits.
pub(super) fn explicit4(block: &[u8]) -> [f64; 16] {
    let mut bits = 0u64;
    for (k, &byte) in block[..8].iter().enumerate() {
        bits |= u64::from(byte) << (8 * k);
    }
    std::array::from_fn(|i| ((bits >> (4 * i)) & 15) as f64 / 15.0)
}
