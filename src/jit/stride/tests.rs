//! Stride hints on small programs, with strides worked out by hand.

use super::raw_strides;
use crate::ir::{AluOp, Dst, File, Inst, Program, Resource, Src, Stage, SysVal, XYZW};
use crate::jit::uniform::Uniformity;

fn alu(op: AluOp, dst: u32, src: Vec<Src>) -> Inst {
    Inst::Alu {
        op,
        dst: Dst::temp(dst, 0b0001),
        src,
    }
}

fn load(offset: u32) -> Inst {
    Inst::LoadRaw {
        dst: Dst::temp(3, 0b1111),
        res: Resource::Tgsm(0),
        offset: Src::temp(offset).scalar(0),
        swizzle: XYZW,
    }
}

fn strides(main: Vec<Inst>) -> std::collections::HashMap<usize, i64> {
    let mut p = Program::new(Stage::Compute);
    p.temps = 4;
    p.main = main.into();
    raw_strides(&p, &Uniformity::of(&p))
}

#[test]
fn flattened_index_times_sixteen_steps_sixteen_bytes() {
    let index = Src::reg(File::SysVal(SysVal::GroupIndex), 0).scalar(0);
    let s = strides(vec![
        alu(AluOp::IMul, 0, vec![index, Src::splat(16)]),
        load(0),
    ]);
    assert_eq!(s.get(&1), Some(&16));
}

#[test]
fn a_shift_and_a_uniform_add_keep_the_stride() {
    let tid = Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0);
    let cb = Src::reg(File::Const(0), 0).scalar(0);
    let s = strides(vec![
        alu(AluOp::IShl, 0, vec![tid, Src::splat(2)]),
        alu(AluOp::IAdd, 0, vec![Src::temp(0).scalar(0), cb]),
        load(0),
    ]);
    assert_eq!(s.get(&2), Some(&4));
}

#[test]
fn thread_y_steps_zero_and_inputs_give_no_hint() {
    let tid_y = Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(1);
    let input = Src::reg(File::Input, 0).scalar(0);
    let s = strides(vec![
        alu(AluOp::Mov, 0, vec![tid_y]),
        load(0),
        alu(AluOp::Mov, 1, vec![input]),
        load(1),
    ]);
    assert_eq!(s.get(&1), Some(&0));
    assert_eq!(s.get(&3), None);
}

#[test]
fn stores_get_hints_and_a_load_forgets_its_destination() {
    let tid = Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0);
    let store = |offset: u32| Inst::StoreRaw {
        res: Resource::Tgsm(0),
        offset: Src::temp(offset).scalar(0),
        value: Src::temp(2),
        count: 4,
    };
    let s = strides(vec![
        alu(AluOp::IShl, 3, vec![tid, Src::splat(4)]),
        store(3),
        // The load overwrites r3 with loaded data: no stride is known after.
        load(0),
        store(3),
    ]);
    assert_eq!(s.get(&1), Some(&16));
    assert_eq!(s.get(&3), None);
}

#[test]
fn a_load_into_one_component_keeps_the_others() {
    // K3's shape: r0.w = SV_GroupIndex (stride 1); a load into r0.x alone
    // leaves r0.w known, so (r0.w + 128) * 16 steps 1 * 16 = 16 bytes.
    let index = Src::reg(File::SysVal(SysVal::GroupIndex), 0).scalar(0);
    let s = strides(vec![
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(0, 0b1000),
            src: vec![index],
        },
        Inst::LoadRaw {
            dst: Dst::temp(0, 0b0001),
            res: Resource::Tgsm(0),
            offset: Src::temp(1).scalar(0),
            swizzle: XYZW,
        },
        alu(
            AluOp::IAdd,
            1,
            vec![Src::temp(0).scalar(3), Src::splat(128)],
        ),
        alu(AluOp::IMul, 1, vec![Src::temp(1).scalar(0), Src::splat(16)]),
        load(1),
    ]);
    assert_eq!(s.get(&4), Some(&16));
}
