//! Patterned test values: finite floats and small integers that differ from
//! one position to the next, so a shader reading them sees varied but tame
//! data (no NaN, no infinity, nothing huge).

/// A finite float in [-1, 1] in steps of 1/8, different for neighbouring `i`.
pub fn float(i: usize) -> f32 {
    ((i * 7 + 3) % 17) as f32 / 8.0 - 1.0
}

/// `n` words holding [`float`] of their position offset by `seed`.
pub fn float_words(n: usize, seed: usize) -> Vec<u32> {
    (0..n).map(|i| float(i + seed).to_bits()).collect()
}

/// A small non-negative integer (0..8), friendly as an index or loop count.
pub fn small_int(i: usize) -> u32 {
    ((i * 5 + 1) % 8) as u32
}

/// `n` words holding [`small_int`] of their position offset by `seed`.
pub fn int_words(n: usize, seed: usize) -> Vec<u32> {
    (0..n).map(|i| small_int(i + seed)).collect()
}

/// `n` words of arbitrary bytes (for unorm texels, where every bit pattern
/// is a valid value).
pub fn byte_words(n: usize, seed: usize) -> Vec<u32> {
    (0..n)
        .map(|i| ((i + seed) as u32).wrapping_mul(0x9e37_79b9).rotate_left(7))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_finite_tame_and_varied() {
        let words = float_words(64, 3);
        assert!(words
            .iter()
            .all(|w| f32::from_bits(*w).is_finite() && f32::from_bits(*w).abs() <= 1.0));
        assert_ne!(words[0], words[1]);
    }

    #[test]
    fn ints_are_small() {
        assert!(int_words(64, 0).iter().all(|w| *w < 8));
    }
}
