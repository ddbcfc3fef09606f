//! Shared-exponent, 10:10:10:2 uint and depth formats, and the format
//! table's names, ids and sizes.

use dxjit_runtime::format::{Format, FormatKind};

const ONE: u32 = 0x3f80_0000;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn load32(format: Format, word: u32) -> [u32; 4] {
    format.load(&word.to_le_bytes())
}

#[test]
fn rgb9e5_shares_one_exponent() {
    // Exponent 15 is 2^0: mantissa 256 is 256·2^-9 = 0.5.
    let word = (15 << 27) | 256 | (511 << 9);
    assert_eq!(
        load32(Format::Rgb9e5, word),
        [f(0.5), f(511.0 / 512.0), 0, ONE]
    );
    // The largest exponent, 31: 511·2^(31-24) = 65408.
    assert_eq!(
        load32(Format::Rgb9e5, (31 << 27) | 511 | (1 << 18)),
        [f(65408.0), 0, f(128.0), ONE]
    );
    // The smallest non-zero value: 2^-24.
    assert_eq!(
        load32(Format::Rgb9e5, 1 << 9),
        [0, f(2f32.powi(-24)), 0, ONE]
    );
    assert!(!Format::Rgb9e5.is_writable());
}

#[test]
fn r10g10b10a2_uint_fields() {
    let word = 1023 | (512 << 10) | (3 << 30);
    assert_eq!(load32(Format::R10g10b10a2Uint, word), [1023, 512, 0, 3]);
    let mut bytes = [0; 4];
    Format::R10g10b10a2Uint.store([2000, 5, 0, 9], &mut bytes);
    assert_eq!(u32::from_le_bytes(bytes), 1023 | (5 << 10) | (3 << 30));
}

#[test]
fn depth_formats_read_their_depth() {
    assert_eq!(Format::D16.load(&[0xff, 0xff]), [ONE, 0, 0, ONE]);
    assert_eq!(
        Format::D16.load(&[0x00, 0x80]),
        [f((32768.0f64 / 65535.0) as f32), 0, 0, ONE]
    );
    // The stencil byte is not read.
    assert_eq!(load32(Format::D24S8, 0xab_ff_ff_ff), [ONE, 0, 0, ONE]);
    let half24 = f((8_388_608.0f64 / 16_777_215.0) as f32);
    assert_eq!(load32(Format::D24S8, 0x0080_0000), [half24, 0, 0, ONE]);
    assert_eq!(load32(Format::R24X8, 0xff80_0000), [half24, 0, 0, ONE]);
    assert_eq!(load32(Format::D32F, f(0.25)), [f(0.25), 0, 0, ONE]);
    let mut texel = f(0.75).to_le_bytes().to_vec();
    texel.extend_from_slice(&[0x12, 0, 0, 0]);
    assert_eq!(Format::D32FS8X24.load(&texel), [f(0.75), 0, 0, ONE]);
    for format in [
        Format::D16,
        Format::D24S8,
        Format::R24X8,
        Format::D32F,
        Format::D32FS8X24,
    ] {
        assert!(!format.is_writable(), "{}", format.name());
        let mut bytes = vec![0x5a; format.bytes_per_texel() as usize];
        format.store([ONE; 4], &mut bytes);
        assert!(bytes.iter().all(|&b| b == 0x5a), "{}", format.name());
    }
}

#[test]
fn every_format_has_a_unique_name_and_consecutive_id() {
    for (k, format) in Format::ALL.into_iter().enumerate() {
        assert_eq!(format as u32, k as u32 + 1);
        assert_eq!(Format::from_id(k as u32 + 1), Some(format));
        assert_eq!(Format::from_name(format.name()), Some(format));
        let size = format.bytes_per_texel();
        let block = format.block_size();
        assert_eq!(format.image_bytes(block, block, 1), u64::from(size));
        let integer = matches!(format.kind(), FormatKind::Uint | FormatKind::Sint);
        assert!(!integer || format.is_writable());
    }
    assert_eq!(Format::from_id(Format::ALL.len() as u32 + 1), None);
}

#[test]
fn writable_formats_round_trip_a_stored_texel() {
    // Luminance and alpha-only formats move components; their own tests
    // cover them.
    let moved = [Format::L8, Format::L16, Format::A8L8, Format::A8Unorm];
    let formats = Format::ALL
        .into_iter()
        .filter(|f| f.is_writable() && !moved.contains(f));
    for format in formats {
        let words = match format.kind() {
            FormatKind::Uint => [1, 0, 1, 1],
            FormatKind::Sint => [1, 0, u32::MAX, 1],
            FormatKind::Snorm => [ONE, 0, f(-1.0), ONE],
            FormatKind::Unorm | FormatKind::Float => [ONE, 0, ONE, ONE],
        };
        let mut bytes = vec![0; format.bytes_per_texel() as usize];
        format.store(words, &mut bytes);
        let back = format.load(&bytes);
        let n = format.components() as usize;
        assert_eq!(back[..n], words[..n], "{}", format.name());
    }
}
