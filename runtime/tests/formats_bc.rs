//! Block-compressed formats against blocks whose texels were worked out by
//! hand from the D3D11.3 functional specification.

use dxjit_runtime::format::Format;
use dxjit_runtime::texture::{Texture, TextureKind};

/// The bits of `x` rounded once to f32.
fn v(x: f64) -> u32 {
    (x as f32).to_bits()
}

fn texels(format: Format, block: &[u8]) -> [[u32; 4]; 16] {
    format.load_block(block).expect("a whole block")
}

/// A BC1-style colour block: endpoints c0, c1 and the 2-bit indices of
/// texels 0 to 3 (the other texels use index 0).
fn color_block(c0: u16, c1: u16, first: [u8; 4]) -> [u8; 8] {
    let indices = first
        .iter()
        .enumerate()
        .fold(0u8, |acc, (i, &x)| acc | (x << (2 * i)));
    let [a, b] = c0.to_le_bytes();
    let [c, d] = c1.to_le_bytes();
    [a, b, c, d, indices, 0, 0, 0]
}

/// A BC4-style channel block: endpoints and the 3-bit indices of texels 0
/// to 3.
fn channel_block(e0: u8, e1: u8, first: [u64; 4]) -> [u8; 8] {
    let bits = first
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &x)| acc | (x << (3 * i)));
    let b = bits.to_le_bytes();
    [e0, e1, b[0], b[1], b[2], b[3], b[4], b[5]]
}

/// Writes fields least significant bit first into a 16-byte block.
struct Bits {
    block: u128,
    at: u32,
}

impl Bits {
    fn new() -> Bits {
        Bits { block: 0, at: 0 }
    }

    fn put(mut self, value: u32, bits: u32) -> Bits {
        self.block |= u128::from(value) << self.at;
        self.at += bits;
        self
    }

    fn bytes(self) -> [u8; 16] {
        self.block.to_le_bytes()
    }
}

#[test]
fn bc1_four_colors_when_c0_is_greater() {
    // c0 = pure red (0xf800), c1 = pure blue (0x001f): 0xf800 > 0x001f.
    let t = texels(Format::Bc1Unorm, &color_block(0xf800, 0x001f, [0, 1, 2, 3]));
    let one = v(1.0);
    assert_eq!(t[0], [one, 0, 0, one]);
    assert_eq!(t[1], [0, 0, one, one]);
    assert_eq!(t[2], [v(2.0 / 3.0), 0, v(1.0 / 3.0), one]);
    assert_eq!(t[3], [v(1.0 / 3.0), 0, v(2.0 / 3.0), one]);
    assert_eq!(t[15], t[0]);
}

#[test]
fn bc1_three_colors_and_transparent_black_when_c0_is_not_greater() {
    let one = v(1.0);
    // c0 = blue < c1 = red: index 2 is the midpoint, index 3 transparent black.
    let t = texels(Format::Bc1Unorm, &color_block(0x001f, 0xf800, [0, 1, 2, 3]));
    assert_eq!(t[2], [v(0.5), 0, v(0.5), one]);
    assert_eq!(t[3], [0, 0, 0, 0]);
    // Equal endpoints take the same mode; 6-bit green 32 is 32/63.
    let t = texels(
        Format::Bc1Unorm,
        &color_block(32 << 5, 32 << 5, [2, 3, 0, 0]),
    );
    assert_eq!(t[0], [0, v(32.0 / 63.0), 0, one]);
    assert_eq!(t[1], [0; 4]);
    // The D3D9 name decodes the same.
    assert_eq!(Format::from_name("dxt1"), Some(Format::Bc1Unorm));
}

#[test]
fn bc1_srgb_decodes_interpolated_colour_through_the_curve() {
    let linear = |x: f64| {
        if x <= 0.04045 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }
    };
    let t = texels(Format::Bc1UnormSrgb, &color_block(0xffff, 0, [0, 1, 2, 3]));
    assert_eq!(t[0], [v(1.0); 4]);
    assert_eq!(t[1], [0, 0, 0, v(1.0)]);
    let third = v(linear(1.0 / 3.0));
    let two_thirds = v(linear(2.0 / 3.0));
    assert_eq!(t[2], [two_thirds, two_thirds, two_thirds, v(1.0)]);
    assert_eq!(t[3], [third, third, third, v(1.0)]);
}

