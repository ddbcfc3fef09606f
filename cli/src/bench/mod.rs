//! `dxjit bench`: compile a case, repeat its action, report medians and
//! what bounds it (GFLOP/s against the peak, GB/s against memcpy, work
//! and barriers per second), once or at each value of a swept parameter.

mod compile_only;
mod counts;
#[cfg(test)]
mod counts_tests;
mod defaults;
mod flop_cost;
mod fold;
mod measure;
mod memcpy;
mod peak;
mod plot;
mod progress;
mod rates;
mod report;
mod structure;
mod sweep;

pub use compile_only::{compile_only, quantile, CompileOnlySetup};
pub use sweep::{Sweep, SweepValues};

use crate::case::{parse_case, Case};
use dxjit::Tier;
use measure::{measure, Build};
use peak::Peak;
use progress::Progress;
use rates::{groups, Rates, Work};
use report::Row;
use std::path::{Path, PathBuf};
use std::time::Duration;
use sweep::TIER_UNAVAILABLE;

/// What `dxjit bench` was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchOptions {
    /// Timed repetitions of the action (per point of a sweep).
    pub iterations: u32,
    /// Worker threads; `None`: every core.
    pub threads: Option<usize>,
    /// Vectors of four lanes per register component; `None`: the JIT's choice.
    pub k: Option<usize>,
    /// The tier the timed actions run at; `None`: the top tier, as a
    /// shader compiled at [`Tier::Both`] runs once the top tier is in.
    pub tier: Option<Tier>,
    /// Whether the top tier may hand lookups to the runtime's AVX2
    /// filter (`--no-wide-sampling` turns it off).
    pub wide_sampling: bool,
    /// End with one JSON object.
    pub json: bool,
    /// The parameter to sweep, if any.
    pub sweep: Option<Sweep>,
    /// The values to sweep it over; `None`: the parameter's defaults.
    pub values: Option<Vec<usize>>,
    /// Where to draw the sweep's chart (SVG).
    pub plot: Option<PathBuf>,
    /// How long one action may run before it is stopped and the bench
    /// fails with that reason.
    pub timeout: Duration,
}

/// Times a case's action and prints a report (with `json` a last line
/// holding one JSON object). Returns whether it ran.
pub fn bench(path: &Path, options: &BenchOptions) -> Result<bool, String> {
    let case = parse_case(path).map_err(|e| e.to_string())?;
    let peak = Peak::detect();
    match options.sweep {
        None => once(&case, options, peak.as_ref()),
        Some(sweep) => swept(&case, sweep, options, peak.as_ref()),
    }
}

fn once(case: &Case, options: &BenchOptions, peak: Option<&Peak>) -> Result<bool, String> {
    let mut progress = Progress::new(u64::from(options.iterations.max(1)));
    let build = Build {
        k: options.k,
        tier: options.tier,
        wide_sampling: options.wide_sampling,
    };
    let point = measure(
        case,
        options.threads,
        build,
        options.iterations,
        options.timeout,
        &mut progress,
    )?;
    drop(progress);
    let work = Work::of(&case.action);
    let rates = Rates::of(&point, peak, groups(&case.action));
    print!(
        "{}",
        report::point_text(&case.name, work, &point, &rates, peak)
    );
    if options.json {
        let obj = report::point_json(&case.name, work, &point, &rates);
        println!("{}", serde_json::Value::Object(obj));
    }
    Ok(true)
}

/// The threads and `k` of the point where the swept parameter is `value`.
fn setting(
    sweep: Sweep,
    value: usize,
    options: &BenchOptions,
) -> Result<(Option<usize>, Option<usize>), String> {
    match sweep {
        Sweep::Threads => Ok((Some(value), options.k)),
        Sweep::K => Ok((options.threads, Some(value))),
        Sweep::Tier => Err(TIER_UNAVAILABLE.into()),
    }
}

fn swept(
    case: &Case,
    sweep: Sweep,
    options: &BenchOptions,
    peak: Option<&Peak>,
) -> Result<bool, String> {
    let fixed = match sweep {
        Sweep::Threads => options.threads.map(|_| "--threads"),
        Sweep::K => options.k.map(|_| "--k"),
        Sweep::Tier => return Err(TIER_UNAVAILABLE.into()),
    };
    if let Some(flag) = fixed {
        return Err(format!("{flag} fixes what --sweep {sweep} varies"));
    }
    let values = match (&options.values, sweep) {
        (Some(v), _) => v.clone(),
        (None, Sweep::K) => defaults::supported_ks(case)?,
        (None, _) => defaults::thread_counts(),
    };
    let iterations = options.iterations.max(1);
    let mut progress = Progress::new(values.len() as u64 * u64::from(iterations));
    let mut points = Vec::new();
    for &value in &values {
        progress.set_message(format!("{sweep} = {value}"));
        let (threads, k) = setting(sweep, value, options)?;
        let build = Build {
            k,
            tier: options.tier,
            wide_sampling: options.wide_sampling,
        };
        points.push(measure(
            case,
            threads,
            build,
            iterations,
            options.timeout,
            &mut progress,
        )?);
    }
    drop(progress);
    let work = Work::of(&case.action);
    let rows: Vec<Row> = values
        .iter()
        .zip(&points)
        .map(|(&value, point)| Row {
            value,
            point,
            rates: Rates::of(point, peak, groups(&case.action)),
        })
        .collect();
    print!(
        "{}",
        report::sweep_text(&case.name, sweep, work, &rows, peak)
    );
    if let Some(path) = &options.plot {
        let series: Vec<(usize, f64)> = rows.iter().map(|r| (r.value, r.rates.per_s)).collect();
        let unit = format!("{}/s", work.noun());
        let title = format!("{}: {unit} against {sweep}", case.name);
        plot::plot(path, &title, sweep.name(), &unit, &series)?;
        println!("plot: {}", path.display());
    }
    if options.json {
        println!("{}", report::sweep_json(&case.name, sweep, work, &rows));
    }
    Ok(true)
}
