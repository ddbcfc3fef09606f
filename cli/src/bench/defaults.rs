//! The values a sweep takes when `--values` is not given.

use crate::case::Case;
use crate::run::prepare;
use dxjit::CompileOptions;

/// Highest `k` probed; the JIT clamps far below it.
const PROBE_LIMIT: usize = 64;

/// Every thread count from 1 to the cores the operating system offers.
pub fn thread_counts() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (1..=cores).collect()
}

/// Every `k` the JIT compiles the case's action with: 1, 2, ... up to the
/// first it clamps to fewer lanes than `4 * k`.
pub fn supported_ks(case: &Case) -> Result<Vec<usize>, String> {
    let mut ks = Vec::new();
    for k in 1..=PROBE_LIMIT {
        let options = CompileOptions {
            k: Some(k),
            ..CompileOptions::default()
        };
        let lanes = prepare(case, &options)?.lanes as usize;
        if lanes == 0 {
            return Err("the case has no action: there is nothing to run at each k".into());
        }
        if lanes != 4 * k {
            break;
        }
        ks.push(k);
    }
    Ok(ks)
}
