//! Which group-shared loads every thread of a group reads alike.

use super::quiet_shared_loads;
use crate::ir::{Inst, Program, Resource};
use crate::shader::{lower, CompileOptions};

/// Main of a cs_5_0 program with two group-shared variables, from its body.
fn main_of(body: &str) -> Vec<Inst> {
    let text = format!(
        "cs_5_0\ndcl_uav_raw u0\ndcl_tgsm_raw g0, 64\ndcl_tgsm_raw g1, 64\n\
         dcl_input vThreadIDInGroupFlattened.x\ndcl_temps 4\n\
         dcl_thread_group 16, 1, 1\n{body}\nret\n"
    );
    let bytes = crate::text::assemble(&text).expect("assembles");
    let prog: Program = lower(&bytes, &CompileOptions::default()).expect("lowers").1;
    prog.main.as_slice().to_vec()
}

/// Per load from g0 in `body`, in order, whether it is quiet.
fn g0_loads(body: &str) -> Vec<bool> {
    let main = main_of(body);
    let quiet = quiet_shared_loads(&main);
    main.iter()
        .zip(quiet)
        .filter(|(inst, _)| {
            matches!(
                inst,
                Inst::LoadRaw {
                    res: Resource::Tgsm(0),
                    ..
                }
            )
        })
        .map(|(_, q)| q)
        .collect()
}

/// Thread 0 writes g0 between the first two barriers.
const FILL: &str =
    "if_z vThreadIDInGroupFlattened.x\nstore_raw g0.x, l(0), l(7)\nendif\nsync_g_t\n";

#[test]
fn a_load_between_barriers_with_no_write_is_quiet() {
    assert_eq!(
        g0_loads(&format!("{FILL}ld_raw r0.x, l(0), g0.xxxx\nsync_g_t")),
        [true]
    );
}

#[test]
fn a_write_in_the_same_stretch_before_or_after_makes_it_loud() {
    let after = format!("{FILL}ld_raw r0.x, l(0), g0.xxxx\nstore_raw g0.x, l(4), r0.x");
    assert_eq!(g0_loads(&after), [false]);
    let before = "store_raw g0.x, l(4), l(1)\nld_raw r0.x, l(0), g0.xxxx";
    assert_eq!(g0_loads(before), [false]);
    let atomic = format!("{FILL}ld_raw r0.x, l(0), g0.xxxx\natomic_iadd g0, l(0), l(1)");
    assert_eq!(g0_loads(&atomic), [false]);
}

#[test]
fn writes_to_another_variable_or_past_a_barrier_leave_it_quiet() {
    let other = format!("{FILL}ld_raw r0.x, l(0), g0.xxxx\nstore_raw g1.x, l(0), r0.x");
    assert_eq!(g0_loads(&other), [true]);
    let next = format!("{FILL}ld_raw r0.x, l(0), g0.xxxx\nsync_g_t\nstore_raw g0.x, l(0), r0.x");
    assert_eq!(g0_loads(&next), [true]);
}

#[test]
fn a_loop_carries_writes_around_unless_a_barrier_stands_between() {
    // The store at the loop's end reaches the load at its top.
    let unfenced = "loop\nld_raw r0.x, l(0), g0.xxxx\nbreakc_nz r0.x\n\
        store_raw g0.x, l(0), l(1)\nendloop";
    assert_eq!(g0_loads(unfenced), [false]);
    // DOA6's sort: the flag is read at the top, cleared and set between
    // barriers inside the loop.
    let fenced = "sync_g_t\nloop\nld_raw r0.x, l(0), g0.xxxx\nbreakc_nz r0.x\nsync_g_t\n\
        if_z vThreadIDInGroupFlattened.x\nstore_raw g0.x, l(0), l(0)\nendif\nsync_g_t\n\
        store_raw g0.x, l(0), l(2)\nsync_g_t\nendloop";
    assert_eq!(g0_loads(fenced), [true]);
    // A conditional break skips the last barrier: the write reaches the top.
    let skipped = "sync_g_t\nloop\nld_raw r0.x, l(0), g0.xxxx\nbreakc_nz r0.x\nsync_g_t\n\
        store_raw g0.x, l(0), l(2)\ncontinuec_nz vThreadIDInGroupFlattened.x\nsync_g_t\nendloop";
    assert_eq!(g0_loads(skipped), [false]);
}
