//! Reflection to bindings: what smoke binds for what a shader declares.

use std::path::Path;

use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::Compare;

use super::*;
use crate::case::{Action, Case, SrvKind, UavDimension, UavKind};
use dxjit::shader::{lower, CompileOptions};

/// The smoke case of assembly text.
fn case_of(text: &str) -> Case {
    let bytes = assemble(text).unwrap();
    let options = CompileOptions {
        verify_checksum: false,
        ..CompileOptions::default()
    };
    let (family, program) = lower(&bytes, &options).unwrap();
    let declared = Declared::of(&bytes, &program).unwrap();
    smoke_case(Path::new("t.asm"), bytes, &program, family, &declared).unwrap()
}

const SM5_PS: &str = "ps_5_0
dcl_constantBuffer cb0[4], immediateIndexed
dcl_constantBuffer cb2[1], immediateIndexed
dcl_resource_texture3d (uint,uint,uint,uint) t1
dcl_resource_texture2d (float,float,float,float) t0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
ld r0.xyzw, l(0, 0, 0, 0), t1.xyzw
utof r0.xyzw, r0.xyzw
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
add r0.xyzw, r0.xyzw, cb0[3].xyzw
add o0.xyzw, r0.xyzw, cb2[0].xyzw
sample_c o1.x, v1.xyxx, t0.xxxx, s1, l(0.5)
mov o1.yzw, l(0, 0, 0, 0)
ret
";

#[test]
fn constant_buffers_get_their_declared_size() {
    let case = case_of(SM5_PS);
    let ps = case.ps.unwrap();
    let sizes: Vec<(u32, usize)> = ps.cbs.iter().map(|c| (c.slot, c.data.len() * 4)).collect();
    assert_eq!(sizes, [(0, 64), (2, 16)]);
    assert!(ps.cbs[0]
        .data
        .iter()
        .all(|w| f32::from_bits(*w).is_finite()));
}

#[test]
fn a_uint_texture3d_gets_a_uint_volume_with_a_mip_chain() {
    let case = case_of(SM5_PS);
    let ps = case.ps.unwrap();
    let t1 = ps.srvs.iter().find(|s| s.slot == 1).unwrap();
    assert_eq!(t1.kind, SrvKind::Texture3d);
    assert_eq!(t1.format, Some(Format::Rgba32Uint));
    assert_eq!((t1.width(), t1.height, t1.depth, t1.mips), (16, 16, 4, 5));
    assert_eq!(t1.data.len() as u64 * 4, t1.byte_size());
    let t0 = ps.srvs.iter().find(|s| s.slot == 0).unwrap();
    assert_eq!(t0.kind, SrvKind::Texture2d);
    assert_eq!(t0.format, Some(Format::Rgba8Unorm));
}

#[test]
fn samplers_keep_their_mode_and_outputs_get_targets() {
    let case = case_of(SM5_PS);
    let ps = case.ps.unwrap();
    let modes: Vec<(u32, Compare)> = ps.samplers.iter().map(|s| (s.slot, s.compare)).collect();
    assert_eq!(modes, [(0, Compare::None), (1, Compare::LessEqual)]);
    let Action::Draw(draw) = &case.action else {
        panic!("a pixel shader draws")
    };
    let outputs: Vec<_> = draw.targets.iter().map(|t| t.output.clone()).collect();
    assert_eq!(outputs, [Some("o0".into()), Some("o1".into())]);
    assert_eq!(draw.inputs.len(), 1);
}

#[test]
fn compute_uavs_and_one_group() {
    let case = case_of(
        "cs_5_0
dcl_uav_structured u1, 12
dcl_uav_typed_texture2d (int,int,int,int) u2
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ret
",
    );
    assert_eq!(case.action, Action::Dispatch { groups: [1, 1, 1] });
    let u1 = case.uav(1).unwrap();
    assert_eq!(u1.kind, UavKind::Structured { stride: 12 });
    assert_eq!(u1.byte_size(), 65536);
    let u2 = case.uav(2).unwrap();
    assert_eq!(
        u2.kind,
        UavKind::Typed {
            format: Format::Rgba32Sint,
            dimension: UavDimension::Texture2d
        }
    );
    assert_eq!((u2.width(), u2.height), (16, 16));
    assert_eq!(case.uav(0).unwrap().byte_size(), 65536);
}

