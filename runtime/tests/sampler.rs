//! Texture sampling against hand-computed values.

use dxjit_runtime::abi::View;
use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{
    dxjit_sample_quad, sample_quad, Address, Compare, Filter, MipFilter, QuadSample, SamplerState,
    LOD_BIAS, LOD_GRADIENT, LOD_IMPLICIT, LOD_LEVEL,
};
use dxjit_runtime::texture::{Texture, TextureKind};

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn tex(kind: TextureKind, w: u32, h: u32, d: u32, mips: u32, values: &[f32]) -> Texture {
    Texture::new(kind, Format::R32Float, w, h, d, mips, floats(values)).unwrap()
}

fn sampler(filter: Filter, mip_filter: MipFilter, address: Address) -> SamplerState {
    SamplerState {
        filter,
        mip_filter,
        address: [address; 3],
        ..SamplerState::default()
    }
}

/// A quad whose lane `l` reads `coords[l]`, at level 0 unless `mode` says otherwise.
fn quad(coords: [[f32; 4]; 4], mode: u32) -> QuadSample {
    QuadSample {
        coord: std::array::from_fn(|c| coords.map(|lane| lane[c])),
        mode,
        ..QuadSample::default()
    }
}

/// Every lane reads `coord` at level `lod`.
fn at_level(coord: [f32; 4], lod: f32) -> QuadSample {
    QuadSample {
        lod: [lod; 4],
        ..quad([coord; 4], LOD_LEVEL)
    }
}

/// The red component of each lane.
fn red(texture: &Texture, s: &SamplerState, q: &QuadSample) -> [f32; 4] {
    sample_quad(Some(texture), s, q)[0]
}

fn close(got: [f32; 4], want: [f32; 4]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-5, "got {got:?}, want {want:?}");
    }
}

/// An unbound texture reads 0 in every component from D3D10 on, and
/// (0, 0, 0, 1) under D3D9's rule (`unbound_alpha` 1); buffers read zeros.
#[test]
fn unbound_reads_zeros_or_d3d9_opaque_black_and_buffers_read_zeros() {
    let s = SamplerState::default();
    let q = at_level([0.5; 4], 0.0);
    assert_eq!(sample_quad(None, &s, &q), [[0.0; 4]; 4]);
    let d3d9 = QuadSample {
        unbound_alpha: 1.0,
        ..q
    };
    let opaque_black = [[0.0; 4], [0.0; 4], [0.0; 4], [1.0; 4]];
    assert_eq!(sample_quad(None, &s, &d3d9), opaque_black);
    let buffer = tex(TextureKind::Buffer, 2, 1, 1, 1, &[1.0, 2.0]);
    assert_eq!(sample_quad(Some(&buffer), &s, &q), [[0.0; 4]; 4]);
}

#[test]
fn entry_point_matches_sample_quad() {
    let t = tex(TextureKind::Texture2D, 2, 2, 1, 1, &[1.0, 2.0, 3.0, 4.0]);
    let s = sampler(Filter::Linear, MipFilter::None, Address::Clamp);
    let q = quad(
        [
            [0.5, 0.5, 0.0, 0.0],
            [0.25, 0.25, 0.0, 0.0],
            [0.75, 0.25, 0.0, 0.0],
            [0.5, 0.75, 0.0, 0.0],
        ],
        LOD_IMPLICIT,
    );
    let view = t.view();
    let mut out = [[9.0; 4]; 4];
    // SAFETY: every pointer is to a live local; the view's texture is `t`.
    unsafe { dxjit_sample_quad(&view, &s, &q, &mut out) };
    assert_eq!(out, sample_quad(Some(&t), &s, &q));
    assert_eq!(out[0], [2.5, 1.0, 2.0, 3.5]);
    assert_eq!(out[3], [1.0; 4]);
    let unbound = [[0.0; 4]; 4];
    // SAFETY: as above; an empty view and a null view are unbound.
    unsafe { dxjit_sample_quad(&View::EMPTY, &s, &q, &mut out) };
    assert_eq!(out, unbound);
    out = [[9.0; 4]; 4];
    // SAFETY: as above.
    unsafe { dxjit_sample_quad(std::ptr::null(), &s, &q, &mut out) };
    assert_eq!(out, unbound);
}

