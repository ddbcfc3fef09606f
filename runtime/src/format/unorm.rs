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

/// [`encode`] of an 8-bit unorm, with the clamp folded into two tests
/// (NaN fails both and gives 0).
#[inline]
pub(crate) fn encode8(value: f32) -> u8 {
    if value >= 1.0 {
        255
    } else if value > 0.0 {
        (f64::from(value) * 255.0 + 0.5) as u8
    } else {
        0
    }
}

/// [`encode8`] of four values, packed little-endian (the first value in
/// the low byte).
#[inline]
pub(crate) fn encode8x4(values: [f32; 4]) -> u32 {
    u32::from_le_bytes(values.map(encode8))
}

fn max(bits: u32) -> u32 {
    ((1u64 << bits) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::{decode, decode8, encode, encode8, encode8x4};

    #[test]
    fn encode8_is_encode() {
        let special = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            0.0,
        ];
        let halves = (0..=510).map(|n| n as f32 / 510.0);
        let near = (0..=255u32).flat_map(|n| {
            let x = n as f32 / 255.0;
            [
                f32::from_bits(x.to_bits().wrapping_sub(1)),
                x,
                f32::from_bits(x.to_bits() + 1),
            ]
        });
        let wide = (0..4096).map(|i| i as f32 / 1024.0 - 1.5);
        let all: Vec<f32> = special
            .into_iter()
            .chain(halves)
            .chain(near)
            .chain(wide)
            .collect();
        for x in &all {
            assert_eq!(u32::from(encode8(*x)), encode(*x, 8), "{x:e}");
        }
        for four in all.windows(4) {
            let want = four
                .iter()
                .rev()
                .fold(0, |acc, x| (acc << 8) | encode(*x, 8));
            assert_eq!(
                encode8x4([four[0], four[1], four[2], four[3]]),
                want,
                "{four:?}"
            );
        }
    }

    #[test]
    fn decode8_is_decode() {
        for n in 0..=255u8 {
            assert_eq!(decode8(n).to_bits(), decode(n.into(), 8).to_bits(), "{n}");
        }
    }
}
