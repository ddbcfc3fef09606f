//! Wine's d3d11 `test_quad_tessellation` (dlls/d3d11/tests/d3d11.c, Wine
//! is LGPL-2.1-or-later), converted where it checks values: its hull and
//! domain shaders (DWORDs carried over unchanged, with their HLSL) run on
//! the wine test quad's four control points, and the triangles and
//! primitive counts its stream output checks are compared.
//!
//! The test's HLSL:
//!
//! ```hlsl
//! struct point_data { float4 position : SV_POSITION; };
//! struct patch_constant_data
//! {
//!     float edges[4] : SV_TessFactor;
//!     float inside[2] : SV_InsideTessFactor;
//! };
//! float4 tess_factors;
//! float2 inside_tess_factors;
//! patch_constant_data patch_constant(InputPatch<point_data, 4> input)
//! {
//!     patch_constant_data output;
//!     output.edges[0] = tess_factors.x;  /* .. edges[3] = tess_factors.w */
//!     output.inside[0] = inside_tess_factors.x;
//!     output.inside[1] = inside_tess_factors.y;
//!     return output;
//! }
//! [domain("quad")] [outputcontrolpoints(4)] [outputtopology("triangle_ccw")]
//! [partitioning("integer")] [patchconstantfunc("patch_constant")]
//! point_data hs_main(InputPatch<point_data, 4> input,
//!         uint i : SV_OutputControlPointID)
//! {
//!     return input[i];
//! }
//! [domain("quad")]
//! point_data ds_main(patch_constant_data input,
//!         float2 tess_coord : SV_DomainLocation,
//!         const OutputPatch<point_data, 4> patch)
//! {
//!     point_data output;
//!     float4 a = lerp(patch[0].position, patch[1].position, tess_coord.x);
//!     float4 b = lerp(patch[2].position, patch[3].position, tess_coord.x);
//!     output.position = lerp(a, b, tess_coord.y);
//!     return output;
//! }
//! ```
//!
//! `hs_quad_cw_code` is the same with `outputtopology("triangle_cw")`.

use dxjit::{Bindings, CompileOptions, PatchList, Shader};

const HS_QUAD_CCW: &[u32] = &[
    0x43425844, 0xdf8df700, 0x58b08fb1, 0xbd23d2c3, 0xcf884094, 0x00000001, 0x000002b8, 0x00000004,
    0x00000030, 0x00000064, 0x00000098, 0x0000015c, 0x4e475349, 0x0000002c, 0x00000001, 0x00000008,
    0x00000020, 0x00000000, 0x00000001, 0x00000003, 0x00000000, 0x00000f0f, 0x505f5653, 0x5449534f,
    0x004e4f49, 0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000000,
    0x00000003, 0x00000000, 0x0000000f, 0x505f5653, 0x5449534f, 0x004e4f49, 0x47534350, 0x000000bc,
    0x00000006, 0x00000008, 0x00000098, 0x00000000, 0x0000000b, 0x00000003, 0x00000000, 0x00000e01,
    0x00000098, 0x00000001, 0x0000000b, 0x00000003, 0x00000001, 0x00000e01, 0x00000098, 0x00000002,
    0x0000000b, 0x00000003, 0x00000002, 0x00000e01, 0x00000098, 0x00000003, 0x0000000b, 0x00000003,
    0x00000003, 0x00000e01, 0x000000a6, 0x00000000, 0x0000000c, 0x00000003, 0x00000004, 0x00000e01,
    0x000000a6, 0x00000001, 0x0000000c, 0x00000003, 0x00000005, 0x00000e01, 0x545f5653, 0x46737365,
    0x6f746361, 0x56530072, 0x736e495f, 0x54656469, 0x46737365, 0x6f746361, 0xabab0072, 0x58454853,
    0x00000154, 0x00030050, 0x00000055, 0x01000071, 0x01002093, 0x01002094, 0x01001895, 0x01000896,
    0x01002097, 0x0100086a, 0x04000059, 0x00208e46, 0x00000000, 0x00000002, 0x01000073, 0x04000067,
    0x00102012, 0x00000000, 0x0000000b, 0x06000036, 0x00102012, 0x00000000, 0x0020800a, 0x00000000,
    0x00000000, 0x0100003e, 0x01000073, 0x04000067, 0x00102012, 0x00000001, 0x0000000c, 0x06000036,
    0x00102012, 0x00000001, 0x0020801a, 0x00000000, 0x00000000, 0x0100003e, 0x01000073, 0x04000067,
    0x00102012, 0x00000002, 0x0000000d, 0x06000036, 0x00102012, 0x00000002, 0x0020802a, 0x00000000,
    0x00000000, 0x0100003e, 0x01000073, 0x04000067, 0x00102012, 0x00000003, 0x0000000e, 0x06000036,
    0x00102012, 0x00000003, 0x0020803a, 0x00000000, 0x00000000, 0x0100003e, 0x01000073, 0x04000067,
    0x00102012, 0x00000004, 0x0000000f, 0x06000036, 0x00102012, 0x00000004, 0x0020800a, 0x00000000,
    0x00000001, 0x0100003e, 0x01000073, 0x04000067, 0x00102012, 0x00000005, 0x00000010, 0x06000036,
    0x00102012, 0x00000005, 0x0020801a, 0x00000000, 0x00000001, 0x0100003e,
];

