//! `eval_*` in `shade_quads`: plane inputs, perspective-correct ones
//! included, are evaluated at the instruction's point by the planes
//! themselves; the centroid of a partly covered pixel is its first covered
//! sample (D3D11.3, 3.5.5); an evaluation at the register's own point
//! gives its bits; per-pixel values are estimated from their quad. Every
//! test runs at both tiers and every lane count.

mod api_support;

use api_support::quad;
use dxjit::{Bindings, CompileOptions, PlaneInput, QuadInputs, QuadSampling, Tier};
use dxjit_runtime::dispatch::Quad;

/// `text` compiled at each tier and lane count, with a name for messages.
fn builds(text: &str) -> Vec<(String, dxjit::Shader)> {
    let bytes = dxjit::text::assemble(text).unwrap();
    let mut out = Vec::new();
    for tier in [Tier::First, Tier::Top] {
        for k in [1, 2, 4] {
            let options = CompileOptions {
                tier,
                k: Some(k),
                ..CompileOptions::default()
            };
            let shader = dxjit::compile(&bytes, &options).unwrap();
            out.push((format!("{tier:?} k = {k}"), shader));
        }
    }
    out
}

/// Shades `quads` with `planes`, pixel centres at 0.5, under `sampling`.
fn shade(
    s: &dxjit::Shader,
    quads: &[Quad],
    planes: &[PlaneInput],
    sampling: &QuadSampling,
) -> dxjit::QuadResults {
    s.shade_quads_sampled(
        &Bindings::new(),
        quads,
        0.5,
        QuadInputs::Planes(planes),
        sampling,
        &Default::default(),
    )
    .unwrap()
}

/// Output register `r` of pixel `p` of quad `q` (one run a pixel), as floats.
fn output(r: &dxjit::QuadResults, q: usize, p: usize, reg: usize) -> [f32; 4] {
    r.outputs[(4 * q + p) * r.output_regs as usize + reg].map(f32::from_bits)
}

/// Four samples a pixel, every one covered, nothing masked.
const FOUR: QuadSampling<'static> = QuadSampling {
    count: 4,
    coverage: &[],
    sample_mask: u32::MAX,
};

#[test]
fn perspective_planes_are_evaluated_at_the_point_not_along_the_quad() {
    // v0 = (x, y) / (y + 1): attribute / w planes (x, y), 1/w = y + 1.
    let planes = [PlaneInput {
        reg: 0,
        planes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]],
        one_over_w: Some([0.0, 1.0, 1.0]),
    }];
    let text = "ps_5_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
eval_snapped r0.xy, v0.xyxx, l(-8, -8, 0, 0)
eval_snapped r0.zw, v0.xxxy, l(7, 7, 0, 0)
mov o0.xyzw, r0.xyzw
mov o1.xy, v0.xyxx
eval_sample_index o1.zw, v0.xxxy, l(1)
ret
";
    let quads = [quad(0, 0, 0b1111), quad(10, 20, 0b0001)];
    for (build, s) in builds(text) {
        let r = shade(&s, &quads, &planes, &FOUR);
        // Quad 0, pixel 3, centre (1.5, 1.5): offset (-8, -8) is (1, 1):
        // (1, 1) / 2; (7, 7) is (1.9375, 1.9375): 31/47 each. Every
        // plane value and 1/w is exact, so the quotients are the correctly
        // rounded fractions. The register is 1.5 / 2.5 = 3/5; sample 1
        // of the 4x pattern, (6, -2)/16 away, is (1.875, 1.375): 15/19
        // and 11/19. Along the quad's slopes (-8, -8) would give 1/3.
        assert_eq!(
            output(&r, 0, 3, 0),
            [0.5, 0.5, 31.0 / 47.0, 31.0 / 47.0],
            "{build}"
        );
        assert_eq!(
            output(&r, 0, 3, 1),
            [3.0 / 5.0, 3.0 / 5.0, 15.0 / 19.0, 11.0 / 19.0],
            "{build}"
        );
        // Pixel 0, centre (0.5, 0.5): (0, 0) is 0 / 1; (0.9375, 0.9375) 15/31.
        assert_eq!(
            output(&r, 0, 0, 0),
            [0.0, 0.0, 15.0 / 31.0, 15.0 / 31.0],
            "{build}"
        );
        // Quad 1, pixel 0, centre (10.5, 20.5): (10, 20) / 21 and
        // (10.9375, 20.9375) / 21.9375 = 175/351 and 335/351.
        assert_eq!(
            output(&r, 1, 0, 0),
            [10.0 / 21.0, 20.0 / 21.0, 175.0 / 351.0, 335.0 / 351.0],
            "{build}"
        );
    }
}

