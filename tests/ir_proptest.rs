//! Random IR programs: whatever `ir::validate` accepts, the backend
//! compiles without panicking and without an internal error (the backend's
//! own refusal of malformed IR, `JitError::Invalid`, or Cranelift's).

use dxjit::ir::*;
use dxjit::jit::{compile, Codegen, JitError, JitOptions};
use proptest::prelude::*;

/// Operations the generator picks from (every arity and source type).
const OPS: [AluOp; 16] = [
    AluOp::Mov,
    AluOp::Movc,
    AluOp::Add,
    AluOp::Mad,
    AluOp::Rcp,
    AluOp::Exp,
    AluOp::Sin,
    AluOp::Eq,
    AluOp::DerivRtxFine,
    AluOp::IAdd,
    AluOp::UDiv,
    AluOp::Bfi,
    AluOp::Ubfe,
    AluOp::FToU,
    AluOp::F16ToF32,
    AluOp::CountBits,
];

fn file(code: u8) -> File {
    match code % 9 {
        0 => File::Temp,
        1 => File::Input,
        2 => File::Const(u32::from(code / 9 % 4 / 3)),
        3 => File::Imm,
        4 => File::SysVal(SysVal::DispatchThreadId),
        5 => File::Indexable(u32::from(code / 9 % 4 / 3)),
        6 => File::ImmConst,
        7 => File::Null,
        _ => File::Output,
    }
}

/// A component number, rarely out of range (a source has four, and most
/// programs should pass validation).
fn component() -> impl Strategy<Value = u8> {
    prop_oneof![200 => 0u8..4, 1 => 4u8..=255]
}

/// Now and then a relative part: a temp or an input component.
fn relative() -> impl Strategy<Value = Option<Box<Src>>> {
    prop_oneof![
        6 => Just(None),
        1 => (any::<bool>(), 0u32..3, 0u8..4).prop_map(|(temp, index, c)| {
            let file = if temp { File::Temp } else { File::Input };
            Some(Box::new(Src::reg(file, index).scalar(c)))
        }),
    ]
}

/// A register number, mostly among those the program declares.
fn register() -> impl Strategy<Value = u32> {
    prop_oneof![12 => 0u32..2, 1 => 2u32..6]
}

fn src() -> impl Strategy<Value = Src> {
    (
        any::<u8>(),
        register(),
        relative(),
        prop::array::uniform4(component()),
        any::<bool>(),
        any::<[u32; 4]>(),
    )
        .prop_map(|(f, base, rel, swizzle, neg, imm)| Src {
            file: file(f),
            index: Index { base, rel },
            swizzle,
            neg,
            abs: false,
            imm,
        })
}

fn dst() -> impl Strategy<Value = Dst> {
    (
        0u8..4,
        register(),
        relative(),
        prop_oneof![50 => 0u8..16, 1 => 16u8..=255],
        any::<bool>(),
    )
        .prop_map(|(f, base, rel, mask, saturate)| Dst {
            file: [File::Temp, File::Output, File::Indexable(0), File::Null][usize::from(f)],
            index: Index { base, rel },
            mask,
            saturate,
        })
}

fn resource() -> impl Strategy<Value = Resource> {
    (0u8..3, prop_oneof![6 => Just(0u32), 1 => 1u32..3]).prop_map(|(kind, slot)| match kind {
        0 => Resource::Srv(slot),
        1 => Resource::Uav(slot),
        _ => Resource::Tgsm(slot),
    })
}

const DOUBLE_OPS: [DoubleOp; 5] = [
    DoubleOp::Add,
    DoubleOp::Fma,
    DoubleOp::Eq,
    DoubleOp::FromI32,
    DoubleOp::ToU32,
];

/// Mostly fixed slots; otherwise per-lane offsets from any source, which
/// may reach slots far past the runtime's.
fn slot_offsets() -> impl Strategy<Value = Option<Box<SlotOffsets>>> {
    prop_oneof![
        3 => Just(None),
        1 => (prop::option::of(src()), prop::option::of(src()))
            .prop_map(|(texture, sampler)| SlotOffsets::boxed(texture, sampler)),
    ]
}

