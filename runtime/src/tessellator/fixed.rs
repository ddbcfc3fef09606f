//! 16.16 fixed-point numbers, in which the tessellator places every point.
//!
//! The D3D11 tessellator is defined on unsigned 32-bit words with 16
//! fractional bits; doing the same arithmetic (including its wrapping and
//! truncating divisions) is what makes the output bit-exact.

/// An unsigned 16.16 fixed-point value.
pub(crate) type Fixed = u32;

/// Number of fractional bits.
pub(crate) const FRACTION_BITS: u32 = 16;
/// 1.0.
pub(crate) const ONE: Fixed = 1 << FRACTION_BITS;
/// 0.5, the exact middle of an edge.
pub(crate) const HALF: Fixed = 0x8000;
/// 1/3 truncated, the centre of the triangle domain.
pub(crate) const ONE_THIRD: Fixed = 0x5555;
/// 2/3 truncated, the step from an edge parameter to a ring's inset.
pub(crate) const TWO_THIRDS: Fixed = 0xaaaa;

const FRACTION_MASK: Fixed = 0x0000_ffff;
const INTEGER_MASK: Fixed = 0x7fff_0000;

/// Converts a float to unsigned 15.16 fixed point, rounding to nearest with
/// ties to even; NaN and negative values give 0, values from 2^15 up
/// saturate to all ones (the spec's float-to-fixed conversion).
pub(crate) fn from_f32(value: f32) -> Fixed {
    if value.is_nan() || value <= 0.0 {
        0
    } else if value >= 32768.0 {
        u32::MAX
    } else {
        // Scaling by 2^16 is exact for every value in range, so the only
        // rounding is the final one to an integer.
        (value * ONE as f32).round_ties_even() as u32
    }
}

/// Converts a fixed-point value to float: integer part plus fraction/2^16,
/// which is exact for every value the tessellator produces.
pub(crate) fn to_f32(value: Fixed) -> f32 {
    (value >> FRACTION_BITS) as f32 + (value & FRACTION_MASK) as f32 / ONE as f32
}

/// Rounds up to a whole number.
pub(crate) fn ceil(value: Fixed) -> Fixed {
    if value & FRACTION_MASK != 0 {
        (value & INTEGER_MASK) + ONE
    } else {
        value
    }
}

/// Rounds down to a whole number.
pub(crate) fn floor(value: Fixed) -> Fixed {
    value & INTEGER_MASK
}

/// 1/n in fixed point, rounded to nearest, for the segment counts 1..=64
/// an edge can have (none of these quotients is a tie). n = 0 never
/// happens; it gives all ones like the spec's table entry for it.
pub(crate) fn reciprocal(n: u32) -> Fixed {
    (ONE + n / 2).checked_div(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_conversion_rounds_to_nearest_even() {
        assert_eq!(from_f32(1.0), ONE);
        assert_eq!(from_f32(1.5), 0x18000);
        assert_eq!(from_f32(64.0), 64 << 16);
        // 2^-17 is half of the smallest step: the tie goes to even (0);
        // 3 * 2^-17 is a tie between 1 and 2 steps and goes to 2.
        assert_eq!(from_f32(2f32.powi(-17)), 0);
        assert_eq!(from_f32(3.0 * 2f32.powi(-17)), 2);
        assert_eq!(from_f32(1.0 + 2f32.powi(-16)), ONE + 1);
        assert_eq!(from_f32(f32::NAN), 0);
        assert_eq!(from_f32(-3.0), 0);
        assert_eq!(from_f32(40000.0), u32::MAX);
    }

    #[test]
    fn fixed_to_float_is_exact() {
        assert_eq!(to_f32(HALF), 0.5);
        assert_eq!(to_f32(ONE), 1.0);
        assert_eq!(to_f32(ONE_THIRD), 21845.0 / 65536.0);
        assert_eq!(to_f32(ONE + 1), 1.0 + 2f32.powi(-16));
    }

    #[test]
    fn ceil_and_floor() {
        assert_eq!(ceil(0x18000), 0x20000);
        assert_eq!(ceil(0x20000), 0x20000);
        assert_eq!(floor(0x1ffff), 0x10000);
    }

    #[test]
    fn reciprocals_match_the_spec_table() {
        // Spot values of the spec's table of 1/n in 16.16.
        let expected = [
            (1, 0x10000),
            (2, 0x8000),
            (3, 0x5555),
            (6, 0x2aab),
            (7, 0x2492),
            (9, 0x1c72),
            (10, 0x199a),
            (17, 0xf0f),
            (41, 0x63e),
            (63, 0x410),
            (64, 0x400),
        ];
        for (n, r) in expected {
            assert_eq!(reciprocal(n), r, "1/{n}");
        }
    }
}
