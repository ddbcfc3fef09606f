//! A progress bar on stderr for work that lasts: it appears once the work
//! has run for a second, and only when stderr is a terminal, so piped
//! output and short runs print nothing extra.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long work runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Progress through a known number of steps (timed iterations).
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    terminal: bool,
    shown: bool,
}

impl Progress {
    /// A bar for `steps` steps, drawn on stderr once it is due.
    pub fn new(steps: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} iterations, {elapsed} (eta {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// Names what runs now (the point of a sweep).
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    /// Marks one step done, and shows the bar when it is due.
    pub fn step(&mut self) {
        self.bar.inc(1);
        if !self.shown && due(self.terminal, self.started.elapsed()) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Whether a bar should be drawn: on a terminal, after [`DELAY`].
fn due(terminal: bool, elapsed: Duration) -> bool {
    terminal && elapsed >= DELAY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_only_on_a_terminal_after_a_second() {
        assert!(!due(false, Duration::from_secs(10)));
        assert!(!due(true, Duration::from_millis(999)));
        assert!(due(true, Duration::from_secs(1)));
    }

    #[test]
    fn steps_count_while_hidden() {
        let mut p = Progress::new(3);
        p.step();
        p.step();
        assert_eq!(p.bar.position(), 2);
    }
}
