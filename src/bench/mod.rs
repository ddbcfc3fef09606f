//! `dxjit bench`: compile a case, repeat its action, report medians and
//! what bounds it (GFLOP/s against the peak, GB/s against memcpy, work
//! and barriers per second).

mod counts;
#[cfg(test)]
mod counts_tests;
mod flop_cost;
mod fold;
mod measure;
mod memcpy;
mod peak;
mod progress;
mod rates;
mod report;
mod structure;

use crate::case::{parse_case, Case};
use measure::measure;
use peak::Peak;
use progress::Progress;
use rates::{groups, Rates, Work};
use std::path::Path;

/// What `dxjit bench` was asked to do.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BenchOptions {
    /// Timed repetitions of the action.
    pub iterations: u32,
    /// Worker threads; `None`: every core.
    pub threads: Option<usize>,
    /// Vectors of four lanes per register component; `None`: the JIT's choice.
    pub k: Option<usize>,
    /// End with one JSON object.
    pub json: bool,
}

/// Times a case's action and prints a report (with `json` a last line
/// holding one JSON object). Returns whether it ran.
pub fn bench(path: &Path, options: &BenchOptions) -> Result<bool, String> {
    let case = parse_case(path).map_err(|e| e.to_string())?;
    let peak = Peak::detect();
    once(&case, options, peak.as_ref())
}

fn once(case: &Case, options: &BenchOptions, peak: Option<&Peak>) -> Result<bool, String> {
    let mut progress = Progress::new(u64::from(options.iterations.max(1)));
    let point = measure(
        case,
        options.threads,
        options.k,
        options.iterations,
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
