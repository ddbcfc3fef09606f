//! Stopping a call at a deadline: a watchdog thread sets the interrupt flag
//! when the time is up, unless the call returned first.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// The value the watchdog stores in the interrupt flag (any nonzero value
/// stops compiled code; this one tells a deadline from the embedder's flag).
const DEADLINE_HIT: u32 = 0xdead;

/// Runs `f`, setting `flag` if it is still running after `limit`. Returns
/// `f`'s result and whether the deadline stopped it; the flag is cleared
/// again if the watchdog set it. For embedders that run the raw entry
/// points with their own interrupt flag.
pub fn within<R>(flag: &AtomicU32, limit: Duration, f: impl FnOnce() -> R) -> (R, bool) {
    let (done, wait) = channel::<()>();
    std::thread::scope(|s| {
        let dog = s.spawn(move || {
            matches!(wait.recv_timeout(limit), Err(RecvTimeoutError::Timeout))
                && flag
                    .compare_exchange(0, DEADLINE_HIT, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
        });
        let result = f();
        drop(done);
        let fired = dog.join().unwrap_or(false);
        if fired {
            flag.store(0, Ordering::Relaxed);
        }
        (result, fired)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_call_that_returns_in_time_is_not_stopped() {
        let flag = AtomicU32::new(0);
        let (v, fired) = within(&flag, Duration::from_secs(60), || 7);
        assert_eq!((v, fired), (7, false));
        assert_eq!(flag.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_call_past_its_deadline_sees_the_flag_and_it_is_cleared_after() {
        let flag = AtomicU32::new(0);
        let (seen, fired) = within(&flag, Duration::from_millis(1), || {
            let start = Instant::now();
            while flag.load(Ordering::Relaxed) == 0 {
                assert!(start.elapsed() < Duration::from_secs(60), "never stopped");
                std::hint::spin_loop();
            }
            flag.load(Ordering::Relaxed)
        });
        assert_eq!((seen, fired), (DEADLINE_HIT, true));
        assert_eq!(flag.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn an_embedder_flag_already_set_is_left_alone() {
        let flag = AtomicU32::new(1);
        let (_, fired) = within(&flag, Duration::from_millis(1), || {
            std::thread::sleep(Duration::from_millis(20))
        });
        assert!(!fired);
        assert_eq!(flag.load(Ordering::Relaxed), 1);
    }
}