#[test]
fn d3d9_constants_samplers_and_vertices() {
    let case = case_of(
        "vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_2d s0
mov r0, c0
rep i1
add r0, r0, c5
endrep
texldl r1, v1, s0
add o0, r0, r1
if b2
mov o0, v0
endif
",
    );
    assert_eq!(case.action, Action::Vertices { count: 64 });
    let vs = case.vs.unwrap();
    assert_eq!(vs.c.len(), 6);
    assert_eq!(vs.i.len(), 2);
    assert!(vs.i.values().all(|v| (1..=4).contains(&v[0]) && v[2] == 1));
    assert_eq!(vs.b.len(), 3);
    assert_eq!(vs.srvs.len(), 1);
    assert_eq!(vs.srvs[0].kind, SrvKind::Texture2d);
    assert_eq!(vs.srvs[0].format, Some(Format::Bgra8Unorm));
    assert_eq!(vs.samplers.len(), 1);
    assert_eq!(vs.inputs.len(), 2);
}

#[test]
fn a_small_shader_runs() {
    let bytes = assemble(SM5_PS).unwrap();
    assert_eq!(smoke_bytes(Path::new("t.asm"), bytes), Ok(()));
}

/// The IR program of `bytes`.
fn lowered(bytes: &[u8]) -> dxjit::ir::Program {
    dxjit::shader::lower(bytes, &Default::default()).unwrap().1
}

/// `runs` passes smoke, and `aborts` (the same shader with an `abort`
/// first) fails with it: the stage really ran.
fn runs_unless_it_aborts(runs: Vec<u8>, aborts: Vec<u8>) {
    assert_eq!(smoke_bytes(Path::new("t.asm"), runs), Ok(()));
    let err = smoke_bytes(Path::new("t.asm"), aborts).unwrap_err();
    assert!(err.contains("abort"), "{err}");
}

#[test]
fn hull_shaders_run_before_a_domain_shader_made_for_them() {
    let hs = |first: &str| {
        format!(
            "hs_5_0\nhs_decls\ndcl_input_control_point_count 1\n\
             dcl_output_control_point_count 1\ndcl_tessellator_domain domain_isoline\n\
             dcl_tessellator_partitioning partitioning_integer\n\
             dcl_tessellator_output_primitive output_line\nhs_fork_phase\n\
             dcl_output_siv o0.x, finalLineDetailTessFactor\n\
             dcl_output_siv o1.x, finalLineDensityTessFactor\n\
             {first}mov o0.x, l(1.0)\nmov o1.x, l(1.0)\nret\n"
        )
    };
    let bytes = assemble(&hs("")).unwrap();
    assert_eq!(
        super::feed::domain_text(&lowered(&bytes)).unwrap(),
        "ds_5_0\ndcl_input_control_point_count 1\ndcl_tessellator_domain domain_isoline\n\
         dcl_input vDomain.xy\ndcl_output o0.xyzw\nmov o0.xyzw, vDomain.xyxy\nret\n"
    );
    runs_unless_it_aborts(bytes, assemble(&hs("abort\n")).unwrap());
}

/// A geometry shader of triangles reading registers 0 and 2, which emits
/// one point per input vertex; with `abort` first when `aborts`.
fn geometry_shader(aborts: bool) -> String {
    let first = if aborts { "abort\n" } else { "" };
    format!(
        "gs_5_0\ndcl_input v[3][0].xyzw\ndcl_input v[3][2].xy\ndcl_temps 1\n\
         dcl_inputprimitive triangle\ndcl_outputtopology pointlist\ndcl_output o0.xyzw\n\
         dcl_maxout 3\n{first}add r0.xyzw, v[0][0].xyzw, v[1][2].xyxy\nmov o0.xyzw, r0.xyzw\n\
         emit\nmov o0.xyzw, v[2][0].xyzw\nemit\nmov o0.xyzw, v[1][0].xyzw\nemit\nret\n"
    )
}

