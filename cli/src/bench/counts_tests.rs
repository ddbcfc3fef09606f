//! The flop, lookup and barrier counter on hand-counted programs.

use super::counts::{count, StaticCounts};
use dxjit::ir::Program;
use dxjit::CompileOptions;
use std::collections::BTreeMap;

fn program(asm: &str) -> Program {
    let bytes = dxjit::text::assemble(asm).expect("assembles");
    let options = CompileOptions {
        verify_checksum: false,
        ..CompileOptions::default()
    };
    dxjit::shader::lower(&bytes, &options).expect("lowers").1
}

fn counts(asm: &str) -> StaticCounts {
    count(&program(asm), &BTreeMap::new())
}

#[test]
fn straight_line_counts_per_written_component() {
    // mad .xyzw 8, dp4 7, add .y 1, mul .zw 2, iadd 0, mov 0.
    let c = counts(
        "cs_5_0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 1, 1, 1
utof r0.xyzw, vThreadID.xxxx
mad r0.xyzw, r0.xyzw, r0.xyzw, l(1.0, 2.0, 3.0, 4.0)
dp4 r1.x, r0.xyzw, r0.xyzw
add r1.y, r1.x, l(1.0)
mul r1.zw, r0.xxxy, r0.zzzw
iadd r0.x, r0.x, l(1)
mov r0.y, r1.x
ret
",
    );
    assert_eq!(
        c,
        StaticCounts {
            flops: 18,
            lookups: 0,
            barriers: 0,
            exact: true
        }
    );
}

#[test]
fn a_loop_with_a_constant_trip_count_counts_every_iteration() {
    // 5 iterations of mad .xy (4 flops); the exit test is integer.
    let c = counts(
        "cs_5_0
dcl_temps 3
dcl_thread_group 1, 1, 1
mov r2.xy, l(1.0, 1.0, 0, 0)
mov r1.y, l(0)
loop
  uge r0.x, r1.y, l(5)
  breakp_nz r0.x
  mad r2.xy, r2.xyxx, l(0.5, 0.5, 0, 0), l(1.0, 1.0, 0, 0)
  iadd r1.y, r1.y, l(1)
endloop
ret
",
    );
    assert_eq!((c.flops, c.exact), (20, true));
}

/// A loop that runs `cb0[0].x` times, adding to r2.x.
const CONSTANT_BOUND_LOOP: &str = "cs_5_0
dcl_constantBuffer cb0[1], immediateIndexed
dcl_temps 3
dcl_thread_group 1, 1, 1
mov r2.x, l(0)
mov r1.y, l(0)
loop
  uge r0.x, r1.y, cb0[0].x
  breakp_nz r0.x
  add r2.x, r2.x, l(1.0)
  iadd r1.y, r1.y, l(1)
endloop
ret
";

#[test]
fn a_loop_bound_by_a_bound_constant_follows_its_value() {
    let prog = program(CONSTANT_BOUND_LOOP);
    let constants = BTreeMap::from([(0, vec![7, 0, 0, 0])]);
    let c = count(&prog, &constants);
    assert_eq!((c.flops, c.exact), (7, true));
}

#[test]
fn a_loop_bound_by_an_unknown_value_is_a_static_count() {
    let c = counts(CONSTANT_BOUND_LOOP);
    assert_eq!((c.flops, c.exact), (1, false));
}

#[test]
fn a_branch_on_an_unknown_value_counts_both_sides() {
    let c = counts(
        "cs_5_0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 1, 1, 1
if_nz vThreadID.x
  add r0.x, r0.x, l(1.0)
else
  mul r0.xy, r0.xyxx, l(2.0, 2.0, 0, 0)
endif
ret
",
    );
    assert_eq!((c.flops, c.exact), (3, false));
}

#[test]
fn barriers_in_a_counted_loop() {
    // 3 rounds of two sync_g_t.
    let c = counts(
        "cs_5_0
dcl_uav_raw u0
dcl_tgsm_raw g0, 32
dcl_input vThreadIDInGroupFlattened.x
dcl_temps 3
dcl_thread_group 8, 1, 1
ishl r2.x, vThreadIDInGroupFlattened.x, l(2)
mov r1.x, vThreadIDInGroupFlattened.x
mov r1.y, l(0)
loop
  uge r0.x, r1.y, l(3)
  breakp_nz r0.x
  store_raw g0.x, r2.x, r1.x
  sync_g_t
  ld_raw r1.x, r2.x, g0.xxxx
  sync_g_t
  iadd r1.y, r1.y, l(1)
endloop
store_raw u0.x, r2.x, r1.x
ret
",
    );
    assert_eq!(
        c,
        StaticCounts {
            flops: 0,
            lookups: 0,
            barriers: 6,
            exact: true
        }
    );
}

/// Nested D3D9 `rep` blocks: `i0.x` outer iterations of one add, each with
/// `i1.x` inner iterations of another.
const NESTED_REP: &str = "vs_2_0
dcl_position v0
mov oPos, v0
mov r0, c0
rep i0
add r0.x, r0.x, c1.x
rep i1
add r0.y, r0.y, c1.x
endrep
endrep
mov oT0, r0
";

#[test]
fn d3d9_rep_counts_follow_the_integer_constants() {
    let prog = program(NESTED_REP);
    // cb1 holds the integer constants, one row each: i0 = 3, i1 = 4.
    let constants = BTreeMap::from([(1, vec![3, 0, 0, 0, 4, 0, 0, 0])]);
    let c = count(&prog, &constants);
    assert_eq!((c.flops, c.exact), (3 + 3 * 4, true));
}

#[test]
fn d3d9_rep_without_constants_is_a_static_count() {
    let c = counts(NESTED_REP);
    assert_eq!((c.flops, c.exact), (2, false));
}

#[test]
fn the_alu_anchor_kernel_counts_as_its_source_says() {
    // 256 iterations x 4 chains x (mul + add + mad = 4) = 4096, plus three
    // muls and one add before the loop and three adds after it.
    let case = crate::case::parse_case(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../benches/data/k1_alu.toml"
    )))
    .expect("parses");
    let Some(crate::case::ShaderCode::Bytes(bytes)) = case.cs.map(|cs| cs.code) else {
        panic!("k1_alu has a compute shader in bytecode");
    };
    let (_, prog) = dxjit::shader::lower(&bytes, &CompileOptions::default()).expect("lowers");
    let c = count(&prog, &BTreeMap::new());
    assert_eq!((c.flops, c.exact), (4096 + 4 + 3, true));
}

#[test]
fn lookups_count_every_texture_read_of_every_iteration() {
    // One sample, then three iterations of a sample and an ld: 7.
    let c = counts(
        "ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 2
sample r0.xyzw, v0.xyxx, t0.xyzw, s0
mov r1.x, l(0)
loop
  uge r1.y, r1.x, l(3)
  breakc_nz r1.y
  sample r0.xyzw, v0.xyxx, t0.xyzw, s0
  ld r0.xyzw, l(0, 0, 0, 0), t0.xyzw
  iadd r1.x, r1.x, l(1)
endloop
mov o0.xyzw, r0.xyzw
ret
",
    );
    assert_eq!((c.lookups, c.exact), (7, true));
}