const DS_QUAD: &[u32] = &[
    0x43425844, 0xeb6b7631, 0x07f5469e, 0xed0cbf4a, 0x7158b3a6, 0x00000001, 0x00000284, 0x00000004,
    0x00000030, 0x00000064, 0x00000128, 0x0000015c, 0x4e475349, 0x0000002c, 0x00000001, 0x00000008,
    0x00000020, 0x00000000, 0x00000000, 0x00000003, 0x00000000, 0x00000f0f, 0x505f5653, 0x5449534f,
    0x004e4f49, 0x47534350, 0x000000bc, 0x00000006, 0x00000008, 0x00000098, 0x00000000, 0x0000000b,
    0x00000003, 0x00000000, 0x00000001, 0x00000098, 0x00000001, 0x0000000b, 0x00000003, 0x00000001,
    0x00000001, 0x00000098, 0x00000002, 0x0000000b, 0x00000003, 0x00000002, 0x00000001, 0x00000098,
    0x00000003, 0x0000000b, 0x00000003, 0x00000003, 0x00000001, 0x000000a6, 0x00000000, 0x0000000c,
    0x00000003, 0x00000004, 0x00000001, 0x000000a6, 0x00000001, 0x0000000c, 0x00000003, 0x00000005,
    0x00000001, 0x545f5653, 0x46737365, 0x6f746361, 0x56530072, 0x736e495f, 0x54656469, 0x46737365,
    0x6f746361, 0xabab0072, 0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000,
    0x00000001, 0x00000003, 0x00000000, 0x0000000f, 0x505f5653, 0x5449534f, 0x004e4f49, 0x58454853,
    0x00000120, 0x00040050, 0x00000048, 0x01002093, 0x01001895, 0x0100086a, 0x0200005f, 0x0001c032,
    0x0400005f, 0x002190f2, 0x00000004, 0x00000000, 0x04000067, 0x001020f2, 0x00000000, 0x00000001,
    0x02000068, 0x00000002, 0x0a000000, 0x001000f2, 0x00000000, 0x80219e46, 0x00000041, 0x00000002,
    0x00000000, 0x00219e46, 0x00000003, 0x00000000, 0x09000032, 0x001000f2, 0x00000000, 0x0001c006,
    0x00100e46, 0x00000000, 0x00219e46, 0x00000002, 0x00000000, 0x0a000000, 0x001000f2, 0x00000001,
    0x80219e46, 0x00000041, 0x00000000, 0x00000000, 0x00219e46, 0x00000001, 0x00000000, 0x09000032,
    0x001000f2, 0x00000001, 0x0001c006, 0x00100e46, 0x00000001, 0x00219e46, 0x00000000, 0x00000000,
    0x08000000, 0x001000f2, 0x00000000, 0x00100e46, 0x00000000, 0x80100e46, 0x00000041, 0x00000001,
    0x08000032, 0x001020f2, 0x00000000, 0x0001c556, 0x00100e46, 0x00000000, 0x00100e46, 0x00000001,
    0x0100003e,
];

/// `hs_quad_cw_code`: `HS_QUAD_CCW` with its own checksum and
/// `dcl_tessellator_output_primitive output_triangle_cw` (0x01001897).
fn hs_quad_cw() -> Vec<u32> {
    let mut code = HS_QUAD_CCW.to_vec();
    code[1..5].copy_from_slice(&[0x1ab30cc8, 0x94174771, 0x61f4cdd0, 0xa287f62c]);
    let decl = code.iter().position(|&w| w == 0x01002097).unwrap();
    code[decl] = 0x01001897;
    code
}

fn compile(words: &[u32]) -> Shader {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    dxjit::compile(&bytes, &CompileOptions::default()).unwrap()
}

/// The test context's quad as its vertex shader outputs it: SV_Position
/// (x, y, 0, 1) for (-1, -1), (-1, 1), (1, -1), (1, 1).
fn quad() -> Vec<[u32; 4]> {
    [[-1.0f32, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]]
        .iter()
        .map(|[x, y]| [x.to_bits(), y.to_bits(), 0, 1.0f32.to_bits()])
        .collect()
}

/// Runs the patch with `tess_factors` and `inside_tess_factors` in cb0;
/// returns each triangle's three positions.
fn triangles(hs: &Shader, ds: &Shader, edges: [f32; 4], inside: [f32; 2]) -> Vec<[[f32; 4]; 3]> {
    let cb: Vec<u8> = edges
        .iter()
        .chain(&inside)
        .chain(&[0.0, 0.0])
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let mut hb = Bindings::new();
    hb.constant_buffer(0, &cb).unwrap();
    let points = quad();
    let out = hs
        .run_patches(
            &hb,
            ds,
            &Bindings::new(),
            &PatchList {
                control_points: &points,
                regs_per_point: 1,
                points_per_patch: 4,
            },
        )
        .unwrap();
    out.indices
        .chunks(3)
        .map(|t| [0, 1, 2].map(|j| out.vertices[t[j] as usize].map(f32::from_bits)))
        .collect()
}

