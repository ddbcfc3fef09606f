//! The backend and the dispatch loops on hand-built IR programs.

use dxjit::ir::*;
use dxjit::jit::{compile, Codegen, JitOptions};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{dispatch, Bindings};

fn raw_uav(buf: &mut [u32]) -> View {
    View {
        ptr: buf.as_mut_ptr() as *mut u8,
        size: (buf.len() * 4) as u32,
        ..View::EMPTY
    }
}

fn tid() -> Src {
    Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0)
}

fn run(prog: &Program, groups: [u32; 3], k: usize, words: usize) -> Vec<u32> {
    let c = compile(
        prog,
        JitOptions {
            k,
            listing: false,
            codegen: Codegen::Full,
            keep_image: false,
            wide_sampling: false,
        },
    )
    .expect("compiles");
    let mut buf = vec![0xdeadu32; words];
    let mut b = Bindings::default();
    b.uavs[0] = raw_uav(&mut buf);
    // SAFETY: the one view points into `buf`, alive and untouched across
    // the call; `c` keeps the code alive.
    unsafe { dispatch(&c.kernel(), &b, groups) };
    buf
}

fn store_program(tg: u32) -> Program {
    let mut p = Program::new(Stage::Compute);
    p.temps = 1;
    p.thread_group = [tg, 1, 1];
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.main = vec![
        Inst::Alu {
            op: AluOp::IShl,
            dst: Dst::temp(0, 1),
            src: vec![tid(), Src::splat(2)],
        },
        Inst::Alu {
            op: AluOp::IMul,
            dst: Dst::temp(0, 2),
            src: vec![tid(), tid()],
        },
        Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: Src::temp(0).scalar(0),
            value: Src::temp(0).scalar(1),
            count: 1,
        },
    ]
    .into();
    p
}

#[test]
fn every_thread_stores_its_square() {
    for k in 1..=4 {
        let out = run(&store_program(6), [3, 1, 1], k, 20);
        let want: Vec<u32> = (0..18).map(|i| i * i).chain([0xdead, 0xdead]).collect();
        assert_eq!(out, want, "k = {k}");
    }
}

#[test]
fn out_of_bounds_stores_are_dropped() {
    // 18 threads write word i; the buffer holds 10: the rest must vanish.
    let out = run(&store_program(6), [3, 1, 1], 2, 10);
    let want: Vec<u32> = (0..10).map(|i| i * i).collect();
    assert_eq!(out, want);
}

#[test]
fn divergent_loop_counts_per_lane() {
    // r0.x = 0; loop { breakc_z (r0.x < tid); r0.x += 1 } store tid -> r0.x
    let mut p = Program::new(Stage::Compute);
    p.temps = 2;
    p.thread_group = [8, 1, 1];
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.main = vec![
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(0, 1),
            src: vec![Src::splat(0)],
        },
        Inst::Loop,
        Inst::Alu {
            op: AluOp::ULt,
            dst: Dst::temp(1, 1),
            src: vec![Src::temp(0).scalar(0), tid()],
        },
        Inst::BreakC {
            cond: Src::temp(1).scalar(0),
            nz: false,
        },
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(0, 1),
            src: vec![Src::temp(0).scalar(0), Src::splat(3)],
        },
        Inst::EndLoop,
        Inst::Alu {
            op: AluOp::IShl,
            dst: Dst::temp(1, 1),
            src: vec![tid(), Src::splat(2)],
        },
        Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: Src::temp(1).scalar(0),
            value: Src::temp(0).scalar(0),
            count: 1,
        },
    ]
    .into();
    let out = run(&p, [1, 1, 1], 2, 8);
    assert_eq!(out, vec![0, 3, 3, 3, 6, 6, 6, 9]);
}

