//! Multisampled render targets through `dxjit_draw`: the `samples` field
//! of `dxjit_render_target` (0 meaning 1), its allowed values, and the
//! layout of a pixel's samples.

mod support;

use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::draw::{dxjit_draw, DrawDesc, RenderTarget};
use dxjit_capi::enums::Format;
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::null;
use support::{assemble, with_message};

/// Writes 5 to o0 and 0b1010 to oMask.
const MASKED: &str = "ps_5_0\ndcl_output o0.x\ndcl_output oMask\n\
mov o0.x, l(5)\nmov oMask, l(10)\nret\n";

/// Draws `MASKED` over a 2 x 1 rectangle into an r32_uint target of
/// `samples` samples over `words`; returns the status and message.
fn draw(words: &mut [u32], samples: u32) -> (Status, String) {
    let shader = assemble(MASKED);
    let target = RenderTarget {
        struct_size: size_of::<RenderTarget>(),
        data: words.as_mut_ptr().cast(),
        size: words.len() * 4,
        width: 2,
        height: 1,
        row_pitch: (words.len() * 4) as u32,
        format: Format::R32Uint as u32,
        output_reg: 0,
        samples,
    };
    let desc = DrawDesc {
        struct_size: size_of::<DrawDesc>(),
        rect: [0, 0, 2, 1],
        pixel_center: 0.5,
        inputs: null(),
        input_count: 0,
        targets: &target,
        target_count: 1,
        masked_samples: 0,
    };
    // SAFETY: a live shader and a target over live memory.
    let result = with_message(|m| unsafe { dxjit_draw(shader, null(), &desc, m) });
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
    result
}

#[test]
fn a_4x_target_takes_the_samples_omask_keeps() {
    let mut words = [0u32; 8];
    let (status, message) = draw(&mut words, 4);
    assert_eq!(status, Status::Ok, "{message}");
    // Each pixel's 4 samples in a row; oMask 0b1010 keeps samples 1 and 3.
    assert_eq!(words, [0, 5, 0, 5, 0, 5, 0, 5]);
}

#[test]
fn zero_samples_means_one() {
    let mut words = [0u32; 2];
    let (status, message) = draw(&mut words, 0);
    assert_eq!(status, Status::Ok, "{message}");
    // One sample a pixel: oMask 0b1010 clears bit 0, so nothing is written.
    assert_eq!(words, [0, 0]);
}

#[test]
fn counts_a_target_cannot_have_are_refused() {
    let mut words = [0u32; 32];
    let (status, message) = draw(&mut words, 3);
    assert_eq!(status, Status::InvalidArgument);
    assert!(message.contains("1, 2, 4 or 8"), "{message}");
    assert_eq!(words, [0; 32]);
}

#[test]
fn the_samples_field_keeps_the_struct_size() {
    // struct_size, data and size (8 bytes each), then six u32s: 48 bytes,
    // the size of the struct before `samples` took its tail padding.
    assert_eq!(size_of::<RenderTarget>(), 48);
}
