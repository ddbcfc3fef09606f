//! The D3D9 formats: luminance, bump (signed) and packed 16/32-bit colour.

use dxjit_runtime::format::Format;

const ONE: u32 = 0x3f80_0000;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn fl(x: f64) -> u32 {
    (x as f32).to_bits()
}

fn store(format: Format, value: [f32; 4]) -> Vec<u8> {
    let mut bytes = vec![0xaa; format.bytes_per_texel() as usize];
    format.store(value.map(f32::to_bits), &mut bytes);
    bytes
}

fn load16(format: Format, word: u16) -> [u32; 4] {
    format.load(&word.to_le_bytes())
}

#[test]
fn luminance_replicates_into_rgb() {
    let l = f(0.2);
    assert_eq!(Format::L8.load(&[51]), [l, l, l, ONE]);
    assert_eq!(Format::A8L8.load(&[51, 255]), [l, l, l, ONE]);
    assert_eq!(Format::A8L8.load(&[255, 51]), [ONE, ONE, ONE, l]);
    let m = fl(32768.0 / 65535.0);
    assert_eq!(load16(Format::L16, 0x8000), [m, m, m, ONE]);
    assert_eq!(store(Format::L8, [0.2, 1.0, 1.0, 1.0]), [51]);
    assert_eq!(store(Format::A8L8, [0.2, 1.0, 1.0, 0.0]), [51, 0]);
    assert_eq!(store(Format::L16, [1.0, 0.0, 0.0, 0.0]), [0xff, 0xff]);
}

#[test]
fn bump_formats_are_signed() {
    // v8u8: u in the low byte; b and a read 1.
    assert_eq!(Format::V8U8.load(&[0x81, 0x7f]), [f(-1.0), ONE, ONE, ONE]);
    assert_eq!(
        Format::V8U8.load(&[0x80, 0x40]),
        [f(-1.0), fl(64.0 / 127.0), ONE, ONE]
    );
    assert_eq!(store(Format::V8U8, [-1.0, 0.5, 0.0, 0.0]), [0x81, 64]);
    // q8w8v8u8: u, v, w, q from the low byte up.
    assert_eq!(
        Format::Q8W8V8U8.load(&[0x80, 0x7f, 0x00, 0x40]),
        [f(-1.0), ONE, 0, fl(64.0 / 127.0)]
    );
}

#[test]
fn packed_16_bit_colour() {
    assert_eq!(load16(Format::R5G6B5, 0xf800), [ONE, 0, 0, ONE]);
    assert_eq!(load16(Format::R5G6B5, 0x07e0), [0, ONE, 0, ONE]);
    assert_eq!(load16(Format::R5G6B5, 0x001f), [0, 0, ONE, ONE]);
    assert_eq!(
        load16(Format::R5G6B5, 0x8410),
        [fl(16.0 / 31.0), fl(32.0 / 63.0), fl(16.0 / 31.0), ONE]
    );
    assert_eq!(load16(Format::A1R5G5B5, 0x8000), [0, 0, 0, ONE]);
    assert_eq!(load16(Format::A1R5G5B5, 0x7c00), [ONE, 0, 0, 0]);
    assert_eq!(
        load16(Format::A1R5G5B5, 0x03e0 | 0x0001),
        [0, ONE, fl(1.0 / 31.0), 0]
    );
    assert_eq!(
        load16(Format::A4R4G4B4, 0x1234),
        [
            fl(2.0 / 15.0),
            fl(3.0 / 15.0),
            fl(4.0 / 15.0),
            fl(1.0 / 15.0)
        ]
    );
    // 0.5·63 = 31.5 rounds up to 32.
    assert_eq!(
        store(Format::R5G6B5, [1.0, 0.5, 0.0, 0.0]),
        0xfc00u16.to_le_bytes()
    );
    assert_eq!(
        store(Format::A1R5G5B5, [0.0, 0.0, 1.0, 0.49]),
        0x001fu16.to_le_bytes()
    );
    assert_eq!(
        store(Format::A1R5G5B5, [0.0, 0.0, 0.0, 0.5]),
        0x8000u16.to_le_bytes()
    );
    assert_eq!(
        store(Format::A4R4G4B4, [1.0, 0.0, 0.2, 1.0]),
        0xff03u16.to_le_bytes()
    );
}

#[test]
fn x8r8g8b8_ignores_its_fourth_byte() {
    assert_eq!(
        Format::X8R8G8B8.load(&[0x00, 0x33, 0xff, 0x12]),
        [ONE, f(0.2), 0, ONE]
    );
    assert_eq!(
        store(Format::X8R8G8B8, [1.0, 0.2, 0.0, 0.0]),
        [0, 51, 255, 0xaa]
    );
}

#[test]
fn dxt_names_are_bc1_to_bc3() {
    let names = [
        ("dxt1", Format::Bc1Unorm),
        ("dxt2", Format::Bc2Unorm),
        ("dxt3", Format::Bc2Unorm),
        ("dxt4", Format::Bc3Unorm),
        ("dxt5", Format::Bc3Unorm),
    ];
    for (name, format) in names {
        assert_eq!(Format::from_name(name), Some(format), "{name}");
    }
}
