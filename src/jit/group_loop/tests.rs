//! Which compute shaders run a group phase by phase.

use super::runs_by_phase;
use crate::ir::Program;
use crate::shader::{lower, CompileOptions};

/// A cs_5_0 program with group-shared memory from its body.
fn program(body: &str) -> Program {
    let text = format!(
        "cs_5_0\ndcl_uav_raw u0\ndcl_tgsm_raw g0, 64\ndcl_input vThreadIDInGroupFlattened.x\n\
         dcl_temps 4\ndcl_thread_group 16, 1, 1\n{body}\n"
    );
    let bytes = crate::text::assemble(&text).expect("assembles");
    lower(&bytes, &CompileOptions::default()).expect("lowers").1
}

/// Writes the thread's index to g0 and reads its neighbour's back.
const EXCHANGE: &str = "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n\
    store_raw g0.x, r0.x, vThreadIDInGroupFlattened.x\nsync_g_t\n\
    iadd r1.x, r0.x, l(4)\nand r1.x, r1.x, l(63)\nld_raw r2.x, r1.x, g0.xxxx\n\
    store_raw u0.x, r0.x, r2.x";

#[test]
fn top_level_barriers_run_by_phase() {
    assert!(runs_by_phase(&program(&format!("{EXCHANGE}\nret"))));
    // A barrier in a branch every thread takes alike is still not at the
    // top level.
    let uniform_if = format!("{EXCHANGE}\nif_z l(0)\nsync_g_t\nendif\nret");
    assert!(!runs_by_phase(&program(&uniform_if)));
}

#[test]
fn barriers_in_loops_resume_batch_by_batch() {
    let body = format!(
        "mov r3.x, l(0)\nloop\nuge r3.y, r3.x, l(2)\nbreakc_nz r3.y\n{EXCHANGE}\n\
         iadd r3.x, r3.x, l(1)\nendloop\nret"
    );
    assert!(!runs_by_phase(&program(&body)));
}

#[test]
fn an_early_return_resumes_batch_by_batch() {
    let body =
        format!("ult r3.x, vThreadIDInGroupFlattened.x, l(8)\nretc_nz r3.x\n{EXCHANGE}\nret");
    assert!(!runs_by_phase(&program(&body)));
    let top = format!("{EXCHANGE}\nret\nsync_g_t\nret");
    assert!(!runs_by_phase(&program(&top)));
}
