//! The machine's single-precision peak with 128-bit vectors, the ceiling
//! `dxjit bench` compares GFLOP/s against.
//!
//! peak = threads used (at most the cores) × clock × flops per cycle, where
//! a core does, per cycle, 4 f32 lanes (the JIT's 128-bit vectors) × 2
//! flops (a fused multiply-add) × 2 FMA pipes when the CPU has FMA, else 4
//! lanes × 1 add pipe + 4 lanes × 1 multiply pipe. Two FMA pipes per core
//! is an assumption (true of current x86-64 cores: Zen, Skylake and
//! later), not something the program can read.
//!
//! The clock is measured: every core runs at once a chain of steps
//! `x = (x * f) ^ (x >> 29)`, each a 64-bit multiply (3 cycles on x86-64
//! cores) then an exclusive or (1 cycle), which no compiler can shorten;
//! the slowest core's rate counts. `/proc/cpuinfo`'s `cpu MHz` is
//! what the kernel last saw, which on a boosting or virtual machine can be
//! far from the running clock (2.6 GHz read where cores ran at 3.65), and
//! is the fallback.

/// The inputs of the peak and how they were found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    /// Clock in GHz.
    pub ghz: f64,
    /// Whether `ghz` was measured (else read from `/proc/cpuinfo`).
    pub measured: bool,
    /// Cores the operating system offers.
    pub cores: usize,
    /// Single-precision flops one core can do per cycle.
    pub flops_per_cycle: u32,
}

/// f32 lanes in one 128-bit vector.
const LANES: u32 = 4;
/// FMA pipes per core (assumed).
const FMA_PIPES: u32 = 2;

impl Peak {
    /// The peak of this machine, `None` where the clock can be neither
    /// measured nor read.
    pub fn detect() -> Option<Peak> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (ghz, measured) = match measured_ghz(cores) {
            Some(ghz) => (ghz, true),
            None => {
                let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
                (max_mhz(&cpuinfo)? / 1000.0, false)
            }
        };
        Some(Peak {
            ghz,
            measured,
            cores,
            flops_per_cycle: flops_per_cycle(has_fma()),
        })
    }

    /// GFLOP/s `threads` threads can reach (threads beyond the cores add nothing).
    pub fn gflops(&self, threads: usize) -> f64 {
        threads.min(self.cores) as f64 * self.ghz * f64::from(self.flops_per_cycle)
    }

    /// How the peak of `threads` threads is computed, in words.
    pub fn explain(&self, threads: usize) -> String {
        let used = threads.min(self.cores);
        let per_cycle = if self.flops_per_cycle == flops_per_cycle(true) {
            format!("{LANES} f32 lanes x 2 (FMA) x {FMA_PIPES} FMA pipes, assumed")
        } else {
            format!("{LANES} f32 lanes x (1 add + 1 mul pipe), no FMA")
        };
        format!(
            "{used} core{} x {:.3} GHz ({}) x {} flops/cycle ({per_cycle}) = {:.1} GFLOP/s",
            if used == 1 { "" } else { "s" },
            self.ghz,
            if self.measured {
                "measured: dependent multiply-xor steps on every core, 4 cycles each"
            } else {
                "highest cpu MHz in /proc/cpuinfo"
            },
            self.flops_per_cycle,
            self.gflops(threads)
        )
    }
}

/// Flops per core and cycle with 128-bit vectors.
fn flops_per_cycle(fma: bool) -> u32 {
    if fma {
        LANES * 2 * FMA_PIPES
    } else {
        LANES * 2
    }
}

fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Steps in one clock measurement: about 25 ms at 3.6 GHz.
const CHAIN: u64 = 22_000_000;

/// Cycles one step of the chain takes: a 64-bit multiply's latency on
/// x86-64 cores (Intel since Nehalem, AMD since Zen) and an exclusive or.
const CYCLES_PER_STEP: f64 = 4.0;

/// The clock in GHz of the slowest of `cores` threads running the chain at
/// once; `None` off x86-64 (where the step's latency is not known).
fn measured_ghz(cores: usize) -> Option<f64> {
    if !cfg!(target_arch = "x86_64") {
        return None;
    }
    let rates: Vec<f64> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..cores).map(|_| s.spawn(chain_ghz)).collect();
        threads.into_iter().filter_map(|t| t.join().ok()).collect()
    });
    rates.into_iter().reduce(f64::min).filter(|ghz| *ghz > 0.1)
}

/// The clock one thread sees: [`CHAIN`] dependent steps in the time they
/// took.
fn chain_ghz() -> f64 {
    let factor = std::hint::black_box(0x9e37_79b9_7f4a_7c15u64);
    let mut x = std::hint::black_box(1u64);
    let started = std::time::Instant::now();
    for _ in 0..CHAIN {
        x = x.wrapping_mul(factor) ^ (x >> 29);
    }
    let seconds = started.elapsed().as_secs_f64();
    std::hint::black_box(x);
    CYCLES_PER_STEP * CHAIN as f64 / seconds / 1e9
}

/// The highest `cpu MHz` of a `/proc/cpuinfo` text.
pub fn max_mhz(cpuinfo: &str) -> Option<f64> {
    cpuinfo
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == "cpu MHz")
                .then(|| value.trim().parse::<f64>().ok())
                .flatten()
        })
        .filter(|mhz| *mhz > 0.0)
        .reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_highest_clock() {
        let text = "processor\t: 0\ncpu MHz\t\t: 2445.422\nflags\t: fma\n\nprocessor\t: 1\ncpu MHz\t\t: 2900.000\n";
        assert_eq!(max_mhz(text), Some(2900.0));
        assert_eq!(max_mhz("model name\t: x\n"), None);
    }

    #[test]
    fn peak_is_cores_times_clock_times_flops_per_cycle() {
        let peak = Peak {
            ghz: 2.5,
            measured: false,
            cores: 2,
            flops_per_cycle: flops_per_cycle(true),
        };
        assert_eq!(peak.flops_per_cycle, 16);
        assert_eq!(peak.gflops(1), 40.0);
        assert_eq!(peak.gflops(2), 80.0);
        assert_eq!(peak.gflops(8), 80.0);
        assert!(peak.explain(2).contains("2 cores x 2.500 GHz"));
    }

    #[test]
    fn a_measured_clock_is_no_faster_than_a_core() {
        // No x86-64 core runs at 10 GHz; a compiler that folded the chain
        // would give far more. (How slow it looks depends on what else the
        // machine runs: other tests, other guests. A busy CI host once
        // gave 0.47 GHz, so the test sets no lower bound.)
        if let Some(ghz) = measured_ghz(1) {
            assert!(ghz < 10.0, "{ghz} GHz");
        }
    }
}
