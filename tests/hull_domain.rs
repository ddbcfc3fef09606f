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

/// A hull whose control-point phase makes 4 control points of 3: output
/// point `i` is (vicp[i % 3].x, i); a fork phase (3 instances) writes edge
/// `i` = vocp[i].y + 1 and the patch id; a join phase reads the fork
/// phases' constants (vpc) for the inside factor and their sum.
const PHASES_HS: &str = "hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 4
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_ccw
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input vicp[3][0].x
dcl_output o0.xy
dcl_temps 1
udiv null, r0.x, vOutputControlPointID, l(3)
mov o0.x, vicp[r0.x + 0][0].x
utof o0.y, vOutputControlPointID
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_input vocp[4][0].y
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_temps 1
dcl_indexrange o0.x 3
mov r0.x, vForkInstanceID.x
add o[r0.x + 0].x, vocp[r0.x + 0][0].y, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output o5.x
utof o5.x, vPrim
ret
hs_join_phase
dcl_input vpc0.x
dcl_input vpc1.x
dcl_input vpc2.x
dcl_output_siv o3.x, finalTriInsideTessFactor
dcl_output o4.x
dcl_temps 1
mov o3.x, vpc2.x
add r0.x, vpc0.x, vpc1.x
add o4.x, r0.x, vpc2.x
ret
";

/// Outputs the fourth output control point, vpc4.x, vpc5.x and vDomain.
const PHASES_DS: &str = "ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[4][0].xy
dcl_input vpc4.x
dcl_input vpc5.x
dcl_output o0.xyzw
dcl_output o1.xyz
mov o0.xy, vicp[3][0].xyxx
mov o0.z, vpc4.x
mov o0.w, vpc5.x
mov o1.xyz, vDomain.xyzx
ret
";

#[test]
fn control_point_fork_and_join_phases() {
    // Two patches; input control point x = 2, 5, 7 (patch 0), 20, 50, 70.
    let points: Vec<[u32; 4]> = [2.0, 5.0, 7.0, 20.0, 50.0, 70.0]
        .iter()
        .map(|&x| [f(x), 0, 0, 0])
        .collect();
    let out = run(PHASES_HS, PHASES_DS, &points, 1, 3).unwrap();
    // Edges are vocp[i].y + 1 = 1, 2, 3 and the inside vpc2.x = 3: the
    // tessellator's integer tri for those factors.
    let tess = dxjit_runtime::tessellator::tessellate(
        dxjit_runtime::tessellator::Domain::Tri,
        dxjit_runtime::tessellator::Partitioning::Integer,
        dxjit_runtime::tessellator::OutputPrimitive::TriangleCcw,
        &dxjit_runtime::tessellator::TessFactors::tri([1.0, 2.0, 3.0], 3.0),
    );
    let n = tess.points.len();
    assert_eq!(out.vertices.len(), 2 * n * 2);
    assert_eq!(out.indices.len(), 2 * tess.indices.len());
    for (v, regs) in out.vertices.chunks(2).enumerate() {
        let patch = v / n;
        // Output point 3 is input point 3 % 3 = 0: x = 2 (or 20), y = 3.0;
        // vpc4 = 1 + 2 + 3; vpc5 = the patch id.
        let x = [2.0, 20.0][patch];
        assert_eq!(
            regs[0],
            [f(x), f(3.0), f(6.0), f(patch as f32)],
            "vertex {v}"
        );
        // vDomain is the tessellator's point with w = 1 - u - v.
        let [u, w] = tess.points[v % n];
        assert_eq!(regs[1][..3], [f(u), f(w), f(1.0 - u - w)]);
    }
    assert_eq!(out.indices[..tess.indices.len()], tess.indices[..]);
}

/// A hull writing the factors it reads from cb0 (edges in cb0[0], inside
/// in cb0[1]) for `domain`, with `partitioning` and `extra` declarations.
fn factor_hull(domain: &str, partitioning: &str, extra: &str) -> String {
    let (points, edges, inside): (u32, &[&str], &[&str]) = match domain {
        "tri" => (
            3,
            &[
                "finalTriUeq0EdgeTessFactor",
                "finalTriVeq0EdgeTessFactor",
                "finalTriWeq0EdgeTessFactor",
            ],
            &["finalTriInsideTessFactor"],
        ),
        "quad" => (
            4,
            &[
                "finalQuadUeq0EdgeTessFactor",
                "finalQuadVeq0EdgeTessFactor",
                "finalQuadUeq1EdgeTessFactor",
                "finalQuadVeq1EdgeTessFactor",
            ],
            &["finalQuadUInsideTessFactor", "finalQuadVInsideTessFactor"],
        ),
        _ => (
            2,
            &["finalLineDensityTessFactor", "finalLineDetailTessFactor"],
            &[],
        ),
    };
    let output = if domain == "isoline" {
        "output_line"
    } else {
        "output_triangle_cw"
    };
    let mut text = format!(
        "hs_5_0\nhs_decls\ndcl_input_control_point_count {points}\n\
         dcl_output_control_point_count {points}\ndcl_tessellator_domain domain_{domain}\n\
         dcl_tessellator_partitioning partitioning_{partitioning}\n\
         dcl_tessellator_output_primitive {output}\n{extra}\
         dcl_constantbuffer cb0[2], immediateIndexed\nhs_fork_phase\n"
    );
    let xyzw = ["x", "y", "z", "w"];
    for (i, name) in edges.iter().enumerate() {
        text += &format!("dcl_output_siv o{i}.x, {name}\n");
    }
    for (i, _) in edges.iter().enumerate() {
        text += &format!("mov o{i}.x, cb0[0].{}\n", xyzw[i]);
    }
    text += "ret\n";
    if !inside.is_empty() {
        text += "hs_fork_phase\n";
        for (i, name) in inside.iter().enumerate() {
            text += &format!("dcl_output_siv o{}.x, {name}\n", edges.len() + i);
        }
        for (i, _) in inside.iter().enumerate() {
            text += &format!("mov o{}.x, cb0[1].{}\n", edges.len() + i, xyzw[i]);
        }
        text += "ret\n";
    }
    text
}

