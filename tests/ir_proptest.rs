//! Random IR programs: whatever `ir::validate` accepts, the backend compiles
//! to a result (code or an error value) without panicking.

use dxjit::ir::*;
use dxjit::jit::{compile, Codegen, JitOptions};
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
    match code % 6 {
        0 => File::Temp,
        1 => File::Input,
        2 => File::Const(u32::from(code / 6 % 3)),
        3 => File::Imm,
        4 => File::SysVal(SysVal::DispatchThreadId),
        _ => File::Output,
    }
}

/// A component number, now and then out of range.
fn component() -> impl Strategy<Value = u8> {
    prop_oneof![12 => 0u8..4, 1 => 4u8..=255]
}

fn src() -> impl Strategy<Value = Src> {
    (
        any::<u8>(),
        0u32..6,
        prop::array::uniform4(component()),
        any::<bool>(),
        any::<[u32; 4]>(),
    )
        .prop_map(|(f, index, swizzle, neg, imm)| Src {
            file: file(f),
            index: Index::fixed(index),
            swizzle,
            neg,
            abs: false,
            imm,
        })
}

fn dst() -> impl Strategy<Value = Dst> {
    (
        any::<bool>(),
        0u32..6,
        prop_oneof![12 => 0u8..16, 1 => 16u8..=255],
        any::<bool>(),
    )
        .prop_map(|(temp, index, mask, saturate)| Dst {
            file: if temp { File::Temp } else { File::Output },
            index: Index::fixed(index),
            mask,
            saturate,
        })
}

fn inst() -> impl Strategy<Value = Inst> {
    prop_oneof![
        // Mostly the operation's arity of sources, sometimes any count.
        (
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
        (0u8..6, any::<bool>(), dst(), src(), src()).prop_map(|(n, legacy, dst, a, b)| Inst::Dot {
            n,
            legacy,
            dst,
            a,
            b,
        }),
        (src(), src(), 0u8..6).prop_map(|(offset, value, count)| Inst::StoreRaw {
            res: Resource::Uav(0),
            offset,
            value,
            count,
        }),
        (dst(), src(), prop::array::uniform4(component())).prop_map(|(dst, offset, swizzle)| {
            Inst::LoadRaw {
                dst,
                res: Resource::Uav(0),
                offset,
                swizzle,
            }
        }),
    ]
}

fn program(temps: u32, main: Vec<Inst>) -> Program {
    let mut p = Program::new(Stage::Compute);
    p.temps = temps;
    p.cbs.push(CbDecl { slot: 0, rows: 4 });
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    p.main = main.into();
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn validated_ir_compiles_without_panicking(
        temps in 0u32..5,
        main in prop::collection::vec(inst(), 0..6),
    ) {
        let prog = program(temps, main);
        if validate(&prog).is_ok() {
            let opts = JitOptions { k: 1, listing: false, codegen: Codegen::Quick, keep_image: false };
            let _result = compile(&prog, opts);
        }
    }
}
