//! Multisampled render targets through the safe API and `shade_quads`'
//! coverage input: sample counts are checked when a target is made, a
//! draw's targets share one count, and every covered sample is written.

use dxjit::{BindError, Bindings, DrawDesc, QuadInputs, RunError, Target};
use dxjit_runtime::dispatch::Quad;
use dxjit_runtime::format::Format;

fn shader(text: &str) -> dxjit::Shader {
    dxjit::compile(
        &dxjit::text::assemble(text).expect("assembles"),
        &Default::default(),
    )
    .expect("compiles")
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Writes the pixel's x (as an integer) to o0 and 0b0110 to oMask.
const MASKED: &str = "ps_5_0
dcl_input_ps_siv linear noperspective v0.x, position
dcl_output o0.x
dcl_output oMask
ftou o0.x, v0.x
mov oMask, l(6)
ret
";

#[test]
fn sample_counts_a_target_cannot_have_are_refused() {
    let mut pixels = vec![0u8; 64];
    for bad in [0, 3, 16, 32] {
        let err = Target::multisampled(&mut pixels, 1, 1, 64, Format::R32Uint, 0, bad).unwrap_err();
        assert_eq!(err, BindError::BadSampleCount(bad));
    }
    // 2 pixels of 8 four-byte samples need a 64-byte row.
    assert!(Target::multisampled(&mut pixels, 2, 1, 64, Format::R32Uint, 0, 8).is_ok());
    assert!(matches!(
        Target::multisampled(&mut pixels, 2, 1, 60, Format::R32Uint, 0, 8),
        Err(BindError::BadTarget(_))
    ));
}

#[test]
fn a_4x_draw_writes_the_samples_omask_leaves_in_every_covered_pixel() {
    let s = shader(MASKED);
    // 3 x 1 pixels of 4 samples, r32_uint: 12 words, cleared to 9.
    let mut pixels = [9u8, 0, 0, 0].repeat(12);
    let mut targets = [Target::multisampled(&mut pixels, 3, 1, 48, Format::R32Uint, 0, 4).unwrap()];
    let desc = DrawDesc {
        rect: [1, 0, 3, 1],
        pixel_center: 0.5,
        inputs: Vec::new(),
        sample_mask: u32::MAX,
    };
    s.draw(&Bindings::new(), &desc, &mut targets)
        .expect("draws");
    // Pixel 0 lies outside the rectangle; pixels 1 and 2 have all 4 samples
    // covered, and oMask 0b0110 keeps samples 1 and 2: they take x.
    assert_eq!(words(&pixels), [9, 9, 9, 9, 9, 1, 1, 9, 9, 2, 2, 9]);
}

#[test]
fn targets_of_different_sample_counts_are_refused() {
    let s = shader(MASKED);
    let (mut a, mut b) = (vec![0u8; 16], vec![0u8; 8]);
    let mut targets = [
        Target::multisampled(&mut a, 1, 1, 16, Format::R32Uint, 0, 4).unwrap(),
        Target::multisampled(&mut b, 1, 1, 8, Format::R32Uint, 0, 2).unwrap(),
    ];
    let desc = DrawDesc {
        rect: [0, 0, 1, 1],
        pixel_center: 0.5,
        inputs: Vec::new(),
        sample_mask: u32::MAX,
    };
    let err = s.draw(&Bindings::new(), &desc, &mut targets).unwrap_err();
    assert!(matches!(err, RunError::Invalid(m) if m.contains("same sample count")));
}

#[test]
fn shade_quads_gives_covered_pixels_coverage_1() {
    let s = shader(
        "ps_5_0
dcl_input_ps linear v0.x
dcl_input vCoverage
dcl_output o0.x
mov o0.x, vCoverage.x
ret
",
    );
    let quad = Quad {
        x: 0,
        y: 0,
        coverage: 0b1001,
        front_facing: true,
    };
    // One input register (v0, unread) per pixel.
    let inputs = [[0u32; 4]; 4];
    let r = s
        .shade_quads(
            &Bindings::new(),
            &[quad],
            0.5,
            QuadInputs::PerPixel(&inputs),
        )
        .expect("shades");
    // One sample a pixel: covered pixels 0 and 3 read 1; helpers read 0.
    let x: Vec<u32> = r.outputs.iter().map(|o| o[0]).collect();
    assert_eq!(x, [1, 0, 0, 1]);
}
