//! Wide lookups against the runtime's own, lane by lane and bit by bit,
//! and what they decline.

use super::super::{
    sample_quad, Address, Filter, InlineSampler, QuadSample, SamplerState, LOD_LEVEL,
};
use super::{dxjit_sample_wide, wide_sampling_available, WideBatch, WideLookup, WIDE_LANES};
use crate::abi::DrawRow;
use crate::format::Format;
use crate::sampler::test_rng::Rng;
use crate::sampler::{SUBTEXEL_STEPS, UNORM8_SCALE};
use crate::texture::{Texture, TextureKind};
use std::arch::x86_64::{_mm256_loadu_ps, _mm256_storeu_ps};

/// A 2D texture of random bytes.
fn texture(rng: &mut Rng, format: Format, width: u32, height: u32) -> Texture {
    let bytes = (width * height * 4) as usize;
    let data = (0..bytes).map(|_| rng.next() as u8).collect();
    Texture::new(TextureKind::Texture2D, format, width, height, 1, 1, data).expect("texture")
}

/// A random rgba8 texture of `width` × `height`, a linear sampler with
/// `address`, and how the wide filter reads the pair. The inline
/// sampler's pointers are into the texture's heap memory (its bytes, or
/// a copy with an apron), which moving the texture leaves in place.
fn linear_rgba8(
    rng: &mut Rng,
    width: u32,
    height: u32,
    address: Address,
) -> (Texture, SamplerState, InlineSampler) {
    let t = texture(rng, Format::Rgba8Unorm, width, height);
    let s = sampler(Filter::Linear, address);
    let inline = InlineSampler::new(Some(&t), &s);
    (t, s, inline)
}

/// What the runtime samples for `lanes` lanes of `io`, four at a time.
fn runtime(t: &Texture, s: &SamplerState, io: &WideLookup, lanes: usize) -> Vec<[u32; 4]> {
    let mut out = Vec::new();
    for quad in 0..lanes.div_ceil(4) {
        let mut args = QuadSample {
            mode: LOD_LEVEL,
            ..QuadSample::default()
        };
        for l in 0..4 {
            args.coord[0][l] = io.u[4 * quad + l];
            args.coord[1][l] = io.v[4 * quad + l];
        }
        let r = sample_quad(Some(t), s, &args);
        out.extend((0..4).map(|l| r.map(|c| c[l].to_bits())));
    }
    out.truncate(lanes);
    out
}

/// Runs one wide lookup; its results per lane when it took it.
fn wide(inline: &InlineSampler, io: &mut WideLookup, lanes: usize) -> Option<Vec<[u32; 4]>> {
    let mut found = both(inline, inline, [*io, *io], lanes);
    *io = found[0].1;
    found.swap_remove(0).0
}

/// Runs two wide lookups in one call; each one's results per lane when
/// it was taken, and its lookup after the call. A lookup not taken has
/// its results unwritten.
#[allow(clippy::type_complexity)]
fn both(
    first: &InlineSampler,
    second: &InlineSampler,
    io: [WideLookup; 2],
    lanes: usize,
) -> Vec<(Option<Vec<[u32; 4]>>, WideLookup)> {
    let mut batch = WideBatch {
        samplers: [first, second],
        row: std::ptr::null(),
        entries: std::ptr::null(),
        varying: [[-1; 2]; 2],
        lookups: io,
    };
    // SAFETY: the CPU was checked by the caller; both samplers describe
    // live textures; `batch` is a valid batch.
    let taken = unsafe { dxjit_sample_wide(&mut batch, 2, lanes as u32) };
    (0..2)
        .map(|i| {
            let after = batch.lookups[i];
            if taken & (1 << i) == 0 {
                assert_eq!(
                    after.out.map(|c| c.map(f32::to_bits)),
                    io[i].out.map(|c| c.map(f32::to_bits)),
                    "a declined lookup wrote its results"
                );
                return (None, after);
            }
            let lanes = (0..lanes)
                .map(|l| after.out.map(|c| c[l].to_bits()))
                .collect();
            (Some(lanes), after)
        })
        .collect()
}

/// Whether this CPU lacks the wide filter; a test then says it is skipped.
fn lacks_wide_sampling() -> bool {
    let lacks = !wide_sampling_available();
    if lacks {
        eprintln!("skipped: this CPU lacks AVX2 and FMA");
    }
    lacks
}

fn sampler(filter: Filter, address: Address) -> SamplerState {
    SamplerState {
        filter,
        address: [address; 3],
        ..SamplerState::default()
    }
}