/// A domain shader writing vDomain.
fn domain_ds(domain: &str, points: u32) -> String {
    format!(
        "ds_5_0\ndcl_input_control_point_count {points}\ndcl_tessellator_domain domain_{domain}\n\
         dcl_input vDomain.xyz\ndcl_output o0.xyzw\nmov o0.xyz, vDomain.xyzx\nmov o0.w, l(0)\nret\n"
    )
}

/// Runs one patch of `domain` with factors `edges` / `inside` through
/// [`factor_hull`] and [`domain_ds`].
fn factors(
    domain: &str,
    partitioning: &str,
    extra: &str,
    edges: [f32; 4],
    inside: [f32; 2],
) -> DomainOutput {
    let points = match domain {
        "tri" => 3,
        "quad" => 4,
        _ => 2,
    };
    let (hs, ds) = (
        compile(&factor_hull(domain, partitioning, extra)),
        compile(&domain_ds(domain, points)),
    );
    let cb: Vec<u8> = edges
        .iter()
        .chain(&inside)
        .chain(&[0.0, 0.0])
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let mut hb = Bindings::new();
    hb.constant_buffer(0, &cb).unwrap();
    let cps = vec![[0u32; 4]; points as usize];
    hs.run_patches(
        &hb,
        &ds,
        &Bindings::new(),
        &PatchList {
            control_points: &cps,
            regs_per_point: 1,
            points_per_patch: points,
        },
    )
    .unwrap()
}

/// (vertices, primitives) of an output.
fn counts(out: &DomainOutput) -> (usize, usize) {
    (out.vertices.len(), out.primitive_count())
}

#[test]
fn hand_counted_domains() {
    // Tri, all factors 1: the three corners, one triangle.
    assert_eq!(
        counts(&factors("tri", "integer", "", [1.0; 4], [1.0; 2])),
        (3, 1)
    );
    // Tri, all 2: a ring of 6 points around the centre, 6 triangles.
    assert_eq!(
        counts(&factors("tri", "integer", "", [2.0; 4], [2.0; 2])),
        (7, 6)
    );
    // Quad, all 3: a 4x4 grid, 9 cells of 2 triangles.
    assert_eq!(
        counts(&factors("quad", "integer", "", [3.0; 4], [3.0; 2])),
        (16, 18)
    );
    // Isoline, density 2 and detail 3: lines at v = 0 and 1/2 of 4 points
    // and 3 segments each.
    let iso = factors("isoline", "integer", "", [2.0, 3.0, 0.0, 0.0], [0.0; 2]);
    assert_eq!(counts(&iso), (8, 6));
    assert_eq!(iso.topology, Topology::LineList);
    let mut vs: Vec<(f32, f32)> = iso
        .vertices
        .iter()
        .map(|r| (f32::from_bits(r[0]), f32::from_bits(r[1])))
        .collect();
    vs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let third = 1.0f32 / 3.0;
    for (i, (u, v)) in vs.iter().enumerate() {
        // Sorted by u, then v: u = (i / 2) / 3 in 16.16 fixed point, v = 0, 1/2.
        let expected_u = ((i / 2) as f32 * third * 65536.0).round() / 65536.0;
        assert!((u - expected_u).abs() <= 1.0 / 65536.0, "{u} {expected_u}");
        assert_eq!(*v, [0.0, 0.5][i % 2]);
    }
}

