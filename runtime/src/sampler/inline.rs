//! What compiled code needs to filter a texture itself, without calling
//! [`super::sample_quad`]: the common case of a whole pixel shader's
//! lookups — a 2D `rgba8_unorm` or `bgra8_unorm` texture read at mip 0
//! with a point or (bi)linear filter, wrapped (power-of-two sizes) or
//! clamped, without comparison.
//!
//! The runtime fills one [`InlineSampler`] per (texture, sampler) pair a
//! shader samples through, once per worker; compiled code tests
//! [`InlineSampler::texels`] and, when it is not null, computes the taps,
//! weights and texel decodes of `plane::sample` in vectors, with sums
//! that are the runtime's exactly, so its results are the runtime's bit
//! for bit. It calls the runtime instead when `texels` is null, and for
//! quads whose texel coordinates, in steps of 1/256 texel, do not convert
//! to 32-bit integers (not numbers, or at least 2^31 steps, 2^23 texels,
//! from the origin): the runtime's 64-bit indices and the vector code's
//! 32-bit ones could differ there.

use super::{Address, Compare, Filter, MipFilter, SamplerState, SUBTEXEL_STEPS};
use crate::format::Format;
use crate::texture::{Texture, TextureKind};

/// (SRV slot, sampler slot) pairs a kernel can sample inline; lookups
/// through further pairs call the runtime.
pub const INLINE_PAIRS: usize = 8;

/// One (texture, sampler) pair as compiled code filters it. Every field
/// but `texels` is meaningful only when `texels` is not null, and holds its
/// value in each of four lanes, so that compiled code reads it as one
/// vector.
///
/// Compiled code finds a lane's taps from its texel coordinate in steps,
/// `n = floor(u × scale − center)` (as an integer): along each axis the
/// first tap is texel `n >> 8` and the second weighs `n & step_mask` of
/// 256. That is `axis_taps`' index and truncated fraction: `u × scale` is
/// `u × size` times 256 exactly, and so is the subtraction.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InlineSampler {
    /// Mip 0 of the texture, or its copy with an apron (one more column
    /// and row, holding the last column's and row's second taps: see
    /// `texture/apron.rs`) when the texture is small enough, or null:
    /// call the runtime.
    pub texels: *const u8,
    /// Bytes between rows of `texels`.
    pub row_pitch: [u32; 4],
    /// Byte selections that spread a pair of lanes' texel pairs into
    /// 16-bit channels: `channel_bytes[h]` turns 16 bytes holding lane
    /// `l`'s left and right texels at `8l` and `8l + 4` (`l` = 0, 1) into
    /// the words `[left, right]` of lane 0 and then of lane 1, for channel
    /// `2h` in the low 8 bytes and channel `2h + 1` in the high 8 (high
    /// bytes zero: index bit 7 set). Red and blue come from the texel's
    /// first and third bytes for `rgba8_unorm`, its third and first for
    /// `bgra8_unorm`.
    pub channel_bytes: [[u8; 16]; 2],
    /// Subtracted from `u × scale` before the floor: 128 (half a texel)
    /// for linear filtering, 0 for point.
    pub center: [f32; 4],
    /// ANDed into a coordinate in steps to give the second tap's weight:
    /// 255 for linear filtering, 0 for point (the second tap weighs 0).
    pub step_mask: [u32; 4],
    /// Per axis, 256 times the texels along it, as floats.
    pub scale: [[f32; 4]; 2],
    /// Per axis, ANDed into a texel index: `size − 1` when the axis wraps
    /// (power-of-two sizes only), all ones when it clamps.
    pub wrap_mask: [[u32; 4]; 2],
    /// Per axis, the last texel index, `size − 1`: indices are clamped to
    /// `0..=last` after the wrap mask.
    pub last: [[u32; 4]; 2],
    /// Per axis, the largest first tap whose second tap is the next texel
    /// in memory: `size − 1` with an apron, else `size − 2` (−1 for one
    /// texel). Compiled code reads both taps of a row with one load when
    /// every lane's first tap is at most this.
    pub pair_limit: [[i32; 4]; 2],
}

impl InlineSampler {
    /// The pair compiled code cannot filter itself.
    pub const RUNTIME: InlineSampler = InlineSampler {
        texels: std::ptr::null(),
        row_pitch: [0; 4],
        channel_bytes: [[0; 16]; 2],
        center: [0.0; 4],
        step_mask: [0; 4],
        scale: [[0.0; 4]; 2],
        wrap_mask: [[0; 4]; 2],
        last: [[0; 4]; 2],
        pair_limit: [[0; 4]; 2],
    };

