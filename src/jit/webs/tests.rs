//! Which temps split, on small programs whose webs are plain to see.

use super::split_live_ranges;
use crate::ir::Program;
use crate::jit::uniform::Uniformity;
use crate::shader::{lower, CompileOptions};

/// A cs_5_0 program of `body`, then a group barrier (the pass splits only
/// programs with one).
fn program(body: &str) -> Program {
    let text = format!(
        "cs_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_uav_raw u0\n\
         dcl_tgsm_raw g0, 64\ndcl_input vThreadIDInGroupFlattened.x\ndcl_temps 2\n\
         dcl_thread_group 16, 1, 1\n{body}\nsync_g_t\nret\n"
    );
    let bytes = crate::text::assemble(&text).expect("assembles");
    lower(&bytes, &CompileOptions::default()).expect("lowers").1
}

#[test]
fn a_register_reused_for_an_unrelated_value_splits() {
    // r0.x holds a constant, then the thread's index: two webs, and the
    // branch on the first is uniform once they are apart.
    let prog = program(
        "mov r0.x, cb0[0].x\nif_nz r0.x\nstore_raw u0.x, l(0), l(1)\nendif\n\
         mov r0.x, vThreadIDInGroupFlattened.x\nstore_raw u0.x, l(4), r0.x",
    );
    assert!(!Uniformity::of(&prog).temp(0, 0));
    let split = split_live_ranges(&prog).expect("splits");
    assert_eq!(split.temps, prog.temps + 1);
    let uniform = Uniformity::of(&split);
    let branch = split
        .main
        .iter()
        .find_map(|i| match i {
            crate::ir::Inst::If { cond, .. } => Some(cond.clone()),
            _ => None,
        })
        .expect("an if");
    assert!(
        uniform.src(&branch, 0),
        "the branch reads the constant's web"
    );
}

#[test]
fn values_that_meet_stay_together() {
    // A loop-carried counter, and a value written on both sides of an if
    // and read after it: one web each, nothing splits.
    let looped = program(
        "mov r0.x, l(0)\nloop\nuge r1.x, r0.x, l(4)\nbreakc_nz r1.x\n\
         iadd r0.x, r0.x, l(1)\nendloop\nstore_raw u0.x, l(0), r0.x",
    );
    assert!(split_live_ranges(&looped).is_none());
    let branched = program(
        "if_nz vThreadIDInGroupFlattened.x\nmov r0.x, l(1)\nelse\nmov r0.x, l(2)\nendif\n\
         store_raw u0.x, l(0), r0.x",
    );
    assert!(split_live_ranges(&branched).is_none());
}

#[test]
fn components_read_together_share_a_register() {
    // r0.x is written again, but the next read takes r0.xy in one operand
    // together with the first write's y: all of r0 stays one register.
    let together = program(
        "mov r0.xy, l(1, 2, 0, 0)\nmov r0.x, vThreadIDInGroupFlattened.x\n\
         store_raw u0.xy, l(0), r0.xyxx",
    );
    assert!(split_live_ranges(&together).is_none());
    // Read in two operands, the new x moves to a register of its own.
    let apart = program(
        "mov r0.xy, l(1, 2, 0, 0)\nmov r0.x, vThreadIDInGroupFlattened.x\n\
         iadd r1.x, r0.x, r0.y\nstore_raw u0.x, l(0), r1.x",
    );
    assert_eq!(split_live_ranges(&apart).map(|p| p.temps), Some(3));
}

#[test]
fn a_value_falling_through_a_switch_stays_with_its_read() {
    // Case 1 writes r0.x and falls through to case 2, which reads it with
    // the first write's value on the other path: one web. The write after
    // the switch starts another.
    let prog = program(
        "mov r0.x, l(5)\nswitch vThreadIDInGroupFlattened.x\ncase l(1)\nmov r0.x, l(7)\n\
         case l(2)\niadd r1.x, r0.x, l(1)\nstore_raw u0.x, l(0), r1.x\nbreak\n\
         default\nbreak\nendswitch\nmov r0.x, vThreadIDInGroupFlattened.x\n\
         store_raw u0.x, l(4), r0.x",
    );
    let split = split_live_ranges(&prog).expect("splits");
    let registers: Vec<u32> = split
        .main
        .iter()
        .filter_map(|i| match i {
            crate::ir::Inst::Alu { dst, .. } if dst.index.base != 1 => Some(dst.index.base),
            _ => None,
        })
        .collect();
    // The two writes before the read share a register; the last has its own.
    assert_eq!(registers.len(), 3);
    assert_eq!(registers[0], registers[1]);
    assert_ne!(registers[1], registers[2]);
}
