//! `dxjit bench --compile-only`: how long each shader file takes to
//! compile, and the median, p90, p99 and maximum over the files.

use crate::smoke::{load, shader_files};
use dxjit::disk_cache::DiskCache;
use dxjit::shader::{compile_with, CompileOptions};
use dxjit::{Spawner, Tier};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// The `p`-th quantile (0..=1) of sorted `values`, by nearest rank.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Where `compile_only` keeps code, and what it does before the clock
/// starts.
#[derive(Debug, Clone, Default)]
pub struct CompileOnlySetup {
    /// The persistent cache every compile goes through (whole shaders and
    /// stencils).
    pub cache: Option<DiskCache>,
    /// A cache for the stencil tier's stencils alone (whole shaders are
    /// compiled every time).
    pub stencils: Option<DiskCache>,
    /// Whether the built-in stencil prewarm runs (and is waited for)
    /// first.
    pub prewarm: bool,
}

/// Compiles each shader file named or found below the folders in `paths`
/// (bytecode, or assembly text assembled before the clock starts) once at
/// `tier` (`None`: the first; `Both` is refused: its background compile
/// would be timed with the next file), as `setup` says, and prints each
/// file's microseconds and a summary with the stencils the process compiled
/// and loaded (with `json`, a last line holding one JSON object). Files that
/// do not compile are listed and left out of the times. Returns whether
/// every file compiled.
pub fn compile_only(
    paths: &[PathBuf],
    tier: Option<Tier>,
    json: bool,
    setup: &CompileOnlySetup,
) -> Result<bool, String> {
    let cache = setup.cache.as_ref();
    let tier = tier.unwrap_or(Tier::First);
    if tier == Tier::Both {
        return Err("--compile-only times one tier: pass --tier first or --tier top".into());
    }
    let options = CompileOptions {
        tier,
        ..CompileOptions::default()
    };
    if let Some(stencils) = setup.stencils.as_ref().or(cache) {
        dxjit::jit::keep_stencils_in(stencils);
    }
    let prewarm_ms = setup.prewarm.then(|| {
        let started = Instant::now();
        let p = dxjit::prewarm_stencils(None);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!(
            "prewarm: {} shaders ({} failed), {} stencils, {} made in {ms:.1} ms",
            p.programs, p.failed, p.stencils, p.made
        );
        ms
    });
    // The default spawner, as `dxjit::compile` uses: with one tier there is
    // no background compile, and its threads help make the stencils a
    // first-tier compile lacks.
    let spawner = Spawner::default();
    let files = shader_files(paths);
    let loaded: Vec<(PathBuf, Result<Vec<u8>, String>)> =
        files.into_iter().map(|f| (f.clone(), load(&f))).collect();
    // One untimed compile pays the one-time costs (CPU feature detection,
    // allocator growth) so that they do not land on the first file.
    if let Some((_, Ok(bytes))) = loaded.iter().find(|(_, b)| b.is_ok()) {
        let _ = compile_with(bytes, &options, &spawner, None);
    }
    let mut times = Vec::new();
    let mut hits = 0;
    let mut failed = 0;
    for (path, bytes) in &loaded {
        let result = bytes.clone().and_then(|bytes| {
            let started = Instant::now();
            let shader =
                compile_with(&bytes, &options, &spawner, cache).map_err(|e| e.to_string())?;
            Ok((started.elapsed().as_secs_f64() * 1e6, shader.cache_hit()))
        });
        match result {
            Ok((us, hit)) => {
                println!(
                    "{:>10.1} us{}  {}",
                    us,
                    if hit { " (cache hit)" } else { "" },
                    path.display()
                );
                times.push(us);
                hits += usize::from(hit);
            }
            Err(e) => {
                println!("{:>10}     {}: {e}", "failed", path.display());
                failed += 1;
            }
        }
    }
    if times.is_empty() {
        return Err("no shader compiled".into());
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let (median, p90, p99, max) = (
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.9),
        quantile(&sorted, 0.99),
        sorted[sorted.len() - 1],
    );
    dxjit::flush_disk_cache();
    let (compiled, loaded) = dxjit::jit::stencil_library_made();
    println!(
        "{} files at the {tier:?} tier ({failed} failed, {hits} cache hits): median {median:.1} us, p90 {p90:.1} us, p99 {p99:.1} us, max {max:.1} us; stencils compiled {compiled}, loaded {loaded}",
        times.len(),
    );
    if json {
        let obj = json!({
            "files": times.len(),
            "failed": failed,
            "tier": format!("{tier:?}").to_lowercase(),
            "cache_hits": hits,
            "median_us": median,
            "p90_us": p90,
            "p99_us": p99,
            "max_us": max,
            "stencils_compiled": compiled,
            "stencils_loaded": loaded,
            "prewarm_ms": prewarm_ms,
        });
        println!("{obj}");
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_take_the_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), 50.0);
        assert_eq!(quantile(&v, 0.9), 90.0);
        assert_eq!(quantile(&v, 0.99), 99.0);
        assert_eq!(quantile(&v, 1.0), 100.0);
        assert_eq!(quantile(&[7.0], 0.5), 7.0);
    }
}
