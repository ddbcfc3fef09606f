//! `dxjit_quad_batch.outputs_per_sample`: a shader that runs per sample
//! runs once per covered sample through `dxjit_shade_quads`, each run's
//! outputs in its sample's set; without the field such a shader is
//! refused on a multisampled batch, and a shader that runs once a pixel
//! fills every set with the same outputs.

mod support;

use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::quads::{dxjit_shade_quads, PlaneInput, QuadBatch, QUAD_BATCH_V2_SIZE};
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::null;
use support::{assemble, with_message, FULL_QUAD};

/// Writes vSampleIndex to o0.x and vCoverage to o0.y.
const SAMPLE_INDEX: &str = "ps_5_0\ndcl_input_ps_sgv constant v0.x, sampleIndex\n\
dcl_input vCoverage\ndcl_output o0.xy\nmov o0.x, v0.x\nmov o0.y, vCoverage.x\nret\n";

/// What shading one quad gave: status, message, each pixel's sets of o0
/// (`sets` a pixel), the samples written.
struct Shaded {
    status: Status,
    message: String,
    outputs: Vec<[u32; 4]>,
    written: [u32; 4],
}

/// Shades the quad at (0, 0) with `coverage` pixels and 4 samples a pixel
/// (each pixel's sample coverage `samples`), one output register, `sets`
/// output sets a pixel, the batch's `struct_size` and optional planes.
fn shade(
    text: &str,
    struct_size: usize,
    sets: u32,
    samples: [u32; 4],
    planes: &[PlaneInput],
) -> Shaded {
    let shader = assemble(text);
    let quad = FULL_QUAD;
    let mut outputs = vec![0xdead_u32; 4 * 4 * 4];
    let mut alive = [0u8; 1];
    let mut written = [0u32; 4];
    let batch = QuadBatch {
        struct_size,
        quads: &quad,
        quad_count: 1,
        pixel_center: 0.5,
        inputs: null(),
        planes: if planes.is_empty() {
            null()
        } else {
            planes.as_ptr()
        },
        plane_count: planes.len(),
        outputs: outputs.as_mut_ptr(),
        alive: alive.as_mut_ptr(),
        sample_count: 4,
        masked_samples: 0,
        sample_coverage: samples.as_ptr(),
        written: written.as_mut_ptr(),
        outputs_per_sample: u32::from(sets > 1),
    };
    // SAFETY: a live shader and a batch whose arrays hold what it says
    // (4 pixels x 4 sets x 1 register x 4 words).
    let (status, message) =
        with_message(|m| unsafe { dxjit_shade_quads(shader, null(), &batch, m) });
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
    Shaded {
        status,
        message,
        outputs: outputs
            .chunks(4)
            .map(|o| [o[0], o[1], o[2], o[3]])
            .collect(),
        written,
    }
}

#[test]
fn a_shader_reading_its_sample_index_writes_each_sample_s_own_set() {
    // Pixel 0 covers every sample, pixel 1 samples 1 and 3, pixel 2 none,
    // pixel 3 sample 2.
    let r = shade(
        SAMPLE_INDEX,
        size_of::<QuadBatch>(),
        4,
        [0b1111, 0b1010, 0, 0b0100],
        &[],
    );
    assert_eq!(r.status, Status::Ok, "{}", r.message);
    // One run per covered sample (D3D11.3, sample-frequency execution):
    // pixel 0's four sets hold (s, 1 << s) = (0, 1), (1, 2), (2, 4), (3, 8).
    let set = |p: usize, s: usize| [r.outputs[4 * p + s][0], r.outputs[4 * p + s][1]];
    assert_eq!(
        [0, 1, 2, 3].map(|s| set(0, s)),
        [[0, 1], [1, 2], [2, 4], [3, 8]]
    );
    // Pixel 1's samples 1 and 3, pixel 3's sample 2.
    assert_eq!([set(1, 1), set(1, 3), set(3, 2)], [[1, 2], [3, 8], [2, 4]]);
    // Each pixel writes the samples it covers (no oMask, nothing masked).
    assert_eq!(r.written, [0b1111, 0b1010, 0, 0b0100]);
}

#[test]
fn sample_plane_inputs_are_evaluated_at_each_sample() {
    let text = "ps_5_0\ndcl_input_ps linear sample v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n";
    // v0.x = x.
    let plane = PlaneInput {
        struct_size: size_of::<PlaneInput>(),
        reg: 0,
        planes: [[1.0, 0.0, 0.0], [0.0; 3], [0.0; 3], [0.0; 3]],
        perspective: 0,
        one_over_w: [0.0; 3],
    };
    let r = shade(text, size_of::<QuadBatch>(), 4, [0b1111; 4], &[plane]);
    assert_eq!(r.status, Status::Ok, "{}", r.message);
    // Pixel 1 is (1, 0), centre x 1.5; the 4x standard pattern's x offsets
    // are -2, 6, -6, 2 sixteenths: 1.375, 1.875, 1.125, 1.625.
    let xs = [0, 1, 2, 3].map(|s| f32::from_bits(r.outputs[4 + s][0]));
    assert_eq!(xs, [1.375, 1.875, 1.125, 1.625]);
}

#[test]
fn a_per_pixel_shader_fills_every_set_with_its_outputs() {
    let text = "ps_5_0\ndcl_input vCoverage\ndcl_output o0.x\nmov o0.x, vCoverage.x\nret\n";
    let r = shade(text, size_of::<QuadBatch>(), 4, [0b0110; 4], &[]);
    assert_eq!(r.status, Status::Ok, "{}", r.message);
    // One run a pixel: vCoverage is the pixel's 0b0110 in all four sets.
    assert!(r.outputs.iter().all(|o| o[0] == 0b0110), "{:?}", r.outputs);
}

#[test]
fn without_outputs_per_sample_a_per_sample_shader_is_refused() {
    for size in [size_of::<QuadBatch>(), QUAD_BATCH_V2_SIZE] {
        let r = shade(SAMPLE_INDEX, size, 1, [0b1111; 4], &[]);
        assert_eq!(r.status, Status::InvalidArgument, "{size}");
        assert!(r.message.contains("outputs_per_sample"), "{}", r.message);
    }
}

#[test]
fn eval_reaches_perspective_planes_and_the_centroid() {
    // o0.x: eval_snapped(v0, (-8, -8)); o0.y: eval_centroid(v0); v0.x = x / (y + 1).
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.xy\n\
eval_snapped o0.x, v0.xxxx, l(-8, -8, 0, 0)\neval_centroid o0.y, v0.xxxx\nret\n";
    let plane = PlaneInput {
        struct_size: size_of::<PlaneInput>(),
        reg: 0,
        planes: [[1.0, 0.0, 0.0], [0.0; 3], [0.0; 3], [0.0; 3]],
        perspective: 1,
        one_over_w: [0.0, 1.0, 1.0],
    };
    // Pixel 3 covers samples 1 and 3 only: its centroid is sample 1, (6,
    // -2)/16 from its centre (1.5, 1.5) (D3D11.3, 3.5.5).
    let r = shade(
        text,
        size_of::<QuadBatch>(),
        1,
        [0b1111, 0b1111, 0b1111, 0b1010],
        &[plane],
    );
    assert_eq!(r.status, Status::Ok, "{}", r.message);
    let o = r.outputs[3].map(f32::from_bits);
    // (-8, -8) is the point (1, 1): 1 / 2. The centroid (1.875, 1.375):
    // 1.875 / 2.375 = 15/19.
    assert_eq!([o[0], o[1]], [0.5, 15.0 / 19.0]);
}
