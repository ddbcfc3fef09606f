//! One stencil serves an operation wherever its operands live: staged
//! operands and results, group-shared blocks and structure strides as
//! holes, and the missing stencils made on helper threads.

use super::key::{Body, Key};
use super::layout::Layout;
use super::make::make_all;
use super::stitch::Stitcher;
use super::STENCIL_K;
use crate::compile::{Job, Spawner};
use crate::ir::{Inst, Program};
use crate::shader::{lower, CompileOptions};
use std::sync::{Arc, Mutex};

/// The program of SM4 assembly `text`.
fn program(text: &str) -> Program {
    let bytes = crate::text::assemble(text).unwrap();
    lower(&bytes, &CompileOptions::default()).unwrap().1
}

/// The keys of `prog`'s pieces, in order.
fn keys(prog: &Program) -> Vec<Key> {
    let mut s = Stitcher::new(prog, Layout::of(prog, STENCIL_K));
    s.program().unwrap();
    s.pieces.iter().map(|p| p.stencil.key.clone()).collect()
}

/// The keys of the pieces running instructions `pick` accepts.
fn instruction_keys(prog: &Program, pick: impl Fn(&Inst) -> bool) -> Vec<Key> {
    keys(prog)
        .into_iter()
        .filter(|k| matches!(&k.body, Body::Inst(b) if pick(&b.inst)))
        .collect()
}

/// Asserts that the two instructions `pick` accepts in the program of
/// `text` have one stencil.
fn assert_shared(text: &str, pick: impl Fn(&Inst) -> bool) {
    let keys = instruction_keys(&program(text), pick);
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1]);
}

/// How many pieces stage an operand.
fn staged(prog: &Program) -> usize {
    keys(prog)
        .iter()
        .filter(|k| matches!(k.body, Body::Stage { .. }))
        .count()
}

#[test]
fn an_operation_has_one_stencil_whatever_its_operands_files_and_modifiers() {
    let prog = program(
        "vs_5_0
dcl_constantbuffer cb0[3], immediateIndexed
dcl_input v0.xy
dcl_output o0.xyzw
dcl_temps 3
mov r1.xy, v0.xyxx
add r0.x, r1.x, cb0[2].y
add r0.y, r1.y, -l(2.0)
add r0.z, r1.x, |r1.y|
add r0.w, r1.y, -|v0.x|
mov o0.xyzw, r0.xyzw
ret",
    );
    let adds = instruction_keys(&prog, |i| {
        matches!(
            i,
            Inst::Alu {
                op: crate::ir::AluOp::Add,
                ..
            }
        )
    });
    assert_eq!(adds.len(), 4);
    assert!(adds.iter().all(|k| *k == adds[0]), "{adds:#?}");
    assert!(staged(&prog) >= 4, "cb, literal, |r|, -|v| are staged");
}

#[test]
fn integer_negation_is_staged_as_integers() {
    let prog = program(
        "cs_5_0
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r0.x, l(5)
iadd r1.x, -r0.x, l(100)
store_raw u0.x, l(0), r1.x
ret",
    );
    let stages: Vec<Key> = keys(&prog)
        .into_iter()
        .filter(|k| matches!(k.body, Body::Stage { neg: true, .. }))
        .collect();
    assert_eq!(stages.len(), 1);
    assert!(matches!(stages[0].body, Body::Stage { int: true, .. }));
}

#[test]
fn group_shared_blocks_share_a_stencil_wherever_they_are_declared() {
    assert_shared(
        "cs_5_0
dcl_uav_raw u0
dcl_tgsm_raw g0, 16
dcl_tgsm_structured g1, 12, 4
dcl_tgsm_structured g2, 12, 8
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r0.x, l(1)
ld_structured r1.x, r0.x, l(8), g1.xxxx
ld_structured r1.y, r0.x, l(8), g2.xxxx
store_raw u0.xy, l(0), r1.xyxx
ret",
        |i| matches!(i, Inst::LoadStructured { .. }),
    );
}

