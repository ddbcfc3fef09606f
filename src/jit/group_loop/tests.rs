//! Which compute shaders run a group phase by phase, and how.

use super::{phasing, Phasing};
use crate::ir::Program;
use crate::jit::uniform::Uniformity;
use crate::shader::{lower, CompileOptions};

/// How a cs_5_0 program with group-shared memory, from its body, runs
/// its groups.
fn phasing_of(body: &str) -> Option<Phasing> {
    let text = format!(
        "cs_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_uav_raw u0\n\
         dcl_tgsm_raw g0, 64\ndcl_input vThreadIDInGroupFlattened.x\n\
         dcl_temps 4\ndcl_thread_group 16, 1, 1\n{body}\n"
    );
    let bytes = crate::text::assemble(&text).expect("assembles");
    let prog: Program = lower(&bytes, &CompileOptions::default()).expect("lowers").1;
    phasing(&prog, &Uniformity::of(&prog))
}

/// Writes the thread's index to g0 and reads its neighbour's back.
const EXCHANGE: &str = "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n\
    store_raw g0.x, r0.x, vThreadIDInGroupFlattened.x\nsync_g_t\n\
    iadd r1.x, r0.x, l(4)\nand r1.x, r1.x, l(63)\nld_raw r2.x, r1.x, g0.xxxx\n\
    store_raw u0.x, r0.x, r2.x";

#[test]
fn top_level_barriers_run_straight() {
    assert_eq!(
        phasing_of(&format!("{EXCHANGE}\nret")),
        Some(Phasing::Straight)
    );
}

#[test]
fn barriers_under_uniform_tests_note_their_phase() {
    let in_if = format!("if_nz cb0[0].x\n{EXCHANGE}\nendif\nret");
    assert_eq!(phasing_of(&in_if), Some(Phasing::Uniform));
    let in_loop = format!(
        "mov r3.x, l(0)\nloop\nuge r3.y, r3.x, l(2)\nbreakc_nz r3.y\n{EXCHANGE}\n\
         iadd r3.x, r3.x, l(1)\nendloop\nret"
    );
    assert_eq!(phasing_of(&in_loop), Some(Phasing::Uniform));
}

#[test]
fn barriers_under_per_thread_tests_resume_batch_by_batch() {
    let in_if =
        format!("ult r3.x, vThreadIDInGroupFlattened.x, l(8)\nif_nz r3.x\n{EXCHANGE}\nendif\nret");
    assert_eq!(phasing_of(&in_if), None);
    let in_loop = format!(
        "mov r3.x, vThreadIDInGroupFlattened.x\nloop\nuge r3.y, r3.x, l(2)\nbreakc_nz r3.y\n\
         {EXCHANGE}\niadd r3.x, r3.x, l(1)\nendloop\nret"
    );
    assert_eq!(phasing_of(&in_loop), None);
}

#[test]
fn a_per_thread_return_resumes_batch_by_batch() {
    let lower_half = "ult r3.x, vThreadIDInGroupFlattened.x, l(8)\n";
    let body = format!("{lower_half}retc_nz r3.x\n{EXCHANGE}\nret");
    assert_eq!(phasing_of(&body), None);
    let in_if = format!("{lower_half}if_nz r3.x\nret\nendif\n{EXCHANGE}\nret");
    assert_eq!(phasing_of(&in_if), None);
}

#[test]
fn a_uniform_early_return_notes_its_phase() {
    let body = format!("retc_nz cb0[0].x\n{EXCHANGE}\nret");
    assert_eq!(phasing_of(&body), Some(Phasing::Uniform));
    let in_if = format!("if_nz cb0[0].y\nret\nendif\n{EXCHANGE}\nret");
    assert_eq!(phasing_of(&in_if), Some(Phasing::Uniform));
}

#[test]
fn a_loop_left_on_a_quiet_group_shared_flag_notes_its_phase() {
    // A parallel sort's passes: the flag is read at the loop's top, where
    // no thread writes it before or after the barriers around.
    let sort = "sync_g_t\nloop\nld_raw r3.x, l(0), g0.xxxx\nbreakc_z r3.x\nsync_g_t\n\
        if_z vThreadIDInGroupFlattened.x\nstore_raw g0.x, l(0), l(0)\nendif\nsync_g_t\n\
        ult r3.y, vThreadIDInGroupFlattened.x, l(4)\nif_nz r3.y\nstore_raw g0.x, l(0), l(1)\n\
        endif\nsync_g_t\nendloop\nret";
    assert_eq!(phasing_of(sort), Some(Phasing::Uniform));
    // Written in the flag's own stretch, it is per thread.
    let racing = "loop\nld_raw r3.x, l(0), g0.xxxx\nbreakc_z r3.x\nsync_g_t\n\
        store_raw g0.x, l(0), vThreadIDInGroupFlattened.x\nendloop\nret";
    assert_eq!(phasing_of(racing), None);
}

#[test]
fn doa6s_sort_runs_its_groups_phase_by_phase() {
    // Dead or Alive 6's compute shader (tests/shaders/3d-fixes): a loop of
    // sorting passes over group-shared memory, left on a flag there, with
    // barriers between the passes.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/shaders/3d-fixes/doa6/ShaderFixes/5e9eb92c93ecae44-cs.txt"
    );
    let text = std::fs::read_to_string(path).expect("the shader is in the tree");
    let bytes = crate::text::assemble(&text).expect("assembles");
    let prog: Program = lower(&bytes, &CompileOptions::default()).expect("lowers").1;
    let split = crate::jit::webs::split_live_ranges(&prog).expect("its temps split");
    assert_eq!(
        phasing(&split, &Uniformity::of(&split)),
        Some(Phasing::Uniform)
    );
}
