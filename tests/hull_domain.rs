//! Hull and domain shaders around the fixed-function tessellator, through
//! `Shader::run_patches`, on small assembled programs with hand-checked
//! results.

use dxjit::{sm4, Bindings, CompileOptions, DomainOutput, PatchList, RunError, Shader};
use dxjit_runtime::tessellator::Topology;

fn compile(text: &str) -> Shader {
    let bytes = sm4::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    dxjit::compile(&bytes, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(
    hs: &str,
    ds: &str,
    points: &[[u32; 4]],
    regs: u32,
    per_patch: u32,
) -> Result<DomainOutput, RunError> {
    let (hs, ds) = (compile(hs), compile(ds));
    let b = Bindings::new();
    hs.run_patches(
        &b,
        &ds,
        &b,
        &PatchList {
            control_points: points,
            regs_per_point: regs,
            points_per_patch: per_patch,
        },
    )
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A quad hull with no control-point phase: a fork phase with four
/// instances writes the edge factors through `vForkInstanceID`, a second
/// fork phase the inside factors.
const QUAD_HS: &str = "hs_5_0
hs_decls
dcl_input_control_point_count 4
dcl_output_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_fork_phase
dcl_hs_fork_phase_instance_count 4
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor
dcl_output_siv o1.x, finalQuadVeq0EdgeTessFactor
dcl_output_siv o2.x, finalQuadUeq1EdgeTessFactor
dcl_output_siv o3.x, finalQuadVeq1EdgeTessFactor
dcl_temps 1
dcl_indexrange o0.x 4
mov r0.x, vForkInstanceID.x
mov o[r0.x + 0].x, l(2.000000)
ret
hs_fork_phase
dcl_output_siv o4.x, finalQuadUInsideTessFactor
dcl_output_siv o5.x, finalQuadVInsideTessFactor
mov o4.x, l(2.000000)
mov o5.x, l(2.000000)
ret
";

/// Outputs vDomain, the third control point's x, SV_PrimitiveID and the
/// first patch constant.
const QUAD_DS: &str = "ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].x
dcl_input vpc0.x
dcl_input vPrim
dcl_output o0.xyzw
dcl_output o1.x
mov o0.xy, vDomain.xyxx
mov o0.z, vicp[2][0].x
mov o0.w, vPrim
mov o1.x, vpc0.x
ret
";

#[test]
fn quad_pass_through_with_fork_instances() {
    // Two patches of four one-register control points: x = 10 * patch + point.
    let points: Vec<[u32; 4]> = (0..8)
        .map(|i| [f((10 * (i / 4) + i % 4) as f32), 0, 0, 0])
        .collect();
    let out = run(QUAD_HS, QUAD_DS, &points, 1, 4).unwrap();
    // Integer factor 2 on every edge and inside: a 3x3 grid of points, 8
    // triangles, per patch.
    assert_eq!(out.topology, Topology::TriangleList);
    assert_eq!(out.regs_per_vertex, 2);
    assert_eq!(out.vertices.len(), 2 * 9 * 2);
    assert_eq!(out.indices.len(), 2 * 8 * 3);
    assert_eq!(out.primitive_patches.iter().filter(|&&p| p == 1).count(), 8);
    for (v, regs) in out.vertices.chunks(2).enumerate() {
        let patch = (v / 9) as u32;
        let (u, w) = (f32::from_bits(regs[0][0]), f32::from_bits(regs[0][1]));
        assert!(
            [0.0, 0.5, 1.0].contains(&u) && [0.0, 0.5, 1.0].contains(&w),
            "{u} {w}"
        );
        // Pass-through: vicp[2] is the input's third control point.
        assert_eq!(regs[0][2], f((10 * patch + 2) as f32));
        assert_eq!(regs[0][3], patch);
        // vpc0.x: the edge factor the fork phase wrote.
        assert_eq!(regs[1][0], f(2.0));
    }
    let mut grid: Vec<(u32, u32)> = out.vertices[..18]
        .chunks(2)
        .map(|r| (r[0][0], r[0][1]))
        .collect();
    grid.sort();
    grid.dedup();
    assert_eq!(grid.len(), 9, "every grid point once");
    assert!(out.indices[24..].iter().all(|&i| (9..18).contains(&i)));
}
