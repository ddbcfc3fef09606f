//! Snorm, 8- and 16-bit integer, rg and alpha-only formats.

use dxjit_runtime::format::{Format, FormatKind};

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn fl(x: f64) -> u32 {
    (x as f32).to_bits()
}

const ONE: u32 = 0x3f80_0000;

fn store(format: Format, value: [u32; 4]) -> Vec<u8> {
    let mut bytes = vec![0xaa; format.bytes_per_texel() as usize];
    format.store(value, &mut bytes);
    bytes
}

fn storef(format: Format, value: [f32; 4]) -> Vec<u8> {
    store(format, value.map(f32::to_bits))
}

#[test]
fn snorm8_minus_128_and_minus_127_are_both_minus_one() {
    let load = |b: u8| Format::R8Snorm.load(&[b]);
    assert_eq!(load(0x80), [f(-1.0), 0, 0, ONE]);
    assert_eq!(load(0x81), [f(-1.0), 0, 0, ONE]);
    assert_eq!(load(0x7f), [ONE, 0, 0, ONE]);
    assert_eq!(load(0x00), [0, 0, 0, ONE]);
    assert_eq!(load(0x01)[0], fl(1.0 / 127.0));
    assert_eq!(load(0xc0)[0], fl(-64.0 / 127.0));
    assert_eq!(Format::R8Snorm.kind(), FormatKind::Snorm);
}

#[test]
fn snorm_stores_clamp_and_round_to_nearest() {
    let s8 = |x: f32| storef(Format::R8Snorm, [x, 0.0, 0.0, 0.0])[0];
    assert_eq!(s8(-1.0), 0x81);
    assert_eq!(s8(-2.0), 0x81);
    assert_eq!(s8(f32::NEG_INFINITY), 0x81);
    assert_eq!(s8(1.0), 0x7f);
    assert_eq!(s8(7.0), 0x7f);
    assert_eq!(s8(f32::NAN), 0);
    assert_eq!(s8(-0.0), 0);
    // 0.5·127 = 63.5: halves go away from zero.
    assert_eq!(s8(0.5), 64);
    assert_eq!(s8(-0.5), 0xc0);
    assert_eq!(s8(0.3), 38); // 38.1
    let s16 = |x: f32| storef(Format::R16Snorm, [x, 0.0, 0.0, 0.0]);
    assert_eq!(s16(-1.0), [0x01, 0x80]);
    assert_eq!(s16(1.0), [0xff, 0x7f]);
    assert_eq!(Format::R16Snorm.load(&[0x00, 0x80])[0], f(-1.0));
    assert_eq!(Format::R16Snorm.load(&[0x01, 0x80])[0], f(-1.0));
    assert_eq!(
        Format::R16Snorm.load(&[0x00, 0x40])[0],
        fl(16384.0 / 32767.0)
    );
}

#[test]
fn rg_and_rgba_snorm_fill_missing_components() {
    assert_eq!(Format::Rg8Snorm.load(&[0x7f, 0x80]), [ONE, f(-1.0), 0, ONE]);
    assert_eq!(
        Format::Rgba8Snorm.load(&[0x7f, 0x80, 0, 0x81]),
        [ONE, f(-1.0), 0, f(-1.0)]
    );
    assert_eq!(
        Format::Rg16Snorm.load(&[0xff, 0x7f, 0x00, 0x80]),
        [ONE, f(-1.0), 0, ONE]
    );
    assert_eq!(
        Format::Rgba16Snorm.load(&[0xff, 0x7f, 0x00, 0x80, 0, 0, 0x01, 0x80]),
        [ONE, f(-1.0), 0, f(-1.0)]
    );
    assert_eq!(
        storef(Format::Rgba8Snorm, [1.0, -1.0, 0.5, -0.25]),
        [0x7f, 0x81, 64, 0xe0] // -31.75 -> -32
    );
}