/// Every lookup it takes is the runtime's bit for bit: both formats,
/// point and linear, wrap and clamp, several sizes, every lane count,
/// coordinates inside and around the texture (taps in pairs and taps
/// wrapped or clamped one by one).
#[test]
fn wide_lookups_are_the_runtimes() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut taken, mut tried) = (0, 0);
    for format in [Format::Rgba8Unorm, Format::Bgra8Unorm] {
        for (width, height) in [(256, 256), (8, 4), (5, 3), (2, 2), (1, 1)] {
            let t = texture(&mut rng, format, width, height);
            for filter in [Filter::Point, Filter::Linear] {
                for address in [Address::Wrap, Address::Clamp] {
                    let s = sampler(filter, address);
                    let inline = InlineSampler::new(Some(&t), &s);
                    if inline.texels.is_null() {
                        continue;
                    }
                    for round in 0..200 {
                        let (low, high) = if round % 2 == 0 {
                            (0.02, 0.98)
                        } else {
                            (-2.0, 3.0)
                        };
                        let mut io = WideLookup {
                            u: std::array::from_fn(|_| rng.within(low, high)),
                            v: std::array::from_fn(|_| rng.within(low, high)),
                            out: [[-7.0; WIDE_LANES]; 4],
                        };
                        let lanes = 1 + round % WIDE_LANES;
                        tried += 1;
                        if let Some(found) = wide(&inline, &mut io, lanes) {
                            assert_eq!(
                                found,
                                runtime(&t, &s, &io, lanes),
                                "{format:?} {width}x{height} {filter:?} {address:?}"
                            );
                            taken += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(taken, tried, "every lookup converts");
}

/// Where a texture's size is not a power of two, a coordinate's steps are
/// a rounded product and then a rounded difference, as compiled code and
/// the runtime round them, not one FMA (which power-of-two sizes take):
/// coordinates whose floor the two roundings change are each the
/// runtime's. The texture is 5 texels wide (u × 1280 − 128).
#[test]
fn steps_of_other_sizes_round_the_product_first() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(41);
    let (t, s, inline) = linear_rgba8(&mut rng, 5, 3, Address::Clamp);
    let (scale, center) = (inline.scale[0][0], inline.center[0]);
    assert_eq!((scale, center), (1280.0, 128.0));
    let floor_of = |u: f32, fused: bool| match fused {
        true => u.mul_add(scale, -center).floor(),
        false => (u * scale - center).floor(),
    };
    // Floats a few units in the last place around each step boundary.
    let split: Vec<f32> = (128..1280 + 128)
        .flat_map(|n| {
            let bits = (n as f32 / scale).to_bits();
            (bits - 4..=bits + 4).map(f32::from_bits)
        })
        .filter(|&u| floor_of(u, true) != floor_of(u, false))
        .collect();
    assert!(
        split.len() >= WIDE_LANES,
        "{} coordinates found",
        split.len()
    );
    for lanes in split.chunks_exact(WIDE_LANES) {
        let mut io = WideLookup {
            u: lanes.try_into().expect("sixteen"),
            v: std::array::from_fn(|_| rng.within(0.0, 1.0)),
            out: [[-7.0; WIDE_LANES]; 4],
        };
        let found = wide(&inline, &mut io, WIDE_LANES).expect("taken");
        assert_eq!(found, runtime(&t, &s, &io, WIDE_LANES), "{:?}", io.u);
    }
}

/// Only powers of two from 1 up to the largest finite one make every
/// product exact.
#[test]
fn exact_products_are_by_powers_of_two_from_one() {
    for scale in [1.0, 2.0, 256.0, 65536.0, 2f32.powi(127)] {
        assert!(super::exact_product(scale), "{scale}");
    }
    let others = [0.5, 0.0, -0.0, -256.0, 1280.0, 1.5, f32::INFINITY];
    for scale in others.into_iter().chain([f32::NAN, f32::MIN_POSITIVE]) {
        assert!(!super::exact_product(scale), "{scale}");
    }
}

/// Lanes past `lanes` are not read: not-a-number coordinates there do
/// not stop the lookup. An active lane's not-a-number, infinite or far
/// coordinate does. A lane whose taps wrap (the last column's right
/// neighbour is the first) is taken, and is the runtime's.
#[test]
fn wide_lookups_decline_only_coordinates_that_do_not_convert() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(7);
    let (t, s, inline) = linear_rgba8(&mut rng, 16, 16, Address::Wrap);
    let inside = WideLookup {
        u: [0.5; WIDE_LANES],
        v: [0.25; WIDE_LANES],
        out: [[0.0; WIDE_LANES]; 4],
    };
    let mut io = inside;
    io.u[12..].fill(f32::NAN);
    assert!(wide(&inline, &mut io, 12).is_some());
    for bad in [f32::NAN, f32::INFINITY, -1.0e30, 1.0e30] {
        for axis in 0..2 {
            let mut io = inside;
            [&mut io.u, &mut io.v][axis][3] = bad;
            assert!(wide(&inline, &mut io, 16).is_none(), "{bad} on axis {axis}");
        }
    }
    let mut io = inside;
    io.u[5] = 15.75 / 16.0;
    io.v[9] = -0.01;
    let found = wide(&inline, &mut io, 16).expect("taken");
    assert_eq!(found, runtime(&t, &s, &io, 16));
}

/// The quotient by reciprocal and correction is the correctly rounded
/// quotient for every sum a filter makes, as the runtime divides it.
#[test]
fn quotients_by_reciprocal_are_correctly_rounded() {
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
        eprintln!("skipped: this CPU lacks AVX2 and FMA");
        return;
    }
    let steps = SUBTEXEL_STEPS * SUBTEXEL_STEPS;
    let last = (UNORM8_SCALE * steps) as u32;
    for first in (0..=last).step_by(WIDE_LANES) {
        let sums: [f32; WIDE_LANES] = std::array::from_fn(|i| (first + i as u32).min(last) as f32);
        // SAFETY: the CPU was checked above.
        let made = unsafe { quotient_of(sums.map(|s| s / SUBTEXEL_STEPS)) };
        for (sum, q) in sums.iter().zip(made) {
            let runtime = (sum / steps) / UNORM8_SCALE;
            assert_eq!(q.to_bits(), runtime.to_bits(), "{sum}");
        }
    }
}

/// [`super::quotient`] of sixteen sums.
#[target_feature(enable = "avx2,fma")]
fn quotient_of(sums: [f32; WIDE_LANES]) -> [f32; WIDE_LANES] {
    let mut out = [0.0; WIDE_LANES];
    for half in [0, 8] {
        // SAFETY: both arrays hold eight floats from `half`.
        unsafe {
            let q = super::quotient(_mm256_loadu_ps(sums.as_ptr().add(half)));
            _mm256_storeu_ps(out.as_mut_ptr().add(half), q);
        }
    }
    out
}

/// Two lookups in one call through different textures are each the
/// runtime's; a lookup whose coordinates do not convert is declined
/// alone, and one whose pair has no texels is declined.
#[test]
fn two_lookups_in_one_call_are_taken_or_declined_each() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(11);
    let a = texture(&mut rng, Format::Rgba8Unorm, 32, 16);
    let b = texture(&mut rng, Format::Bgra8Unorm, 8, 8);
    let (sa, sb) = (
        sampler(Filter::Linear, Address::Wrap),
        sampler(Filter::Point, Address::Clamp),
    );
    let (ia, ib) = (
        InlineSampler::new(Some(&a), &sa),
        InlineSampler::new(Some(&b), &sb),
    );
    let lookup = |rng: &mut Rng| WideLookup {
        u: std::array::from_fn(|_| rng.within(-1.0, 2.0)),
        v: std::array::from_fn(|_| rng.within(-1.0, 2.0)),
        out: [[-7.0; WIDE_LANES]; 4],
    };
    for lanes in [4, 8, 12, 16] {
        let io = [lookup(&mut rng), lookup(&mut rng)];
        let found = both(&ia, &ib, io, lanes);
        assert_eq!(found[0].0.as_ref(), Some(&runtime(&a, &sa, &io[0], lanes)));
        assert_eq!(found[1].0.as_ref(), Some(&runtime(&b, &sb, &io[1], lanes)));
        let mut bad = io;
        bad[0].v[lanes - 1] = f32::NAN;
        let found = both(&ia, &ib, bad, lanes);
        assert!(found[0].0.is_none());
        assert_eq!(found[1].0.as_ref(), Some(&runtime(&b, &sb, &io[1], lanes)));
        let found = both(&InlineSampler::RUNTIME, &ib, io, lanes);
        assert!(found[0].0.is_none());
        assert!(found[1].0.is_some());
    }
}

/// Lookups whose u and v are a draw row's table entries interpolate them
/// as the row loop does (`top + rise × place` as one f32 FMA) and are
/// then the same lookups as with those u and v given:
/// taken alike and bit for bit equal, for every lane count (quads past the
/// step's are not read: the table ends with the step).
#[test]
fn table_coordinates_are_the_row_loops() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(23);
    let (_texture, _, inline) = linear_rgba8(&mut rng, 16, 8, Address::Wrap);
    let components = 3;
    for round in 0..40 {
        let lanes = 4 * (1 + round % 4);
        let quads = lanes / 4;
        // Each entry: the left and right columns' tops twice, then their
        // rises twice.
        let table: Vec<f32> = (0..components * quads)
            .flat_map(|_| {
                let [top, rise] = [(); 2].map(|()| [rng.within(-2.0, 3.0), rng.within(-2.0, 3.0)]);
                [top, top, rise, rise].into_iter().flatten()
            })
            .collect();
        let places = [rng.within(0.0, 1.0), rng.within(0.0, 1.0)];
        let row = DrawRow {
            end_x: 0,
            first_x: 0,
            columns: [0; 2],
            row_mask: [0; 4],
            center: 0.5,
            varying_count: components as u32,
            varying_set: [0; 2],
            places,
            varying: std::ptr::null(),
            table: table.as_ptr(),
            output_stride: 0,
            mask_stride: 0,
        };
        // u from component 2, v from component 0, as the row loop makes them.
        let value = |component: usize, lane: usize| {
            let entry = &table[8 * (lane / 4 * components + component)..][..8];
            let column = lane % 2;
            let place = places[lane / 2 % 2];
            entry[4 + column].mul_add(place, entry[column])
        };
        let mut given = WideLookup {
            u: [0.0; WIDE_LANES],
            v: [0.0; WIDE_LANES],
            out: [[-7.0; WIDE_LANES]; 4],
        };
        for lane in 0..lanes {
            given.u[lane] = value(2, lane);
            given.v[lane] = value(0, lane);
        }
        let expected = wide(&inline, &mut given, lanes).expect("taken");
        let blank = WideLookup {
            u: [f32::NAN; WIDE_LANES],
            v: [f32::NAN; WIDE_LANES],
            out: [[-7.0; WIDE_LANES]; 4],
        };
        let mut batch = WideBatch {
            samplers: [&inline, &inline],
            row: &row,
            entries: table.as_ptr(),
            varying: [[2, 0], [-1, -1]],
            lookups: [blank, given],
        };
        // SAFETY: the CPU was checked above; the sampler describes a live
        // texture; the row's table holds the step's quads.
        let taken = unsafe { dxjit_sample_wide(&mut batch, 2, lanes as u32) };
        assert_eq!(taken, 3, "{lanes} lanes");
        for (i, lookup) in batch.lookups.iter().enumerate() {
            let found: Vec<[u32; 4]> = (0..lanes)
                .map(|l| lookup.out.map(|c| c[l].to_bits()))
                .collect();
            assert_eq!(found, expected, "lookup {i}, {lanes} lanes");
        }
    }
}