    /// How compiled code reads `texture` through `sampler`:
    /// [`InlineSampler::RUNTIME`] unless the pair is in the inline subset.
    pub fn new(texture: Option<&Texture>, sampler: &SamplerState) -> InlineSampler {
        let Some(texture) = texture else {
            return Self::RUNTIME;
        };
        let first_bytes = match texture.format() {
            Format::Rgba8Unorm => [0, 1, 2, 3],
            Format::Bgra8Unorm => [2, 1, 0, 3],
            _ => return Self::RUNTIME,
        };
        let mip0_only = sampler.mip_filter == MipFilter::None || texture.mips() == 1;
        if texture.kind() != TextureKind::Texture2D
            || sampler.compare != Compare::None
            || !mip0_only
        {
            return Self::RUNTIME;
        }
        let [width, height, _] = texture.level_size(0);
        let axis = |mode: Address, n: u32| match mode {
            Address::Wrap if n.is_power_of_two() => Some(n - 1),
            Address::Clamp => Some(u32::MAX),
            _ => None,
        };
        let (Some(wrap_u), Some(wrap_v)) = (
            axis(sampler.address[0], width),
            axis(sampler.address[1], height),
        ) else {
            return Self::RUNTIME;
        };
        let Some(filter) = sampler.uniform_filter().filter(|_| sampler.srgb == 0) else {
            return Self::RUNTIME;
        };
        let linear = filter != Filter::Point;
        let wraps = [wrap_u, wrap_v].map(|mask| mask != u32::MAX);
        // With an apron, every first tap's pair is next to it (the last
        // column's and row's second taps are in the apron).
        let (texels, pitch, pair_limit) = match texture.apron(wraps) {
            Some(apron) => (
                apron.as_ptr(),
                4 * (width + 1),
                [width, height].map(|n| n as i32 - 1),
            ),
            None => (
                texture.level(0, 0).bytes.as_ptr(),
                4 * width,
                [width, height].map(|n| n as i32 - 2),
            ),
        };
        InlineSampler {
            texels,
            row_pitch: [pitch; 4],
            channel_bytes: channel_bytes(first_bytes),
            center: [if linear { STEP_CENTER } else { 0.0 }; 4],
            step_mask: [if linear { STEP_MASK } else { 0 }; 4],
            scale: [width, height].map(|n| [n as f32 * SUBTEXEL_STEPS; 4]),
            wrap_mask: [[wrap_u; 4], [wrap_v; 4]],
            last: [[width - 1; 4], [height - 1; 4]],
            pair_limit: pair_limit.map(|limit| [limit; 4]),
        }
    }
}

/// Half a texel in steps: linear filtering's first tap is where the
/// coordinate lies half a texel before.
const STEP_CENTER: f32 = SUBTEXEL_STEPS / 2.0;

/// The steps of a texel, less one: a linear filter's second tap weighs
/// the coordinate's steps past its first tap.
const STEP_MASK: u32 = SUBTEXEL_STEPS as u32 - 1;

