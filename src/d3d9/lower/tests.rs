use super::*;
use crate::d3d9::{assemble, decode};
use crate::ir::File;

fn lowered(text: &str) -> Program {
    let tokens = assemble(text).expect("assembles");
    lower(&decode(&tokens).expect("decodes"), &Options::default()).expect("lowers")
}

#[test]
fn maps_ps_2_0_registers() {
    let p = lowered("ps_2_0\ndcl t0.xy\ndcl v1\ndcl_2d s0\ndef c3, 1, 2, 3, 4\ntexld r0, t0, s0\nadd oC0, r0, v1\n");
    let t0 = p.inputs.iter().find(|i| i.name == "t0").expect("t0");
    assert_eq!((t0.reg, t0.semantic.as_str(), t0.mask), (10, "TEXCOORD", 3));
    let v1 = p.inputs.iter().find(|i| i.name == "v1").expect("v1");
    assert_eq!(
        (v1.reg, v1.semantic.as_str(), v1.semantic_index),
        (1, "COLOR", 1)
    );
    assert_eq!(p.outputs[0].semantic, "SV_TARGET");
    assert_eq!(
        p.const_overrides,
        vec![(0, 3, [1f32, 2., 3., 4.].map(f32::to_bits))]
    );
    assert!(matches!(
        p.main[0],
        Inst::Sample {
            res: 0,
            sampler: 0,
            ..
        }
    ));
}

#[test]
fn maps_vs_1_1_outputs_and_implicit_a0() {
    let p =
        lowered("vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oD0, c[a0.x + 3]\nmov oPos, v0\n");
    let names: Vec<_> = p.outputs.iter().map(|o| (o.name.as_str(), o.reg)).collect();
    assert_eq!(names, vec![("oPos", 0), ("oD0", 1)]);
    assert!(p.main.iter().any(|i| matches!(
        i,
        Inst::Alu {
            op: ir::AluOp::RoundNi,
            ..
        }
    )));
    let rel = p.main.iter().find_map(|i| match i {
        Inst::Alu { src, .. } => src.iter().find(|s| s.index.rel.is_some()).cloned(),
        _ => None,
    });
    let rel = rel.expect("relative read");
    assert_eq!((rel.file, rel.index.base), (File::Const(0), 3));
    assert!(p.cbs.iter().any(|c| c.slot == 0 && c.rows >= 256));
}

#[test]
fn ps_1_x_writes_r0_to_oc0_and_clamps_constants() {
    let p = lowered("ps_1_1\ntex t0\nmul r0, t0, c0\n");
    assert!(
        matches!(p.main.last(), Some(Inst::Alu { op: ir::AluOp::Mov, dst, .. }) if dst.file == File::Output)
    );
    assert!(p.main.iter().any(|i| matches!(
        i,
        Inst::Alu {
            op: ir::AluOp::Min,
            ..
        }
    )));
}

#[test]
fn legacy_mul_option_selects_the_multiply() {
    let text = "vs_2_0\nmul r0, c0, c1\nmov oPos, r0\n";
    let tokens = assemble(text).expect("assembles");
    let s = decode(&tokens).expect("decodes");
    let legacy = lower(&s, &Options { legacy_mul: true }).expect("lowers");
    let plain = lower(&s, &Options { legacy_mul: false }).expect("lowers");
    assert!(matches!(
        legacy.main[0],
        Inst::Alu {
            op: ir::AluOp::MulLegacy,
            ..
        }
    ));
    assert!(matches!(
        plain.main[0],
        Inst::Alu {
            op: ir::AluOp::Mul,
            ..
        }
    ));
}

#[test]
fn subroutines_and_depth_output() {
    let p = lowered("ps_3_0\ncall l0\nmov oDepth, c0.x\nret\nlabel l0\nmov r0, c1\nret\n");
    assert_eq!(p.subroutines.len(), 1);
    assert_eq!(p.depth_output, Some(DEPTH_OUT));
}