#[test]
fn bc2_has_explicit_alpha_and_always_four_colors() {
    // Alpha nibbles: texel 0 = 0, 1 = 15, 2 = 5, 3 = 0.
    let mut block = [0u8; 16];
    block[0] = 0xf0;
    block[1] = 0x05;
    // c0 = blue < c1 = red, yet index 2 is 2/3 c0 + 1/3 c1 (four colours).
    block[8..].copy_from_slice(&color_block(0x001f, 0xf800, [0, 1, 2, 3]));
    let t = texels(Format::Bc2Unorm, &block);
    assert_eq!(t[0], [0, 0, v(1.0), 0]);
    assert_eq!(t[1], [v(1.0), 0, 0, v(1.0)]);
    assert_eq!(t[2], [v(1.0 / 3.0), 0, v(2.0 / 3.0), v(1.0 / 3.0)]);
    assert_eq!(t[3], [v(2.0 / 3.0), 0, v(1.0 / 3.0), 0]);
    assert_eq!(Format::from_name("dxt3"), Some(Format::Bc2Unorm));
    assert_eq!(Format::from_name("dxt2"), Some(Format::Bc2Unorm));
}

#[test]
fn bc3_alpha_interpolates_eight_or_six_values() {
    let mut block = [0u8; 16];
    block[8..].copy_from_slice(&color_block(0xffff, 0xffff, [0; 4]));
    // a0 = 255 > a1 = 0: sevenths.
    block[..8].copy_from_slice(&channel_block(255, 0, [0, 1, 2, 7]));
    let alpha = |t: [[u32; 4]; 16]| [t[0][3], t[1][3], t[2][3], t[3][3]];
    let t = texels(Format::Bc3Unorm, &block);
    assert_eq!(alpha(t), [v(1.0), 0, v(6.0 / 7.0), v(1.0 / 7.0)]);
    assert_eq!(t[0][..3], [v(1.0); 3]);
    // a0 = 0 <= a1 = 255: fifths, then 0 and 1.
    block[..8].copy_from_slice(&channel_block(0, 255, [2, 5, 6, 7]));
    let t = texels(Format::Bc3Unorm, &block);
    assert_eq!(alpha(t), [v(1.0 / 5.0), v(4.0 / 5.0), 0, v(1.0)]);
    assert_eq!(Format::from_name("dxt5"), Some(Format::Bc3Unorm));
}

#[test]
fn bc4_unsigned_and_signed() {
    let block = channel_block(0x81, 0x7f, [0, 1, 2, 7]);
    let red = |format| texels(format, &block).map(|t| t[0]);
    // Unsigned: 129 > 127, sevenths: index 2 = (6·129 + 127) / (7·255).
    let t = texels(Format::Bc4Unorm, &block);
    assert_eq!(t[0], [v(129.0 / 255.0), 0, 0, v(1.0)]);
    assert_eq!(red(Format::Bc4Unorm)[1], v(127.0 / 255.0));
    assert_eq!(red(Format::Bc4Unorm)[2], v(901.0 / 1785.0));
    assert_eq!(red(Format::Bc4Unorm)[3], v((129.0 + 6.0 * 127.0) / 1785.0));
    // Signed: -127 (-1.0) is not above 127 (1.0): fifths, then -1 and 1.
    let r = red(Format::Bc4Snorm);
    assert_eq!(r[..4], [v(-1.0), v(1.0), v(-0.6), v(1.0)]);
    let r = texels(Format::Bc4Snorm, &channel_block(0x80, 0x81, [0, 1, 6, 7])).map(|t| t[0]);
    // -128 and -127 are both -1.0; -128 < -127 so fifths: index 6 is -1.
    assert_eq!(r[..4], [v(-1.0), v(-1.0), v(-1.0), v(1.0)]);
    // 127 > -128 (signed compare): sevenths, index 2 = (6 - 1) / 7.
    let r = texels(Format::Bc4Snorm, &channel_block(0x7f, 0x80, [2, 0, 0, 0])).map(|t| t[0]);
    assert_eq!(r[0], v(5.0 / 7.0));
}

