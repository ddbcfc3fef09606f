//! Lowering rules of the SM4/5 front end, on small assembled programs.

use dxjit::dxbc::Container;
use dxjit::ir::{AluOp, Dst, File, Inst, Program, Src};
use dxjit::sm4::{self, Sm4Error};

fn lower(text: &str) -> Result<Program, Sm4Error> {
    let bytes = sm4::assemble(text)?;
    sm4::lower(&Container::parse(&bytes, true)?)
}

fn alu(p: &Program) -> Vec<(AluOp, Dst, Vec<Src>)> {
    p.main
        .iter()
        .filter_map(|i| match i {
            Inst::Alu { op, dst, src } => Some((*op, dst.clone(), src.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn sm4_two_results_stage_an_aliased_first_destination() {
    let p = lower("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 2\nudiv r0.x, r1.x, r0.x, r1.y\nret\n")
        .unwrap();
    let ops = alu(&p);
    assert_eq!(ops.len(), 3);
    assert_eq!(
        (ops[0].0, ops[0].1.file, ops[0].1.index.base),
        (AluOp::UDiv, File::Temp, 2)
    );
    assert_eq!((ops[1].0, ops[1].1.index.base), (AluOp::URem, 1));
    assert_eq!(ops[2].0, AluOp::Mov);
    assert_eq!(ops[2].2[0].index.base, 2);
    assert_eq!(p.temps, 3);
}

#[test]
fn sm4_two_results_without_aliasing_write_directly() {
    let p = lower("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 3\nimul r2.x, null, r0.x, r1.x\nret\n")
        .unwrap();
    let ops = alu(&p);
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0].0, AluOp::IMulHi);
    assert_eq!(p.temps, 3);
}

#[test]
fn sm4_usubb_subtracts_by_negating() {
    let p =
        lower("cs_5_0\ndcl_temps 2\ndcl_thread_group 1, 1, 1\nusubb r0.x, r0.y, r1.x, r1.y\nret\n")
            .unwrap();
    let ops = alu(&p);
    assert_eq!(ops[0].0, AluOp::IAdd);
    assert!(ops[0].2[1].neg && !ops[1].2[1].neg);
    assert_eq!(ops[1].0, AluOp::USubBorrow);
}

#[test]
fn sm4_swapc_with_aliasing_goes_through_scratch() {
    let p = lower("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 3\nswapc r0.xy, r1.xy, r2.xyxx, r0.xyxx, r1.xyxx\nret\n").unwrap();
    assert!(
        matches!(&p.main[0], Inst::Swapc { dst, .. } if dst[0].index.base == 3 && dst[1].index.base == 4)
    );
    assert_eq!(alu(&p).len(), 2);
}

#[test]
fn sm4_immediates_and_constant_buffers() {
    let p = lower("ps_4_0\ndcl_constantBuffer cb1[4], dynamicIndexed\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, l(7)\nmov o0.xyzw, cb1[r0.x + 2].yxzw\nret\n")
        .unwrap();
    let ops = alu(&p);
    assert_eq!(ops[0].2[0].file, File::Imm);
    assert_eq!(ops[0].2[0].imm, [7; 4]);
    let cb = &ops[1].2[0];
    assert_eq!(cb.file, File::Const(1));
    assert_eq!(cb.index.base, 2);
    assert_eq!(cb.swizzle, [1, 0, 2, 3]);
    assert_eq!(cb.index.rel.as_ref().map(|r| r.swizzle), Some([0; 4]));
    assert_eq!(p.cbs[0].rows, 4);
    assert_eq!(p.outputs[0].semantic, "SV_TARGET");
}

#[test]
fn sm4_temps_past_dcl_temps_grow_the_file() {
    // r2 is named past dcl_temps 1: the scratch temps the aliased swapc
    // goes through start after it, at r3.
    let p = lower("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\nswapc r0.xy, r2.xy, r2.xyxx, r0.xyxx, r1.xyxx\nret\n").unwrap();
    assert!(
        matches!(&p.main[0], Inst::Swapc { dst, .. } if dst[0].index.base == 3 && dst[1].index.base == 4)
    );
    assert!(p.temps >= 5, "{}", p.temps);
}

#[test]
fn sm4_undeclared_registers_are_errors() {
    let cases = [
        "ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, r4096.xyzw\nret\n",
        "ps_5_0\ndcl_temps 1\nmov o1.xyzw, r0.xyzw\nret\n",
        "ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, v3.xyzw\nret\n",
        "ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, cb2[0].xyzw\nret\n",
        "cs_5_0\ndcl_thread_group 1, 1, 1\nstore_raw u0.x, l(0), l(1)\nret\n",
    ];
    for text in cases {
        match lower(text) {
            Err(Sm4Error::Lower { index, offset, .. }) => {
                assert!(index > 0 && offset > 8, "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn sm4_malformed_stages_and_misplaced_opcodes_say_so() {
    let hs = lower("hs_5_0\nret\n").unwrap_err();
    assert!(hs.to_string().contains("outside every phase"), "{hs}");
    let gs = lower("gs_5_0\nret\n").unwrap_err();
    assert!(
        gs.to_string().contains("without dcl_inputprimitive"),
        "{gs}"
    );
    let lod = lower("ps_5_0\ndcl_output o0.xyzw\nemit\nret\n").unwrap_err();
    assert!(lod.to_string().contains("emit"), "{lod}");
}

#[test]
fn sm4_a_domain_shaders_declared_factors_are_noted() {
    let p = lower(
        "ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain domain_tri\n\
         dcl_input_siv vpc1.y, finalTriInsideTessFactor\ndcl_input_siv vpc2.x, finalTriVeq0EdgeTessFactor\n\
         dcl_output o0.xyzw\nmov o0.xyzw, vpc1.yyyy\nret\n",
    )
    .unwrap();
    let t = p.tess.expect("a domain program");
    let slot = |reg, component| Some(dxjit::ir::FactorSlot { reg, component });
    assert_eq!(t.inside_factors[0], slot(1, 1));
    assert_eq!(t.edge_factors, [None, slot(2, 0), None, None]);
    assert_eq!(t.patch_constant_regs, 3);
}
