//! Dispatch time of the three peer kernels: each case is prepared once
//! (compiled, resources built and bound) and its dispatch is timed.

use criterion::{criterion_group, criterion_main, Criterion};
use dxjit::CompileOptions;
use dxjit_cli::case::parse_case_str;
use dxjit_cli::run::prepare;
use std::path::Path;
use std::time::Duration;

/// The peer kernels' case files.
const KERNELS: [(&str, &str); 3] = [
    ("k1_alu", include_str!("data/k1_alu.toml")),
    ("k2_copy", include_str!("data/k2_copy.toml")),
    ("k3_reduce", include_str!("data/k3_reduce.toml")),
];

fn kernels(c: &mut Criterion) {
    let mut g = c.benchmark_group("dispatch");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    for (name, text) in KERNELS {
        let case = parse_case_str(text, Path::new(name)).expect("case parses");
        let mut prepared = prepare(&case, &CompileOptions::default()).expect("prepares");
        g.bench_function(name, |b| b.iter(|| prepared.act()));
    }
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
