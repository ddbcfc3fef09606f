//! Texel decoders specialised per format, for the 2D fast path: each reads
//! a whole texel at once and gives what [`Format::load`] gives, as f32s,
//! times the format's filtering scale.

use super::filter::UNORM8_SCALE;
use crate::format::{decode8, decode8_srgb, Format};

/// A format the fast path decodes without dispatching per component.
pub(crate) trait Texel {
    /// The format decoded.
    const FORMAT: Format;
    /// What `read` multiplies `FORMAT.load`'s values by: 255 for the 8-bit
    /// unorm formats, whose integers are weighted (`filter::sample_level`
    /// does the same), 1 for the others.
    const SCALE: f32;
    /// Texel `index` of a level's `bytes`, as `FORMAT.load` reads it, as
    /// f32s times `SCALE`. Panics when the texel is past the end of `bytes`.
    fn read(bytes: &[u8], index: usize) -> [f32; 4];
}

/// `rgba8_unorm`.
pub(crate) struct Rgba8;
/// `bgra8_unorm`.
pub(crate) struct Bgra8;
/// `rgba8_unorm_srgb`.
pub(crate) struct Rgba8Srgb;
/// `bgra8_unorm_srgb`.
pub(crate) struct Bgra8Srgb;
/// `r8_unorm`.
pub(crate) struct R8;
/// `r32_float`.
pub(crate) struct R32F;
/// `rg32_float`.
pub(crate) struct Rg32F;
/// `rgba32_float`.
pub(crate) struct Rgba32F;

/// The `N` bytes of texel `index`.
fn bytes_of<const N: usize>(bytes: &[u8], index: usize) -> [u8; N] {
    let mut texel = [0; N];
    texel.copy_from_slice(&bytes[N * index..N * index + N]);
    texel
}

/// The float in word `w` of a texel.
fn word(texel: &[u8], w: usize) -> f32 {
    f32::from_le_bytes([
        texel[4 * w],
        texel[4 * w + 1],
        texel[4 * w + 2],
        texel[4 * w + 3],
    ])
}

impl Texel for Rgba8 {
    const FORMAT: Format = Format::Rgba8Unorm;
    const SCALE: f32 = UNORM8_SCALE;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let [r, g, b, a] = bytes_of::<4>(bytes, index);
        [r, g, b, a].map(f32::from)
    }
}

impl Texel for Bgra8 {
    const FORMAT: Format = Format::Bgra8Unorm;
    const SCALE: f32 = UNORM8_SCALE;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let [b, g, r, a] = bytes_of::<4>(bytes, index);
        [r, g, b, a].map(f32::from)
    }
}

impl Texel for Rgba8Srgb {
    const FORMAT: Format = Format::Rgba8UnormSrgb;
    const SCALE: f32 = 1.0;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let [r, g, b, a] = bytes_of::<4>(bytes, index);
        [
            decode8_srgb(r),
            decode8_srgb(g),
            decode8_srgb(b),
            decode8(a),
        ]
    }
}

impl Texel for Bgra8Srgb {
    const FORMAT: Format = Format::Bgra8UnormSrgb;
    const SCALE: f32 = 1.0;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let [b, g, r, a] = bytes_of::<4>(bytes, index);
        [
            decode8_srgb(r),
            decode8_srgb(g),
            decode8_srgb(b),
            decode8(a),
        ]
    }
}

impl Texel for R8 {
    const FORMAT: Format = Format::R8Unorm;
    const SCALE: f32 = UNORM8_SCALE;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        [f32::from(bytes[index]), 0.0, 0.0, UNORM8_SCALE]
    }
}

impl Texel for R32F {
    const FORMAT: Format = Format::R32Float;
    const SCALE: f32 = 1.0;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        [word(&bytes_of::<4>(bytes, index), 0), 0.0, 0.0, 1.0]
    }
}

impl Texel for Rg32F {
    const FORMAT: Format = Format::Rg32Float;
    const SCALE: f32 = 1.0;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let texel = bytes_of::<8>(bytes, index);
        [word(&texel, 0), word(&texel, 1), 0.0, 1.0]
    }
}

impl Texel for Rgba32F {
    const FORMAT: Format = Format::Rgba32Float;
    const SCALE: f32 = 1.0;
    #[inline]
    fn read(bytes: &[u8], index: usize) -> [f32; 4] {
        let texel = bytes_of::<16>(bytes, index);
        std::array::from_fn(|w| word(&texel, w))
    }
}

#[cfg(test)]
mod tests {
    use super::{Bgra8, Bgra8Srgb, Rg32F, Rgba32F, Rgba8, Rgba8Srgb, Texel, R32F, R8};

    /// Every texel of `bytes` reads as `Format::load` gives it, bit for bit,
    /// once divided by the scale.
    fn check<T: Texel>(bytes: &[u8]) {
        let size = T::FORMAT.bytes_per_texel() as usize;
        for (index, texel) in bytes.chunks_exact(size).enumerate() {
            let want = T::FORMAT.load(texel);
            let got = T::read(bytes, index).map(|v| (v / T::SCALE).to_bits());
            assert_eq!(got, want, "{:?} texel {index}", T::FORMAT);
        }
    }

    #[test]
    fn decoders_match_format_load() {
        let every_byte: Vec<u8> = (0..=255).collect();
        check::<Rgba8>(&every_byte);
        check::<Bgra8>(&every_byte);
        check::<Rgba8Srgb>(&every_byte);
        check::<Bgra8Srgb>(&every_byte);
        check::<R8>(&every_byte);
        let words: Vec<u8> = [
            0.0f32,
            -0.0,
            1.0,
            -2.5,
            f32::MAX,
            f32::MIN_POSITIVE / 2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]
        .iter()
        .map(|f| f.to_bits())
        .chain([0x7fc0_0001, 0xffa0_0000, 0x7f80_0001])
        .chain([0x3f80_0000; 5])
        .flat_map(u32::to_le_bytes)
        .collect();
        check::<R32F>(&words);
        check::<Rg32F>(&words);
        check::<Rgba32F>(&words);
    }
}
