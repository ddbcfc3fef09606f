//! Texture addressing: where a texel index outside the texture lands.

use super::Address;

/// The texel index `i` of an axis `n` texels long resolves to under `mode`,
/// or `None` when the border colour is used instead.
pub(crate) fn resolve(mode: Address, i: i64, n: u32) -> Option<u32> {
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