#[test]
fn geometry_shaders_run_fed_by_a_vertex_shader_made_for_them() {
    let bytes = assemble(&geometry_shader(false)).unwrap();
    let regs: Vec<u32> = lowered(&bytes).inputs.iter().map(|r| r.reg).collect();
    assert_eq!(regs, [0, 2]);
    assert_eq!(
        super::feed::feeding_text(&regs),
        "vs_4_0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\ndcl_input v2.xyzw\n\
         dcl_output o2.xyzw\nmov o0.xyzw, v0.xyzw\nmov o2.xyzw, v2.xyzw\nret\n"
    );
    runs_unless_it_aborts(bytes, assemble(&geometry_shader(true)).unwrap());
}

/// A domain shader of `domain` with `decls` and `body`, writing o0.
fn domain_shader(domain: &str, decls: &str, body: &str) -> Vec<u8> {
    assemble(&format!(
        "ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain {domain}\n\
         dcl_input vDomain.xyz\n{decls}dcl_output o0.xyzw\n{body}ret\n"
    ))
    .unwrap()
}

#[test]
fn domain_shaders_run_behind_a_hull_shader_made_for_them() {
    let decls = "dcl_input vicp[3][1].xyzw\ndcl_input vpc0.xy\n";
    let body = "add o0.xyzw, vicp[2][1].xyzw, vpc0.xyxy\nmov o0.x, vDomain.x\n";
    let bytes = domain_shader("domain_tri", decls, body);
    assert_eq!(
        super::feed::hull_text(&lowered(&bytes)).unwrap(),
        "hs_5_0\nhs_decls\ndcl_input_control_point_count 3\n\
         dcl_output_control_point_count 3\ndcl_tessellator_domain domain_tri\n\
         dcl_tessellator_partitioning partitioning_integer\n\
         dcl_tessellator_output_primitive output_triangle_cw\nhs_fork_phase\n\
         dcl_output_siv o1.x, finalTriUeq0EdgeTessFactor\n\
         dcl_output_siv o2.x, finalTriVeq0EdgeTessFactor\n\
         dcl_output_siv o3.x, finalTriWeq0EdgeTessFactor\n\
         dcl_output_siv o4.x, finalTriInsideTessFactor\n\
         dcl_output o0.xyzw\n\
         mov o1.x, l(2.000000)\nmov o2.x, l(2.000000)\nmov o3.x, l(2.000000)\n\
         mov o4.x, l(2.000000)\n\
         mov o0.xyzw, l(0.250000, 0.500000, 0.750000, 1.000000)\nret\n"
    );
    let aborting = domain_shader("domain_tri", decls, &format!("abort\n{body}"));
    runs_unless_it_aborts(bytes, aborting);
}

#[test]
fn a_domain_shaders_own_factor_registers_are_kept() {
    // The quad's first edge factor where the domain shader reads it (vpc0.x);
    // the other five past its patch constants (vpc0 and vpc1).
    let decls = "dcl_input_siv vpc0.x, finalQuadUeq0EdgeTessFactor\ndcl_input vpc1.xyzw\n";
    let body = "mul o0.xyzw, vpc1.xyzw, vpc0.xxxx\n";
    let bytes = domain_shader("domain_quad", decls, body);
    let text = super::feed::hull_text(&lowered(&bytes)).unwrap();
    assert!(
        text.contains("dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor\n"),
        "{text}"
    );
    assert!(
        text.contains("dcl_output_siv o2.x, finalQuadVeq0EdgeTessFactor\n"),
        "{text}"
    );
    assert!(
        text.contains("dcl_output_siv o6.x, finalQuadVInsideTessFactor\n"),
        "{text}"
    );
    assert!(
        text.contains("dcl_output o1.xyzw\n") && !text.contains("dcl_output o0.xyzw"),
        "{text}"
    );
    assert_eq!(smoke_bytes(Path::new("t.asm"), bytes), Ok(()));
    let isoline = domain_shader("domain_isoline", "", "mov o0.xyzw, vDomain.xyxx\n");
    assert_eq!(smoke_bytes(Path::new("t.asm"), isoline), Ok(()));
}
