//! The fast path against the generic one, on every format, filter, mip
//! filter, addressing mode and level-of-detail mode it covers, with edge
//! coordinates (negative, 0, exactly 1, huge, infinite, NaN).

use super::super::{
    generic_quad, Address, Compare, Filter, MagFilter, MipFilter, QuadSample, Reduction,
    SamplerState, LOD_BIAS, LOD_GRADIENT, LOD_IMPLICIT, LOD_LEVEL,
};
use super::quad_for;
use crate::format::Format;
use crate::sampler::test_rng::Rng;
use crate::texture::{Texture, TextureKind};

const FORMATS: [Format; 8] = [
    Format::Rgba8Unorm,
    Format::Bgra8Unorm,
    Format::Rgba8UnormSrgb,
    Format::Bgra8UnormSrgb,
    Format::R8Unorm,
    Format::R32Float,
    Format::Rg32Float,
    Format::Rgba32Float,
];

const ADDRESSES: [Address; 5] = [
    Address::Wrap,
    Address::Mirror,
    Address::Clamp,
    Address::Border,
    Address::MirrorOnce,
];

/// A 2D texture of `format` with random texels (float formats get some
/// edge values: zeros, infinities, NaNs, denormals).
fn texture(rng: &mut Rng, format: Format, width: u32, height: u32, mips: u32) -> Texture {
    let texels: u32 = (0..mips)
        .map(|m| (width >> m).max(1) * (height >> m).max(1))
        .sum();
    let bytes = (texels * format.bytes_per_texel()) as usize;
    let data = if format.kind() == crate::format::FormatKind::Float {
        (0..bytes / 4)
            .flat_map(|_| rng.float().to_le_bytes())
            .collect()
    } else {
        (0..bytes).map(|_| rng.next() as u8).collect()
    };
    Texture::new(TextureKind::Texture2D, format, width, height, 1, mips, data).expect("texture")
}

/// A sampler the fast path covers: one filter for minification and
/// magnification (however it is spelled), at most one anisotropic probe.
fn sampler(rng: &mut Rng) -> SamplerState {
    let filter = rng.pick(&[Filter::Point, Filter::Linear, Filter::Anisotropic]);
    let same = match filter {
        Filter::Point => MagFilter::Point,
        Filter::Linear => MagFilter::Linear,
        Filter::Anisotropic => rng.pick(&[MagFilter::Linear, MagFilter::Anisotropic]),
    };
    SamplerState {
        filter,
        mip_filter: rng.pick(&[MipFilter::None, MipFilter::Point, MipFilter::Linear]),
        address: [
            rng.pick(&ADDRESSES),
            rng.pick(&ADDRESSES),
            rng.pick(&ADDRESSES),
        ],
        compare: Compare::None,
        border: [rng.float(), rng.float(), rng.float(), rng.float()],
        lod_bias: if rng.below(2) == 0 { 0.0 } else { rng.float() },
        min_lod: if rng.below(2) == 0 { 0.0 } else { rng.float() },
        max_lod: if rng.below(2) == 0 {
            f32::MAX
        } else {
            rng.float()
        },
        mag_filter: rng.pick(&[MagFilter::AsMin, same]),
        max_anisotropy: rng.pick(&[0, 1]),
        reduction: Reduction::Standard,
        srgb: 0,
        shadow_map: rng.pick(&[0, 1]),
    }
}

/// A quad near texel grid points and edges, sometimes far outside.
fn quad(rng: &mut Rng) -> QuadSample {
    let mut lanes = || {
        let base = rng.float();
        std::array::from_fn(|_| match rng.below(3) {
            0 => rng.float(),
            1 => base,
            _ => base + rng.below(9) as f32 / 64.0,
        })
    };
    QuadSample {
        coord: [lanes(), lanes(), lanes(), lanes()],
        ddx: [lanes(), lanes(), lanes(), lanes()],
        ddy: [lanes(), lanes(), lanes(), lanes()],
        lod: lanes(),
        reference: lanes(),
        offset: [rng.below(16) as i32 - 8, rng.below(16) as i32 - 8, 0],
        mode: rng.pick(&[LOD_IMPLICIT, LOD_BIAS, LOD_LEVEL, LOD_GRADIENT, 7]),
        unbound_alpha: 1.0,
    }
}