/// Whether `got` is `expected` up to a rotation of its vertices (how
/// wine's `check_triangles` compares).
fn same_triangle(got: &[[f32; 4]; 3], expected: &[[f32; 4]; 3]) -> bool {
    (0..3).any(|r| (0..3).all(|j| got[j] == expected[(j + r) % 3]))
}

#[test]
fn wine_quad_tessellation_ccw_and_cw_triangles() {
    let (ccw, cw, ds) = (
        compile(HS_QUAD_CCW),
        compile(&hs_quad_cw()),
        compile(DS_QUAD),
    );
    // Wine's expected_quad_ccw and expected_quad_cw (the third, all-zero
    // triangle there is the untouched rest of the buffer: two triangles
    // are written).
    let expected_ccw = [
        [
            [-1.0, -1.0, 0.0, 1.0],
            [1.0, -1.0, 0.0, 1.0],
            [-1.0, 1.0, 0.0, 1.0],
        ],
        [
            [-1.0, 1.0, 0.0, 1.0],
            [1.0, -1.0, 0.0, 1.0],
            [1.0, 1.0, 0.0, 1.0],
        ],
    ];
    let expected_cw = [
        [
            [-1.0, -1.0, 0.0, 1.0],
            [-1.0, 1.0, 0.0, 1.0],
            [1.0, -1.0, 0.0, 1.0],
        ],
        [
            [-1.0, 1.0, 0.0, 1.0],
            [1.0, 1.0, 0.0, 1.0],
            [1.0, -1.0, 0.0, 1.0],
        ],
    ];
    for (hs, expected) in [(&ccw, expected_ccw), (&cw, expected_cw)] {
        let got = triangles(hs, &ds, [1.0; 4], [1.0; 2]);
        assert_eq!(got.len(), 2, "{got:?}");
        for (g, e) in got.iter().zip(&expected) {
            assert!(same_triangle(g, e), "{got:?}");
        }
    }
}

#[test]
fn wine_quad_tessellation_primitive_counts() {
    let (hs, ds) = (compile(&hs_quad_cw()), compile(DS_QUAD));
    // Wine's SO statistics: edges 2 and inside 1 write 8 triangles; a zero
    // edge factor discards the patch (0 more); edges (5, 2, 2, 2) write 11.
    assert_eq!(triangles(&hs, &ds, [2.0; 4], [1.0; 2]).len(), 8);
    assert_eq!(triangles(&hs, &ds, [0.0, 2.0, 2.0, 2.0], [1.0; 2]).len(), 0);
    assert_eq!(
        triangles(&hs, &ds, [5.0, 2.0, 2.0, 2.0], [1.0; 2]).len(),
        11
    );
}

/// Throughput of hull → tessellator → domain on 4096 quad patches of wine's
/// shaders at factor 16: prints domain points and triangles per second.
/// Run with `cargo test --release --test hull_domain_wine -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn throughput() {
    let (hs, ds) = (compile(HS_QUAD_CCW), compile(DS_QUAD));
    hs.wait_for_top_tier().unwrap();
    ds.wait_for_top_tier().unwrap();
    let cb: Vec<u8> = [16.0f32; 6]
        .iter()
        .chain(&[0.0, 0.0])
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let mut hb = Bindings::new();
    hb.constant_buffer(0, &cb).unwrap();
    let points: Vec<[u32; 4]> = (0..4096).flat_map(|_| quad()).collect();
    let list = PatchList {
        control_points: &points,
        regs_per_point: 1,
        points_per_patch: 4,
    };
    let db = Bindings::new();
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        out = Some(hs.run_patches(&hb, &ds, &db, &list).unwrap());
        best = best.min(start.elapsed().as_secs_f64());
    }
    let out = out.unwrap();
    let (points, triangles) = (out.vertices.len(), out.primitive_count());
    println!(
        "4096 quad patches at factor 16: {points} domain points, {triangles} triangles in {:.2} ms: \
         {:.1} M points/s, {:.1} M triangles/s",
        best * 1e3,
        points as f64 / best / 1e6,
        triangles as f64 / best / 1e6
    );
    // The fixed-function stage alone, on one core, for comparison.
    let factors = dxjit_runtime::tessellator::TessFactors::quad([16.0; 4], [16.0; 2]);
    let start = std::time::Instant::now();
    let tessellated: usize = (0..4096)
        .map(|_| {
            dxjit_runtime::tessellator::tessellate(
                dxjit_runtime::tessellator::Domain::Quad,
                dxjit_runtime::tessellator::Partitioning::Integer,
                dxjit_runtime::tessellator::OutputPrimitive::TriangleCcw,
                &factors,
            )
            .points
            .len()
        })
        .sum();
    println!(
        "the tessellator alone, one core: {tessellated} points in {:.2} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
}
