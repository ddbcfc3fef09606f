//! Real fxc hull and domain shaders (tests/data/sm4/fxc, assembled from
//! their listings) run through `run_patches`.

use dxjit::{sm4, Bindings, CompileOptions, PatchList, Shader};
use dxjit_runtime::tessellator::Topology;

fn dump(name: &str) -> Shader {
    let path = format!("{}/tests/data/sm4/fxc/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    dxjit::compile(&sm4::assemble(&text).unwrap(), &CompileOptions::default()).unwrap()
}

fn compile(text: &str) -> Shader {
    dxjit::compile(&sm4::assemble(text).unwrap(), &CompileOptions::default()).unwrap()
}

#[test]
fn slimshader_isoline_bezier() {
    // hs5_basic: no control-point phase (the four points pass through); a
    // fork phase with two instances copies icb = (1, 8) into the line
    // density and detail factors. ds5_basic: a cubic Bézier of the four
    // points along vDomain.x, w = 1.
    let (hs, ds) = (
        dump("slimshader-hs5_basic.asm"),
        dump("slimshader-ds5_basic.asm"),
    );
    let points: Vec<[u32; 4]> = (0..4).map(|i| [(i as f32).to_bits(), 0, 0, 0]).collect();
    let out = hs
        .run_patches(
            &Bindings::new(),
            &ds,
            &Bindings::new(),
            &PatchList {
                control_points: &points,
                regs_per_point: 1,
                points_per_patch: 4,
            },
        )
        .unwrap();
    // Density 1, detail 8: one line of 9 points and 8 segments.
    assert_eq!(out.topology, Topology::LineList);
    assert_eq!(out.vertices.len(), 9);
    assert_eq!(out.primitive_count(), 8);
    let mut xs: Vec<f32> = out.vertices.iter().map(|r| f32::from_bits(r[0])).collect();
    xs.sort_by(f32::total_cmp);
    for (k, (x, r)) in xs.iter().zip(&out.vertices).enumerate() {
        // Control points 0, 1, 2, 3 on a line make the Bézier 3u, exact at
        // u = k/8 (every product of the shader is a small dyadic).
        assert_eq!(*x, 3.0 * k as f32 / 8.0);
        assert_eq!(r[1..], [0, 0, 1.0f32.to_bits()]);
    }
}

#[test]
fn slimshader_pn_triangles_hull() {
    // PNTriangles11_HS: tri, fractional_odd, five fork phases (edge and
    // inside factors from cb0[15].x, the six PN edge points) and three
    // join phases (the centre point o6 from vpc0-5 and vicp).
    let hs = dump("slimshader-PNTriangles11_HS.asm");
    let ds = compile(
        "ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain domain_tri\n\
         dcl_input vpc0.x\ndcl_input vpc6.xyz\ndcl_output o0.xyz\ndcl_output o1.x\n\
         mov o0.xyz, vpc6.xyzx\nmov o1.x, vpc0.x\nret\n",
    );
    let mut cb = vec![0u8; 16 * 16];
    cb[15 * 16..15 * 16 + 4].copy_from_slice(&3.0f32.to_le_bytes());
    let mut hb = Bindings::new();
    hb.constant_buffer(0, &cb).unwrap();
    // A degenerate patch: every point at p = (1, 2, 3), normal (0, 0, 1).
    let p = [1.0f32, 2.0, 3.0];
    let cp = [
        [p[0].to_bits(), p[1].to_bits(), p[2].to_bits(), 0],
        [0, 0, 1.0f32.to_bits(), 0],
    ];
    let points: Vec<[u32; 4]> = (0..3).flat_map(|_| cp).collect();
    let out = hs
        .run_patches(
            &hb,
            &ds,
            &Bindings::new(),
            &PatchList {
                control_points: &points,
                regs_per_point: 2,
                points_per_patch: 3,
            },
        )
        .unwrap();
    let t = dxjit_runtime::tessellator::tessellate(
        dxjit_runtime::tessellator::Domain::Tri,
        dxjit_runtime::tessellator::Partitioning::FractionalOdd,
        dxjit_runtime::tessellator::OutputPrimitive::TriangleCw,
        &dxjit_runtime::tessellator::TessFactors::tri([3.0; 3], 3.0),
    );
    assert_eq!(out.indices, t.indices);
    // The shader's arithmetic on the degenerate patch: every edge point is
    // B = (2p + p - 0 * n) * 0.333333; E = the six B summed in order times
    // 0.166667; the centre is mad(mad(-(3p), 0.333333, E), 0.5, E).
    let centre = p.map(|c| {
        let b = (3.0 * c) * 0.333_333_f32;
        let e = (((((b + b) + b) + b) + b) + b) * 0.166_667_f32;
        let t = (-(3.0 * c)).mul_add(0.333_333, e);
        t.mul_add(0.5, e)
    });
    for r in out.vertices.chunks(2) {
        assert_eq!(r[0][..3], centre.map(f32::to_bits));
        assert_eq!(r[1][0], 3.0f32.to_bits());
    }
}
