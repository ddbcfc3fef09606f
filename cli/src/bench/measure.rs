//! Times one configuration of a case: its compiles, its repeated action,
//! and the memcpy reference on the same threads.

use super::counts::{count, StaticCounts};
use super::memcpy::memcpy_rate;
use super::progress::Progress;
use crate::case::Case;
use crate::run::{compile_case, prepare, BoundBytes};
use dxjit::{CompileOptions, Tier};
use std::time::{Duration, Instant};

/// Compiles timed to report the median compile time.
pub const COMPILES: usize = 5;

/// How a case's shaders are compiled for a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Build {
    /// The `k` asked for; `None` leaves it to the JIT.
    pub k: Option<usize>,
    /// The tier to time; `None`: the top tier.
    pub tier: Option<Tier>,
    /// Whether the top tier may hand lookups to the runtime's AVX2
    /// filter ([`CompileOptions::wide_sampling`]).
    pub wide_sampling: bool,
}

/// What one configuration measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Worker threads.
    pub threads: usize,
    /// The `k` asked for; `None` leaves it to the JIT.
    pub k: Option<usize>,
    /// Lanes per call of the action's shader (0 without an action).
    pub lanes: u32,
    /// The tier the timed actions ran at: [`Tier::First`] or [`Tier::Top`].
    pub tier: Tier,
    /// Whether the timed code handed its lookups to the runtime's AVX2
    /// filter (asked for, the top tier, and a CPU that has it).
    pub wide_sampling: bool,
    /// Median microseconds until the case's shaders can run: the first
    /// tier's (a default compile runs it at once), or the top tier's when
    /// `--tier top` compiles that tier alone.
    pub compile_us: f64,
    /// Median microseconds of the case's first-tier compiles.
    pub first_tier_us: f64,
    /// Median microseconds of the case's top-tier compiles.
    pub top_tier_us: f64,
    /// The first compile's microseconds (it also pays one-time costs).
    pub first_compile_us: f64,
    /// Whether the action's shader was loaded from the persistent cache
    /// (`--cache`) instead of compiled.
    pub cache_hit: bool,
    /// Milliseconds of each timed action, sorted.
    pub times_ms: Vec<f64>,
    /// Invocations one action runs.
    pub invocations: u64,
    /// Memory bound to the action.
    pub bytes: BoundBytes,
    /// Bytes per second a memcpy of the bound bytes touches on the same
    /// threads (see [`memcpy_rate`]).
    pub memcpy_bytes_per_s: Option<f64>,
    /// What one invocation executes; `None` without an action.
    pub counts: Option<StaticCounts>,
}

impl Point {
    /// The median time of an action.
    pub fn median_ms(&self) -> f64 {
        self.times_ms[self.times_ms.len() / 2]
    }

    /// The fastest action.
    pub fn min_ms(&self) -> f64 {
        self.times_ms[0]
    }

    /// The slowest action.
    pub fn max_ms(&self) -> f64 {
        self.times_ms[self.times_ms.len() - 1]
    }
}

/// The median of a few compiles of `case` at `options`, microseconds.
fn median_compile_us(case: &Case, options: &CompileOptions) -> Result<f64, String> {
    let mut compiles = (0..COMPILES)
        .map(|_| compile_case(case, options))
        .collect::<Result<Vec<f64>, String>>()?;
    compiles.sort_by(f64::total_cmp);
    Ok(compiles[compiles.len() / 2])
}

/// Compiles `case` as `build` says on `threads` threads (`None`: every
/// core), times `iterations` actions (at least one) at its tier after one
/// untimed, and steps `progress`
/// once per timed action. Asking for a `k` the JIT does not compile is an
/// error, and so is an action that runs past `limit`: the untimed one is
/// stopped at `limit`, the timed ones (watched together, so that the
/// watchdog costs nothing per action) at `limit` each.
pub fn measure(
    case: &Case,
    threads: Option<usize>,
    build: Build,
    iterations: u32,
    limit: Duration,
    progress: &mut Progress,
) -> Result<Point, String> {
    let Build {
        k,
        tier: asked,
        wide_sampling,
    } = build;
    let tier = match asked {
        Some(Tier::First) => Tier::First,
        _ => Tier::Top,
    };
    let at = |tier| CompileOptions {
        k,
        tier,
        wide_sampling,
        ..CompileOptions::default()
    };
    let options = at(tier);
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let threads = pool.current_num_threads();
    pool.install(|| {
        // The first compile also pays one-time costs (CPU feature detection,
        // allocator growth); the median of a few is what a compile costs.
        let mut prepared = prepare(case, &options)?;
        if let Some(k) = k {
            if prepared.lanes != 0 && prepared.lanes as usize != 4 * k {
                return Err(format!(
                    "k = {k} is not supported: the JIT compiled {} lanes per call (k = {})",
                    prepared.lanes,
                    prepared.lanes / 4
                ));
            }
        }
        let first_compile_us = prepared.compile_us;
        let first_tier_us = median_compile_us(case, &at(Tier::First))?;
        let top_tier_us = median_compile_us(case, &at(Tier::Top))?;
        prepared.act_within(limit)?;
        let iterations = iterations.max(1);
        let mut times_ms: Vec<f64> = prepared.watched(limit * iterations, |prepared| {
            (0..iterations)
                .map(|_| {
                    let t = Instant::now();
                    prepared.act();
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    progress.step();
                    ms
                })
                .collect()
        })?;
        times_ms.sort_by(f64::total_cmp);
        let bytes = prepared.bound_bytes();
        Ok(Point {
            threads,
            k,
            lanes: prepared.lanes,
            tier,
            wide_sampling: wide_sampling
                && tier == Tier::Top
                && dxjit_runtime::sampler::wide_sampling_available(),
            compile_us: if asked == Some(Tier::Top) {
                top_tier_us
            } else {
                first_tier_us
            },
            first_tier_us,
            top_tier_us,
            first_compile_us,
            cache_hit: prepared
                .action_shader()
                .is_some_and(|a| a.shader.cache_hit()),
            times_ms,
            invocations: prepared.invocations,
            bytes,
            memcpy_bytes_per_s: memcpy_rate(bytes.total()),
            counts: prepared
                .action_shader()
                .map(|a| count(a.shader.program(), a.constants)),
        })
    })
}
