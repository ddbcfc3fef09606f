//! The reference memory rate: a parallel `memcpy` of a case's bound bytes
//! on the threads of the current rayon pool.

use rayon::prelude::*;
use std::time::Instant;

/// Timed copies; the median is reported.
const RUNS: usize = 7;

/// Chunks per thread, so a slow thread does not hold up the copy.
const CHUNKS_PER_THREAD: usize = 4;

/// Fewer bound bytes than this get no reference: a copy that small times
/// the clock and the pool rather than memory.
pub const MIN_BYTES: u64 = 1 << 20;

/// The smallest chunk handed to a thread: a small copy runs on one thread,
/// and so measures copying rather than waking the pool.
const MIN_CHUNK: usize = 64 * 1024;

/// Bytes per second a parallel copy touches when it moves `bytes / 2`
/// bytes (reads half, writes half: every one of `bytes` touched once, as
/// the case's views are counted), median of [`RUNS`] after one warm-up;
/// `None` below [`MIN_BYTES`].
pub fn memcpy_rate(bytes: u64) -> Option<f64> {
    if bytes < MIN_BYTES {
        return None;
    }
    let half = usize::try_from(bytes / 2).ok()?;
    let src = vec![0x5au8; half];
    let mut dst = vec![0u8; half];
    let chunk = half
        .div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD)
        .max(MIN_CHUNK);
    let mut copy = || {
        let t = Instant::now();
        dst.par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .for_each(|(d, s)| d.copy_from_slice(s));
        t.elapsed().as_secs_f64()
    };
    copy();
    let mut times: Vec<f64> = (0..RUNS).map(|_| copy()).collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    (median > 0.0).then(|| (2 * half) as f64 / median)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_few_bytes_have_no_rate() {
        assert_eq!(memcpy_rate(0), None);
        assert_eq!(memcpy_rate(MIN_BYTES - 1), None);
    }
}