#[test]
fn bc5_decodes_two_channels() {
    let mut block = [0u8; 16];
    block[..8].copy_from_slice(&channel_block(255, 0, [1, 0, 0, 0]));
    block[8..].copy_from_slice(&channel_block(0, 255, [7, 6, 0, 0]));
    let t = texels(Format::Bc5Unorm, &block);
    assert_eq!(t[0], [0, v(1.0), 0, v(1.0)]);
    assert_eq!(t[1], [v(1.0), 0, 0, v(1.0)]);
    let t = texels(Format::Bc5Snorm, &block);
    // Signed: 0xff is -1/127. Red: -1/127 is not above 0, fifths (index 1
    // and 0 are the endpoints). Green: 0 > -1/127, sevenths: index 7 is
    // (0 + 6·(-1/127)) / 7, index 6 is 5·(-1/127) / 7.
    assert_eq!(t[0], [0, v(-6.0 / 889.0), 0, v(1.0)]);
    assert_eq!(t[1], [v(-1.0 / 127.0), v(-5.0 / 889.0), 0, v(1.0)]);
}

/// A BC6H mode-11 block (mode bits 00011, one region, 10-bit raw
/// endpoints) with indices 0, 15, 8 for texels 0 to 2.
fn bc6h_mode11(w: [u32; 3], x: [u32; 3]) -> [u8; 16] {
    let bits = Bits::new().put(0b00011, 5);
    let bits = w.iter().chain(&x).fold(bits, |b, &e| b.put(e, 10));
    bits.put(0, 3).put(15, 4).put(8, 4).bytes()
}

#[test]
fn bc6h_unsigned_mode_11() {
    // w = (0, 1023, 512), x = (1023, 0, 512). Unquantized: 0, 0xffff,
    // ((512 << 16) + 0x8000) >> 10 = 32800. Finished ((c·31) >> 6):
    // 0, 0x7bff (65504), 15887 = 0x3e0f (1 + 527/1024).
    let block = bc6h_mode11([0, 1023, 512], [1023, 0, 512]);
    let t = texels(Format::Bc6hUf16, &block);
    let b = v(1.0 + 527.0 / 1024.0);
    let one = v(1.0);
    assert_eq!(t[0], [0, v(65504.0), b, one]);
    assert_eq!(t[1], [v(65504.0), 0, b, one]);
    // Index 8 (weight 34): r = (34·65535 + 32) >> 6 = 34815, finished
    // 16863 = 0x41df = 2·(1 + 479/1024); g = (30·65535 + 32) >> 6 = 30720,
    // finished 14880 = 0x3a20 = 0.765625; b stays 32800.
    assert_eq!(t[2], [v(2.0 * (1.0 + 479.0 / 1024.0)), v(0.765625), b, one]);
    assert_eq!(t[3], t[0]);
}

#[test]
fn bc6h_signed_mode_11() {
    // w = (-512, 511, 0), x = 0. -512 and 511 saturate to ∓0x7fff,
    // finished -((0x7fff·31) >> 5) = -0x7bff: -65504 and 65504.
    let block = bc6h_mode11([0x200, 0x1ff, 0], [0, 0, 0]);
    let t = texels(Format::Bc6hSf16, &block);
    let one = v(1.0);
    assert_eq!(t[0], [v(-65504.0), v(65504.0), 0, one]);
    assert_eq!(t[1], [0, 0, 0, one]);
    // Index 8: (30·-32767 + 32) >> 6 = -15360 -> -((15360·31) >> 5) = -14880.
    assert_eq!(t[2], [v(-0.765625), v(0.765625), 0, one]);
}

#[test]
fn bc6h_reserved_mode_decodes_as_zero() {
    let block = Bits::new().put(0b10011, 5).put(0x3ff, 10).bytes();
    let t = texels(Format::Bc6hUf16, &block);
    assert!(t.iter().all(|&x| x == [0, 0, 0, v(1.0)]));
}

/// A BC7 mode-6 block: 7-bit endpoints r, g, b, a (e0 then e1 each), the
/// p-bits, and indices 0, 15, 8 for texels 0 to 2.
fn bc7_mode6() -> [u8; 16] {
    let endpoints = [127, 0, 0, 127, 0, 0, 127, 127];
    let bits = Bits::new().put(1 << 6, 7);
    let bits = endpoints.iter().fold(bits, |b, &e| b.put(e, 7));
    bits.put(1, 1)
        .put(0, 1)
        .put(0, 3)
        .put(15, 4)
        .put(8, 4)
        .bytes()
}