#[test]
fn point_reads_the_texel_under_the_coordinate() {
    let t = tex(TextureKind::Texture2D, 2, 2, 1, 1, &[1.0, 2.0, 3.0, 4.0]);
    let s = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    let q = quad(
        [
            [0.25, 0.25, 0.0, 0.0],
            [0.75, 0.25, 0.0, 0.0],
            [0.25, 0.75, 0.0, 0.0],
            [0.99, 0.99, 0.0, 0.0],
        ],
        LOD_IMPLICIT,
    );
    let out = sample_quad(Some(&t), &s, &q);
    assert_eq!(out[0], [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(out[1], [0.0; 4]);
    assert_eq!(out[3], [1.0; 4]);
}

#[test]
fn bilinear_weights_use_texel_centres() {
    let t = tex(TextureKind::Texture2D, 2, 2, 1, 1, &[1.0, 2.0, 3.0, 4.0]);
    let s = sampler(Filter::Linear, MipFilter::None, Address::Clamp);
    // (0.375, 0.625): x = 0.25, y = 0.75 ->
    // (1 * 0.75 + 2 * 0.25) * 0.25 + (3 * 0.75 + 4 * 0.25) * 0.75 = 2.75.
    let q = quad(
        [
            [0.375, 0.625, 0.0, 0.0],
            [0.5, 0.25, 0.0, 0.0],
            [0.25, 0.25, 0.0, 0.0],
            [0.75, 0.75, 0.0, 0.0],
        ],
        LOD_LEVEL,
    );
    assert_eq!(red(&t, &s, &q), [2.75, 1.5, 1.0, 4.0]);
}

#[test]
fn addressing_modes_on_point_taps() {
    let t = tex(
        TextureKind::Texture1D,
        4,
        1,
        1,
        1,
        &[10.0, 20.0, 30.0, 40.0],
    );
    // u * 4: -0.4 -> -1, 5.2 -> 5, -2.4 -> -3, 9.2 -> 9.
    let q = quad([[-0.1; 4], [1.3; 4], [-0.6; 4], [2.3; 4]], LOD_LEVEL);
    let cases = [
        (Address::Wrap, [40.0, 20.0, 20.0, 20.0]),
        (Address::Mirror, [10.0, 30.0, 30.0, 20.0]),
        (Address::Clamp, [10.0, 40.0, 10.0, 40.0]),
        (Address::Border, [-1.0, -1.0, -1.0, -1.0]),
        (Address::MirrorOnce, [10.0, 40.0, 30.0, 40.0]),
    ];
    for (address, want) in cases {
        let s = SamplerState {
            border: [-1.0, -2.0, -3.0, -4.0],
            ..sampler(Filter::Point, MipFilter::None, address)
        };
        assert_eq!(red(&t, &s, &q), want, "{address:?}");
    }
    let s = SamplerState {
        border: [-1.0, -2.0, -3.0, -4.0],
        ..sampler(Filter::Point, MipFilter::None, Address::Border)
    };
    // The border is read in the format's component space: r32_float stores
    // only r, so g and b read 0 and alpha 1.
    let out = sample_quad(Some(&t), &s, &q);
    assert_eq!(out.map(|c| c[0]), [-1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn addressing_modes_on_linear_taps() {
    let t = tex(TextureKind::Texture2D, 2, 1, 1, 1, &[1.0, 2.0]);
    // u = 0: x = -0.5, taps -1 and 0 at half weight each.
    let q = at_level([0.0, 0.5, 0.0, 0.0], 0.0);
    let cases = [
        (Address::Wrap, 1.5),
        (Address::Mirror, 1.0),
        (Address::Clamp, 1.0),
        (Address::Border, 5.5),
        (Address::MirrorOnce, 1.0),
    ];
    for (address, want) in cases {
        let s = SamplerState {
            border: [10.0; 4],
            ..sampler(Filter::Linear, MipFilter::None, address)
        };
        assert_eq!(red(&t, &s, &q), [want; 4], "{address:?}");
    }
}

#[test]
fn offsets_move_texel_indices_before_addressing() {
    let t = tex(
        TextureKind::Texture1D,
        4,
        1,
        1,
        1,
        &[10.0, 20.0, 30.0, 40.0],
    );
    let s = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    let mut q = at_level([0.125, 0.0, 0.0, 0.0], 0.0);
    q.offset = [2, 0, 0];
    assert_eq!(red(&t, &s, &q), [30.0; 4]);
    q.offset = [-1, 5, 5];
    assert_eq!(red(&t, &s, &q), [40.0; 4]);
}

/// A 4x4 texture whose mips read 1.0, 2.0 and 4.0.
fn mipped() -> Texture {
    let mut values = vec![1.0; 16];
    values.extend([2.0; 4]);
    values.push(4.0);
    tex(TextureKind::Texture2D, 4, 4, 1, 3, &values)
}

#[test]
fn mip_selection_at_explicit_levels() {
    let t = mipped();
    let point = sampler(Filter::Point, MipFilter::Point, Address::Wrap);
    let linear = sampler(Filter::Point, MipFilter::Linear, Address::Wrap);
    let none = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    let c = [0.5, 0.5, 0.0, 0.0];
    let cases = [
        (&point, 0.4, 1.0),
        (&point, 0.5, 2.0),
        (&point, 1.6, 4.0),
        (&point, -3.0, 1.0),
        (&linear, 0.25, 1.25),
        (&linear, 1.5, 3.0),
        (&linear, 7.0, 4.0),
        (&linear, -1.0, 1.0),
        (&none, 1.5, 1.0),
    ];
    for (s, lod, want) in cases {
        assert_eq!(
            red(&t, s, &at_level(c, lod)),
            [want; 4],
            "{:?} {lod}",
            s.mip_filter
        );
    }
    let clamped = SamplerState {
        min_lod: 1.0,
        max_lod: 1.0,
        ..linear
    };
    assert_eq!(red(&t, &clamped, &at_level(c, 0.0)), [2.0; 4]);
    assert_eq!(red(&t, &clamped, &at_level(c, 2.0)), [2.0; 4]);
    let biased = SamplerState {
        lod_bias: 1.0,
        ..linear
    };
    assert_eq!(red(&t, &biased, &at_level(c, 0.5)), [3.0; 4]);
}

#[test]
fn implicit_lod_from_the_quad() {
    let t = mipped();
    let s = sampler(Filter::Point, MipFilter::Linear, Address::Wrap);
    // Lanes step `dx` along u and `dy` along v; the texture is 4 texels wide.
    let stepped = |dx: [f32; 2], dy: [f32; 2], mode: u32| {
        let base = [0.1, 0.1];
        quad(
            [
                [base[0], base[1], 0.0, 0.0],
                [base[0] + dx[0], base[1] + dx[1], 0.0, 0.0],
                [base[0] + dy[0], base[1] + dy[1], 0.0, 0.0],
                [base[0] + dx[0] + dy[0], base[1] + dx[1] + dy[1], 0.0, 0.0],
            ],
            mode,
        )
    };
    // One texel per pixel: lod 0; two: lod 1; four: lod 2.
    close(
        red(&t, &s, &stepped([0.25, 0.0], [0.0, 0.25], LOD_IMPLICIT)),
        [1.0; 4],
    );
    close(
        red(&t, &s, &stepped([0.5, 0.0], [0.0, 0.25], LOD_IMPLICIT)),
        [2.0; 4],
    );
    close(
        red(&t, &s, &stepped([0.0, 0.25], [0.0, 0.5], LOD_IMPLICIT)),
        [2.0; 4],
    );
    close(
        red(&t, &s, &stepped([1.0, 0.0], [0.0, 0.0], LOD_IMPLICIT)),
        [4.0; 4],
    );
    // Diagonal: sqrt(2) texels, lod 0.5: halfway between 1 and 2.
    close(
        red(&t, &s, &stepped([0.25, 0.25], [0.0, 0.0], LOD_IMPLICIT)),
        [1.5; 4],
    );
    // Magnified: a quarter texel per pixel, lod -2, clamped to 0.
    close(
        red(&t, &s, &stepped([0.0625, 0.0], [0.0, 0.0], LOD_IMPLICIT)),
        [1.0; 4],
    );
    // Per-lane bias on top of lod 0.
    let mut q = stepped([0.25, 0.0], [0.0, 0.25], LOD_BIAS);
    q.lod = [0.0, 1.0, 0.5, 2.0];
    close(red(&t, &s, &q), [1.0, 2.0, 1.5, 4.0]);
    // Sampler bias.
    let biased = SamplerState { lod_bias: 1.0, ..s };
    close(
        red(
            &t,
            &biased,
            &stepped([0.25, 0.0], [0.0, 0.25], LOD_IMPLICIT),
        ),
        [2.0; 4],
    );
}

#[test]
fn explicit_gradients_per_lane() {
    let t = mipped();
    let s = sampler(Filter::Point, MipFilter::Linear, Address::Wrap);
    let mut q = quad([[0.5, 0.5, 0.0, 0.0]; 4], LOD_GRADIENT);
    // u gradients of 1, 2, 4 and 2 texels along x; lane 3's along y.
    q.ddx[0] = [0.25, 0.5, 1.0, 0.0];
    q.ddy[1] = [0.0, 0.0, 0.0, 0.5];
    close(red(&t, &s, &q), [1.0, 2.0, 4.0, 2.0]);
}

#[test]
fn texture3d_filters_along_depth_and_scales_its_lod() {
    let t = tex(
        TextureKind::Texture3D,
        2,
        2,
        2,
        1,
        &[0.0, 0.0, 0.0, 0.0, 8.0, 8.0, 8.0, 8.0],
    );
    let linear = sampler(Filter::Linear, MipFilter::None, Address::Clamp);
    let point = sampler(Filter::Point, MipFilter::None, Address::Clamp);
    let q = quad(
        [
            [0.5, 0.5, 0.5, 0.0],
            [0.5, 0.5, 0.375, 0.0],
            [0.5, 0.5, 0.75, 0.0],
            [0.5, 0.5, 0.0, 0.0],
        ],
        LOD_LEVEL,
    );
    assert_eq!(red(&t, &linear, &q), [4.0, 2.0, 8.0, 0.0]);
    assert_eq!(red(&t, &point, &q), [8.0, 0.0, 8.0, 0.0]);
    // 1x1x4 with 3 mips of 1, 2, 4: a w step of 0.5 is two texels, lod 1.
    let t = tex(
        TextureKind::Texture3D,
        1,
        1,
        4,
        3,
        &[1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 4.0],
    );
    let s = sampler(Filter::Point, MipFilter::Linear, Address::Clamp);
    let q = quad(
        [
            [0.5, 0.5, 0.1, 0.0],
            [0.5, 0.5, 0.6, 0.0],
            [0.5, 0.5, 0.1, 0.0],
            [0.5, 0.5, 0.6, 0.0],
        ],
        LOD_IMPLICIT,
    );
    close(red(&t, &s, &q), [2.0; 4]);
}

#[test]
fn array_layers_round_to_nearest_and_clamp() {
    let t = tex(TextureKind::Texture2DArray, 1, 1, 3, 1, &[5.0, 6.0, 7.0]);
    let s = sampler(Filter::Linear, MipFilter::None, Address::Wrap);
    let q = quad(
        [
            [0.5, 0.5, 0.4, 0.0],
            [0.5, 0.5, 0.5, 0.0],
            [0.5, 0.5, 1.6, 0.0],
            [0.5, 0.5, -3.0, 0.0],
        ],
        LOD_LEVEL,
    );
    assert_eq!(red(&t, &s, &q), [5.0, 6.0, 7.0, 5.0]);
    let q = at_level([0.5, 0.5, 9.0, 0.0], 0.0);
    assert_eq!(red(&t, &s, &q), [7.0; 4]);
    let t = tex(
        TextureKind::Texture1DArray,
        2,
        1,
        2,
        1,
        &[1.0, 2.0, 3.0, 4.0],
    );
    let q = at_level([0.75, 1.2, 0.0, 0.0], 0.0);
    assert_eq!(
        red(
            &t,
            &sampler(Filter::Point, MipFilter::None, Address::Wrap),
            &q
        ),
        [4.0; 4]
    );
}

#[test]
fn cube_faces_follow_the_major_axis() {
    let t = tex(
        TextureKind::TextureCube,
        1,
        1,
        6,
        1,
        &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
    );
    let s = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    let dirs = [
        ([1.0, 0.2, 0.3], 0.0),
        ([-1.0, 0.2, -0.3], 1.0),
        ([0.0, 2.0, 1.0], 2.0),
        ([0.0, -2.0, 1.0], 3.0),
        ([0.1, 0.1, 1.0], 4.0),
        ([0.0, 0.0, -1.0], 5.0),
        ([1.0, 1.0, 1.0], 4.0),
        ([1.0, -1.0, 0.0], 3.0),
    ];
    for (d, face) in dirs {
        let q = at_level([d[0], d[1], d[2], 0.0], 0.0);
        assert_eq!(red(&t, &s, &q), [face; 4], "{d:?}");
    }
}

#[test]
fn cube_face_coordinates() {
    // 2x2 faces; texel (x, y) of face f reads 10 f + 2 y + x.
    let values: Vec<f32> = (0..6)
        .flat_map(|f| (0..4).map(move |i| (10 * f + i) as f32))
        .collect();
    let t = tex(TextureKind::TextureCube, 2, 2, 6, 1, &values);
    let s = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    let dirs = [
        ([1.0, -0.5, -0.5], 3.0),
        ([1.0, 0.5, 0.5], 0.0),
        ([-1.0, -0.5, 0.5], 13.0),
        ([0.5, 1.0, 0.5], 23.0),
        ([0.5, -1.0, 0.5], 31.0),
        ([-0.5, 0.5, 1.0], 40.0),
        ([-0.5, -0.5, -1.0], 53.0),
    ];
    for (d, want) in dirs {
        let q = at_level([d[0], d[1], d[2], 0.0], 0.0);
        assert_eq!(red(&t, &s, &q), [want; 4], "{d:?}");
    }
    // Linear taps cross the face's edges (seamless cube filtering). Near
    // the +X / -Y / -Z corner, (1, -0.99, -0.99) is +X's (u, v) = (0.995,
    // 0.995): texel coordinates 1.49 on both axes, so taps 1 and 2, the
    // fraction 0.49 truncated to 8 sub-texel bits, 125 / 256: weights
    // 131 / 256 and 125 / 256. (1, 1) is +X's 3; (2, 1) crosses to -Z's
    // texel (0, 1), 52; (1, 2) to -Y's texel (1, 1), 33; (2, 2) is the
    // corner, the mean of those three, 88 / 3. (131² × 3 + 131 × 125 × 85
    // + 125² × 88 / 3) / 65536 = 29.01751.
    let linear = sampler(Filter::Linear, MipFilter::None, Address::Wrap);
    let q = at_level([1.0, -0.99, -0.99, 0.0], 0.0);
    let (near, far) = (131.0 / 256.0, 125.0 / 256.0);
    let seamless = near * near * 3.0 + near * far * 85.0 + far * far * 88.0 / 3.0;
    let got = red(&t, &linear, &q);
    assert!(got.iter().all(|g| (g - seamless).abs() < 1e-3), "{got:?}");
}

#[test]
fn cube_arrays_and_cube_lod() {
    let values: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let t = tex(TextureKind::TextureCubeArray, 1, 1, 12, 1, &values);
    let s = sampler(Filter::Point, MipFilter::None, Address::Wrap);
    assert_eq!(red(&t, &s, &at_level([0.0, 0.0, 1.0, 1.0], 0.0)), [10.0; 4]);
    assert_eq!(red(&t, &s, &at_level([0.0, 0.0, 1.0, 7.0], 0.0)), [10.0; 4]);
    // 4x4 faces, mips read 1 and 2: x steps of 1 on +Z move u by 0.5, two texels.
    let mut values = vec![1.0; 16];
    values.extend([2.0; 4]);
    let values: Vec<f32> = (0..6).flat_map(|_| values.clone()).collect();
    let t = tex(TextureKind::TextureCube, 4, 4, 6, 2, &values);
    let s = sampler(Filter::Point, MipFilter::Linear, Address::Wrap);
    let q = quad(
        [
            [0.0, 0.0, 1.0, 0.0],
            [1.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [1.0, 0.0, 1.0, 0.0],
        ],
        LOD_IMPLICIT,
    );
    close(red(&t, &s, &q), [2.0; 4]);
}

#[test]
fn comparison_filters_the_pass_fractions() {
    let t = tex(TextureKind::Texture2D, 2, 1, 1, 1, &[0.3, 0.7]);
    let q = QuadSample {
        reference: [0.5, 0.5, 0.2, 0.8],
        ..at_level([0.5, 0.5, 0.0, 0.0], 0.0)
    };
    let cases = [
        (Compare::Less, [0.5, 0.5, 1.0, 0.0]),
        (Compare::GreaterEqual, [0.5, 0.5, 0.0, 1.0]),
        (Compare::Never, [0.0; 4]),
        (Compare::Always, [1.0; 4]),
    ];
    for (compare, want) in cases {
        let s = SamplerState {
            compare,
            ..sampler(Filter::Linear, MipFilter::None, Address::Clamp)
        };
        let out = sample_quad(Some(&t), &s, &q);
        assert_eq!(out, [want; 4], "{compare:?}");
    }
    let s = SamplerState {
        compare: Compare::Less,
        ..sampler(Filter::Point, MipFilter::None, Address::Clamp)
    };
    let q = QuadSample {
        reference: [0.5; 4],
        ..quad([[0.25; 4], [0.75; 4], [0.25; 4], [0.75; 4]], LOD_LEVEL)
    };
    assert_eq!(red(&t, &s, &q), [0.0, 1.0, 0.0, 1.0]);
    for (compare, want) in [
        (Compare::Equal, 1.0),
        (Compare::NotEqual, 0.0),
        (Compare::LessEqual, 1.0),
        (Compare::Greater, 0.0),
    ] {
        let s = SamplerState { compare, ..s };
        let q = QuadSample {
            reference: [0.3; 4],
            ..at_level([0.25, 0.5, 0.0, 0.0], 0.0)
        };
        assert_eq!(red(&t, &s, &q), [want; 4], "{compare:?}");
    }
}

#[test]
fn integer_formats_are_point_sampled_words() {
    let words: Vec<u8> = [0x7f80_0001u32, 0x8000_0000, 5, 1, 7, 0xffff_ffff, 0, 2]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let t = Texture::new(
        TextureKind::Texture2D,
        Format::Rgba32Uint,
        2,
        1,
        1,
        1,
        words,
    )
    .unwrap();
    let s = sampler(Filter::Linear, MipFilter::Linear, Address::Clamp);
    let out = sample_quad(Some(&t), &s, &at_level([0.25, 0.5, 0.0, 0.0], 0.0));
    assert_eq!(
        out.map(|c| c[0].to_bits()),
        [0x7f80_0001, 0x8000_0000, 5, 1]
    );
    let out = sample_quad(Some(&t), &s, &at_level([0.5, 0.5, 0.0, 0.0], 0.0));
    assert_eq!(out.map(|c| c[0].to_bits()), [7, 0xffff_ffff, 0, 2]);
    // Nearest mip: 2x1 with 2 mips, lod 0.7 reads mip 1.
    let words: Vec<u8> = [1u32, 2, 3].iter().flat_map(|w| w.to_le_bytes()).collect();
    let t = Texture::new(TextureKind::Texture2D, Format::R32Sint, 2, 1, 1, 2, words).unwrap();
    let out = sample_quad(Some(&t), &s, &at_level([0.25, 0.5, 0.0, 0.0], 0.7));
    assert_eq!(out.map(|c| c[0].to_bits()), [3, 0, 0, 1]);
}

#[test]
fn normalized_formats_filter_as_floats() {
    let t = Texture::new(
        TextureKind::Texture2D,
        Format::Bgra8Unorm,
        2,
        1,
        1,
        1,
        vec![0, 0, 255, 255, 0, 255, 0, 51],
    )
    .unwrap();
    let s = sampler(Filter::Linear, MipFilter::None, Address::Clamp);
    let out = sample_quad(Some(&t), &s, &at_level([0.5, 0.5, 0.0, 0.0], 0.0));
    assert_eq!(out.map(|c| c[0]), [0.5, 0.5, 0.0, 0.6]);
    let word: u32 = 0x3c0 | (0x3c0 << 11) | (0x1e0 << 22);
    let t = Texture::new(
        TextureKind::Texture2D,
        Format::R11g11b10Float,
        1,
        1,
        1,
        1,
        word.to_le_bytes().to_vec(),
    )
    .unwrap();
    let out = sample_quad(Some(&t), &s, &at_level([0.5, 0.5, 0.0, 0.0], 0.0));
    assert_eq!(out.map(|c| c[0]), [1.0; 4]);
}

#[test]
fn default_sampler_does_not_clamp_lod_to_zero() {
    let s = SamplerState::default();
    assert_eq!(s.max_lod, f32::MAX);
    assert_eq!(
        (s.filter, s.mip_filter, s.compare),
        (Filter::Point, MipFilter::None, Compare::None)
    );
}

#[test]
fn extreme_coordinates_do_not_panic() {
    let t = tex(
        TextureKind::Texture2D,
        2,
        2,
        1,
        2,
        &[1.0, 2.0, 3.0, 4.0, 5.0],
    );
    let extremes = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 3.0e38, -3.0e38];
    for address in [
        Address::Wrap,
        Address::Mirror,
        Address::Clamp,
        Address::Border,
        Address::MirrorOnce,
    ] {
        for filter in [Filter::Point, Filter::Linear] {
            let s = sampler(filter, MipFilter::Linear, address);
            for &e in &extremes {
                let mut q = quad(
                    [[e, e, e, e], [0.5; 4], [e, 0.5, 0.0, 0.0], [0.5, e, e, e]],
                    LOD_IMPLICIT,
                );
                q.offset = [7, -8, 0];
                sample_quad(Some(&t), &s, &q);
                let cube = tex(TextureKind::TextureCube, 1, 1, 6, 1, &[0.0; 6]);
                sample_quad(Some(&cube), &s, &q);
            }
        }
    }
}
