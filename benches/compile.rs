//! Compile time (`dxjit::compile`: container or token decoding, lowering and
//! Cranelift) of the three largest DXBC and the three largest D3D9 programs
//! in the conformance suite, and of the three peer kernels: a cold compile
//! (`NAME/cold`: the default, both tiers, until the first can run), each
//! tier alone (`NAME/first`, `NAME/top`), and a hit in the persistent cache
//! (`NAME/cache_hit`: decoding, lowering and loading the stored top tier).

use criterion::{criterion_group, criterion_main, Criterion};
use dxjit::{CompileOptions, DiskCache, Spawner, Tier};
use dxjit_cli::case::{parse_case_str, ShaderCode};
use std::hint::black_box;
use std::path::Path;

/// The conformance programs, as bytecode files.
const PROGRAMS: [(&str, &[u8]); 6] = [
    (
        "dxbc_function_return_l310",
        include_bytes!("data/dxbc_function_return_l310.dxbc"),
    ),
    (
        "dxbc_function_return_l306",
        include_bytes!("data/dxbc_function_return_l306.dxbc"),
    ),
    (
        "dxbc_function_return_l302",
        include_bytes!("data/dxbc_function_return_l302.dxbc"),
    ),
    (
        "d3d9_non_const_indexing_l201",
        include_bytes!("data/d3d9_non_const_indexing_l201.bin"),
    ),
    (
        "d3d9_non_const_indexing_l195",
        include_bytes!("data/d3d9_non_const_indexing_l195.bin"),
    ),
    (
        "d3d9_non_const_indexing_l228",
        include_bytes!("data/d3d9_non_const_indexing_l228.bin"),
    ),
];

/// The peer kernels' case files.
const KERNELS: [(&str, &str); 3] = [
    ("k1_alu", include_str!("data/k1_alu.toml")),
    ("k2_copy", include_str!("data/k2_copy.toml")),
    ("k3_reduce", include_str!("data/k3_reduce.toml")),
];

/// The compute shader's bytecode of a peer kernel case.
fn kernel_bytes(name: &str, text: &str) -> Vec<u8> {
    let case = parse_case_str(text, Path::new(name)).expect("case parses");
    match &case.cs.expect("a compute shader").code {
        ShaderCode::Bytes(b) => b.clone(),
        ShaderCode::Asm(t) => dxjit::text::assemble(t).expect("assembles"),
    }
}

fn compile(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile");
    let kernels: Vec<(&str, Vec<u8>)> = KERNELS
        .iter()
        .map(|(name, text)| (*name, kernel_bytes(name, text)))
        .collect();
    let programs = PROGRAMS.iter().map(|(n, b)| (*n, b.to_vec()));
    let dir = std::env::temp_dir().join(format!("dxjit-bench-cache-{}", std::process::id()));
    let cache = DiskCache::open(&dir);
    // The top tiers of cold compiles are dropped unrun: only the first is timed.
    let unrun = Spawner::new(drop::<dxjit::compile::Job>);
    for (name, bytes) in programs.chain(kernels) {
        let cold = CompileOptions::default();
        g.bench_function(format!("{name}/cold"), |b| {
            b.iter(|| {
                dxjit::compile_with(black_box(&bytes), &cold, &unrun, None).expect("compiles")
            })
        });
        for (tier_name, tier) in [("first", Tier::First), ("top", Tier::Top)] {
            let options = CompileOptions {
                tier,
                ..CompileOptions::default()
            };
            g.bench_function(format!("{name}/{tier_name}"), |b| {
                b.iter(|| dxjit::compile(black_box(&bytes), &options).expect("compiles"))
            });
        }
        let both = CompileOptions::default();
        let stored = dxjit::compile_with(&bytes, &both, &Spawner::inline(), Some(&cache));
        stored
            .expect("compiles")
            .wait_for_top_tier()
            .expect("top tier");
        g.bench_function(format!("{name}/cache_hit"), |b| {
            b.iter(|| {
                let shader = dxjit::compile_with(black_box(&bytes), &both, &unrun, Some(&cache))
                    .expect("compiles");
                assert!(shader.cache_hit());
                shader
            })
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, compile);
criterion_main!(benches);