#[test]
fn structured_buffers_of_any_stride_share_a_stencil() {
    assert_shared(
        "cs_5_0
dcl_resource_structured t0, 16
dcl_resource_structured t1, 144
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r0.x, l(1)
ld_structured r1.x, r0.x, l(4), t0.xxxx
ld_structured r1.y, r0.x, l(4), t1.xxxx
store_raw u0.xy, l(0), r1.xyxx
ret",
        |i| matches!(i, Inst::LoadStructured { .. }),
    );
}

#[test]
fn loads_reading_the_same_components_share_a_stencil_whatever_mask_and_swizzle() {
    // Both read words x and y.
    assert_shared(
        "cs_5_0
dcl_resource_raw t0
dcl_uav_raw u0
dcl_temps 3
dcl_thread_group 4, 1, 1
mov r0.x, l(16)
ld_raw r1.xy, r0.x, t0.yxxx
ld_raw r2.zw, r0.x, t0.xxxy
store_raw u0.xyzw, l(0), r2.xyzw
store_raw u0.x, l(16), r1.x
ret",
        |i| matches!(i, Inst::LoadRaw { .. }),
    );
}

/// A spawner that keeps its jobs, to run or drop them later.
#[derive(Default)]
struct Held(Mutex<Vec<Job>>);

impl Held {
    fn spawner(self: &Arc<Self>) -> Spawner {
        let me = Arc::clone(self);
        Spawner::new(move |job| me.0.lock().unwrap().push(job))
    }
}

/// Keys of stencils no other test makes: a small program's, at `k`
/// vectors a component (the stencil tier stitches at 2).
fn fresh_keys(k: u8) -> Vec<Key> {
    let prog = program(
        "cs_5_0
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r0.x, l(3)
ubfe r1.x, r0.x, l(7), l(9)
bfi r1.y, l(3), l(5), r0.x, l(11)
store_raw u0.xy, l(0), r1.xyxx
ret",
    );
    keys(&prog)
        .into_iter()
        .map(|key| Key { k, ..key })
        .collect()
}

#[test]
fn missing_stencils_are_made_in_order_by_whichever_threads_run() {
    let held = Arc::new(Held::default());
    let threads = Spawner::new(|job| {
        std::thread::spawn(job);
    });
    // Helpers that never start, that run at once, that run beside.
    for (k, spawner) in [(1, held.spawner()), (3, Spawner::inline()), (4, threads)] {
        let keys = fresh_keys(k);
        let made = make_all(keys.clone(), Some(&spawner)).unwrap();
        assert_eq!(made.len(), keys.len());
        for (stencil, key) in made.iter().zip(&keys) {
            assert_eq!(stencil.key, *key);
            assert!(!stencil.code.is_empty());
        }
    }
    let jobs = std::mem::take(&mut *held.0.lock().unwrap());
    assert!(!jobs.is_empty(), "helpers were offered");
    jobs.into_iter().for_each(|job| job());
}

#[test]
fn operands_constant_during_a_call_are_staged_once_after_the_exit() {
    let prog = program(
        "vs_5_0
dcl_constantbuffer cb0[3], immediateIndexed
dcl_output o0.xyzw
dcl_temps 2
mov r0.xy, l(0, 0, 0, 0)
loop
  ige r1.x, r0.y, l(4)
  breakc_nz r1.x
  add r0.x, r0.x, cb0[2].y
  mul r0.x, r0.x, cb0[2].y
  iadd r0.y, r0.y, l(1)
endloop
mov o0.xyzw, r0.xxxx
ret",
    );
    let keys = keys(&prog);
    let exit = keys
        .iter()
        .position(|k| {
            matches!(
                k.body,
                Body::Flow {
                    op: super::key::FlowOp::Exit { .. },
                    ..
                }
            )
        })
        .unwrap();
    let stages: Vec<usize> = (0..keys.len())
        .filter(|&i| matches!(keys[i].body, Body::Stage { .. }))
        .collect();
    assert!(stages.iter().all(|&i| i > exit), "none inside the body");
    let cb = stages
        .iter()
        .filter(|&&i| keys[i].loads[0].place == super::key::Place::CbWord)
        .count();
    assert_eq!(cb, 1, "cb0[2].y, read twice in the loop, staged once");
}
