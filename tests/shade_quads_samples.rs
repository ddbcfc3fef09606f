//! `shade_quads` with shaders that have no input or no output registers,
//! with each pixel's sample coverage (`vCoverage`, the samples written) and
//! with the blend state's sample mask.

use dxjit::{Bindings, BufferLayout, QuadInputs, QuadSampling, RunError};
use dxjit_runtime::dispatch::Quad;

fn ps(text: &str) -> dxjit::Shader {
    dxjit::compile(&dxjit::text::assemble(text).unwrap(), &Default::default()).unwrap()
}

fn quad(x: u32, y: u32, coverage: u8) -> Quad {
    Quad {
        x,
        y,
        coverage,
        front_facing: true,
    }
}

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
    // Helper pixel 3 of quad 0 reads 0; the others their coverage.
    assert_eq!(v_coverage[..3], [0b1111, 0b0011, 0b1100]);
    assert_eq!(v_coverage[4..], [1, 2, 4, 8]);
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
