//! `shade_quads` with shaders that have no input or no output registers,
//! with each pixel's sample coverage (`vCoverage`, the samples written) and
//! with the blend state's sample mask.

mod api_support;

use api_support::{ps, quad};
use dxjit::{Bindings, BufferLayout, PlaneInput, QuadInputs, QuadSampling, RunError};
use dxjit_runtime::dispatch::Quad;

/// `s` shading `quads` (centres at 0.5, no inputs) with `sampling` and
/// the default sampling options.
fn sampled(
    s: &dxjit::Shader,
    quads: &[Quad],
    sampling: &QuadSampling,
) -> Result<dxjit::QuadResults, RunError> {
    s.shade_quads_sampled(
        &Bindings::new(),
        quads,
        0.5,
        QuadInputs::PerPixel(&[]),
        sampling,
        &Default::default(),
    )
}

/// Enough quads for several calls of any lane count (a call takes at most
/// 16 lanes, 4 quads), each with its own coverage.
fn many_quads() -> Vec<Quad> {
    (0..13u32)
        .map(|i| quad(2 * i, 0, (i % 15 + 1) as u8))
        .collect()
}

#[test]
fn a_shader_without_inputs_writes_its_constant_colour() {
    let s = ps("ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.0, 2.0, 3.0, 4.0)
ret
");
    assert_eq!(s.kernel().input_regs, 0);
    let quads = many_quads();
    let r = s
        .shade_quads(&Bindings::new(), &quads, 0.5, QuadInputs::PerPixel(&[]))
        .unwrap();
    // Every covered pixel is alive and holds the constant (1, 2, 3, 4).
    let expected: Vec<u8> = quads.iter().map(|q| q.coverage).collect();
    assert_eq!(r.alive, expected);
    for (q, qd) in quads.iter().enumerate() {
        for p in (0..4).filter(|p| qd.coverage & (1 << p) != 0) {
            let o = r.outputs[(4 * q + p) * r.output_regs as usize];
            assert_eq!(
                o.map(f32::from_bits),
                [1.0, 2.0, 3.0, 4.0],
                "quad {q} pixel {p}"
            );
        }
    }
}

#[test]
fn a_shader_without_inputs_or_outputs_still_runs_every_covered_pixel() {
    // Each alive invocation adds 1 to u0[0]: the count is the covered pixels.
    let s = ps("ps_5_0
dcl_uav_raw u0
atomic_iadd u0, l(0), l(1)
ret
");
    assert_eq!((s.kernel().input_regs, s.kernel().output_regs), (0, 0));
    let quads = many_quads();
    let mut counter = [0u8; 4];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut counter, BufferLayout::Raw).unwrap();
    let r = s
        .shade_quads(&b, &quads, 0.5, QuadInputs::PerPixel(&[]))
        .unwrap();
    drop(b);
    let covered: u32 = quads.iter().map(|q| q.coverage.count_ones()).sum();
    assert_eq!(u32::from_le_bytes(counter), covered);
    assert_eq!(r.alive.len(), quads.len());
}

/// Writes vCoverage to o0.x and `oMask` = 0b1011 (sample 2 never written).
const COVERAGE: &str = "ps_5_0
dcl_input vCoverage
dcl_output o0.x
dcl_output oMask
mov o0.x, vCoverage.x
mov oMask, l(11)
ret
";

#[test]
fn per_sample_coverage_reaches_vcoverage_and_the_samples_written() {
    let s = ps(COVERAGE);
    let quads = [quad(0, 0, 0b0111), quad(2, 0, 0b1111)];
    // 4x: quad 0 covers samples 0-3, 0b0011, 0b1100 (and pixel 3 is a
    // helper whatever its entry says); quad 1 covers 1, 2, 4 and 8.
    let coverage = [0b1111, 0b0011, 0b1100, 0b1111, 1, 2, 4, 8];
    let sampling = QuadSampling {
        count: 4,
        coverage: &coverage,
        sample_mask: 0b1110,
    };
    let r = sampled(&s, &quads, &sampling).unwrap();
    let regs = r.output_regs as usize;
    let v_coverage: Vec<u32> = (0..8).map(|i| r.outputs[i * regs][0]).collect();
    // Helper pixel 3 of quad 0 reads 0; the others their coverage ANDed
    // with the sample mask 0b1110 (D3D11.3, 16.3.2 Input Coverage).
    assert_eq!(v_coverage[..3], [0b1110, 0b0010, 0b1100]);
    assert_eq!(v_coverage[4..], [0, 2, 4, 8]);
    // written = coverage & oMask (0b1011) & sample mask (0b1110) = coverage & 0b1010.
    assert_eq!(r.written, [0b1010, 0b0010, 0b1000, 0, 0, 0b0010, 0, 0b1000]);
}

#[test]
fn without_a_coverage_array_every_sample_is_covered() {
    let s = ps(COVERAGE);
    let sampling = QuadSampling {
        count: 8,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = sampled(&s, &[quad(0, 0, 0b0001)], &sampling).unwrap();
    // 8 samples: vCoverage 0xff; written 0xff & oMask 0b1011.
    assert_eq!(r.outputs[0][0], 0xff);
    assert_eq!(r.written, [0b1011, 0, 0, 0]);
}

#[test]
fn single_sampled_quads_write_sample_0_unless_masked() {
    let s = ps("ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)
ret
");
    let quads = [quad(0, 0, 0b1001)];
    let r = s
        .shade_quads(&Bindings::new(), &quads, 0.5, QuadInputs::PerPixel(&[]))
        .unwrap();
    assert_eq!(r.written, [1, 0, 0, 1]);
    let masked = QuadSampling {
        sample_mask: !1,
        ..QuadSampling::SINGLE
    };
    let r = sampled(&s, &quads, &masked).unwrap();
    assert_eq!(r.alive, [0b1001], "a masked pixel still runs");
    assert_eq!(r.written, [0; 4], "but writes no sample");
}

#[test]
fn bad_sample_counts_and_coverage_lengths_are_refused() {
    let s = ps(COVERAGE);
    let quads = [quad(0, 0, 0b1111)];
    for (count, coverage) in [(3, &[][..]), (32, &[][..]), (4, &[1, 1, 1][..])] {
        let sampling = QuadSampling {
            count,
            coverage,
            sample_mask: u32::MAX,
        };
        let err = sampled(&s, &quads, &sampling).unwrap_err();
        assert!(matches!(err, RunError::Invalid(_)), "{count}: {err}");
    }
}

/// Writes vSampleIndex to o0.x and vCoverage to o0.y.
const SAMPLE_INDEX: &str = "ps_5_0
dcl_input_ps_sgv constant v0.x, sampleIndex
dcl_input vCoverage
dcl_output o0.xy
mov o0.x, v0.x
mov o0.y, vCoverage.x
ret
";

#[test]
fn a_shader_reading_its_sample_index_runs_once_per_sample() {
    let s = ps(SAMPLE_INDEX);
    let sampling = QuadSampling {
        count: 4,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = sampled(&s, &[quad(0, 0, 0b1111)], &sampling).unwrap();
    // D3D11.3 (sample-frequency execution): one run per covered sample,
    // vSampleIndex = the sample, vCoverage = its bit alone. Each pixel
    // has four sets of outputs, sample s's holding (s, 1 << s).
    assert_eq!(r.output_samples, 4);
    let regs = r.output_regs as usize;
    for p in 0..4 {
        let got: Vec<[u32; 2]> = (0..4)
            .map(|s| {
                let o = r.outputs[(4 * p + s) * regs];
                [o[0], o[1]]
            })
            .collect();
        assert_eq!(got, [[0, 1], [1, 2], [2, 4], [3, 8]], "pixel {p}");
    }
    assert_eq!(r.alive, [0b1111]);
    assert_eq!(r.written, [0b1111; 4]);
}

#[test]
fn a_per_sample_run_shades_only_covered_samples_the_mask_keeps_and_ands_omask() {
    // Writes its sample index, and oMask 0b1011: sample 2 never written.
    let s = ps("ps_5_0
dcl_input_ps_sgv constant v0.x, sampleIndex
dcl_output o0.x
dcl_output oMask
mov o0.x, v0.x
mov oMask, l(11)
ret
");
    // Pixel 0 covers samples 0 and 2, pixel 1 sample 1, pixel 2 none of
    // them (a helper in every run though its quad bit is set), pixel 3
    // is a helper by its quad bit.
    let coverage = [0b0101, 0b0010, 0, 0b1111];
    let sampling = QuadSampling {
        count: 4,
        coverage: &coverage,
        sample_mask: 0b1111_1101,
    };
    let r = sampled(&s, &[quad(0, 0, 0b0111)], &sampling).unwrap();
    // A run shades only samples the mask 0b1101 keeps (D3D11.3, 3.5.4):
    // pixel 0 runs samples 0 and 2, pixel 1 none (its sample 1 is
    // masked), pixels 2 and 3 none. written = the samples run ∧ oMask
    // 0b1011: pixel 0: 0b0101 ∧ 0b1011 = 0b0001.
    assert_eq!(r.written, [0b0001, 0, 0, 0]);
    // Alive: pixels that ran some sample and did not discard: pixel 0.
    assert_eq!(r.alive, [0b0001]);
    let regs = r.output_regs as usize;
    // Pixel 0's samples 0 and 2 hold their index.
    for smp in [0, 2] {
        assert_eq!(r.outputs[smp * regs][0], smp as u32);
    }
}

#[test]
fn sample_inputs_from_planes_are_evaluated_at_each_sample() {
    let s = ps("ps_5_0
dcl_input_ps linear sample v0.xy
dcl_input_ps linear v1.x
dcl_output o0.xyz
mov o0.xy, v0.xyxx
mov o0.z, v1.x
ret
");
    // v0 = (x, y) and v1 = x + 10y, as planes.
    let planes = [
        PlaneInput {
            reg: 0,
            planes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]],
            one_over_w: None,
        },
        PlaneInput {
            reg: 1,
            planes: [[1.0, 10.0, 0.0], [0.0; 3], [0.0; 3], [0.0; 3]],
            one_over_w: None,
        },
    ];
    let sampling = QuadSampling {
        count: 4,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = s
        .shade_quads_sampled(
            &Bindings::new(),
            &[quad(2, 4, 0b1000)],
            0.5,
            QuadInputs::Planes(&planes),
            &sampling,
            &Default::default(),
        )
        .unwrap();
    // Pixel 3 of the quad at (2, 4) is (3, 5), centre (3.5, 5.5). The 4x
    // standard pattern (D3D11.3) puts samples at (-2, -6), (6, -2),
    // (-6, 2), (2, 6) sixteenths from it: v0 (sample) is (3.375, 5.125),
    // (3.875, 5.375), (3.125, 5.625), (3.625, 5.875); v1 (not sample)
    // stays at the centre, 3.5 + 55 = 58.5, in every sample.
    let regs = r.output_regs as usize;
    let got: Vec<[f32; 3]> = (0..4)
        .map(|smp| {
            let o = r.outputs[(4 * 3 + smp) * regs].map(f32::from_bits);
            [o[0], o[1], o[2]]
        })
        .collect();
    assert_eq!(
        got,
        [
            [3.375, 5.125, 58.5],
            [3.875, 5.375, 58.5],
            [3.125, 5.625, 58.5],
            [3.625, 5.875, 58.5]
        ]
    );
    assert_eq!(r.written, [0, 0, 0, 0b1111]);
}

#[test]
fn per_pixel_inputs_serve_every_sample_of_a_per_sample_shader() {
    let s = ps("ps_5_0
dcl_input_ps linear v0.x
dcl_input_ps_sgv constant v1.x, sampleIndex
dcl_output o0.xy
mov o0.x, v0.x
utof o0.y, v1.x
ret
");
    // One register a pixel (vSampleIndex is a system value): v0.x = 10 * (p + 1).
    assert_eq!(s.kernel().input_regs, 1);
    let inputs: Vec<[u32; 4]> = (0..4)
        .map(|p| [(10.0 * (p as f32 + 1.0)).to_bits(), 0, 0, 0])
        .collect();
    let sampling = QuadSampling {
        count: 2,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = s
        .shade_quads_sampled(
            &Bindings::new(),
            &[quad(0, 0, 0b1111)],
            0.5,
            QuadInputs::PerPixel(&inputs),
            &sampling,
            &Default::default(),
        )
        .unwrap();
    let regs = r.output_regs as usize;
    assert_eq!(r.output_samples, 2);
    for p in 0..4 {
        for smp in 0..2 {
            let o = r.outputs[(2 * p + smp) * regs].map(f32::from_bits);
            assert_eq!([o[0], o[1]], [10.0 * (p as f32 + 1.0), smp as f32]);
        }
    }
}

#[test]
fn a_shader_that_runs_per_pixel_still_has_one_set_of_outputs() {
    let s = ps(COVERAGE);
    let sampling = QuadSampling {
        count: 4,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = sampled(&s, &[quad(0, 0, 0b0001)], &sampling).unwrap();
    assert_eq!(r.output_samples, 1);
    assert_eq!(r.outputs.len(), 4 * r.output_regs as usize);
}

#[test]
fn per_sample_outputs_stay_in_place_across_calls_and_tasks() {
    let s = ps(SAMPLE_INDEX);
    // Enough quads for several calls at every lane count; 2 samples.
    let quads = many_quads();
    let sampling = QuadSampling {
        count: 2,
        coverage: &[],
        sample_mask: u32::MAX,
    };
    let r = sampled(&s, &quads, &sampling).unwrap();
    let regs = r.output_regs as usize;
    for (q, qd) in quads.iter().enumerate() {
        for p in (0..4).filter(|p| qd.coverage & (1 << p) != 0) {
            for smp in 0..2 {
                // Sample smp's run: (index, vCoverage) = (smp, 1 << smp).
                let o = r.outputs[((4 * q + p) * 2 + smp) * regs];
                assert_eq!([o[0], o[1]], [smp as u32, 1 << smp], "quad {q} pixel {p}");
            }
            assert_eq!(r.written[4 * q + p], 0b11);
        }
    }
    let expected: Vec<u8> = quads.iter().map(|q| q.coverage).collect();
    assert_eq!(r.alive, expected);
}

#[test]
fn a_position_declared_centroid_is_the_pixel_s_centroid() {
    let s = ps("ps_5_0
dcl_input_ps_siv linear noperspective centroid v0.xy, position
dcl_output o0.xy
mov o0.xy, v0.xyxx
ret
");
    // 4x (D3D11.3, 3.5.5 and 16.3): pixel 0 covers every sample (its
    // centre), pixel 1 samples 1 and 2 (sample 1, (6, -2)/16 away), pixel
    // 2 sample 3 ((2, 6)/16 away), pixel 3 every sample.
    let coverage = [0b1111, 0b0110, 0b1000, 0b1111];
    let sampling = QuadSampling {
        count: 4,
        coverage: &coverage,
        sample_mask: u32::MAX,
    };
    let r = sampled(&s, &[quad(0, 0, 0b1111)], &sampling).unwrap();
    let regs = r.output_regs as usize;
    let position = |p: usize| {
        let o = r.outputs[p * regs].map(f32::from_bits);
        [o[0], o[1]]
    };
    assert_eq!(
        [0, 1, 2, 3].map(position),
        [[0.5, 0.5], [1.875, 0.375], [0.625, 1.875], [1.5, 1.5]]
    );
}
