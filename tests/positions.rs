//! Every IR instruction carries the bytecode position it was lowered from,
//! and compile errors from validation and the backend report it.
//!
//! Byte offsets below are counted by hand from the token layout: SM4
//! offsets count from the program's version token (version, length, then
//! the instructions); D3D9 offsets from the version token.

use dxjit::ir::{Inst, Pos};
use dxjit::shader::lower;
use dxjit::CompileOptions;

fn assemble(text: &str) -> Vec<u8> {
    dxjit::text::assemble(text).expect("assembles")
}

fn compile_error(text: &str) -> dxjit::Error {
    dxjit::compile(&assemble(text), &CompileOptions::default())
        .err()
        .expect("the backend refuses it")
}

/// A lookup through sampler `s20`, past the runtime's sixteen sampler
/// slots, passes the D3D9 front end and is refused after lowering.
/// Tokens: version 0, `dcl_texcoord0 v0` 1-3 (opcode, usage, register),
/// `dcl_2d s20` 4-6, so the third instruction `texld` (index 2) starts at
/// token 7, byte 28; in the IR it is instruction 0.
#[test]
fn a_refused_third_instruction_is_reported_at_its_bytes() {
    let e = compile_error("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s20\ntexld r0, v0, s20\nmov oC0, r0\n");
    assert!((5000..6000).contains(&e.code()), "{e}: {}", e.code());
    let at = e.location();
    assert_eq!(at.instruction, Some(2), "{e}");
    assert_eq!(at.byte_offset, Some(28), "{e}");
    assert_eq!(at.opcode.as_deref(), Some("texld"), "{e}");
    assert!(
        e.to_string().contains("instruction 2 (`texld` at byte 28)"),
        "{e}"
    );
}

/// An inlined subroutine's instruction reports its own position, not the
/// call's. Tokens: version 0, `dcl_texcoord0 v0` 1-3, `dcl_2d s20` 4-6,
/// `call l0` 7-8 (opcode, label), `mov oC0, r0` 9-11, `ret` 12, `label l0`
/// 13-14, so `texld` (index 6) is at token 15, byte 60.
#[test]
fn an_error_in_a_subroutine_points_into_the_subroutine() {
    let e = compile_error(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s20\ncall l0\nmov oC0, r0\nret\n\
         label l0\ntexld r0, v0, s20\nret\n",
    );
    assert!((5000..6000).contains(&e.code()), "{e}: {}", e.code());
    let at = e.location();
    assert_eq!(
        (at.instruction, at.byte_offset, at.opcode.as_deref()),
        (Some(6), Some(60), Some("texld")),
        "{e}"
    );
}

/// SM4 text: `sample` through `s20` is refused after lowering. Tokens:
/// version 0, length 1, `dcl_sampler s20, mode_default` 2-4 (opcode,
/// operand token, index), `dcl_resource_texture2d (float,float,float,float)
/// t0` 5-8 (opcode, operand, index, return type), `dcl_input_ps linear
/// v0.xy` 9-11, `dcl_output o0.xyzw` 12-14, so `sample` (index 4) starts at
/// token 15, byte 60.
#[test]
fn sm4_text_reports_the_bytecode_position() {
    let e = compile_error(
        "ps_4_0\ndcl_sampler s20, mode_default\n\
         dcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_input_ps linear v0.xy\ndcl_output o0.xyzw\n\
         sample o0.xyzw, v0.xyxx, t0.xyzw, s20\nret\n",
    );
    assert!((5000..6000).contains(&e.code()), "{e}: {}", e.code());
    let at = e.location();
    assert_eq!(
        (at.instruction, at.byte_offset, at.opcode.as_deref()),
        (Some(4), Some(60), Some("sample")),
        "{e}"
    );
}

/// The four dot products of `m4x4` all carry the macro's position.
/// Tokens: version 0, `dcl_position v0` 1-3 (opcode, usage, register),
/// `m4x4 oPos, v0, c0` 4-7 (index 1, byte 16), `mov oD0, c4` 8-10 (index 2,
/// byte 32).
#[test]
fn d3d9_m4x4_pieces_keep_the_macro_position() {
    let bytes = assemble("vs_2_0\ndcl_position v0\nm4x4 oPos, v0, c0\nmov oD0, c4\n");
    let (_, prog) = lower(&bytes, &CompileOptions::default()).expect("lowers");
    let m4x4 = Pos {
        index: 1,
        offset: 16,
        opcode: "m4x4",
    };
    let dots: Vec<usize> = (0..prog.main.len())
        .filter(|i| matches!(prog.main[*i], Inst::Dot { .. }))
        .collect();
    assert_eq!(dots.len(), 4);
    for i in dots {
        assert_eq!(prog.main.pos(i), Some(m4x4), "dot product {i}");
    }
    let mov = Pos {
        index: 2,
        offset: 32,
        opcode: "mov",
    };
    assert!((0..prog.main.len()).any(|i| prog.main.pos(i) == Some(mov)));
    assert!((0..prog.main.len()).all(|i| prog.main.pos(i).is_some()));
}

/// A hull program's phase switch: each case label and break carries its
/// phase's `hs_fork_phase` (instructions 6 and 10, counting `hs_decls` and
/// the five declarations after it as 0-5).
#[test]
fn hull_phase_cases_carry_their_phase_position() {
    let bytes = assemble(
        "hs_5_0\nhs_decls\ndcl_input_control_point_count 1\ndcl_output_control_point_count 1\n\
         dcl_tessellator_domain domain_isoline\ndcl_tessellator_partitioning partitioning_integer\n\
         dcl_tessellator_output_primitive output_line\n\
         hs_fork_phase\ndcl_output_siv o0.x, finalLineDetailTessFactor\nmov o0.x, l(1.0)\nret\n\
         hs_fork_phase\ndcl_output_siv o1.x, finalLineDensityTessFactor\nmov o1.x, l(1.0)\nret\n",
    );
    let (_, prog) = lower(&bytes, &CompileOptions::default()).expect("lowers");
    let at = |i: usize| prog.main.pos(i).map(|p| (p.index, p.opcode));
    let fork = |n| Some((n, "hs_fork_phase"));
    assert!(matches!(prog.main[0], Inst::Switch { .. }));
    assert_eq!(at(0), fork(6));
    let cases: Vec<usize> = (0..prog.main.len())
        .filter(|i| matches!(prog.main[*i], Inst::Case(_)))
        .collect();
    assert_eq!(cases.len(), 2);
    assert_eq!(at(cases[0]), fork(6));
    assert_eq!(at(cases[1]), fork(10));
    assert_eq!(at(cases[1] - 1), fork(6), "the first phase's break");
    assert_eq!(at(prog.main.len() - 1), fork(10), "endswitch");
    let movs: Vec<u32> = (0..prog.main.len())
        .filter(|i| matches!(prog.main[*i], Inst::Alu { .. }))
        .filter_map(|i| prog.main.pos(i).map(|p| p.index))
        .collect();
    assert_eq!(movs, [8, 12]);
}
