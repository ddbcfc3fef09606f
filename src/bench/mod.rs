//! `dxjit bench`: compile a case once, repeat its action, report medians.

use crate::case::parse_case;
use crate::run::{compile_case, prepare};
use crate::CompileOptions;
use std::path::Path;
use std::time::Instant;

/// Compiles timed to report the median compile time.
const COMPILES: usize = 5;

/// Times a case's action; prints a report (and with `json` a last line
/// holding one JSON object). Returns whether it ran.
pub fn bench(
    path: &Path,
    iterations: u32,
    threads: Option<usize>,
    k: Option<usize>,
    json: bool,
) -> Result<bool, String> {
    let case = parse_case(path).map_err(|e| e.to_string())?;
    let options = CompileOptions {
        k,
        ..CompileOptions::default()
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let threads = pool.current_num_threads();
    pool.install(|| {
        // The first compile also pays one-time costs (CPU feature detection,
        // allocator growth); the median of a few is what a compile costs.
        let first = prepare(&case, &options)?;
        let first_compile_us = first.compile_us;
        let mut compiles = vec![first_compile_us];
        for _ in 1..COMPILES {
            compiles.push(compile_case(&case, &options)?);
        }
        compiles.sort_by(f64::total_cmp);
        let compile_us = compiles[compiles.len() / 2];
        let mut prepared = first;
        prepared.act();
        let mut times: Vec<f64> = (0..iterations.max(1))
            .map(|_| {
                let t = Instant::now();
                prepared.act();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let rate = prepared.invocations as f64 / (median / 1e3);
        println!("case: {}", case.name);
        println!(
            "compile: {compile_us:.1} us (median of {COMPILES}; first {first_compile_us:.1} us)"
        );
        println!("lanes per call: {}", prepared.lanes);
        println!("threads: {threads}, iterations: {}", times.len());
        println!(
            "median: {median:.3} ms (min {:.3}, max {:.3})",
            times[0],
            times[times.len() - 1]
        );
        println!(
            "invocations: {} per action, {:.3e} per second",
            prepared.invocations, rate
        );
        if json {
            let obj = serde_json::json!({
                "case": case.name,
                "compile_us": compile_us,
                "first_compile_us": first_compile_us,
                "lanes": prepared.lanes,
                "median_ms": median,
                "min_ms": times[0],
                "max_ms": times[times.len() - 1],
                "iterations": times.len(),
                "threads": threads,
                "invocations": prepared.invocations,
                "invocations_per_s": rate,
            });
            println!("{obj}");
        }
        Ok(true)
    })
}
