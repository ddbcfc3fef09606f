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

#[test]
fn hull_and_geometry_shaders_fail_with_a_reason() {
    let hs = "hs_5_0\nhs_decls\ndcl_input_control_point_count 1\n\
              dcl_output_control_point_count 1\ndcl_tessellator_domain domain_isoline\n\
              dcl_tessellator_partitioning partitioning_integer\n\
              dcl_tessellator_output_primitive output_line\nhs_fork_phase\n\
              dcl_output_siv o0.x, finalLineDetailTessFactor\n\
              dcl_output_siv o1.x, finalLineDensityTessFactor\n\
              mov o0.x, l(1.0)\nmov o1.x, l(1.0)\nret\n";
    let err = smoke_bytes(Path::new("t.asm"), assemble(hs).unwrap()).unwrap_err();
    assert!(
        err.contains("hs programs are not supported by smoke"),
        "{err}"
    );
    let gs = "gs_4_0\ndcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_maxout 1\nret\n";
    let err = smoke_bytes(Path::new("t.asm"), assemble(gs).unwrap()).unwrap_err();
    assert!(err.contains("only in a [pipeline] case"), "{err}");
}
