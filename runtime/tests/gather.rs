//! `gather_quad` and `lod_quad` on edge inputs, against hand-computed values.

use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{gather_quad, lod_quad, GatherSample, QuadSample, SamplerState};
use dxjit_runtime::texture::{Texture, TextureKind};

/// Every lane of a quad at `coord`.
fn at(coord: [f32; 4]) -> GatherSample {
    GatherSample {
        coord: std::array::from_fn(|c| [coord[c]; 4]),
        ..GatherSample::default()
    }
}

#[test]
fn unbound_textures_gather_and_report_zeros() {
    let s = SamplerState::default();
    assert_eq!(gather_quad(None, &s, &at([0.5; 4])), [[0.0; 4]; 4]);
    assert_eq!(lod_quad(None, &s, &QuadSample::default()), [[0.0; 4]; 4]);
}

#[test]
fn integer_formats_gather_their_words() {
    // A 2x2 r32_uint texture 1, 2, 3, 4: the footprint at (0.5, 0.5) is
    // the whole texture, x = (0,1) = 3, y = (1,1) = 4, z = (1,0) = 2, w = (0,0) = 1.
    let bytes = [1u32, 2, 3, 4]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let t = Texture::new(TextureKind::Texture2D, Format::R32Uint, 2, 2, 1, 1, bytes).unwrap();
    let out = gather_quad(
        Some(&t),
        &SamplerState::default(),
        &at([0.5, 0.5, 0.0, 0.0]),
    );
    assert_eq!(out.map(|c| c[0].to_bits()), [3, 4, 2, 1]);
}

#[test]
fn lod_of_a_flat_quad_clamps_to_the_first_mip() {
    // Equal coordinates in every lane: zero derivatives, log2(0) = -inf
    // unclamped, clamped to min_lod 0.
    let t = Texture::new(
        TextureKind::Texture2D,
        Format::R32Float,
        4,
        4,
        1,
        3,
        vec![0; 84],
    )
    .unwrap();
    let out = lod_quad(Some(&t), &SamplerState::default(), &QuadSample::default());
    assert_eq!(out[0], [0.0; 4]);
    assert_eq!(out[1], [f32::NEG_INFINITY; 4]);
    assert_eq!(out[2], [0.0; 4]);
}

#[test]
fn extreme_coordinates_do_not_panic() {
    let kinds = [
        (TextureKind::Texture2D, 1),
        (TextureKind::Texture2DArray, 2),
        (TextureKind::TextureCube, 6),
        (TextureKind::TextureCubeArray, 12),
        (TextureKind::Texture3D, 2),
    ];
    let values = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -0.0,
        1.0,
    ];
    for (kind, depth) in kinds {
        let t = Texture::new(
            kind,
            Format::R32Float,
            2,
            2,
            depth,
            1,
            vec![0; 16 * depth as usize],
        )
        .unwrap();
        for v in values {
            let mut g = at([v, 0.5, v, v]);
            g.offset = [[i32::MAX; 4], [i32::MIN; 4]];
            g.compare = 1;
            gather_quad(Some(&t), &SamplerState::default(), &g);
            let q = QuadSample {
                coord: g.coord,
                ..QuadSample::default()
            };
            lod_quad(Some(&t), &SamplerState::default(), &q);
        }
    }
}
