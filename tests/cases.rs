//! Runs every case file under `tests/cases/` (the project's own semantics
//! tests) and `tests/conformance/` (the corpus from Wine's and vkd3d's test
//! suites) and requires each to pass.

use dxjit::{CompileOptions, Tier};
use dxjit_cli::case::{check, parse_case};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            case_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Runs every case under `dir` (relative to the crate root) with
/// `options`, several at once; the count and the failures, one line each.
fn failures_in(dir: &str, options: &CompileOptions) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    case_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no case files under {dir}");
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|f| match parse_case(f) {
            Ok(case) => {
                let outcome = dxjit_cli::run::execute(&case, options);
                let fails = check(&case, &outcome);
                (!fails.is_empty()).then(|| {
                    let what: Vec<String> = fails.iter().map(|x| x.what.clone()).collect();
                    format!("{}: {}", f.display(), what.join("; "))
                })
            }
            Err(e) => Some(format!("{}: {e}", f.display())),
        })
        .collect();
    (files.len(), failures)
}

/// Runs the hand-written cases with `options`.
fn failures_with(options: &CompileOptions) -> (usize, Vec<String>) {
    failures_in("tests/cases", options)
}

#[test]
fn every_conformance_case_passes() {
    let (count, failures) = failures_in("tests/conformance", &CompileOptions::default());
    assert_eq!(count, 1706, "the corpus holds 1706 cases");
    assert!(
        failures.is_empty(),
        "{} of {count} conformance cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_hand_written_case_passes() {
    let (count, failures) = failures_with(&CompileOptions::default());
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Results must not depend on how many lanes a call runs: every case again
/// with 4, 8 and 16 lanes per call whatever the stage's default.
#[test]
fn every_case_passes_at_every_lane_count() {
    for k in [1, 2, 4] {
        let options = CompileOptions {
            k: Some(k),
            ..CompileOptions::default()
        };
        let (count, failures) = failures_with(&options);
        assert!(
            failures.is_empty(),
            "k = {k}: {} of {count} cases failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

/// Both tiers give bit-identical results: every case again at the first
/// tier alone (the default runs the first tier until the top one is in)
/// and at the top tier alone.
#[test]
fn every_case_passes_at_each_tier() {
    for tier in [Tier::First, Tier::Top] {
        let options = CompileOptions {
            tier,
            ..CompileOptions::default()
        };
        let (count, failures) = failures_with(&options);
        assert!(
            failures.is_empty(),
            "{tier:?}: {} of {count} cases failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

/// The top tier's lookups filtered in compiled code instead of the
/// runtime's AVX-512 filter give the same results: every case again with
/// the wide filter off (on a CPU without it, the runs above are these).
#[test]
fn every_case_passes_with_lookups_filtered_in_compiled_code() {
    let options = CompileOptions {
        tier: Tier::Top,
        wide_sampling: false,
        ..CompileOptions::default()
    };
    let (count, failures) = failures_with(&options);
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
