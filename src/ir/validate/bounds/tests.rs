//! Each bounds refusal on a hand-built one-instruction program, next to
//! the nearest accepted instruction. The declarations: `r0`-`r1`,
//! `x0[3]`, `v0`, `o0`, `cb0` (2 rows), `t0`, raw `u0`, and in compute
//! programs `g0`.

use crate::ir::*;

fn program(stage: Stage, inst: Inst) -> Program {
    let mut p = Program::new(stage);
    p.temps = 2;
    p.indexables.push(IndexableDecl { id: 0, count: 3 });
    if stage != Stage::Compute {
        p.inputs.push(io(0));
        p.outputs.push(io(0));
    }
    p.cbs.push(CbDecl { slot: 0, rows: 2 });
    p.srvs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Typed(Dim::Texture2D),
    });
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.tgsm.push(TgsmDecl {
        id: 0,
        size: 64,
        stride: 0,
    });
    p.main = vec![inst].into();
    p
}

fn io(reg: u32) -> IoReg {
    IoReg {
        reg,
        name: format!("v{reg}"),
        mask: 0xf,
        semantic: String::new(),
        semantic_index: 0,
        interpolation: Interpolation::Linear,
    }
}

/// What validate says about `inst` in a program of `stage`: `Ok` or the
/// refusal's text.
fn check_in(stage: Stage, inst: Inst) -> Result<(), String> {
    validate(&program(stage, inst)).map_err(|e| match e {
        IrError::Operand { what, .. } => what,
        other => panic!("not an operand error: {other}"),
    })
}

fn check(inst: Inst) -> Result<(), String> {
    check_in(Stage::Pixel, inst)
}

fn mov(dst: Dst, src: Src) -> Inst {
    Inst::Alu {
        op: AluOp::Mov,
        dst,
        src: vec![src],
    }
}

fn refused(result: Result<(), String>, words: &str) {
    match result {
        Err(what) => assert!(what.contains(words), "{what:?} lacks {words:?}"),
        Ok(()) => panic!("accepted; expected a refusal naming {words:?}"),
    }
}

fn relative(mut src: Src) -> Src {
    src.index.rel = Some(Box::new(Src::temp(0)));
    src
}

#[test]
fn temps_stay_below_the_declared_count() {
    assert_eq!(check(mov(Dst::temp(1, 0xf), Src::temp(1))), Ok(()));
    refused(
        check(mov(Dst::temp(0, 0xf), Src::temp(2))),
        "r2 is past the 2",
    );
    refused(
        check(mov(Dst::temp(2, 0xf), Src::temp(0))),
        "r2 is past the 2",
    );
    refused(
        check(mov(Dst::temp(0, 0xf), relative(Src::temp(0)))),
        "relatively",
    );
}

#[test]
fn indexable_arrays_are_declared_and_static_indices_inside_them() {
    let x = |id, i| Src::reg(File::Indexable(id), i);
    assert_eq!(check(mov(Dst::temp(0, 0xf), x(0, 2))), Ok(()));
    refused(check(mov(Dst::temp(0, 0xf), x(1, 0))), "x1 is not declared");
    refused(
        check(mov(Dst::temp(0, 0xf), x(0, 3))),
        "x0[3] is past its 3",
    );
    // A relative index is checked per lane at run time, whatever its base.
    assert_eq!(check(mov(Dst::temp(0, 0xf), relative(x(0, 3)))), Ok(()));
}

#[test]
fn inputs_and_outputs_stay_inside_the_declared_registers() {
    let v = |i| Src::reg(File::Input, i);
    let o = |i| Dst::reg(File::Output, i, 0xf);
    assert_eq!(check(mov(o(0), v(0))), Ok(()));
    refused(check(mov(o(0), v(1))), "v1 is past the 1");
    refused(check(mov(o(1), v(0))), "o1 is past the 1");
    assert_eq!(check(mov(o(0), relative(v(4)))), Ok(()));
}

#[test]
fn only_registers_are_written() {
    refused(
        check(mov(Dst::reg(File::Const(0), 0, 0xf), Src::temp(0))),
        "cannot be written",
    );
}

#[test]
fn constant_buffers_are_declared_but_rows_past_the_size_stay_legal() {
    let cb = |slot, row| Src::reg(File::Const(slot), row);
    // Rows past the declared size read what is bound there, or 0
    // (D3D11.3 7.5), so a static index past 2 rows is legal.
    assert_eq!(check(mov(Dst::temp(0, 0xf), cb(0, 100))), Ok(()));
    assert_eq!(check(mov(Dst::temp(0, 0xf), relative(cb(0, 100)))), Ok(()));
    refused(
        check(mov(Dst::temp(0, 0xf), cb(1, 0))),
        "cb1 is not declared",
    );
    refused(check(mov(Dst::temp(0, 0xf), cb(16, 0))), "16 slots");
    // Hull and domain shaders read the patch rows at slot 15 undeclared.
    let patch = mov(Dst::temp(0, 0xf), cb(TESS_CB_SLOT, 0));
    assert_eq!(check_in(Stage::Domain, patch.clone()), Ok(()));
    refused(check(patch), "cb15 is not declared");
}