/// [`InlineSampler::channel_bytes`] for a format whose red, green, blue
/// and alpha are bytes `first_bytes` of a texel.
fn channel_bytes(first_bytes: [u8; 4]) -> [[u8; 16]; 2] {
    let mut masks = [[0x80; 16]; 2];
    for (h, mask) in masks.iter_mut().enumerate() {
        for half in 0..2 {
            let byte = first_bytes[2 * h + half];
            for (word, texel) in (0..4).zip([0, 4, 8, 12]) {
                mask[8 * half + 2 * word] = texel + byte;
            }
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::APRON_TEXELS;

    fn texture(format: Format, width: u32, height: u32, mips: u32) -> Texture {
        Texture::new(
            TextureKind::Texture2D,
            format,
            width,
            height,
            1,
            mips,
            vec![0; 32 * (width * height) as usize],
        )
        .expect("valid texture")
    }

    #[test]
    fn rgba8_linear_wrap_is_inline() {
        let t = texture(Format::Rgba8Unorm, 8, 4, 1);
        let s = SamplerState {
            filter: Filter::Linear,
            ..SamplerState::default()
        };
        let i = InlineSampler::new(Some(&t), &s);
        assert!(!i.texels.is_null());
        // Rows of the copy with an apron: nine texels.
        assert_eq!(i.row_pitch, [36; 4]);
        // Lane 0's left texel is bytes 0..4, its right 4..8; lane 1's 8..16.
        let z = 0x80;
        assert_eq!(
            i.channel_bytes,
            [
                [0, z, 4, z, 8, z, 12, z, 1, z, 5, z, 9, z, 13, z],
                [2, z, 6, z, 10, z, 14, z, 3, z, 7, z, 11, z, 15, z]
            ]
        );
        assert_eq!((i.center, i.step_mask), ([128.0; 4], [255; 4]));
        assert_eq!(i.scale, [[2048.0; 4], [1024.0; 4]]);
        assert_eq!(i.wrap_mask, [[7; 4], [3; 4]]);
        assert_eq!(i.last, [[7; 4], [3; 4]]);
        assert_eq!(i.pair_limit, [[7; 4], [3; 4]]);
    }

    /// The copy with an apron a small texture's pair reads: its last
    /// column's and last row's second taps next to them, wrapped or
    /// clamped as the sampler says. A texture past [`APRON_TEXELS`] is
    /// read where it is, its last column's and row's pairs left to the
    /// path that wraps or clamps each tap.
    #[test]
    fn small_textures_are_read_with_an_apron() {
        let (width, height) = (4u32, 2u32);
        let data: Vec<u8> = (0..width * height)
            .flat_map(|t| [t as u8, 0, 0, 0])
            .collect();
        let t = Texture::new(
            TextureKind::Texture2D,
            Format::Rgba8Unorm,
            width,
            height,
            1,
            1,
            data,
        )
        .expect("valid texture");
        let texel = |i: &InlineSampler, x: u32, y: u32| {
            let at = (y * i.row_pitch[0] + 4 * x) as usize;
            // SAFETY: (x, y) is inside the copy (`width + 1` × `height + 1`).
            unsafe { *i.texels.add(at) }
        };
        let wrap = InlineSampler::new(Some(&t), &SamplerState::default());
        assert_eq!([texel(&wrap, 4, 0), texel(&wrap, 4, 1)], [0, 4]);
        assert_eq!([texel(&wrap, 0, 2), texel(&wrap, 4, 2)], [0, 0]);
        let clamp_y = SamplerState {
            address: [Address::Wrap, Address::Clamp, Address::Wrap],
            ..SamplerState::default()
        };
        let mixed = InlineSampler::new(Some(&t), &clamp_y);
        assert_eq!([texel(&mixed, 3, 2), texel(&mixed, 4, 2)], [7, 4]);
        assert_eq!(mixed.pair_limit, [[3; 4], [1; 4]]);

        let big = texture(Format::Rgba8Unorm, 1024, 512, 1);
        const { assert!(1024 * 512 > APRON_TEXELS) };
        let plain = InlineSampler::new(Some(&big), &SamplerState::default());
        assert_eq!(plain.texels, big.data().as_ptr());
        assert_eq!(plain.row_pitch, [4096; 4]);
        assert_eq!(plain.pair_limit[0], [1022; 4]);
    }

    #[test]
    fn bgra8_point_clamp_is_inline() {
        let t = texture(Format::Bgra8Unorm, 5, 3, 1);
        let s = SamplerState {
            address: [Address::Clamp; 3],
            ..SamplerState::default()
        };
        let i = InlineSampler::new(Some(&t), &s);
        // Red is each texel's third byte, blue its first.
        let z = 0x80;
        assert_eq!(
            i.channel_bytes,
            [
                [2, z, 6, z, 10, z, 14, z, 1, z, 5, z, 9, z, 13, z],
                [0, z, 4, z, 8, z, 12, z, 3, z, 7, z, 11, z, 15, z]
            ]
        );
        assert_eq!((i.center, i.step_mask), ([0.0; 4], [0; 4]));
        assert_eq!(i.wrap_mask, [[u32::MAX; 4]; 2]);
        assert_eq!(i.last, [[4; 4], [2; 4]]);
        assert_eq!(i.pair_limit, [[4; 4], [2; 4]]);
    }

    #[test]
    fn other_pairs_call_the_runtime() {
        let linear = SamplerState {
            filter: Filter::Linear,
            ..SamplerState::default()
        };
        let cases = [
            (texture(Format::Rgba8Unorm, 6, 4, 1), linear),
            (texture(Format::Rgba32Float, 4, 4, 1), linear),
            (
                texture(Format::Rgba8Unorm, 4, 4, 3),
                SamplerState {
                    mip_filter: MipFilter::Linear,
                    ..linear
                },
            ),
            (
                texture(Format::Rgba8Unorm, 4, 4, 1),
                SamplerState {
                    address: [Address::Mirror; 3],
                    ..linear
                },
            ),
            (
                texture(Format::Rgba8Unorm, 4, 4, 1),
                SamplerState {
                    compare: Compare::Less,
                    ..linear
                },
            ),
        ];
        for (t, s) in &cases {
            assert_eq!(InlineSampler::new(Some(t), s), InlineSampler::RUNTIME);
        }
        assert_eq!(InlineSampler::new(None, &linear), InlineSampler::RUNTIME);
    }
}