/// The pair test is left out only along an axis that wraps over texels
/// with an apron: a wrapping axis of a texture too large for one, and a
/// clamping axis, are tested.
#[test]
fn pairs_fit_only_where_wrapped_taps_have_an_apron() {
    let mut rng = Rng(31);
    let small = texture(&mut rng, Format::Rgba8Unorm, 16, 8);
    let large = texture(&mut rng, Format::Rgba8Unorm, 1024, 512);
    let wrap = InlineSampler::new(Some(&small), &sampler(Filter::Linear, Address::Wrap));
    let clamp = InlineSampler::new(Some(&small), &sampler(Filter::Linear, Address::Clamp));
    let bare = InlineSampler::new(Some(&large), &sampler(Filter::Linear, Address::Wrap));
    assert!(super::pairs_fit(&wrap, 0) && super::pairs_fit(&wrap, 1));
    assert!(!super::pairs_fit(&clamp, 0) && !super::pairs_fit(&clamp, 1));
    assert!(!super::pairs_fit(&bare, 0) && !super::pairs_fit(&bare, 1));
}

/// Wrapping lookups into a texture too large for an apron, whose taps
/// cross its last column and row, are the runtime's: their pairs are
/// tested and wrapped one by one.
#[test]
fn wrapped_taps_without_an_apron_are_the_runtimes() {
    if lacks_wide_sampling() {
        return;
    }
    let mut rng = Rng(37);
    let (t, s, inline) = linear_rgba8(&mut rng, 1024, 512, Address::Wrap);
    for round in 0..50 {
        let mut io = WideLookup {
            u: std::array::from_fn(|_| rng.within(0.999, 1.001)),
            v: std::array::from_fn(|_| rng.within(-0.5, 1.5)),
            out: [[-7.0; WIDE_LANES]; 4],
        };
        let lanes = 1 + round % WIDE_LANES;
        let found = wide(&inline, &mut io, lanes).expect("taken");
        assert_eq!(found, runtime(&t, &s, &io, lanes), "round {round}");
    }
}