/// Equal bits, or both NaN.
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn fast_path_matches_the_generic_one() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let shapes = [
        (1, 1, 1),
        (3, 5, 3),
        (4, 4, 3),
        (8, 2, 4),
        (16, 16, 5),
        (5, 1, 1),
    ];
    for format in FORMATS {
        for (width, height, mips) in shapes {
            let t = texture(&mut rng, format, width, height, mips);
            for _ in 0..400 {
                let s = sampler(&mut rng);
                let q = quad(&mut rng);
                let fast = quad_for(&t, &s).expect("covered")(&t, &s, &q);
                let generic = generic_quad(&t, &s, &q);
                let equal = fast
                    .iter()
                    .flatten()
                    .zip(generic.iter().flatten())
                    .all(|(&a, &b)| same(a, b));
                assert!(
                    equal,
                    "{format:?} {width}x{height}x{mips}\n{s:?}\n{q:?}\nfast {fast:?}\ngeneric {generic:?}"
                );
            }
        }
    }
}

#[test]
fn fast_path_covers_only_plain_2d_reads() {
    let mut rng = Rng(1);
    let t = texture(&mut rng, Format::Rgba8Unorm, 2, 2, 1);
    let plain = SamplerState::default();
    assert!(quad_for(&t, &plain).is_some());
    let compare = SamplerState {
        compare: Compare::Less,
        ..plain
    };
    assert!(quad_for(&t, &compare).is_none());
    let uncovered = [
        SamplerState {
            mag_filter: MagFilter::Linear,
            ..plain
        },
        SamplerState {
            filter: Filter::Anisotropic,
            max_anisotropy: 2,
            ..plain
        },
        SamplerState {
            reduction: Reduction::Maximum,
            ..plain
        },
    ];
    for s in uncovered {
        assert!(quad_for(&t, &s).is_none(), "{s:?}");
    }
    let half = texture(&mut rng, Format::Rgba16Float, 2, 2, 1);
    assert!(quad_for(&half, &plain).is_none());
    let array = Texture::new(
        TextureKind::Texture2DArray,
        Format::Rgba8Unorm,
        1,
        1,
        2,
        1,
        vec![0; 8],
    )
    .expect("array");
    assert!(quad_for(&array, &plain).is_none());
}

/// A quad whose four lanes read (u, v) at level 0, without offsets.
fn quad_at(u: f32, v: f32) -> QuadSample {
    QuadSample {
        coord: [[u; 4], [v; 4], [0.0; 4], [0.0; 4]],
        ddx: [[0.0; 4]; 4],
        ddy: [[0.0; 4]; 4],
        lod: [0.0; 4],
        reference: [0.0; 4],
        offset: [0; 3],
        mode: LOD_LEVEL,
        unbound_alpha: 1.0,
    }
}

#[test]
fn point_samples_are_their_texels_and_negative_zeros_stay() {
    // One rgba32_float texel: -0, -2.5, a NaN with a payload, +0.
    let words = [0x8000_0000u32, (-2.5f32).to_bits(), 0x7fc1_2345, 0];
    let data = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let t = Texture::new(
        TextureKind::Texture2D,
        Format::Rgba32Float,
        1,
        1,
        1,
        1,
        data,
    )
    .expect("texture");
    let point = SamplerState {
        filter: Filter::Point,
        address: [Address::Clamp; 3],
        ..SamplerState::default()
    };
    let linear = SamplerState {
        filter: Filter::Linear,
        ..point
    };
    let q = quad_at(0.3, 0.8);
    for (name, s) in [("point", point), ("linear", linear)] {
        let fast = quad_for(&t, &s).expect("covered")(&t, &s, &q);
        let generic = generic_quad(&t, &s, &q);
        for (path, found) in [("fast", fast), ("generic", generic)] {
            // Components, each of the four lanes.
            for lane in 0..4 {
                let bits = found.map(|c| c[lane].to_bits());
                // Linear filtering weighs the clamped texel four times: the
                // zeros sum to zeros of their sign.
                assert_eq!([bits[0], bits[3]], [0x8000_0000, 0], "{name} {path}");
                if name == "point" {
                    assert_eq!(bits, words, "{name} {path}");
                }
            }
        }
    }
}
