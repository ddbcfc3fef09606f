//! The first tier is stitched from stencils: what it makes, that making it
//! again makes the same bytes and compiles nothing, and what it leaves to
//! Cranelift. (`tier_proptest.rs` checks its results against the top
//! tier's; every case file runs at it in `cases.rs`.)

use dxjit::ir::*;
use dxjit::jit::{compile, stencil_library_size, stencil_tier_takes, Codegen, JitOptions};

fn quick(listing: bool) -> JitOptions {
    JitOptions {
        k: 2,
        listing,
        codegen: Codegen::Quick,
        keep_image: true,
        wide_sampling: false,
    }
}

/// A compute shader with a branch, a loop, a relative constant read and a
/// barrier: every kind of piece but the pixel row loop.
fn program() -> Program {
    let mut p = Program::new(Stage::Compute);
    p.temps = 2;
    p.thread_group = [12, 1, 1];
    p.cbs.push(CbDecl { slot: 0, rows: 4 });
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    let tid = Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0);
    let relative = Src {
        index: Index {
            base: 1,
            rel: Some(Box::new(Src::temp(0).scalar(0))),
        },
        ..Src::reg(File::Const(0), 0)
    };
    p.main = vec![
        Inst::Alu {
            op: AluOp::And,
            dst: Dst::temp(0, 1),
            src: vec![tid.clone(), Src::splat(1)],
        },
        Inst::If {
            cond: Src::temp(0).scalar(0),
            nz: true,
        },
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(1, 0xf),
            src: vec![relative],
        },
        Inst::EndIf,
        Inst::Sync {
            group: true,
            uav: false,
            tgsm: true,
        },
        Inst::Loop,
        Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(0, 2),
            src: vec![Src::temp(0).scalar(1), Src::splat(1)],
        },
        Inst::BreakC {
            cond: Src::temp(0).scalar(1),
            nz: true,
        },
        Inst::EndLoop,
        Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: tid,
            value: Src::temp(1),
            count: 4,
        },
    ]
    .into();
    p
}

#[test]
fn first_tier_code_is_stitched_from_stencils() {
    let c = compile(&program(), quick(true)).expect("compiles");
    let native = &c.listing.as_ref().expect("asked for").native;
    let pieces = native.lines().filter(|l| l.starts_with("; piece")).count();
    assert!(pieces > 10, "{pieces} pieces:\n{native}");
    assert!(c.info.has_barriers);
}

#[test]
fn stitching_again_gives_the_same_code_and_compiles_nothing() {
    let first = compile(&program(), quick(false)).expect("compiles");
    let stencils = stencil_library_size();
    let again = compile(&program(), quick(false)).expect("compiles");
    assert_eq!(
        stencil_library_size(),
        stencils,
        "no stencil compiled again"
    );
    assert_eq!(first.image, again.image);
    assert!(first.image.is_some());
}

#[test]
fn hull_and_geometry_shaders_go_to_cranelift() {
    for stage in [Stage::Hull, Stage::Geometry] {
        assert!(!stencil_tier_takes(&Program::new(stage)), "{stage:?}");
    }
    for stage in [Stage::Vertex, Stage::Pixel, Stage::Compute, Stage::Domain] {
        assert!(stencil_tier_takes(&Program::new(stage)), "{stage:?}");
    }
}
