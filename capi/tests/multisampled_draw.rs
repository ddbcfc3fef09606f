//! Multisampled render targets through `dxjit_draw`: the `samples` field
//! of `dxjit_render_target` (0 meaning 1), its allowed values, and the
//! layout of a pixel's samples.

mod support;

use dxjit_capi::draw::{DrawDesc, RenderTarget};
use dxjit_capi::Status;
use std::mem::size_of;
use support::draw_masked;

/// Draws `support::MASKED` into `words` as a target of `samples` samples.
fn draw(words: &mut [u32], samples: u32) -> (Status, String) {
    draw_masked(words, samples, size_of::<DrawDesc>(), 0)
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
