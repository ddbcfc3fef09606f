//! What a loop leaves alone, on programs small enough to read by hand.

use super::untouched_live;
use crate::ir::{Inst, Liveness, Program};
use crate::shader::{lower, CompileOptions};

/// A cs_5_0 program from its body.
fn program(body: &str) -> Program {
    let text =
        format!("cs_5_0\ndcl_uav_raw u0\ndcl_temps 4\ndcl_thread_group 4, 1, 1\n{body}\nret\n");
    let bytes = crate::text::assemble(&text).expect("assembles");
    lower(&bytes, &CompileOptions::default()).expect("lowers").1
}

/// What the first loop of `body` leaves alone.
fn untouched(body: &str) -> Option<Vec<(u32, u8)>> {
    let prog = program(body);
    let pos = prog.main.iter().position(|i| matches!(i, Inst::Loop))?;
    untouched_live(&prog, &Liveness::of(&prog), pos)
}

const LOOP: &str = "loop\nuge r0.y, r0.x, l(8)\nbreakc_nz r0.y\niadd r0.x, r0.x, l(1)\nendloop";

#[test]
fn values_read_after_the_loop_and_not_in_it_wait() {
    let body = format!(
        "mov r0.x, l(0)\nmov r1.xy, l(1, 2, 0, 0)\nmov r2.x, l(3)\n{LOOP}\n\
         store_raw u0.xyz, l(0), r1.xyxx\nstore_raw u0.x, l(16), r0.x"
    );
    // r2.x is dead; r0.x is the loop's own.
    assert_eq!(untouched(&body), Some(vec![(1, 0), (1, 1)]));
}

#[test]
fn a_value_the_loop_reads_stays() {
    let body = format!(
        "mov r0.x, l(0)\nmov r1.xy, l(1, 2, 0, 0)\n{}\nstore_raw u0.xy, l(0), r1.xyxx",
        LOOP.replace("iadd r0.x, r0.x, l(1)", "iadd r0.x, r0.x, r1.y")
    );
    assert_eq!(untouched(&body), Some(vec![(1, 0)]));
}

#[test]
fn barriers_and_calls_park_nothing() {
    let body = format!(
        "mov r0.x, l(0)\nmov r1.x, l(1)\n{}\nstore_raw u0.x, l(0), r1.x",
        LOOP.replace("endloop", "sync_g_t\nendloop")
    );
    assert_eq!(untouched(&body), None);
}
