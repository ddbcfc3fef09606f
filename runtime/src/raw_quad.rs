//! The exact, word-by-word paths of raw accesses, for the calls where
//! compiled code cannot take its vectorised path: some lane's four words
//! straddle the end of the buffer (`ld_raw`/`store_raw` of `.xyzw`). Each
//! 32-bit word is bounds-checked on its own.
//!
//! Arguments travel in one block of words: lane `l`'s byte offset at
//! [`OFFSETS`]` + l`, its mask (nonzero: active) at [`MASK`]` + l`, and
//! component `c` of lane `l` at [`COMPONENTS`]` + c * lanes + l`.

/// Word index of the per-lane byte offsets.
pub const OFFSETS: usize = 0;
/// Word index of the per-lane masks.
pub const MASK: usize = 16;
/// Word index of the components.
pub const COMPONENTS: usize = 32;
/// Most lanes a call passes.
pub const MAX_LANES: usize = 16;

/// The byte of word `c` of lane `l` when it lies wholly inside `size` bytes.
fn word_at(offset: u32, c: usize, size: u64) -> Option<usize> {
    let byte = u64::from(offset & !3) + 4 * c as u64;
    (byte + 4 <= size).then_some(byte as usize)
}

/// Loads four words per lane; words past the end read 0.
///
/// # Safety
/// `ptr` is readable for `size` bytes; `args` holds the block described in
/// the module documentation for `lanes` (at most [`MAX_LANES`]) lanes.
pub unsafe extern "C" fn dxjit_raw_load4(ptr: *const u8, size: u64, args: *mut u32, lanes: u32) {
    let lanes = (lanes as usize).min(MAX_LANES);
    for l in 0..lanes {
        // SAFETY: the block has room for MAX_LANES offsets.
        let offset = unsafe { *args.add(OFFSETS + l) };
        for c in 0..4 {
            let word = match word_at(offset, c, size) {
                // SAFETY: `word_at` checked the four bytes lie inside the buffer.
                Some(b) => unsafe { (ptr.add(b) as *const u32).read_unaligned() },
                None => 0,
            };
            // SAFETY: the block has room for 4 * MAX_LANES components.
            unsafe { *args.add(COMPONENTS + c * lanes + l) = word };
        }
    }
}

/// Stores four words per active lane, component by component across the
/// lanes; words past the end are dropped.
///
/// # Safety
/// `ptr` is writable for `size` bytes; `args` holds the block described in
/// the module documentation for `lanes` (at most [`MAX_LANES`]) lanes.
pub unsafe extern "C" fn dxjit_raw_store4(ptr: *mut u8, size: u64, args: *const u32, lanes: u32) {
    let lanes = (lanes as usize).min(MAX_LANES);
    for c in 0..4 {
        for l in 0..lanes {
            // SAFETY: the block has room for MAX_LANES offsets, masks and 4 * MAX_LANES components.
            let (offset, active, word) = unsafe {
                (
                    *args.add(OFFSETS + l),
                    *args.add(MASK + l),
                    *args.add(COMPONENTS + c * lanes + l),
                )
            };
            if active == 0 {
                continue;
            }
            if let Some(b) = word_at(offset, c, size) {
                // SAFETY: `word_at` checked the four bytes lie inside the buffer.
                unsafe { (ptr.add(b) as *mut u32).write_unaligned(word) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(offsets: &[u32], mask: &[u32], comps: &[[u32; 4]]) -> Vec<u32> {
        let lanes = offsets.len();
        let mut b = vec![0u32; COMPONENTS + 4 * MAX_LANES];
        b[OFFSETS..OFFSETS + lanes].copy_from_slice(offsets);
        b[MASK..MASK + lanes].copy_from_slice(mask);
        for (l, v) in comps.iter().enumerate() {
            for c in 0..4 {
                b[COMPONENTS + c * lanes + l] = v[c];
            }
        }
        b
    }

    #[test]
    fn straddling_loads_read_zero_past_the_end() {
        let buf: Vec<u8> = (0u8..24).collect();
        let mut args = block(&[0, 14, 21, 24], &[0; 4], &[[0; 4]; 4]);
        // SAFETY: `buf` is readable for its length; `args` is a whole block.
        unsafe { dxjit_raw_load4(buf.as_ptr(), 24, args.as_mut_ptr(), 4) };
        let word = |b: usize| u32::from_le_bytes([b as u8, b as u8 + 1, b as u8 + 2, b as u8 + 3]);
        let got: Vec<[u32; 4]> = (0..4)
            .map(|l| [0, 1, 2, 3].map(|c| args[COMPONENTS + c * 4 + l]))
            .collect();
        assert_eq!(got[0], [word(0), word(4), word(8), word(12)]);
        // Offset 14 is aligned down to 12: words at 12, 16, 20 fit, 24 does not.
        assert_eq!(got[1], [word(12), word(16), word(20), 0]);
        assert_eq!(got[2], [word(20), 0, 0, 0]);
        assert_eq!(got[3], [0, 0, 0, 0]);
    }

    #[test]
    fn straddling_stores_write_only_active_in_bounds_words() {
        let mut buf = vec![0xaau8; 20];
        let args = block(
            &[8, 0, 12, u32::MAX],
            &[u32::MAX, 0, u32::MAX, u32::MAX],
            &[
                [1, 2, 3, 4],
                [5, 6, 7, 8],
                [9, 10, 11, 12],
                [13, 14, 15, 16],
            ],
        );
        // SAFETY: `buf` is writable for its length; `args` is a whole block.
        unsafe { dxjit_raw_store4(buf.as_mut_ptr(), 20, args.as_ptr(), 4) };
        let words: Vec<u32> = buf
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // Lane 1 is masked off; lane 3's offset is far past the end. In
        // component order, lane 0's later components land after lane 2's
        // earlier ones: word 3 is 9 then 2, word 4 is 10 then 3.
        assert_eq!(words, vec![0xaaaaaaaa, 0xaaaaaaaa, 1, 2, 3]);
    }
}
