//! Texture addressing: where a texel index outside the texture lands.

use super::Address;

/// The texel index `i` of an axis `n` texels long resolves to under `mode`,
/// or `None` when the border colour is used instead.
///
/// Every mode keeps an index inside the axis, so that common case returns
/// at once; wrap and mirror on power-of-two axes mask instead of dividing
/// (the same result as the Euclidean remainder, in two's complement).
#[inline]
pub(crate) fn resolve(mode: Address, i: i64, n: u32) -> Option<u32> {
    let n = i64::from(n);
    if (0..n).contains(&i) {
        return Some(i as u32);
    }
    let modulo = |i: i64, m: i64| {
        if m & (m - 1) == 0 {
            i & (m - 1)
        } else {
            i.rem_euclid(m)
        }
    };
    let index = match mode {
        Address::Wrap => modulo(i, n),
        Address::Mirror => {
            let m = modulo(i, 2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        Address::Clamp => i.clamp(0, n - 1),
        Address::Border => return None,
        Address::MirrorOnce => {
            let m = if i < 0 { -1 - i } else { i };
            m.min(n - 1)
        }
    };
    Some(index as u32)
}

#[cfg(test)]
mod tests {
    use super::{resolve, Address};

    /// The definition: Euclidean remainders, clamps and the border test.
    fn reference(mode: Address, i: i64, n: u32) -> Option<u32> {
        let n = i64::from(n);
        let index = match mode {
            Address::Wrap => i.rem_euclid(n),
            Address::Mirror => {
                let m = i.rem_euclid(2 * n);
                if m >= n {
                    2 * n - 1 - m
                } else {
                    m
                }
            }
            Address::Clamp => i.clamp(0, n - 1),
            Address::Border if (0..n).contains(&i) => i,
            Address::Border => return None,
            Address::MirrorOnce => {
                let m = if i < 0 { -1 - i } else { i };
                m.min(n - 1)
            }
        };
        Some(index as u32)
    }

    #[test]
    fn matches_the_definition() {
        let modes = [
            Address::Wrap,
            Address::Mirror,
            Address::Clamp,
            Address::Border,
            Address::MirrorOnce,
        ];
        let sizes = [1, 2, 3, 4, 5, 7, 8, 256, 1000, 1024, 1 << 31, u32::MAX];
        let far = [i64::MIN, i64::MIN + 1, i64::MAX - 1, i64::MAX, 1 << 40];
        for mode in modes {
            for n in sizes {
                let near = (-70..70).chain([-i64::from(n), i64::from(n), 2 * i64::from(n)]);
                for i in near.chain(far).chain(far.map(|f| f / 3)) {
                    assert_eq!(
                        resolve(mode, i, n),
                        reference(mode, i, n),
                        "{mode:?} {i} {n}"
                    );
                }
            }
        }
    }
}
