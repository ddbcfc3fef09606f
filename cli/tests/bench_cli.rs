//! `dxjit bench` from the command line: sweeps, their JSON and their plot,
//! on the tiny example case with one iteration (nothing here is timed).

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const CASE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/store_raw.toml");

fn dxjit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(args)
        .output()
        .expect("dxjit runs")
}

/// The JSON object `--json` ends the output with.
fn last_json(out: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().expect("some output");
    serde_json::from_str(line).expect("the last line is JSON")
}

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()))
}

#[test]
fn a_thread_sweep_prints_a_table_and_json_and_plots_every_point() {
    let svg = scratch("threads.svg");
    let out = dxjit(&[
        "bench",
        CASE,
        "--iterations",
        "1",
        "--sweep",
        "threads",
        "--values",
        "1,2",
        "--plot",
        svg.to_str().expect("utf-8 path"),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("median ms"), "{stdout}");
    let v = last_json(&out);
    assert_eq!(v["sweep"], "threads");
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 2);
    for (p, threads) in points.iter().zip([1, 2]) {
        assert_eq!(p["value"], threads);
        assert_eq!(p["threads"], threads);
        assert_eq!(p["iterations"], 1);
        assert_eq!(p["invocations"], 1);
        assert_eq!(p["flops_per_invocation"], 0);
        assert_eq!(p["flops_exact"], true);
        assert_eq!(p["uav_bytes"], 16);
        assert!(p["median_ms"].is_number());
        assert!(p["invocations_per_s"].is_number());
    }
    let text = std::fs::read_to_string(&svg).expect("the plot was written");
    let doc = roxmltree::Document::parse(&text).expect("the plot is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let dots = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    assert_eq!(dots, 2, "one dot per point");
    assert!(text.contains("invocations/s against threads"));
    std::fs::remove_file(&svg).ok();
}

#[test]
fn a_k_sweep_runs_every_count_the_jit_compiles() {
    let out = dxjit(&["bench", CASE, "--iterations", "1", "--sweep", "k", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = last_json(&out);
    let points = v["points"].as_array().expect("points");
    assert!(!points.is_empty());
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p["k"], i + 1);
        assert_eq!(p["lanes"], 4 * (i + 1));
    }
}

#[test]
fn a_single_run_keeps_its_keys_and_adds_the_rates() {
    let out = dxjit(&["bench", CASE, "--iterations", "1", "--json"]);
    assert!(out.status.success());
    let v = last_json(&out);
    for key in [
        "compile_us",
        "first_compile_us",
        "first_tier_us",
        "top_tier_us",
        "lanes",
        "median_ms",
        "min_ms",
        "max_ms",
        "iterations",
        "threads",
        "invocations",
        "invocations_per_s",
        "gflops",
        "gb_per_s",
        "memcpy_gb_per_s",
        "bound",
    ] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
}

#[test]
fn the_actions_run_at_the_tier_asked_for() {
    for (tier, lanes) in [("first", 4 * dxjit::jit::STENCIL_K), ("top", 16)] {
        let out = dxjit(&["bench", CASE, "--iterations", "1", "--tier", tier, "--json"]);
        assert!(out.status.success(), "{tier}");
        let v = last_json(&out);
        assert_eq!(v["tier"], tier);
        assert_eq!(v["lanes"], lanes, "{tier}");
    }
    let out = dxjit(&["bench", CASE, "--tier", "fast"]);
    assert!(!out.status.success());
}

#[test]
fn sweeping_the_tier_says_it_is_not_available() {
    let out = dxjit(&["bench", CASE, "--iterations", "1", "--sweep", "tier"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not available yet"), "{stderr}");
}

#[test]
fn bad_values_are_refused_before_running() {
    let out = dxjit(&["bench", CASE, "--sweep", "threads", "--values", "0,x"]);
    assert!(!out.status.success());
    let out = dxjit(&["bench", CASE, "--plot", "x.svg"]);
    assert!(!out.status.success(), "--plot needs --sweep");
}
