//! The machine's single-precision peak with 128-bit vectors, the ceiling
//! `dxjit bench` compares GFLOP/s against.
//!
//! peak = threads used (at most the cores) × clock × flops per cycle, where
//! the clock is the highest `cpu MHz` in `/proc/cpuinfo` and a core does,
//! per cycle, 4 f32 lanes (the JIT's 128-bit vectors) × 2 flops (a fused
//! multiply-add) × 2 FMA pipes when the CPU has FMA, else 4 lanes × 1 add
//! pipe + 4 lanes × 1 multiply pipe. Two FMA pipes per core is an
//! assumption (true of current x86-64 cores: Zen, Skylake and later), not
//! something the program can read.

/// The inputs of the peak and how they were found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    /// Clock in GHz.
    pub ghz: f64,
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
    /// The peak of this machine, `None` where `/proc/cpuinfo` gives no clock.
    pub fn detect() -> Option<Peak> {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        let mhz = max_mhz(&cpuinfo)?;
        Some(Peak {
            ghz: mhz / 1000.0,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
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
            "{used} core{} x {:.3} GHz (highest cpu MHz in /proc/cpuinfo) x {} flops/cycle ({per_cycle}) = {:.1} GFLOP/s",
            if used == 1 { "" } else { "s" },
            self.ghz,
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
            cores: 2,
            flops_per_cycle: flops_per_cycle(true),
        };
        assert_eq!(peak.flops_per_cycle, 16);
        assert_eq!(peak.gflops(1), 40.0);
        assert_eq!(peak.gflops(2), 80.0);
        assert_eq!(peak.gflops(8), 80.0);
        assert!(peak.explain(2).contains("2 cores x 2.500 GHz"));
    }
}