#[test]
fn bc7_mode_6() {
    // With p-bits 1 and 0: e0 = (255, 1, 1, 255), e1 = (0, 254, 0, 254).
    let t = texels(Format::Bc7Unorm, &bc7_mode6());
    let u = |c: [u32; 4]| c.map(|n| v(f64::from(n) / 255.0));
    assert_eq!(t[0], u([255, 1, 1, 255]));
    assert_eq!(t[1], u([0, 254, 0, 254]));
    // Index 8, weight 34: ((64 - 34)·e0 + 34·e1 + 32) >> 6.
    assert_eq!(t[2], u([120, 135, 0, 254]));
    assert_eq!(t[3], t[0]);
}

#[test]
fn bc7_srgb_and_invalid_mode() {
    let srgb = |n: u32| {
        let x = f64::from(n) / 255.0;
        v(((x + 0.055) / 1.055).powf(2.4))
    };
    let t = texels(Format::Bc7UnormSrgb, &bc7_mode6());
    assert_eq!(t[2], [srgb(120), srgb(135), 0, v(254.0 / 255.0)]);
    // A first byte of 0 is no mode: every channel of every texel is 0.
    let t = texels(Format::Bc7Unorm, &[0; 16]);
    assert!(t.iter().all(|&x| x == [0; 4]));
}

#[test]
fn random_blocks_never_panic() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let compressed: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|f| f.is_block_compressed())
        .collect();
    assert_eq!(compressed.len(), 14);
    for _ in 0..3000 {
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&next().to_le_bytes());
        block[8..].copy_from_slice(&next().to_le_bytes());
        for &format in &compressed {
            let t = texels(format, &block);
            assert_eq!(format.load(&block), t[0]);
        }
    }
    assert_eq!(Format::Bc7Unorm.load_block(&[0; 15]), None);
    assert_eq!(Format::Rgba8Unorm.load_block(&[0; 16]), None);
}

#[test]
fn textures_lay_mips_out_in_whole_blocks() {
    // An 8×8 BC1 texture: mip 0 is 2×2 blocks, mip 1 (4×4) one block and
    // mip 2 (2×2) one block of which a 2×2 corner is texels.
    assert_eq!(Format::Bc1Unorm.image_bytes(6, 6, 1), 32);
    assert_eq!(Format::Bc1Unorm.image_bytes(1, 1, 1), 8);
    assert_eq!(Format::Bc7Unorm.image_bytes(5, 4, 2), 64);
    let red = color_block(0xf800, 0xf800, [0; 4]);
    let green = color_block(0x07e0, 0x07e0, [0; 4]);
    let blue = color_block(0x001f, 0x001f, [0; 4]);
    let white = color_block(0xffff, 0xffff, [0; 4]);
    let mut data = Vec::new();
    for block in [red, green, blue, white, green, blue] {
        data.extend_from_slice(&block);
    }
    let bc1 = |width, height, data: &[u8]| {
        Texture::new(
            TextureKind::Texture2D,
            Format::Bc1Unorm,
            width,
            height,
            1,
            3,
            data.to_vec(),
        )
    };
    let t = bc1(8, 8, &data).expect("texture");
    let one = v(1.0);
    assert_eq!(t.fetch(0, 0, 0, 0), [one, 0, 0, one]);
    assert_eq!(t.fetch(5, 3, 0, 0), [0, one, 0, one]);
    assert_eq!(t.fetch(1, 4, 0, 0), [0, 0, one, one]);
    assert_eq!(t.fetch(4, 5, 0, 0), [one; 4]);
    assert_eq!(t.fetch(8, 0, 0, 0), [0; 4]);
    assert_eq!(t.fetch(3, 3, 0, 1), [0, one, 0, one]);
    assert_eq!(t.fetch(4, 0, 0, 1), [0; 4]);
    assert_eq!(t.fetch(1, 1, 0, 2), [0, 0, one, one]);
    assert_eq!(
        t.fetch(2, 0, 0, 2),
        [0; 4],
        "past the partial block's texels"
    );
    assert_eq!(t.view().row_pitch, 16);
    assert!(bc1(8, 8, &data[..40]).is_err());
    // D3D11.3 19.5.1: mip 0 of a block-compressed texture is whole blocks.
    for (width, height) in [(6, 8), (8, 6), (1, 1)] {
        assert!(
            matches!(
                bc1(width, height, &data),
                Err(dxjit_runtime::texture::TextureError::PartialBlocks { .. })
            ),
            "{width}x{height}"
        );
    }
}
