//! The BC1 colour block: two 5:6:5 endpoints and sixteen 2-bit indices.

/// The sixteen r, g, b, a of the 8-byte colour block `block`. With c0 > c1
/// (as 16-bit integers), or whenever `four_colors` (BC2 and BC3), the
/// palette is c0, c1, 2/3·c0 + 1/3·c1 and 1/3·c0 + 2/3·c1; otherwise it is
/// c0, c1, 1/2·c0 + 1/2·c1 and transparent black. Alpha is 1 elsewhere.
pub(super) fn decode(block: &[u8], four_colors: bool) -> [[f64; 4]; 16] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let [e0, e1] = [c0, c1].map(rgb565);
    let mix = |w0: f64, w1: f64, d: f64| {
        let c = |k: usize| (w0 * e0[k] + w1 * e1[k]) / d;
        [c(0), c(1), c(2), 1.0]
    };
    let palette = if four_colors || c0 > c1 {
        [
            mix(1.0, 0.0, 1.0),
            mix(0.0, 1.0, 1.0),
            mix(2.0, 1.0, 3.0),
            mix(1.0, 2.0, 3.0),
        ]
    } else {
        [
            mix(1.0, 0.0, 1.0),
            mix(0.0, 1.0, 1.0),
            mix(1.0, 1.0, 2.0),
            [0.0; 4],
        ]
    };
    let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    std::array::from_fn(|i| palette[((indices >> (2 * i)) & 3) as usize])
}

/// The unorm r, g, b of a 5:6:5 colour (r in the high bits).
fn rgb565(c: u16) -> [f64; 3] {
    let field = |shift: u16, bits: u32| f64::from((c >> shift) & ((1 << bits) - 1));
    [field(11, 5) / 31.0, field(5, 6) / 63.0, field(0, 5) / 31.0]
}
