//! The DXBC container checksum: MD5 with Microsoft's own final-block layout.
//!
//! The MD5 compression function is written out here because no crate on hand
//! exposes it without its standard padding (md-5 0.10 keeps it private).

/// MD5's initial state words.
const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// Computes the checksum of a whole container over `bytes[20..]` (everything
/// after the magic and the checksum field). Shorter input hashes as empty.
///
/// The bytes run through MD5's compression function in 64-byte blocks; the
/// final block differs from standard MD5: the bit length goes in the first
/// word instead of the last two, and the last word holds `(bits >> 2) | 1`.
pub fn checksum(bytes: &[u8]) -> [u32; 4] {
    let data = bytes.get(20..).unwrap_or(&[]);
    let mut state = INIT;
    let full = data.len() / 64 * 64;
    for block in data[..full].chunks_exact(64) {
        compress(&mut state, block);
    }
    let rest = &data[full..];
    let bits = (data.len() as u32).wrapping_mul(8);
    let mut last = [0u8; 64];
    if rest.len() < 56 {
        last[4..4 + rest.len()].copy_from_slice(rest);
        last[4 + rest.len()] = 0x80;
    } else {
        let mut pad = [0u8; 64];
        pad[..rest.len()].copy_from_slice(rest);
        pad[rest.len()] = 0x80;
        compress(&mut state, &pad);
    }
    last[..4].copy_from_slice(&bits.to_le_bytes());
    last[60..].copy_from_slice(&((bits >> 2) | 1).to_le_bytes());
    compress(&mut state, &last);
    state
}

/// Per-round shift amounts.
const SHIFTS: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/// MD5's round constants, `floor(|sin(i + 1)| · 2^32)` (RFC 1321),
/// computed once.
fn round_constants() -> &'static [u32; 64] {
    static K: std::sync::OnceLock<[u32; 64]> = std::sync::OnceLock::new();
    K.get_or_init(|| {
        std::array::from_fn(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32)
    })
}

/// MD5's compression of one 64-byte block into `state` (RFC 1321).
fn compress(state: &mut [u32; 4], block: &[u8]) {
    let constants = round_constants();
    let mut m = [0u32; 16];
    for (w, b) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let rotated = a
            .wrapping_add(f)
            .wrapping_add(constants[i])
            .wrapping_add(m[g])
            .rotate_left(SHIFTS[(i / 16) * 4 + i % 4]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(rotated);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = s.wrapping_add(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compress_matches_md5_of_empty_string() {
        let mut state = INIT;
        let mut block = [0u8; 64];
        block[0] = 0x80;
        compress(&mut state, &block);
        assert_eq!(state[0].to_le_bytes(), [0xd4, 0x1d, 0x8c, 0xd9]);
    }

    #[test]
    fn empty_input_is_stable() {
        assert_eq!(checksum(&[]), checksum(&[0; 20]));
    }
}