#[test]
fn the_centroid_of_a_partly_covered_pixel_is_its_first_covered_sample() {
    // o0: eval_centroid of v0 = (x, y) and its fine derivatives; o1: v1 =
    // (x, y) declared centroid, read directly.
    let text = "ps_5_0
dcl_input_ps linear v0.xy
dcl_input_ps linear centroid v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
eval_centroid r0.xy, v0.xyxx
deriv_rtx_fine r0.z, r0.x
deriv_rty_fine r0.w, r0.y
mov o0.xyzw, r0.xyzw
mov o1.xyzw, v1.xyxx
ret
";
    let position = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]];
    let planes = [0, 1].map(|reg| PlaneInput {
        reg,
        planes: position,
        one_over_w: None,
    });
    // 4x pattern: sample 1 at (6, -2)/16, sample 3 at (2, 6)/16. Pixel 0
    // covers samples 1 and 2, pixel 1 all, pixel 2 sample 3; pixel 3 is a
    // helper (quad bit clear), whose centroid under a full mask is its
    // centre (3.5.5, third case).
    let coverage = [0b0110, 0b1111, 0b1000, 0b1111];
    let partial = QuadSampling {
        count: 4,
        coverage: &coverage,
        sample_mask: u32::MAX,
    };
    // Under the mask 0b1010 every pixel's coverage becomes 0b1010: its
    // centroid is sample 1, and so is the helper's (the mask's first).
    let masked = QuadSampling {
        count: 4,
        coverage: &[],
        sample_mask: 0b1010,
    };
    for (build, s) in builds(text) {
        let r = shade(&s, &[quad(0, 0, 0b0111)], &planes, &partial);
        // Centroids: (0.875, 0.375), (1.5, 0.5), (0.625, 1.875), helper
        // (1.5, 1.5). Fine derivatives: x of row 0 1.5 - 0.875, of row 1
        // 1.5 - 0.625; y of column 0 1.875 - 0.375, of column 1 1.5 - 0.5.
        assert_eq!(output(&r, 0, 0, 0), [0.875, 0.375, 0.625, 1.5], "{build}");
        assert_eq!(output(&r, 0, 1, 0), [1.5, 0.5, 0.625, 1.0], "{build}");
        assert_eq!(output(&r, 0, 2, 0), [0.625, 1.875, 0.875, 1.5], "{build}");
        for (p, centroid) in [(0, [0.875, 0.375]), (1, [1.5, 0.5]), (2, [0.625, 1.875])] {
            assert_eq!(output(&r, 0, p, 1)[..2], centroid, "{build} pixel {p}");
        }
        let r = shade(&s, &[quad(0, 0, 0b0111)], &planes, &masked);
        // Sample 1 everywhere: (0.875, 0.375) + the pixel; derivatives 1.
        assert_eq!(output(&r, 0, 2, 0), [0.875, 1.375, 1.0, 1.0], "{build}");
        assert_eq!(output(&r, 0, 1, 1)[..2], [1.875, 0.375], "{build}");
    }
}