#[test]
fn rg_unorm_and_float() {
    assert_eq!(Format::Rg8Unorm.load(&[255, 51]), [ONE, f(0.2), 0, ONE]);
    assert_eq!(storef(Format::Rg8Unorm, [1.0, 0.2, 9.0, 9.0]), [255, 51]);
    assert_eq!(
        Format::Rg16Unorm.load(&[0xff, 0xff, 0x00, 0x80]),
        [ONE, fl(32768.0 / 65535.0), 0, ONE]
    );
    // rg16_float: the smallest denormal, infinity, NaN; stores round toward
    // zero and keep the largest finite value for finite overflow.
    let half = Format::Rg16Float.load(&[0x01, 0x00, 0x00, 0x7c]);
    assert_eq!(half, [f(2f32.powi(-24)), f(f32::INFINITY), 0, ONE]);
    let nan = f32::from_bits(Format::Rg16Float.load(&[0x00, 0x7e, 0x00, 0xfc])[0]);
    assert!(nan.is_nan());
    assert_eq!(
        storef(
            Format::Rg16Float,
            [1e6, 1.0 + 3.0 * 2f32.powi(-12), 0.0, 0.0]
        ),
        [0xff, 0x7b, 0x00, 0x3c]
    );
    assert_eq!(
        storef(
            Format::Rg16Float,
            [-f32::INFINITY, 2f32.powi(-24) * 1.5, 0.0, 0.0]
        ),
        [0x00, 0xfc, 0x01, 0x00]
    );
}

#[test]
fn small_integers_extend_on_load_and_saturate_on_store() {
    assert_eq!(Format::R8Uint.load(&[0xff]), [255, 0, 0, 1]);
    assert_eq!(Format::R8Sint.load(&[0x80]), [-128i32 as u32, 0, 0, 1]);
    assert_eq!(Format::Rg8Uint.load(&[1, 2]), [1, 2, 0, 1]);
    assert_eq!(Format::Rg8Sint.load(&[0xff, 2]), [u32::MAX, 2, 0, 1]);
    assert_eq!(Format::Rgba8Uint.load(&[1, 2, 3, 4]), [1, 2, 3, 4]);
    assert_eq!(
        Format::Rgba8Sint.load(&[0xfe, 2, 3, 0x80]),
        [-2i32 as u32, 2, 3, -128i32 as u32]
    );
    assert_eq!(Format::R16Uint.load(&[0xff, 0xff]), [65535, 0, 0, 1]);
    assert_eq!(
        Format::R16Sint.load(&[0x00, 0x80]),
        [-32768i32 as u32, 0, 0, 1]
    );
    assert_eq!(Format::Rg16Uint.load(&[1, 0, 0, 1]), [1, 256, 0, 1]);
    assert_eq!(
        Format::Rg16Sint.load(&[0xff, 0xff, 0xff, 0x7f]),
        [u32::MAX, 32767, 0, 1]
    );
    assert_eq!(
        Format::Rgba16Uint.load(&[1, 0, 2, 0, 3, 0, 4, 0]),
        [1, 2, 3, 4]
    );
    assert_eq!(
        Format::Rgba16Sint.load(&[0xff, 0xff, 2, 0, 3, 0, 0, 0x80]),
        [u32::MAX, 2, 3, -32768i32 as u32]
    );
    assert_eq!(store(Format::R8Uint, [300, 0, 0, 0]), [255]);
    assert_eq!(store(Format::R8Sint, [-200i32 as u32, 0, 0, 0]), [0x80]);
    assert_eq!(store(Format::R8Sint, [200, 0, 0, 0]), [0x7f]);
    assert_eq!(store(Format::Rg8Sint, [u32::MAX, 5, 0, 0]), [0xff, 5]);
    assert_eq!(store(Format::R16Uint, [u32::MAX, 0, 0, 0]), [0xff, 0xff]);
    assert_eq!(
        store(Format::R16Sint, [-40000i32 as u32, 0, 0, 0]),
        [0x00, 0x80]
    );
    assert_eq!(
        store(Format::Rgba16Sint, [1, -1i32 as u32, 40000, 0]),
        [1, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0]
    );
}

#[test]
fn a8_reads_alpha_only() {
    assert_eq!(Format::A8Unorm.load(&[51]), [0, 0, 0, f(0.2)]);
    assert_eq!(storef(Format::A8Unorm, [1.0, 1.0, 1.0, 0.2]), [51]);
}