fn inst() -> impl Strategy<Value = Inst> {
    prop_oneof![
        // Mostly the operation's arity of sources, sometimes any count.
        4 => (
            0..OPS.len(),
            dst(),
            prop::collection::vec(src(), 6),
            prop_oneof![4 => Just(None), 1 => (0usize..6).prop_map(Some)]
        )
            .prop_map(|(op, dst, mut src, count)| {
                let op = OPS[op];
                src.truncate(count.unwrap_or(usize::from(op.info().arity)));
                Inst::Alu { op, dst, src }
            }),
        1 => (0u8..6, any::<bool>(), dst(), src(), src()).prop_map(|(n, legacy, dst, a, b)| Inst::Dot {
            n,
            legacy,
            dst,
            a,
            b,
        }),
        1 => (
            0..DOUBLE_OPS.len(),
            dst(),
            prop::collection::vec(src(), 3),
            prop_oneof![4 => Just(None), 1 => (0usize..4).prop_map(Some)]
        )
            .prop_map(|(op, dst, mut src, count)| {
                let op = DOUBLE_OPS[op];
                src.truncate(count.unwrap_or(usize::from(op.arity())));
                Inst::Double { op, dst, src }
            }),
        1 => (resource(), src(), src(), 0u8..6).prop_map(|(res, offset, value, count)| Inst::StoreRaw {
            res,
            offset,
            value,
            count,
        }),
        1 => (dst(), resource(), src(), prop::array::uniform4(component())).prop_map(
            |(dst, res, offset, swizzle)| Inst::LoadRaw {
                dst,
                res,
                offset,
                swizzle,
            }
        ),
        1 => (dst(), resource(), src(), prop::array::uniform4(component())).prop_map(
            |(dst, res, coord, swizzle)| Inst::LoadTyped {
                dst,
                res,
                coord,
                swizzle,
                with_mip: false,
            }
        ),
        1 => (resource(), src(), src(), any::<bool>(), src()).prop_map(
            |(res, addr, value, cas, compare)| Inst::Atomic {
                op: if cas { AtomicOp::CompareExchange } else { AtomicOp::IAdd },
                dst: None,
                res,
                addr,
                value,
                compare: cas.then_some(compare),
            }
        ),
        // Boxed, as the next: each arm's value tree otherwise widens the
        // union's stack frame past a debug test thread's stack.
        1 => (dst(), 0u32..3, 0u32..20, src(), slot_offsets()).prop_map(
            |(dst, res, sampler, coord, slots)| Inst::Sample {
                dst,
                res,
                sampler,
                coord,
                lod: Lod::Level(Src::splat(0)),
                offset: [0; 3],
                swizzle: XYZW,
                compare: None,
                slots,
            }
        )
        .boxed(),
        1 => (dst(), 0u32..200, src(), src()).prop_map(|(dst, res, coord, texture)| Inst::Fetch {
            dst,
            res,
            coord,
            offset: [1, 0, 0],
            swizzle: XYZW,
            slots: SlotOffsets::boxed(Some(texture), None),
        })
        .boxed(),
        1 => prop_oneof![8 => Just(1u32), 1 => 0u32..3].prop_map(|label| Inst::Call { label }),
    ]
}

fn program(pixel: bool, temps: u32, main: Vec<Inst>, sub: Vec<Inst>) -> Program {
    let mut p = Program::new(if pixel { Stage::Pixel } else { Stage::Compute });
    p.temps = temps;
    p.indexables.push(IndexableDecl { id: 0, count: 2 });
    if pixel {
        for reg in 0..2 {
            let io = IoReg {
                reg,
                name: format!("v{reg}"),
                mask: 0xf,
                semantic: "TEXCOORD".into(),
                semantic_index: reg,
                interpolation: Interpolation::Linear,
            };
            p.inputs.push(io.clone());
            p.outputs.push(IoReg {
                name: format!("o{reg}"),
                ..io
            });
        }
    }
    p.cbs.push(CbDecl { slot: 0, rows: 4 });
    p.icb = vec![[1, 2, 3, 4]];
    p.srvs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Typed(Dim::Texture2D),
    });
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.uavs.push(ResourceDecl {
        slot: 1,
        kind: ResourceKind::Typed(Dim::Buffer),
    });
    p.tgsm.push(TgsmDecl {
        id: 0,
        size: 64,
        stride: 0,
    });
    p.main = main.into();
    p.subroutines.push((1, sub.into()));
    p
}

/// The error under any instruction places.
fn innermost(e: &JitError) -> &JitError {
    match e {
        JitError::At { source, .. } => innermost(source),
        other => other,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn validated_ir_compiles_without_an_internal_error(
        pixel in any::<bool>(),
        temps in prop_oneof![8 => Just(2u32), 1 => 0u32..5],
        main in prop::collection::vec(inst(), 0..6),
        sub in prop::collection::vec(inst(), 0..3),
    ) {
        let prog = program(pixel, temps, main, sub);
        if validate(&prog).is_ok() {
            let opts = JitOptions { k: 1, listing: false, codegen: Codegen::Quick, keep_image: false, wide_sampling: false };
            if let Err(e) = compile(&prog, opts) {
                let internal = matches!(innermost(&e), JitError::Invalid(_) | JitError::Backend(_));
                prop_assert!(!internal, "validated IR refused: {e}\n{prog:#?}");
            }
        }
    }
}
