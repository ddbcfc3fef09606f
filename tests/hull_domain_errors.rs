//! Bad hull and domain programs and bad `run_patches` arguments give clear
//! errors, never a crash.

use dxjit::dxbc::Container;
use dxjit::{sm4, Bindings, CompileOptions, PatchList, RunError};

fn lower_err(text: &str) -> String {
    let bytes = sm4::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let c = Container::parse(&bytes, true).unwrap();
    match sm4::lower(&c) {
        Ok(p) => panic!("lowered: {p:?}"),
        Err(e) => e.to_string(),
    }
}

const HEAD: &str = "hs_5_0\nhs_decls\ndcl_input_control_point_count 3\n\
dcl_output_control_point_count 3\ndcl_tessellator_domain domain_tri\n\
dcl_tessellator_partitioning partitioning_integer\n\
dcl_tessellator_output_primitive output_triangle_cw\n";

#[test]
fn inconsistent_phases_are_refused() {
    let cases = [
        (
            "hs_fork_phase\nret\nhs_control_point_phase\nret\n",
            "at most one control-point phase",
        ),
        (
            "hs_control_point_phase\nret\nhs_control_point_phase\nret\n",
            "at most one control-point phase",
        ),
        ("hs_join_phase\nret\nhs_fork_phase\nret\n", "then join phases"),
        (
            "hs_join_phase\ndcl_hs_fork_phase_instance_count 2\nret\n",
            "outside a Fork phase",
        ),
        (
            "hs_fork_phase\ndcl_hs_fork_phase_instance_count 0\nret\n",
            "phase instances",
        ),
        ("ret\nhs_fork_phase\nret\n", "outside every phase"),
        ("hs_fork_phase\nret\nhs_decls\n", "hs_decls must come once"),
        (
            "hs_fork_phase\ndcl_input vpc0.x\ndcl_output o0.x\nmov o0.x, vpc0.x\nret\n",
            "vpc is readable only in join phases",
        ),
        (
            "hs_control_point_phase\ndcl_input vocp[3][0].x\ndcl_output o0.x\nmov o0.x, vocp[0][0].x\nret\n",
            "vocp is readable only in fork and join phases",
        ),
        (
            "hs_join_phase\ndcl_input vForkInstanceID\ndcl_output o0.x\nutof o0.x, vForkInstanceID\nret\n",
            "vForkInstanceID is not readable here",
        ),
        (
            "hs_fork_phase\ndcl_input vOutputControlPointID\ndcl_output o0.x\nutof o0.x, vOutputControlPointID\nret\n",
            "vOutputControlPointID is not readable here",
        ),
        (
            "dcl_constantbuffer cb15[1], immediateIndexed\nhs_fork_phase\nret\n",
            "cb15 is reserved",
        ),
        (
            "hs_fork_phase\ndcl_output_siv o0.x, finalTriUeq0EdgeTessFactor\nret\nlabel l0\nret\nhs_fork_phase\nret\n",
            "a hull phase after a subroutine",
        ),
    ];
    for (body, why) in cases {
        let text = format!("{HEAD}{body}");
        let err = lower_err(&text);
        assert!(err.contains(why), "{err}\n{text}");
    }
    let count = lower_err("hs_5_0\nhs_decls\ndcl_input_control_point_count 33\n");
    assert!(count.contains("33 input control points"), "{count}");
    let max = lower_err(&format!(
        "{HEAD}dcl_hs_max_tessfactor l(65.000000)\nhs_fork_phase\nret\n"
    ));
    assert!(max.contains("dcl_hs_max_tessfactor 65"), "{max}");
}

#[test]
fn a_domain_shader_reads_no_hull_registers() {
    let err = lower_err(
        "ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain domain_tri\n\
         dcl_output o0.x\nutof o0.x, vForkInstanceID\nret\n",
    );
    assert!(
        err.contains("vForkInstanceID is not readable here"),
        "{err}"
    );
}

fn compile(text: &str) -> dxjit::Shader {
    dxjit::compile(&sm4::assemble(text).unwrap(), &CompileOptions::default()).unwrap()
}

const FACTORS: &str = "hs_fork_phase\ndcl_output_siv o0.x, finalTriUeq0EdgeTessFactor\n\
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor\ndcl_output_siv o2.x, finalTriWeq0EdgeTessFactor\n\
dcl_output_siv o3.x, finalTriInsideTessFactor\nmov o0.x, l(1.0)\nmov o1.x, l(1.0)\n\
mov o2.x, l(1.0)\nmov o3.x, l(1.0)\nret\n";

fn tri_ds(points: u32, domain: &str) -> String {
    format!(
        "ds_5_0\ndcl_input_control_point_count {points}\ndcl_tessellator_domain domain_{domain}\n\
         dcl_input vDomain.xy\ndcl_output o0.xy\nmov o0.xy, vDomain.xyxx\nret\n"
    )
}

fn invalid(hs: &str, ds: &str, points: &[[u32; 4]], regs: u32, per_patch: u32) -> String {
    let (hs, ds) = (compile(hs), compile(ds));
    let b = Bindings::new();
    let list = PatchList {
        control_points: points,
        regs_per_point: regs,
        points_per_patch: per_patch,
    };
    match hs.run_patches(&b, &ds, &b, &list) {
        Err(RunError::Invalid(m)) => m,
        other => panic!("{other:?}"),
    }
}

#[test]
fn run_patches_checks_its_arguments() {
    let hs = format!("{HEAD}{FACTORS}");
    let cps = [[0u32; 4]; 6];
    // The sound pair runs: a factor-1 triangle per patch.
    let ok = compile(&hs)
        .run_patches(
            &Bindings::new(),
            &compile(&tri_ds(3, "tri")),
            &Bindings::new(),
            &PatchList {
                control_points: &cps,
                regs_per_point: 1,
                points_per_patch: 3,
            },
        )
        .unwrap();
    assert_eq!(ok.primitive_count(), 2);
    let m = invalid(&hs, &tri_ds(3, "tri"), &cps, 1, 2);
    assert!(
        m.contains("2 control points per patch; the hull shader takes 3"),
        "{m}"
    );
    let m = invalid(&hs, &tri_ds(3, "quad"), &cps, 1, 3);
    assert!(m.contains("is not the hull shader's"), "{m}");
    let m = invalid(&hs, &tri_ds(4, "tri"), &cps, 1, 3);
    assert!(
        m.contains("the domain shader takes 4 control points"),
        "{m}"
    );
    let m = invalid(&hs, &tri_ds(3, "tri"), &cps[..5], 1, 3);
    assert!(m.contains("not whole patches"), "{m}");
    let m = invalid(&hs, &tri_ds(3, "tri"), &cps, 0, 3);
    assert!(m.contains("0 registers per control point"), "{m}");
    let no_inside = format!("{HEAD}hs_fork_phase\ndcl_output_siv o0.x, finalTriUeq0EdgeTessFactor\nmov o0.x, l(1.0)\nret\n");
    let m = invalid(&no_inside, &tri_ds(3, "tri"), &cps, 1, 3);
    assert!(m.contains("does not declare every SV_TessFactor"), "{m}");
    // A vertex shader is not a hull shader.
    let vs = compile("vs_5_0\ndcl_output o0.x\nmov o0.x, l(0)\nret\n");
    let err = vs
        .run_patches(
            &Bindings::new(),
            &compile(&tri_ds(3, "tri")),
            &Bindings::new(),
            &PatchList {
                control_points: &cps,
                regs_per_point: 1,
                points_per_patch: 3,
            },
        )
        .unwrap_err();
    assert!(matches!(err, RunError::WrongStage { .. }), "{err:?}");
}
