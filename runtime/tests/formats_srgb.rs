//! sRGB formats: r, g, b through the sRGB curve, alpha linear.

use dxjit_runtime::format::Format;

fn to_linear(x: f64) -> f64 {
    if x <= 0.04045 {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

/// The bits of the linear value of the 8-bit sRGB code `n`.
fn lin(n: u8) -> u32 {
    (to_linear(f64::from(n) / 255.0) as f32).to_bits()
}

fn unorm(n: u8) -> u32 {
    (f32::from(n) / 255.0).to_bits()
}

fn store(format: Format, value: [f32; 4]) -> [u8; 4] {
    let mut bytes = [0xaa; 4];
    format.store(value.map(f32::to_bits), &mut bytes);
    bytes
}

#[test]
fn loads_decode_colour_and_keep_alpha_linear() {
    let bytes = [0, 255, 188, 128];
    assert_eq!(
        Format::Rgba8UnormSrgb.load(&bytes),
        [0, 1f32.to_bits(), lin(188), unorm(128)]
    );
    assert_eq!(
        Format::Bgra8UnormSrgb.load(&bytes),
        [lin(188), 1f32.to_bits(), 0, unorm(128)]
    );
    // Code 10 is on the linear segment (10/255 <= 0.04045), 11 on the curve.
    assert_eq!(lin(10), ((10.0 / 255.0 / 12.92) as f32).to_bits());
    let eleven = ((11.0 / 255.0 + 0.055) / 1.055f64).powf(2.4) as f32;
    assert_eq!(
        Format::Rgba8UnormSrgb.load(&[11, 10, 0, 0])[0],
        eleven.to_bits()
    );
    // The middle code, 128, is about 0.2158605.
    let mid = f32::from_bits(Format::Rgba8UnormSrgb.load(&[128, 0, 0, 0])[0]);
    assert!((mid - 0.215_860_5).abs() < 1e-6, "{mid}");
}

#[test]
fn stores_encode_colour_with_the_curve() {
    // 0.5 encodes to 1.055·0.5^(1/2.4) - 0.055 = 0.73536, ×255 = 187.52 -> 188.
    assert_eq!(
        store(Format::Rgba8UnormSrgb, [0.5, 0.0, 1.0, 0.5]),
        [188, 0, 255, 128]
    );
    assert_eq!(
        store(Format::Bgra8UnormSrgb, [0.5, 0.0, 1.0, 0.5]),
        [255, 0, 188, 128]
    );
    // NaN and negatives become 0, above 1 saturates; 0.001 is on the linear
    // segment: 12.92·0.001·255 = 3.29 -> 3.
    assert_eq!(
        store(Format::Rgba8UnormSrgb, [f32::NAN, -1.0, 2.0, 0.001]),
        [0, 0, 255, 0]
    );
    assert_eq!(store(Format::Rgba8UnormSrgb, [0.001, 0.0, 0.0, 0.0])[0], 3);
}

#[test]
fn every_code_round_trips() {
    for n in 0..=255u8 {
        for format in [Format::Rgba8UnormSrgb, Format::Bgra8UnormSrgb] {
            let words = format.load(&[n, n, n, n]);
            let mut bytes = [0; 4];
            format.store(words, &mut bytes);
            assert_eq!(bytes, [n; 4], "{} {n}", format.name());
        }
    }
}

#[test]
fn plain_rgba8_is_unchanged() {
    assert_eq!(Format::Rgba8Unorm.load(&[128, 0, 0, 0])[0], unorm(128));
    assert_eq!(
        store(Format::Rgba8Unorm, [0.5, 0.0, 1.0, 0.5]),
        [128, 0, 255, 128]
    );
}
