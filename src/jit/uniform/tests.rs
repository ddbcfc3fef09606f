//! Uniformity on small programs whose answers follow from the rules: lane
//! ids vary, constants do not, and writes under divergent control vary.

use super::Uniformity;
use crate::ir::{AluOp, Dst, File, Inst, Program, Src, Stage, SysVal};

fn tid() -> Src {
    Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0)
}

fn cb() -> Src {
    Src::reg(File::Const(0), 0).scalar(0)
}

fn mov(dst: u32, src: Src) -> Inst {
    Inst::Alu {
        op: AluOp::Mov,
        dst: Dst::temp(dst, 0b0001),
        src: vec![src],
    }
}

fn program(main: Vec<Inst>) -> Program {
    let mut p = Program::new(Stage::Compute);
    p.temps = 4;
    p.main = main.into();
    p
}

#[test]
fn lane_ids_vary_and_constants_do_not() {
    let u = Uniformity::of(&program(vec![mov(0, tid()), mov(1, cb())]));
    assert!(!u.temp(0, 0));
    assert!(u.temp(1, 0));
    assert!(u.temp(0, 1), "an unwritten component stays uniform");
}

#[test]
fn a_uniform_write_under_a_varying_branch_varies() {
    let u = Uniformity::of(&program(vec![
        mov(0, tid()),
        Inst::If {
            cond: Src::temp(0).scalar(0),
            nz: true,
        },
        mov(1, cb()),
        Inst::EndIf,
        mov(2, cb()),
    ]));
    assert!(!u.temp(1, 0));
    assert!(u.temp(2, 0));
}

#[test]
fn variance_reaches_reads_that_come_before_the_write() {
    // r2 = r3 is seen before r3 = tid: only a second pass marks r2.
    let u = Uniformity::of(&program(vec![
        mov(2, Src::temp(3).scalar(0)),
        mov(3, tid()),
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(1, 0b0001),
            src: vec![cb(), Src::splat(1)],
        },
    ]));
    assert!(!u.temp(3, 0));
    assert!(!u.temp(2, 0));
    assert!(u.temp(1, 0));
}

fn resinfo(dst: u32, mip: Src) -> Inst {
    Inst::ResInfo {
        dst: Dst::temp(dst, 0b0011),
        res: crate::ir::Resource::Uav(0),
        mip,
        ret: crate::ir::ResInfoReturn::Uint,
        swizzle: [0, 1, 2, 3],
    }
}

#[test]
fn resinfo_is_uniform_at_a_uniform_level_under_uniform_control() {
    let u = Uniformity::of(&program(vec![
        mov(0, tid()),
        resinfo(1, cb()),
        resinfo(2, Src::temp(0).scalar(0)),
        Inst::If {
            cond: Src::temp(0).scalar(0),
            nz: true,
        },
        resinfo(3, cb()),
        Inst::EndIf,
    ]));
    assert!(
        u.temp(1, 0) && u.temp(1, 1),
        "a view's size at a uniform level"
    );
    assert!(!u.temp(2, 0), "a per-lane level");
    assert!(!u.temp(3, 0), "under a varying branch");
}

/// A load of component x into temp `dst` from `res` at byte `offset`.
fn load_raw(dst: u32, res: crate::ir::Resource, offset: Src) -> Inst {
    Inst::LoadRaw {
        dst: Dst::temp(dst, 0b0001),
        res,
        offset,
        swizzle: [0; 4],
    }
}

#[test]
fn loads_from_views_at_uniform_places_are_uniform() {
    use crate::ir::Resource::{Srv, Tgsm, Uav};
    let u = Uniformity::of(&program(vec![
        load_raw(0, Srv(0), cb()),
        load_raw(1, Srv(0), tid()),
        load_raw(2, Uav(0), cb()),
        load_raw(3, Tgsm(0), cb()),
        Inst::StoreRaw {
            res: Tgsm(0),
            offset: cb(),
            value: tid(),
            count: 1,
        },
        load_raw(4, Tgsm(1), cb()),
    ]));
    assert!(u.temp(0, 0), "a read-only view at a uniform place");
    assert!(!u.temp(1, 0), "a varying place");
    assert!(!u.temp(2, 0), "a UAV other lanes may write");
    assert!(!u.temp(3, 0), "group-shared memory written around the load");
    assert!(u.temp(4, 0), "group-shared memory nothing writes");
}

#[test]
fn a_uniform_load_under_a_varying_branch_varies() {
    let u = Uniformity::of(&program(vec![
        mov(0, tid()),
        Inst::If {
            cond: Src::temp(0).scalar(0),
            nz: true,
        },
        load_raw(1, crate::ir::Resource::Srv(0), cb()),
        Inst::EndIf,
    ]));
    assert!(!u.temp(1, 0));
}