#[test]
fn barrier_inside_a_loop_exchanges_through_groupshared_memory() {
    // Each round: g[tid] = acc; barrier; acc += g[(tid + 1) % 8]; barrier. 3 rounds.
    let mut p = Program::new(Stage::Compute);
    p.temps = 3;
    p.thread_group = [8, 1, 1];
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.tgsm.push(TgsmDecl {
        id: 0,
        size: 32,
        stride: 0,
    });
    let sync = Inst::Sync {
        group: true,
        uav: false,
        tgsm: true,
    };
    let t = |r| Src::temp(r);
    p.main = vec![
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(0, 1),
            src: vec![tid()],
        },
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(0, 2),
            src: vec![Src::splat(0)],
        },
        Inst::Alu {
            op: AluOp::IShl,
            dst: Dst::temp(1, 1),
            src: vec![tid(), Src::splat(2)],
        },
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(1, 2),
            src: vec![tid(), Src::splat(1)],
        },
        Inst::Alu {
            op: AluOp::And,
            dst: Dst::temp(1, 2),
            src: vec![t(1).scalar(1), Src::splat(7)],
        },
        Inst::Alu {
            op: AluOp::IShl,
            dst: Dst::temp(1, 2),
            src: vec![t(1).scalar(1), Src::splat(2)],
        },
        Inst::Loop,
        Inst::Alu {
            op: AluOp::UGe,
            dst: Dst::temp(2, 1),
            src: vec![t(0).scalar(1), Src::splat(3)],
        },
        Inst::BreakC {
            cond: t(2).scalar(0),
            nz: true,
        },
        Inst::StoreRaw {
            res: Resource::Tgsm(0),
            offset: t(1).scalar(0),
            value: t(0).scalar(0),
            count: 1,
        },
        sync.clone(),
        Inst::LoadRaw {
            dst: Dst::temp(2, 1),
            res: Resource::Tgsm(0),
            offset: t(1).scalar(1),
            swizzle: XYZW,
        },
        sync,
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(0, 1),
            src: vec![t(0).scalar(0), t(2).scalar(0)],
        },
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(0, 2),
            src: vec![t(0).scalar(1), Src::splat(1)],
        },
        Inst::EndLoop,
        Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: t(1).scalar(0),
            value: t(0).scalar(0),
            count: 1,
        },
    ]
    .into();
    // Round r: a_i <- a_i + a_{i+1}; after 3 rounds a_i = sum over j of C(3, j) * (i + j mod 8).
    let mut a: Vec<u32> = (0..8).collect();
    for _ in 0..3 {
        a = (0..8).map(|i| a[i] + a[(i + 1) % 8]).collect();
    }
    for k in [1, 2] {
        assert_eq!(run(&p, [2, 1, 1], k, 8), a, "k = {k}");
    }
}

#[test]
fn nested_loops_run_every_inner_iteration() {
    // for a in 0..3 { for b in 0..2 { u0[6 * tid + 2 * a + b] = 100 * a + b } }
    let mut p = Program::new(Stage::Compute);
    p.temps = 3;
    p.thread_group = [4, 1, 1];
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    let t = Src::temp;
    let alu = |op, dst, src| Inst::Alu { op, dst, src };
    p.main = vec![
        alu(AluOp::Mov, Dst::temp(0, 1), vec![Src::splat(0)]),
        Inst::Loop,
        alu(
            AluOp::UGe,
            Dst::temp(2, 1),
            vec![t(0).scalar(0), Src::splat(3)],
        ),
        Inst::BreakC {
            cond: t(2).scalar(0),
            nz: true,
        },
        alu(AluOp::Mov, Dst::temp(0, 2), vec![Src::splat(0)]),
        Inst::Loop,
        alu(
            AluOp::UGe,
            Dst::temp(2, 1),
            vec![t(0).scalar(1), Src::splat(2)],
        ),
        Inst::BreakC {
            cond: t(2).scalar(0),
            nz: true,
        },
        alu(AluOp::IMul, Dst::temp(1, 1), vec![tid(), Src::splat(6)]),
        alu(
            AluOp::IMad,
            Dst::temp(1, 1),
            vec![t(0).scalar(0), Src::splat(2), t(1).scalar(0)],
        ),
        alu(
            AluOp::IAdd,
            Dst::temp(1, 1),
            vec![t(1).scalar(0), t(0).scalar(1)],
        ),
        alu(
            AluOp::IShl,
            Dst::temp(1, 1),
            vec![t(1).scalar(0), Src::splat(2)],
        ),
        alu(
            AluOp::IMad,
            Dst::temp(1, 2),
            vec![t(0).scalar(0), Src::splat(100), t(0).scalar(1)],
        ),
        Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: t(1).scalar(0),
            value: t(1).scalar(1),
            count: 1,
        },
        alu(
            AluOp::IAdd,
            Dst::temp(0, 2),
            vec![t(0).scalar(1), Src::splat(1)],
        ),
        Inst::EndLoop,
        alu(
            AluOp::IAdd,
            Dst::temp(0, 1),
            vec![t(0).scalar(0), Src::splat(1)],
        ),
        Inst::EndLoop,
    ]
    .into();
    let want: Vec<u32> = (0..4).flat_map(|_| [0, 1, 100, 101, 200, 201]).collect();
    for k in [1, 2] {
        assert_eq!(run(&p, [1, 1, 1], k, 24), want, "k = {k}");
    }
}