#[test]
fn every_domain_and_partitioning_matches_the_tessellator() {
    use dxjit_runtime::tessellator::{
        tessellate, Domain, OutputPrimitive, Partitioning, TessFactors,
    };
    let cases: &[(&str, Domain, [f32; 4], [f32; 2])] = &[
        ("tri", Domain::Tri, [3.0, 4.5, 1.25, 0.0], [2.75, 0.0]),
        ("quad", Domain::Quad, [5.5, 2.0, 3.3, 7.0], [4.1, 2.6]),
        ("isoline", Domain::Isoline, [3.0, 5.7, 0.0, 0.0], [0.0; 2]),
    ];
    let partitionings = [
        ("integer", Partitioning::Integer),
        ("pow2", Partitioning::Pow2),
        ("fractional_odd", Partitioning::FractionalOdd),
        ("fractional_even", Partitioning::FractionalEven),
    ];
    for &(name, domain, edges, inside) in cases {
        for (pname, p) in partitionings {
            let out = factors(name, pname, "", edges, inside);
            let tf = match domain {
                Domain::Tri => TessFactors::tri([edges[0], edges[1], edges[2]], inside[0]),
                Domain::Quad => TessFactors::quad(edges, inside),
                Domain::Isoline => TessFactors::isoline(edges[0], edges[1]),
            };
            let output = if domain == Domain::Isoline {
                OutputPrimitive::Line
            } else {
                OutputPrimitive::TriangleCw
            };
            let t = tessellate(domain, p, output, &tf);
            assert_eq!(out.indices, t.indices, "{name} {pname}");
            assert_eq!(out.vertices.len(), t.points.len(), "{name} {pname}");
            for (r, [u, v]) in out.vertices.iter().zip(&t.points) {
                let w = if domain == Domain::Tri {
                    1.0 - u - v
                } else {
                    0.0
                };
                assert_eq!(r[..3], [f(*u), f(*v), f(w)], "{name} {pname}");
            }
        }
    }
}

#[test]
fn nan_and_non_positive_edge_factors_cull_the_patch() {
    for bad in [0.0, -1.0, f32::NAN] {
        let out = factors("quad", "integer", "", [2.0, bad, 2.0, 2.0], [2.0; 2]);
        assert_eq!(counts(&out), (0, 0), "{bad}");
        let out = factors("tri", "fractional_odd", "", [2.0, 2.0, bad, 0.0], [2.0; 2]);
        assert_eq!(counts(&out), (0, 0), "{bad}");
    }
}

#[test]
fn factors_clamp_to_64_and_to_dcl_hs_max_tessfactor() {
    // Past 64 a quad's integer factors clamp to 64: a 65 x 65 grid.
    let out = factors("quad", "integer", "", [100.0; 4], [1000.0; 2]);
    assert_eq!(counts(&out), (65 * 65, 64 * 64 * 2));
    // dcl_hs_max_tessfactor 4 makes factor 10 a 5 x 5 grid.
    let max4 = "dcl_hs_max_tessfactor l(4.000000)\n";
    assert_eq!(
        counts(&factors("quad", "integer", max4, [10.0; 4], [10.0; 2])),
        (25, 32)
    );
    // A fractional maximum of 7.5: integer factors round up after the
    // clamp, to 8 (a 9 x 9 grid).
    let max75 = "dcl_hs_max_tessfactor l(7.500000)\n";
    assert_eq!(
        counts(&factors("quad", "integer", max75, [10.0; 4], [10.0; 2])),
        (81, 128)
    );
}

#[test]
fn point_output_lists_every_domain_point_once() {
    let hs =
        compile(&factor_hull("tri", "integer", "").replace("output_triangle_cw", "output_point"));
    let ds = compile(&domain_ds("tri", 3));
    let cb: Vec<u8> = [2.0f32; 8].iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut hb = Bindings::new();
    hb.constant_buffer(0, &cb).unwrap();
    let cps = [[0u32; 4]; 3];
    let out = hs
        .run_patches(
            &hb,
            &ds,
            &Bindings::new(),
            &PatchList {
                control_points: &cps,
                regs_per_point: 1,
                points_per_patch: 3,
            },
        )
        .unwrap();
    // Factor 2 tri: 7 points, each a point primitive, in order.
    assert_eq!(out.topology, Topology::PointList);
    assert_eq!(out.indices, (0..7).collect::<Vec<u32>>());
    assert_eq!(out.primitive_patches, vec![0; 7]);
}

#[test]
fn a_hull_shader_that_aborts_stops_the_call_with_the_reason() {
    // The fork phase of the patch whose first control point's x is 5
    // aborts; the patches after it in the same call get no outputs, and
    // the call reports the abort rather than tessellating what is missing.
    let hs = "hs_5_0\nhs_decls\ndcl_input_control_point_count 1\n\
              dcl_output_control_point_count 1\ndcl_tessellator_domain domain_isoline\n\
              dcl_tessellator_partitioning partitioning_integer\n\
              dcl_tessellator_output_primitive output_line\nhs_fork_phase\n\
              dcl_input vicp[1][0].x\ndcl_output_siv o0.x, finalLineDetailTessFactor\n\
              dcl_output_siv o1.x, finalLineDensityTessFactor\ndcl_temps 1\n\
              ieq r0.x, vicp[0][0].x, l(5)\nif_nz r0.x\n  abort\nendif\n\
              mov o0.x, l(1.0)\nmov o1.x, l(1.0)\nret\n";
    let points: Vec<[u32; 4]> = (0..64).map(|i| [i, 0, 0, 0]).collect();
    let err = run(hs, &domain_ds("isoline", 1), &points, 1, 1).unwrap_err();
    assert!(
        matches!(
            err,
            RunError::Halted {
                instruction: "abort",
                ..
            }
        ),
        "{err}"
    );
}