#[test]
fn views_are_declared_and_only_uavs_and_tgsm_are_written() {
    let load = |res| Inst::LoadRaw {
        dst: Dst::temp(0, 1),
        res,
        offset: Src::splat(0),
        swizzle: [0; 4],
    };
    let store = |res| Inst::StoreRaw {
        res,
        offset: Src::splat(0),
        value: Src::temp(0),
        count: 1,
    };
    assert_eq!(check(load(Resource::Uav(0))), Ok(()));
    assert_eq!(check(store(Resource::Uav(0))), Ok(()));
    refused(check(load(Resource::Uav(1))), "u1 is not declared");
    refused(check(load(Resource::Srv(3))), "t3 is not declared");
    refused(check(load(Resource::Uav(64))), "64 UAV slots");
    refused(check(store(Resource::Srv(0))), "t0 is read-only");
}

#[test]
fn group_shared_blocks_are_declared_in_compute_shaders() {
    let load = |id| Inst::LoadRaw {
        dst: Dst::temp(0, 1),
        res: Resource::Tgsm(id),
        offset: Src::splat(0),
        swizzle: [0; 4],
    };
    assert_eq!(check_in(Stage::Compute, load(0)), Ok(()));
    refused(check_in(Stage::Compute, load(1)), "g1 is not declared");
    refused(check(load(0)), "only in compute shaders");
    let info = Inst::BufInfo {
        dst: Dst::temp(0, 1),
        res: Resource::Tgsm(0),
        swizzle: XYZW,
    };
    refused(check_in(Stage::Compute, info), "not a view");
}

#[test]
fn lookups_name_a_declared_srv_and_a_runtime_sampler() {
    let sample = |res, sampler| Inst::Sample {
        dst: Dst::temp(0, 0xf),
        res,
        sampler,
        coord: Src::temp(0),
        lod: Lod::Implicit,
        offset: [0; 3],
        swizzle: XYZW,
        compare: None,
        slots: None,
    };
    assert_eq!(check(sample(0, 15)), Ok(()));
    refused(check(sample(1, 0)), "t1 is not declared");
    refused(check(sample(0, 16)), "16 sampler slots");
}

#[test]
fn slots_chosen_per_lane_need_no_declaration_but_fetches_take_no_sampler() {
    let offset = || Some(Src::temp(0));
    let sample = |res, sampler, slots| Inst::Sample {
        dst: Dst::temp(0, 0xf),
        res,
        sampler,
        coord: Src::temp(0),
        lod: Lod::Implicit,
        offset: [0; 3],
        swizzle: XYZW,
        compare: None,
        slots,
    };
    // t1 is undeclared and s16 past the runtime's: both fine once indexed.
    assert_eq!(
        check(sample(1, 0, SlotOffsets::boxed(offset(), None))),
        Ok(())
    );
    assert_eq!(
        check(sample(0, 16, SlotOffsets::boxed(None, offset()))),
        Ok(())
    );
    // Indexing one slot leaves the other checked.
    refused(
        check(sample(1, 0, SlotOffsets::boxed(None, offset()))),
        "t1 is not declared",
    );
    refused(
        check(sample(0, 16, SlotOffsets::boxed(offset(), None))),
        "16 sampler slots",
    );
    let fetch = |slots| Inst::Fetch {
        dst: Dst::temp(0, 0xf),
        res: 1,
        coord: Src::temp(0),
        offset: [0; 3],
        swizzle: XYZW,
        slots,
    };
    assert_eq!(check(fetch(SlotOffsets::boxed(offset(), None))), Ok(()));
    refused(check(fetch(None)), "t1 is not declared");
    refused(
        check(fetch(SlotOffsets::boxed(offset(), offset()))),
        "no sampler",
    );
}

#[test]
fn only_compare_exchange_takes_a_comparison_value() {
    let atomic = |op, compare: Option<Src>| Inst::Atomic {
        op,
        dst: None,
        res: Resource::Uav(0),
        addr: Src::splat(0),
        value: Src::splat(1),
        compare,
    };
    assert_eq!(check(atomic(AtomicOp::IAdd, None)), Ok(()));
    let cas = Some(Src::splat(0));
    assert_eq!(
        check(atomic(AtomicOp::CompareExchange, cas.clone())),
        Ok(())
    );
    refused(check(atomic(AtomicOp::CompareExchange, None)), "without");
    refused(check(atomic(AtomicOp::IAdd, cas)), "with a comparison");
}

#[test]
fn double_operations_take_their_arity_and_narrowing_ones_two_results() {
    let double = |op, mask, n| Inst::Double {
        op,
        dst: Dst::temp(0, mask),
        src: vec![Src::temp(1); n],
    };
    assert_eq!(check(double(DoubleOp::Add, 0xf, 2)), Ok(()));
    refused(check(double(DoubleOp::Add, 0xf, 1)), "takes 2 sources");
    assert_eq!(check(double(DoubleOp::Eq, 0b11, 2)), Ok(()));
    refused(check(double(DoubleOp::Eq, 0b111, 2)), "writes 3 components");
}

#[test]
fn calls_nest_at_most_thirty_two_deep() {
    // main calls l0, l0 calls l1, ...: the call in l(k) is made inside
    // k + 1 calls, so chain(n)'s deepest call (in l(n-2)) is n - 1 deep,
    // and chain(33)'s is the 32-deep one the backend cannot inline.
    let chain = |n: u32| {
        let mut p = program(Stage::Pixel, Inst::Call { label: 0 });
        for l in 0..n {
            let body = if l + 1 < n {
                vec![Inst::Call { label: l + 1 }]
            } else {
                vec![Inst::Ret]
            };
            p.subroutines.push((l, body.into()));
        }
        validate(&p)
    };
    assert_eq!(chain(MAX_CALL_DEPTH), Ok(()));
    assert!(matches!(
        chain(MAX_CALL_DEPTH + 1),
        Err(IrError::Operand { what, .. }) if what.contains("nested deeper than 32")
    ));
}
