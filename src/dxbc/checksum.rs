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

/// MD5's round constants, `floor(|sin(i + 1)| · 2^32)` (RFC 1321; a test
/// checks them against the formula).
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// One MD5 step: `a` advanced by round function value `f`, message word
/// `m`, constant `k` and rotation `s`, on top of `b`.
#[inline(always)]
fn step(a: u32, b: u32, f: u32, m: u32, k: u32, s: u32) -> u32 {
    b.wrapping_add(
        a.wrapping_add(f)
            .wrapping_add(k)
            .wrapping_add(m)
            .rotate_left(s),
    )
}

/// MD5's compression of one 64-byte block into `state` (RFC 1321), one
/// loop per round so that each unrolls with its function and indices.
fn compress(state: &mut [u32; 4], block: &[u8]) {
    let mut m = [0u32; 16];
    for (w, b) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..16 {
        let f = (b & c) | (!b & d);
        let next = step(a, b, f, m[i], K[i], SHIFTS[i % 4]);
        (a, d, c, b) = (d, c, b, next);
    }
    for i in 16..32 {
        let f = (d & b) | (!d & c);
        let next = step(a, b, f, m[(5 * i + 1) % 16], K[i], SHIFTS[4 + i % 4]);
        (a, d, c, b) = (d, c, b, next);
    }
    for i in 32..48 {
        let f = b ^ c ^ d;
        let next = step(a, b, f, m[(3 * i + 5) % 16], K[i], SHIFTS[8 + i % 4]);
        (a, d, c, b) = (d, c, b, next);
    }
    for i in 48..64 {
        let f = c ^ (b | !d);
        let next = step(a, b, f, m[(7 * i) % 16], K[i], SHIFTS[12 + i % 4]);
        (a, d, c, b) = (d, c, b, next);
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
    fn round_constants_are_the_sines() {
        for (i, &k) in K.iter().enumerate() {
            let sine = ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32;
            assert_eq!(k, sine, "constant {i}");
        }
    }

    #[test]
    fn empty_input_is_stable() {
        assert_eq!(checksum(&[]), checksum(&[0; 20]));
    }
}