#[test]
fn evaluating_at_the_register_s_own_point_gives_its_bits() {
    // A per-sample shader under a mask: v1 is evaluated at the centre, v2
    // (centroid) at the centroid, v3 (sample) at the shaded sample; the
    // three evaluations that name the same points must give the same
    // bits (ieq), perspective division included: o0.x is all ones.
    let text = "ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear centroid v2.xyzw
dcl_input_ps linear sample v3.xyzw
dcl_input_ps_sgv constant v4.x, sampleIndex
dcl_output o0.x
dcl_temps 3
eval_snapped r0.xyzw, v1.xyzw, l(0, 0, 0, 0)
ieq r0.xyzw, r0.xyzw, v1.xyzw
eval_centroid r1.xyzw, v2.xyzw
ieq r1.xyzw, r1.xyzw, v2.xyzw
and r0.xyzw, r0.xyzw, r1.xyzw
eval_sample_index r2.xyzw, v3.xyzw, v4.x
ieq r2.xyzw, r2.xyzw, v3.xyzw
and r0.xyzw, r0.xyzw, r2.xyzw
and r0.xy, r0.xyxx, r0.zwzz
and r0.x, r0.x, r0.y
mov o0.x, r0.x
ret
";
    let plane = |reg: u32, seed: f32| PlaneInput {
        reg,
        planes: [0.1, 0.7, 1.3, 2.9].map(|c| [c * seed, 0.37 - c, c / 3.0]),
        one_over_w: Some([0.011 * seed, -0.0071, 1.3]),
    };
    let planes = [plane(1, 1.0), plane(2, -2.3), plane(3, 0.9)];
    // Enough quads for several calls at every lane count, scattered, each
    // pixel covering a different set of samples.
    let quads: Vec<Quad> = (0..13u32)
        .map(|i| quad(7 * i + 1, 3 * i, (i % 15 + 1) as u8))
        .collect();
    let coverage: Vec<u32> = (0..52u32).map(|i| (i * 7) % 16).collect();
    let sampling = QuadSampling {
        count: 4,
        coverage: &coverage,
        sample_mask: 0b1011,
    };
    for (build, s) in builds(text) {
        let r = shade(&s, &quads, &planes, &sampling);
        assert_eq!(r.output_samples, 4);
        let mut runs = 0;
        for (q, qd) in quads.iter().enumerate() {
            for p in (0..4).filter(|p| qd.coverage & (1 << p) != 0) {
                let shaded = coverage[4 * q + p] & 0b1011;
                for smp in (0..4).filter(|smp| shaded & (1 << smp) != 0) {
                    let at = ((4 * q + p) * 4 + smp) * r.output_regs as usize;
                    assert_eq!(
                        r.outputs[at][0],
                        u32::MAX,
                        "{build} quad {q} pixel {p} sample {smp}"
                    );
                    runs += 1;
                }
            }
        }
        assert_eq!(runs, 36, "{build}: every covered sample the mask keeps");
    }
}

#[test]
fn per_pixel_values_are_estimated_from_their_quad() {
    // Per-pixel values carry no interpolation: eval_snapped extrapolates
    // along the quad's coarse differences, helpers' values included.
    let text = "ps_5_0
dcl_input_ps linear v0.x
dcl_output o0.x
eval_snapped o0.x, v0.xxxx, l(-8, -8, 0, 0)
ret
";
    // Pixels 0..3 hold 1, 3, 5, 7: ddx = 2, ddy = 4; pixels 1 and 2 are
    // helpers. At (-0.5, -0.5): pixel 0 is 1 - 1 - 2 = -2, pixel 3 7 - 3 = 4.
    let values = [1.0f32, 3.0, 5.0, 7.0].map(|v| [v.to_bits(), 0, 0, 0]);
    for (build, s) in builds(text) {
        let r = s
            .shade_quads(
                &Bindings::new(),
                &[quad(0, 0, 0b1001)],
                0.5,
                QuadInputs::PerPixel(&values),
            )
            .unwrap();
        assert_eq!(output(&r, 0, 0, 0)[0], -2.0, "{build}");
        assert_eq!(output(&r, 0, 3, 0)[0], 4.0, "{build}");
    }
}
