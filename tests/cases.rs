//! Runs every hand-written case file under `tests/cases/` and requires each
//! to pass: the project's own semantics tests, in the shared case format.

use dxjit::case::{check, parse_case};
use dxjit::CompileOptions;
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

/// Runs every case with `options`; the failures, one line each.
fn failures_with(options: &CompileOptions) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    case_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases"),
        &mut files,
    );
    files.sort();
    assert!(!files.is_empty(), "no case files under tests/cases");
    let mut failures = Vec::new();
    for f in &files {
        match parse_case(f) {
            Ok(case) => {
                let outcome = dxjit::run::execute(&case, options);
                let fails = check(&case, &outcome);
                if !fails.is_empty() {
                    let what: Vec<String> = fails.iter().map(|x| x.what.clone()).collect();
                    failures.push(format!("{}: {}", f.display(), what.join("; ")));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    (files.len(), failures)
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
