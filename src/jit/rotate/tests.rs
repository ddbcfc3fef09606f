//! Which loops rotate and into what, on programs small enough to read by
//! hand.

use super::rotate_loops;
use crate::ir::{Inst, Program};
use crate::shader::{lower, CompileOptions};

/// A cs_5_0 program from its body.
fn program(body: &str) -> Program {
    let text =
        format!("cs_5_0\ndcl_uav_raw u0\ndcl_temps 12\ndcl_thread_group 4, 1, 1\n{body}\nret\n");
    let bytes = crate::text::assemble(&text).expect("assembles");
    lower(&bytes, &CompileOptions::default()).expect("lowers").1
}

/// K1's loop, one chain: the counter r2.x is tested at the top and
/// counted at the bottom; `a` (r0.x) is updated through r7, and the `mad`
/// of `y` (r1.x) reads the new `a` through the copy r7.z.
const K1_CHAIN: &str = "mov r0.x, l(0.5)\nmov r1.x, l(0)\nmov r2.x, l(0)\nloop\n\
    mov r6.y, r2.x\nult r6.z, r6.y, l(256)\nnot r6.w, r6.z\nif_nz r6.w\nbreak\nendif\n\
    mov r7.x, r0.x\nmul r7.y, r7.x, l(0.999)\nadd r7.z, r7.y, l(0.001)\nmov r0.x, r7.z\n\
    mov r7.w, r1.x\nmad r8.x, r7.w, r7.z, l(-0.25)\nmov r1.x, r8.x\n\
    mov r12.x, r2.x\niadd r12.y, r12.x, l(1)\nmov r2.x, r12.y\nendloop\n\
    store_raw u0.x, l(0), r1.x";

/// The shape of a body: `L` loop, `E` endloop, `B` break, `C` breakc,
/// `I` if, `F` endif, `.` arithmetic.
fn shape(prog: &Program) -> String {
    prog.main
        .iter()
        .map(|i| match i {
            Inst::Loop => 'L',
            Inst::EndLoop => 'E',
            Inst::Break => 'B',
            Inst::BreakC { .. } => 'C',
            Inst::If { .. } => 'I',
            Inst::EndIf => 'F',
            _ => '.',
        })
        .collect()
}

#[test]
fn the_k1_chain_runs_its_mad_at_the_start_of_the_next_iteration() {
    let prog = program(K1_CHAIN);
    let rotated = rotate_loops(&prog).expect("rotates");
    // Three setup movs; the region: the test (3), its breakc, the early
    // part (the update of `a`, the copy of `y` and the counter: 8); the
    // loop: the test, the exit with the late part (`mad`, copy back: 2),
    // the late part, the early part; the region's break; the store, ret.
    assert_eq!(
        shape(&rotated),
        format!("...L...C{}L...I..BF..{}EBE..", ".".repeat(8), ".".repeat(8))
    );
    // The late `mad` reads the new `a` from r0.x, which carries it round,
    // and the old `y` from r1.x, not from the copies r7.z and r7.w (which
    // would then go round the loop too).
    let mad = rotated
        .main
        .iter()
        .find(|i| {
            matches!(
                i,
                Inst::Alu {
                    op: crate::ir::AluOp::Mad,
                    ..
                }
            )
        })
        .expect("a mad");
    let Inst::Alu { src, .. } = mad else {
        unreachable!()
    };
    assert_eq!((src[0].index.base, src[0].swizzle[0]), (1, 0));
    assert_eq!((src[1].index.base, src[1].swizzle[0]), (0, 0));
}

#[test]
fn loops_without_late_work_or_of_another_shape_stay() {
    // Nothing reads the new `a` in the iteration that makes it.
    let no_late = K1_CHAIN.replace("mad r8.x, r7.w, r7.z", "mad r8.x, r7.w, r7.x");
    assert!(rotate_loops(&program(&no_late)).is_none());
    // A store in the body.
    let store = K1_CHAIN.replace(
        "mov r1.x, r8.x\n",
        "mov r1.x, r8.x\nstore_raw u0.x, l(4), r1.x\n",
    );
    assert!(rotate_loops(&program(&store)).is_none());
    // An exit each thread takes at its own trip (not uniform).
    let divergent = K1_CHAIN.replace("mov r2.x, l(0)", "mov r2.x, vThreadID.x");
    assert!(rotate_loops(&program(&divergent)).is_none());
    // An exit test reading a temp through a relative index: what it
    // reads is not known (neither in the copy the lowering makes of it
    // nor in the test itself).
    let relative = K1_CHAIN.replace("if_nz r6.w", "if_nz r[r6.y + 0].w");
    assert!(rotate_loops(&program(&relative)).is_none());
    // The late work writes what the exit test reads.
    let into_control = K1_CHAIN.replace("mov r1.x, r8.x", "mov r6.y, r8.x");
    assert!(rotate_loops(&program(&into_control)).is_none());
}

#[test]
fn work_after_late_work_that_depends_on_it_is_late_too() {
    // r9.x reads the mad's result (late), and r3.x is overwritten after
    // the late work read it: both go late, in their order.
    let body = K1_CHAIN
        .replace(
            "mad r8.x, r7.w, r7.z, l(-0.25)",
            "mad r8.x, r7.w, r7.z, r3.x",
        )
        .replace(
            "mov r1.x, r8.x\n",
            "mov r1.x, r8.x\nadd r9.x, r8.x, l(1)\nmov r3.x, r9.x\n",
        )
        .replace("mov r0.x, l(0.5)", "mov r0.x, l(0.5)\nmov r3.x, l(0)");
    let rotated = rotate_loops(&program(&body)).expect("rotates");
    assert_eq!(
        shape(&rotated),
        format!(
            "....L...C{}L...I....BF....{}EBE..",
            ".".repeat(8),
            ".".repeat(8)
        )
    );
}
