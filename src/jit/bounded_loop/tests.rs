//! Bounded and unbounded loops on small bodies, each judged by hand.

use super::is_bounded;
use crate::ir::{AluOp, Dst, Inst, Src};

fn alu(op: AluOp, dst: (u32, u8), src: Vec<Src>) -> Inst {
    Inst::Alu {
        op,
        dst: Dst::temp(dst.0, 1 << dst.1),
        src,
    }
}

fn t(reg: u32, c: u8) -> Src {
    Src::temp(reg).scalar(c)
}

/// vkd3d's shape (the K1 kernel): the counter r2.x is copied, compared,
/// negated and tested in an `if`/`break`, then copied, incremented and
/// copied back; `body` runs in between.
fn vkd3d_loop(bound: u32, step: u32, body: Vec<Inst>) -> Vec<Inst> {
    let mut v = vec![
        alu(AluOp::Mov, (6, 1), vec![t(2, 0)]),
        alu(AluOp::ULt, (6, 2), vec![t(6, 1), Src::splat(bound)]),
        alu(AluOp::Not, (6, 3), vec![t(6, 2)]),
        Inst::If {
            cond: t(6, 3),
            nz: true,
        },
        Inst::Break,
        Inst::EndIf,
    ];
    v.extend(body);
    v.extend([
        alu(AluOp::Mov, (12, 0), vec![t(2, 0)]),
        alu(AluOp::IAdd, (12, 1), vec![t(12, 0), Src::splat(step)]),
        alu(AluOp::Mov, (2, 0), vec![t(12, 1)]),
        Inst::EndLoop,
    ]);
    v
}

fn work() -> Vec<Inst> {
    vec![alu(AluOp::Mul, (0, 0), vec![t(0, 0), t(0, 0)])]
}

#[test]
fn the_k1_shape_is_bounded() {
    assert!(is_bounded(&vkd3d_loop(256, 1, work())));
    // 4096 trips (bound / step + 1) is the most that goes unchecked.
    assert!(is_bounded(&vkd3d_loop(4095 * 2, 2, work())));
    assert!(!is_bounded(&vkd3d_loop(4096 * 2, 2, work())));
}

#[test]
fn long_bodies_or_other_instructions_keep_the_check() {
    // 257 trips of a 10-instruction body fit in MAX_WORK; 1024 trips of a
    // 300-instruction one do not.
    assert!(is_bounded(&vkd3d_loop(256, 1, work())));
    let long: Vec<Inst> = (0..300).flat_map(|_| work()).collect();
    assert!(!is_bounded(&vkd3d_loop(1023, 1, long)));
    // A barrier is not among the short instructions (nor is a lookup).
    let barrier = vec![Inst::Sync {
        group: false,
        uav: true,
        tgsm: false,
    }];
    assert!(!is_bounded(&vkd3d_loop(256, 1, barrier)));
}

#[test]
fn fxc_shape_with_breakc_and_an_in_place_add_is_bounded() {
    let body = vec![
        alu(AluOp::UGe, (0, 1), vec![t(0, 0), Src::splat(100)]),
        Inst::BreakC {
            cond: t(0, 1),
            nz: true,
        },
        alu(AluOp::Mul, (1, 0), vec![t(1, 0), t(1, 0)]),
        alu(AluOp::IAdd, (0, 0), vec![t(0, 0), Src::splat(1)]),
        Inst::EndLoop,
    ];
    assert!(is_bounded(&body));
    // breakc_z on the `ult` form breaks when the counter is not below.
    let body = vec![
        alu(AluOp::ULt, (0, 1), vec![t(0, 0), Src::splat(100)]),
        Inst::BreakC {
            cond: t(0, 1),
            nz: false,
        },
        alu(AluOp::IAdd, (0, 0), vec![t(0, 0), Src::splat(1)]),
        Inst::EndLoop,
    ];
    assert!(is_bounded(&body));
}

#[test]
fn too_many_trips_a_zero_or_negative_step_are_unbounded() {
    assert!(!is_bounded(&vkd3d_loop(1 << 20, 1, work())));
    assert!(!is_bounded(&vkd3d_loop(256, 0, work())));
    assert!(!is_bounded(&vkd3d_loop(256, u32::MAX, work())));
}

#[test]
fn continue_a_nested_write_or_a_nested_loop_make_it_unbounded() {
    assert!(!is_bounded(&vkd3d_loop(256, 1, vec![Inst::Continue])));
    let nested_write = vec![
        Inst::If {
            cond: t(1, 0),
            nz: true,
        },
        alu(AluOp::Mov, (2, 0), vec![Src::splat(0)]),
        Inst::EndIf,
    ];
    assert!(!is_bounded(&vkd3d_loop(256, 1, nested_write)));
    let inner = vec![Inst::Loop, Inst::Break, Inst::EndLoop];
    assert!(!is_bounded(&vkd3d_loop(256, 1, inner)));
}

#[test]
fn a_test_after_the_increment_or_a_signed_test_is_not_recognised() {
    let after = vec![
        alu(AluOp::IAdd, (0, 0), vec![t(0, 0), Src::splat(1)]),
        alu(AluOp::UGe, (0, 1), vec![t(0, 0), Src::splat(100)]),
        Inst::BreakC {
            cond: t(0, 1),
            nz: true,
        },
        Inst::EndLoop,
    ];
    assert!(!is_bounded(&after));
    let signed = vec![
        alu(AluOp::IGe, (0, 1), vec![t(0, 0), Src::splat(100)]),
        Inst::BreakC {
            cond: t(0, 1),
            nz: true,
        },
        alu(AluOp::IAdd, (0, 0), vec![t(0, 0), Src::splat(1)]),
        Inst::EndLoop,
    ];
    assert!(!is_bounded(&signed));
}

#[test]
fn an_endless_loop_is_unbounded() {
    assert!(!is_bounded(&[Inst::EndLoop]));
    assert!(!is_bounded(&work()));
}

#[test]
fn an_exit_that_computes_before_its_break_still_bounds_the_loop() {
    // if_nz (counter not below 256) { r5.x = r5.x * r5.x; break }: the
    // arithmetic runs once, on the way out.
    let mut exit_work = vkd3d_loop(256, 1, work());
    exit_work.insert(4, alu(AluOp::Mul, (5, 0), vec![t(5, 0), t(5, 0)]));
    assert!(is_bounded(&exit_work));
    // Writing the counter there, or anything but arithmetic (a store),
    // is not recognised as such an exit.
    let mut counter_write = vkd3d_loop(256, 1, work());
    counter_write.insert(4, alu(AluOp::Mov, (2, 0), vec![Src::splat(0)]));
    assert!(!is_bounded(&counter_write));
    let mut store = vkd3d_loop(256, 1, work());
    store.insert(
        4,
        Inst::StoreRaw {
            res: crate::ir::Resource::Uav(0),
            offset: t(5, 0),
            value: t(5, 0),
            count: 1,
        },
    );
    assert!(!is_bounded(&store));
}
