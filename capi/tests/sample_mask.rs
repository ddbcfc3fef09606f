//! The blend state's sample mask through `dxjit_draw_desc.masked_samples`
//! and the sample fields of `dxjit_quad_batch` (coverage in, samples
//! written out), and the older sizes of both structs, which still work.

mod support;

use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::draw::{DrawDesc, DRAW_DESC_V1_SIZE};
use dxjit_capi::quads::{dxjit_shade_quads, QuadBatch, QUAD_BATCH_V1_SIZE};
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::null;
use support::{assemble, draw_masked, with_message, FULL_QUAD};

/// Draws `support::MASKED` over 2 x 1 pixels of a 4x r32_uint target with the
/// desc's `struct_size` and `masked_samples`; the samples written.
fn draw(struct_size: usize, masked_samples: u32) -> [u32; 8] {
    let mut words = [0u32; 8];
    let (status, message) = draw_masked(&mut words, 4, struct_size, masked_samples);
    assert_eq!(status, Status::Ok, "{message}");
    words
}

#[test]
fn masked_samples_are_not_drawn() {
    // Coverage 0b1111 & oMask 0b1010 & !masked 0b0010 = sample 3 only.
    assert_eq!(
        draw(size_of::<DrawDesc>(), 0b0010),
        [0, 0, 0, 5, 0, 0, 0, 5]
    );
    // Nothing masked: oMask alone keeps samples 1 and 3.
    assert_eq!(draw(size_of::<DrawDesc>(), 0), [0, 5, 0, 5, 0, 5, 0, 5]);
}

#[test]
fn a_draw_desc_of_the_older_size_masks_nothing() {
    // The older struct ends before masked_samples, which reads as 0 even
    // when the memory past it says otherwise.
    assert_eq!(DRAW_DESC_V1_SIZE, 64);
    assert_eq!(draw(DRAW_DESC_V1_SIZE, 0b1111), [0, 5, 0, 5, 0, 5, 0, 5]);
}

/// Writes vCoverage to o0.x and oMask 0b1011.
const COVERAGE: &str = "ps_5_0\ndcl_input vCoverage\ndcl_output o0.x\ndcl_output oMask\n\
mov o0.x, vCoverage.x\nmov oMask, l(11)\nret\n";

/// What one call of [`shade_batch`] gave.
struct Shaded {
    status: Status,
    message: String,
    alive: u8,
    /// o0.x of each pixel.
    v_coverage: [u32; 4],
    written: [u32; 4],
}

/// Shades one fully covered quad of `COVERAGE` with the batch's
/// `struct_size` and sample fields.
fn shade_batch(
    struct_size: usize,
    sample_count: u32,
    coverage: Option<&[u32; 4]>,
    masked: u32,
) -> Shaded {
    let shader = assemble(COVERAGE);
    let quad = FULL_QUAD;
    // COVERAGE has two output registers (o0 and oMask).
    let mut outputs = [0u32; 4 * 2 * 4];
    let mut alive = [0u8; 1];
    let mut written = [0xdead_u32; 4];
    let batch = QuadBatch {
        struct_size,
        quads: &quad,
        quad_count: 1,
        pixel_center: 0.5,
        inputs: null(),
        planes: null(),
        plane_count: 0,
        outputs: outputs.as_mut_ptr(),
        alive: alive.as_mut_ptr(),
        sample_count,
        masked_samples: masked,
        sample_coverage: coverage.map_or(null(), |c| c.as_ptr()),
        written: written.as_mut_ptr(),
        outputs_per_sample: 0,
    };
    // SAFETY: a live shader and a batch whose arrays hold what it says.
    let (status, message) =
        with_message(|m| unsafe { dxjit_shade_quads(shader, null(), &batch, m) });
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
    Shaded {
        status,
        message,
        alive: alive[0],
        v_coverage: [0, 1, 2, 3].map(|p| outputs[p * 2 * 4]),
        written,
    }
}

/// [`shade_batch`] with 4 samples, which must succeed and run every
/// pixel: o0.x of each pixel and the samples written.
fn shade(struct_size: usize, coverage: Option<&[u32; 4]>, masked: u32) -> ([u32; 4], [u32; 4]) {
    let shaded = shade_batch(struct_size, 4, coverage, masked);
    assert_eq!(shaded.status, Status::Ok, "{}", shaded.message);
    assert_eq!(shaded.alive, 0b1111);
    (shaded.v_coverage, shaded.written)
}

#[test]
fn quad_batches_take_sample_coverage_and_report_the_samples_written() {
    let coverage = [0b1111, 0b0001, 0b0110, 0b1000];
    let (v_coverage, written) = shade(size_of::<QuadBatch>(), Some(&coverage), 0b0001);
    // vCoverage is the coverage ANDed with the sample mask (D3D11.3, 16.3.2).
    assert_eq!(v_coverage, coverage.map(|c| c & !0b0001));
    // coverage & oMask 0b1011 & !masked 0b0001 = coverage & 0b1010.
    assert_eq!(written, [0b1010, 0, 0b0010, 0b1000]);
    // Without a coverage array, each pixel covers all 4 samples.
    let (v_coverage, written) = shade(size_of::<QuadBatch>(), None, 0);
    assert_eq!(v_coverage, [0b1111; 4]);
    assert_eq!(written, [0b1011; 4]);
}

#[test]
fn a_quad_batch_of_the_older_size_is_single_sampled_and_leaves_written_alone() {
    assert_eq!(QUAD_BATCH_V1_SIZE, 72);
    let (v_coverage, written) = shade(QUAD_BATCH_V1_SIZE, Some(&[3; 4]), 0b1);
    // One sample a pixel: vCoverage 1; `written` is past the struct.
    assert_eq!(v_coverage, [1; 4]);
    assert_eq!(written, [0xdead; 4]);
}

#[test]
fn quad_batches_with_other_sample_counts_are_refused() {
    let shaded = shade_batch(size_of::<QuadBatch>(), 3, None, 0);
    assert_eq!(shaded.status, Status::InvalidArgument);
    assert!(
        shaded.message.contains("1, 2, 4, 8 or 16"),
        "{}",
        shaded.message
    );
}
