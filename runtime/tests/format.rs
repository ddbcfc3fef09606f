//! Texel format conversions against hand-computed values.

use dxjit_runtime::format::{Format, FormatKind};

const ONE: u32 = 0x3f80_0000;

fn load(format: Format, bytes: &[u8]) -> [u32; 4] {
    format.load(bytes)
}

fn store(format: Format, value: [u32; 4]) -> Vec<u8> {
    let mut bytes = vec![0xAA; format.bytes_per_texel() as usize];
    format.store(value, &mut bytes);
    bytes
}

fn storef(format: Format, value: [f32; 4]) -> Vec<u8> {
    store(format, value.map(f32::to_bits))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn half_store(x: f32) -> u16 {
    let bytes = storef(Format::R16Float, [x, 0.0, 0.0, 0.0]);
    u16::from_le_bytes([bytes[0], bytes[1]])
}

fn half_load(h: u16) -> f32 {
    f32::from_bits(load(Format::R16Float, &h.to_le_bytes())[0])
}

fn r11g11b10_store(value: [f32; 3]) -> u32 {
    let bytes = storef(Format::R11g11b10Float, [value[0], value[1], value[2], 0.0]);
    u32::from_le_bytes(bytes.try_into().unwrap())
}

fn r11g11b10_load(word: u32) -> [f32; 4] {
    load(Format::R11g11b10Float, &word.to_le_bytes()).map(f32::from_bits)
}

#[test]
fn names_ids_and_sizes() {
    let table: [(&str, u32, u32, u32, FormatKind); 18] = [
        ("r32_uint", 1, 4, 1, FormatKind::Uint),
        ("r32_sint", 2, 4, 1, FormatKind::Sint),
        ("r32_float", 3, 4, 1, FormatKind::Float),
        ("rg32_uint", 4, 8, 2, FormatKind::Uint),
        ("rg32_sint", 5, 8, 2, FormatKind::Sint),
        ("rg32_float", 6, 8, 2, FormatKind::Float),
        ("rgba32_uint", 7, 16, 4, FormatKind::Uint),
        ("rgba32_sint", 8, 16, 4, FormatKind::Sint),
        ("rgba32_float", 9, 16, 4, FormatKind::Float),
        ("r16_float", 10, 2, 1, FormatKind::Float),
        ("rgba16_float", 11, 8, 4, FormatKind::Float),
        ("r8_unorm", 12, 1, 1, FormatKind::Unorm),
        ("rgba8_unorm", 13, 4, 4, FormatKind::Unorm),
        ("bgra8_unorm", 14, 4, 4, FormatKind::Unorm),
        ("r16_unorm", 15, 2, 1, FormatKind::Unorm),
        ("rgba16_unorm", 16, 8, 4, FormatKind::Unorm),
        ("r10g10b10a2_unorm", 17, 4, 4, FormatKind::Unorm),
        ("r11g11b10_float", 18, 4, 3, FormatKind::Float),
    ];
    for (name, id, bytes, components, kind) in table {
        let format = Format::from_name(name).unwrap();
        assert_eq!(Format::from_id(id), Some(format), "{name}");
        assert_eq!(format as u32, id);
        assert_eq!(format.name(), name);
        assert_eq!(format.bytes_per_texel(), bytes, "{name}");
        assert_eq!(format.components(), components, "{name}");
        assert_eq!(format.kind(), kind, "{name}");
    }
    assert_eq!(Format::from_name("rgba8"), None);
    assert_eq!(Format::from_id(0), None);
    assert_eq!(Format::from_id(73), None);
}

#[test]
fn integer_formats_are_words_with_integer_one_alpha() {
    let bytes = [0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(load(Format::R32Uint, &bytes), [0x1234_5678, 0, 0, 1]);
    assert_eq!(load(Format::R32Sint, &bytes), [0x1234_5678, 0, 0, 1]);
    assert_eq!(
        load(Format::Rg32Uint, &bytes),
        [0x1234_5678, 0xffff_ffff, 0, 1]
    );
    assert_eq!(
        load(Format::Rg32Sint, &bytes),
        [0x1234_5678, 0xffff_ffff, 0, 1]
    );
    let words = [1, 0xffff_ffff, 0x8000_0000, 7];
    for format in [Format::Rgba32Uint, Format::Rgba32Sint] {
        let bytes = store(format, words);
        assert_eq!(&bytes[4..8], &[0xff; 4]);
        assert_eq!(load(format, &bytes), words);
    }
    assert_eq!(
        store(Format::R32Sint, [0xffff_fffe, 5, 6, 7]),
        vec![0xfe, 0xff, 0xff, 0xff]
    );
    assert_eq!(
        store(Format::Rg32Uint, [3, 4, 5, 6]),
        vec![3, 0, 0, 0, 4, 0, 0, 0]
    );
}

#[test]
fn float32_formats_move_bits_unchanged() {
    let specials = [
        0x7fc0_0001,
        0xff80_0001,
        0x0000_0001,
        0x8000_0000,
        0x7f80_0000,
    ];
    for bits in specials {
        assert_eq!(store(Format::R32Float, [bits, 0, 0, 0]), bits.to_le_bytes());
        assert_eq!(
            load(Format::R32Float, &bits.to_le_bytes()),
            [bits, 0, 0, ONE]
        );
    }
    let words = [f(1.5), f(-2.0), 0x7fc0_0000, f(f32::INFINITY)];
    let bytes = store(Format::Rgba32Float, words);
    assert_eq!(load(Format::Rgba32Float, &bytes), words);
    let bytes = store(Format::Rg32Float, words);
    assert_eq!(load(Format::Rg32Float, &bytes), [f(1.5), f(-2.0), 0, ONE]);
}

#[test]
fn unorm8_loads_n_over_255() {
    assert_eq!(load(Format::R8Unorm, &[0]), [0, 0, 0, ONE]);
    assert_eq!(load(Format::R8Unorm, &[255]), [ONE, 0, 0, ONE]);
    assert_eq!(load(Format::R8Unorm, &[51]), [f(0.2), 0, 0, ONE]);
    assert_eq!(load(Format::R8Unorm, &[128])[0], f(128.0 / 255.0));
    assert_eq!(
        load(Format::Rgba8Unorm, &[0, 51, 255, 102]),
        [0, f(0.2), ONE, f(0.4)]
    );
}

#[test]
fn unorm8_stores_saturated_and_rounded() {
    let cases: [(f32, u8); 13] = [
        (0.0, 0),
        (1.0, 255),
        (0.2, 51),
        (0.5, 128),
        (0.498, 127),
        (0.501, 128),
        (0.5 / 255.0 - 1e-6, 0),
        (1.5, 255),
        (-1.0, 0),
        (-0.0, 0),
        (f32::INFINITY, 255),
        (f32::NEG_INFINITY, 0),
        (f32::from_bits(1), 0),
    ];
    for (x, byte) in cases {
        assert_eq!(
            storef(Format::R8Unorm, [x, 9.0, 9.0, 9.0]),
            vec![byte],
            "{x}"
        );
    }
    assert_eq!(store(Format::R8Unorm, [0x7fc0_0000, 0, 0, 0]), vec![0]);
    assert_eq!(store(Format::R8Unorm, [0xffc0_0000, 0, 0, 0]), vec![0]);
    assert_eq!(
        storef(Format::Rgba8Unorm, [1.0, 0.0, 0.2, 0.5]),
        vec![255, 0, 51, 128]
    );
}

#[test]
fn bgra8_is_swizzled_to_rgba() {
    // 0xFF0000FF in memory: blue and alpha full.
    assert_eq!(
        load(Format::Bgra8Unorm, &[0xff, 0, 0, 0xff]),
        [0, 0, ONE, ONE]
    );
    assert_eq!(
        load(Format::Bgra8Unorm, &[0, 51, 102, 255]),
        [f(0.4), f(0.2), 0, ONE]
    );
    assert_eq!(
        storef(Format::Bgra8Unorm, [1.0, 0.2, 0.0, 0.4]),
        vec![0, 51, 255, 102]
    );
}

#[test]
fn unorm16_both_ways() {
    assert_eq!(load(Format::R16Unorm, &[0xff, 0xff]), [ONE, 0, 0, ONE]);
    assert_eq!(load(Format::R16Unorm, &[0, 0]), [0, 0, 0, ONE]);
    // 13107 / 65535 = 0.2 exactly.
    assert_eq!(load(Format::R16Unorm, &13107u16.to_le_bytes())[0], f(0.2));
    // 32768 / 65535 = 0.50000762951...
    let half = f32::from_bits(load(Format::R16Unorm, &32768u16.to_le_bytes())[0]);
    assert!((half - 0.500_007_6).abs() < 1e-7, "{half}");
    assert_eq!(
        storef(Format::R16Unorm, [0.5, 0.0, 0.0, 0.0]),
        32768u16.to_le_bytes()
    );
    assert_eq!(
        storef(Format::R16Unorm, [0.2, 0.0, 0.0, 0.0]),
        13107u16.to_le_bytes()
    );
    assert_eq!(storef(Format::R16Unorm, [2.0, 0.0, 0.0, 0.0]), [0xff, 0xff]);
    assert_eq!(store(Format::R16Unorm, [0x7fc0_0000, 0, 0, 0]), [0, 0]);
    let bytes = storef(Format::Rgba16Unorm, [1.0, 0.0, -3.0, 0.2]);
    assert_eq!(bytes, vec![0xff, 0xff, 0, 0, 0, 0, 0x33, 0x33]);
    assert_eq!(load(Format::Rgba16Unorm, &bytes), [ONE, 0, 0, f(0.2)]);
}

#[test]
fn r10g10b10a2_both_ways() {
    // r = 1023, g = 0, b = 512, a = 2.
    let word: u32 = 0x3ff | (512 << 20) | (2 << 30);
    assert_eq!(word, 0xa000_03ff);
    let v = load(Format::R10g10b10a2Unorm, &word.to_le_bytes());
    assert_eq!(v, [ONE, 0, f(512.0 / 1023.0), f(2.0 / 3.0)]);
    // b: 0.5 * 1023 + 0.5 = 512; a: 0.7 * 3 + 0.5 = 2.6 -> 2.
    let bytes = storef(Format::R10g10b10a2Unorm, [1.0, 0.0, 0.5, 0.7]);
    assert_eq!(bytes, word.to_le_bytes());
    let bytes = storef(Format::R10g10b10a2Unorm, [-1.0, 9.0, f32::NAN, 1.0]);
    assert_eq!(
        u32::from_le_bytes(bytes.try_into().unwrap()),
        (0x3ff << 10) | (3 << 30)
    );
}

#[test]
fn half_loads() {
    assert_eq!(half_load(0x3c00), 1.0);
    assert_eq!(half_load(0xc000), -2.0);
    assert_eq!(half_load(0x7bff), 65504.0);
    assert_eq!(half_load(0x0400), 2f32.powi(-14));
    assert_eq!(half_load(0x0001), 2f32.powi(-24));
    assert_eq!(half_load(0x03ff), 1023.0 * 2f32.powi(-24));
    assert_eq!(half_load(0x8001), -(2f32.powi(-24)));
    assert_eq!(half_load(0x8000).to_bits(), 0x8000_0000);
    assert_eq!(half_load(0x7c00), f32::INFINITY);
    assert_eq!(half_load(0xfc00), f32::NEG_INFINITY);
    assert!(half_load(0x7e00).is_nan());
    assert!(half_load(0x7c01).is_nan());
    assert_eq!(load(Format::R16Float, &[0, 0x3c])[3], ONE);
}

#[test]
fn half_stores_round_toward_zero_and_clamp() {
    let ulp = 2f32.powi(-10);
    let cases: [(f32, u16); 22] = [
        (1.0, 0x3c00),
        (-2.0, 0xc000),
        (0.1, 0x2e66),
        (1.0 / 3.0, 0x3555),
        (1.0 + 0.5 * ulp, 0x3c00),
        (1.0 + 0.75 * ulp, 0x3c00),
        (-(1.0 + 0.75 * ulp), 0xbc00),
        (1.0 + ulp, 0x3c01),
        (65504.0, 0x7bff),
        (65520.0, 0x7bff),
        (1e10, 0x7bff),
        (-1e10, 0xfbff),
        (f32::MAX, 0x7bff),
        (f32::INFINITY, 0x7c00),
        (f32::NEG_INFINITY, 0xfc00),
        (2f32.powi(-14), 0x0400),
        (2f32.powi(-24), 0x0001),
        (1.5 * 2f32.powi(-24), 0x0001),
        (2f32.powi(-25), 0x0000),
        (-(2f32.powi(-25)), 0x8000),
        (f32::from_bits(1), 0x0000),
        (-0.0, 0x8000),
    ];
    for (x, h) in cases {
        assert_eq!(half_store(x), h, "{x:e}");
    }
    assert_eq!(half_store(f32::NAN), 0x7e00);
    assert_eq!(half_store(-f32::NAN), 0xfe00);
    let bytes = storef(Format::Rgba16Float, [1.0, -2.0, 65504.0, 0.5]);
    assert_eq!(bytes, vec![0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x00, 0x38]);
    assert_eq!(
        load(Format::Rgba16Float, &bytes).map(f32::from_bits),
        [1.0, -2.0, 65504.0, 0.5]
    );
}

#[test]
fn half_decode_matches_the_half_crate() {
    for h in 0..=u16::MAX {
        let ours = half_load(h);
        let theirs = half::f16::from_bits(h).to_f32();
        if theirs.is_nan() {
            assert!(ours.is_nan(), "{h:#x}");
        } else {
            assert_eq!(ours.to_bits(), theirs.to_bits(), "{h:#x}");
        }
    }
}

#[test]
fn half_encode_truncates_between_neighbours() {
    for h in 0..0x7bffu16 {
        let low = half_load(h);
        let high = half_load(h + 1);
        assert_eq!(half_store(low), h);
        let between = ((f64::from(low) + f64::from(high)) / 2.0) as f32;
        assert_eq!(half_store(between), h, "{h:#x}");
        assert_eq!(half_store(-between), h | 0x8000, "{h:#x}");
        assert_eq!(half_store(f32::from_bits(high.to_bits() - 1)), h, "{h:#x}");
    }
}

#[test]
fn r11g11b10_loads() {
    // 1.0: exponent 15, mantissa 0, in all three fields.
    let one = 0x3c0 | (0x3c0 << 11) | (0x1e0 << 22);
    assert_eq!(one, 0x781e_03c0);
    assert_eq!(r11g11b10_load(one), [1.0; 4]);
    // Largest finite: (1 + 63/64) * 2^15 and (1 + 31/32) * 2^15.
    let max = 0x7bf | (0x7bf << 11) | (0x3df << 22);
    assert_eq!(r11g11b10_load(max), [65024.0, 65024.0, 64512.0, 1.0]);
    // Smallest denormals: 2^-20 and 2^-19.
    let tiny = 1 | (1 << 11) | (1 << 22);
    assert_eq!(
        r11g11b10_load(tiny),
        [2f32.powi(-20), 2f32.powi(-20), 2f32.powi(-19), 1.0]
    );
    let specials = r11g11b10_load(0x7c0 | (0x7c1 << 11) | (0x3e1 << 22));
    assert_eq!(specials[0], f32::INFINITY);
    assert!(specials[1].is_nan() && specials[2].is_nan());
    // 0.5 = exponent 14; 1.5 = exponent 15, top mantissa bit.
    let mixed = (14 << 6) | (((15 << 6) | 0x20) << 11) | ((16 << 5) << 22);
    assert_eq!(r11g11b10_load(mixed), [0.5, 1.5, 2.0, 1.0]);
}

#[test]
fn r11g11b10_stores() {
    assert_eq!(r11g11b10_store([1.0, 1.0, 1.0]), 0x781e_03c0);
    assert_eq!(
        r11g11b10_store([0.5, 1.5, 2.0]),
        (14 << 6) | (0x3e0 << 11) | (0x200 << 22)
    );
    // Overflow clamps to the largest finite; infinity stays infinite.
    assert_eq!(
        r11g11b10_store([1e6, 65535.0, 1e6]),
        0x7bf | (0x7bf << 11) | (0x3df << 22)
    );
    assert_eq!(
        r11g11b10_store([f32::INFINITY, 0.0, f32::INFINITY]),
        0x7c0 | (0x3e0 << 22)
    );
    // NaN stays NaN.
    let nan = r11g11b10_store([f32::NAN, 0.0, f32::NAN]);
    assert_eq!(nan, 0x7e0 | (0x3f0 << 22));
    // No sign: negatives, -0 and -inf become 0.
    assert_eq!(r11g11b10_store([-1.0, -0.0, f32::NEG_INFINITY]), 0);
    // Round toward zero: 1 + 1.5/64 keeps mantissa 1; 1 + 1.9/32 keeps 1.
    let r = r11g11b10_store([1.0 + 1.5 / 64.0, 0.0, 1.0 + 1.9 / 32.0]);
    assert_eq!(r, 0x3c1 | (0x1e1 << 22));
    // Denormals: 1.5 * 2^-20 -> 1; 2^-21 -> 0; 3 * 2^-19 -> 3 (10-bit).
    let d = r11g11b10_store([1.5 * 2f32.powi(-20), 2f32.powi(-21), 3.0 * 2f32.powi(-19)]);
    assert_eq!(d, 1 | (3 << 22));
}

#[test]
fn first_formats_round_trip_representable_values() {
    let value = [f(1.0), f(0.0), f(0.2), f(0.4)];
    // The 32-bit, half and unorm formats (the others have their own tests).
    for format in &Format::ALL[..18] {
        let format = *format;
        let words = match format.kind() {
            FormatKind::Uint | FormatKind::Sint => [7, 0xffff_ffff, 3, 0x8000_0000],
            FormatKind::Float => [f(1.0), f(0.0), f(0.5), f(2.0)],
            FormatKind::Unorm if format == Format::R10g10b10a2Unorm => {
                [f(1.0), 0, f(512.0 / 1023.0), f(2.0 / 3.0)]
            }
            FormatKind::Unorm | FormatKind::Snorm => value,
        };
        let bytes = store(format, words);
        let back = load(format, &bytes);
        let n = format.components() as usize;
        assert_eq!(back[..n], words[..n], "{}", format.name());
    }
}
