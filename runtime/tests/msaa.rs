//! Multisampled textures: layout, `fetch_sample`, views and refused shapes.

use dxjit_runtime::format::Format;
use dxjit_runtime::texture::{Texture, TextureError, TextureKind};

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Sample `s` of texel (x, y) of layer `l` as the value 1000·l + 100·y + 10·x + s,
/// stored in the documented order: layers, rows, texels, then samples.
fn numbered(w: u32, h: u32, layers: u32, samples: u32) -> Vec<u32> {
    let mut v = Vec::new();
    for l in 0..layers {
        for y in 0..h {
            for x in 0..w {
                for s in 0..samples {
                    v.push(1000 * l + 100 * y + 10 * x + s);
                }
            }
        }
    }
    v
}

fn ms(kind: TextureKind, w: u32, h: u32, layers: u32, samples: u32) -> Texture {
    let data = words(&numbered(w, h, layers, samples));
    Texture::new_multisampled(kind, Format::R32Uint, w, h, layers, samples, data).unwrap()
}

#[test]
fn samples_of_a_texel_are_consecutive() {
    let t = ms(TextureKind::Texture2DMS, 3, 2, 1, 4);
    assert_eq!(t.samples(), 4);
    assert_eq!(t.data().len(), 3 * 2 * 4 * 4);
    assert_eq!(t.fetch_sample(2, 1, 0, 3), [123, 0, 0, 1]);
    assert_eq!(t.fetch_sample(0, 1, 0, 1), [101, 0, 0, 1]);
    // The layer coordinate of a non-array texture is ignored.
    assert_eq!(t.fetch_sample(1, 0, 7, 2), [12, 0, 0, 1]);
    // A row is 3 texels × 4 samples × 4 bytes.
    assert_eq!(t.view().row_pitch, 48);
}

#[test]
fn arrays_put_layers_after_each_other() {
    let t = ms(TextureKind::Texture2DMSArray, 2, 2, 3, 2);
    assert_eq!(t.layers(), 3);
    assert_eq!(t.fetch_sample(1, 1, 2, 1), [2111, 0, 0, 1]);
    assert_eq!(t.fetch_sample(1, 1, 3, 1), [0; 4]);
}

#[test]
fn out_of_range_texels_and_samples_read_zero() {
    let t = ms(TextureKind::Texture2DMS, 2, 2, 1, 8);
    for (x, y, s) in [(2, 0, 0), (0, 2, 0), (-1, 0, 0), (0, 0, 8), (0, 0, -1)] {
        assert_eq!(t.fetch_sample(x, y, 0, s), [0; 4], "({x}, {y}) sample {s}");
    }
    assert_eq!(t.fetch_sample(1, 1, 0, 7), [117, 0, 0, 1]);
}

#[test]
fn counts_d3d_does_not_allow_are_refused() {
    for samples in [0, 3, 5, 32] {
        let err = Texture::new_multisampled(
            TextureKind::Texture2DMS,
            Format::R32Uint,
            1,
            1,
            1,
            samples,
            vec![0; 256],
        )
        .unwrap_err();
        assert_eq!(err, TextureError::BadSampleCount { samples });
        assert!(err.to_string().contains("1, 2, 4, 8 or 16"));
    }
}

#[test]
fn other_kinds_and_block_formats_cannot_be_multisampled() {
    let not = |kind, format| {
        Texture::new_multisampled(kind, format, 4, 4, 1, 4, vec![0; 1024]).unwrap_err()
    };
    assert_eq!(
        not(TextureKind::Texture2D, Format::R32Uint),
        TextureError::NotMultisampled {
            kind: TextureKind::Texture2D,
            format: Format::R32Uint
        }
    );
    assert!(matches!(
        not(TextureKind::Texture2DMS, Format::Bc1Unorm),
        TextureError::NotMultisampled { .. }
    ));
}

#[test]
fn short_data_is_an_error() {
    let err = Texture::new_multisampled(
        TextureKind::Texture2DMS,
        Format::R32Uint,
        2,
        2,
        1,
        4,
        vec![0; 63],
    )
    .unwrap_err();
    assert_eq!(err, TextureError::DataTooShort { got: 63, need: 64 });
}
