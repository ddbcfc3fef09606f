//! Filtering within one mip level: texel taps, addressing, weights, the
//! comparison of comparison samplers and the reduction of the taps.

use super::reduce::Reducer;
use super::seam::{self, SeamTap};
use super::{address, Compare, Filter, Reduction, SamplerState};
use crate::format::{srgb_to_linear, Format, FormatKind};
use crate::texture::Texture;

/// Where one lane reads, in normalized coordinates of its image.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lookup {
    /// Normalized coordinates (only the first `dims` matter).
    pub coord: [f32; 3],
    /// Axes the image has: 1, 2 or 3.
    pub dims: usize,
    /// The slice `Texture::fetch` takes as z for non-3D textures.
    pub slice: u32,
    /// Integer texel offsets per axis.
    pub offset: [i32; 3],
    /// A cube face (`slice` is 6 × cube + face): taps off the face read
    /// the neighbouring faces (`seam.rs`) whatever the sampler says.
    pub cube: bool,
}

/// Steps a texel is divided into when linear filtering weighs its
/// neighbours: D3D11 requires at least 8 fractional bits of sub-texel
/// precision (`D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`, functional
/// specification 7.18.16.1), and WARP truncates the texel coordinate to
/// exactly 8. Weights are then multiples of 1/256, and their products
/// exact.
pub const SUBTEXEL_STEPS: f32 = 256.0;

/// The taps along one axis: texel index and weight. A linear filter's
/// fraction is truncated to [`SUBTEXEL_STEPS`] steps.
///
/// D3D snaps the scaled coordinate to fixed point (functional
/// specification 3.2.4.1, 7.18.7-8), here with 64 integer bits: NaN
/// becomes 0, +inf the largest value (every fraction bit set) and -inf the
/// smallest, and larger magnitudes saturate, so a coordinate that is not a
/// number still picks texels with weights that sum to 1.
#[inline]
pub(super) fn axis_taps(filter: Filter, u: f32, n: u32, offset: i32) -> [(i64, f32); 2] {
    let scaled = u * n as f32;
    match filter {
        Filter::Point => [
            ((scaled.floor() as i64).saturating_add(offset.into()), 1.0),
            (0, 0.0),
        ],
        Filter::Linear | Filter::Anisotropic => {
            let x = scaled - 0.5;
            let (low, frac) = match x {
                f32::INFINITY => (i64::MAX, (SUBTEXEL_STEPS - 1.0) / SUBTEXEL_STEPS),
                x if !x.is_finite() => (x.floor() as i64, 0.0),
                x => {
                    let low = x.floor();
                    let frac = ((x - low) * SUBTEXEL_STEPS).floor() / SUBTEXEL_STEPS;
                    (low as i64, frac)
                }
            };
            let i = low.saturating_add(offset.into());
            [(i, 1.0 - frac), (i.saturating_add(1), frac)]
        }
    }
}

/// Whether `reference` passes `compare` against a texel's value.
pub(crate) fn passes(compare: Compare, reference: f32, texel: f32) -> bool {
    match compare {
        Compare::None | Compare::Always => true,
        Compare::Never => false,
        Compare::Less => reference < texel,
        Compare::Equal => reference == texel,
        Compare::LessEqual => reference <= texel,
        Compare::Greater => reference > texel,
        Compare::NotEqual => reference != texel,
        Compare::GreaterEqual => reference >= texel,
    }
}

/// The value of mip `mip` at `at` through `filter`, as four f32s. Float
/// and unorm formats are filtered; integer formats take the point filter
/// and give their words' bits. A comparison sampler compares `reference`
/// with each tap's first component before filtering and gives the weighted
/// pass fraction in all four components. The taps combine as the sampler's
/// reduction says. Taps outside the texture under border addressing read
/// the border colour (already in the format's component space).
pub(crate) fn sample_level(
    texture: &Texture,
    sampler: &SamplerState,
    at: &Lookup,
    mip: u32,
    filter: Filter,
    reference: f32,
) -> [f32; 4] {
    let integer = integer(texture);
    let filter = if integer { Filter::Point } else { filter };
    let size = texture.level_size(mip);
    let axes: [[(i64, f32); 2]; 3] = std::array::from_fn(|axis| {
        if axis >= at.dims {
            return [(0, 1.0), (0, 0.0)];
        }
        let mut taps = axis_taps(filter, at.coord[axis], size[axis], at.offset[axis]);
        if at.cube && filter == Filter::Point {
            // A face's point tap stays on it (u = 1 would read one past it).
            taps[0].0 = taps[0].0.clamp(0, i64::from(size[axis]) - 1);
        }
        taps
    });
    if integer && sampler.compare == Compare::None {
        return tap(texture, sampler, at, mip, axes.map(|taps| taps[0].0));
    }
    let scale = texel_scale(texture, sampler);
    let mut sum = Reducer::new(sampler);
    let mut border = BorderSum::default();
    for &(x, wx) in &axes[0] {
        for &(y, wy) in &axes[1] {
            for &(z, wz) in &axes[2] {
                let weight = wx * wy * wz;
                if weight == 0.0 {
                    continue;
                }
                let texel = tap_texel(texture, sampler, at, mip, [x, y, z]);
                if texel.is_none() && scale != 1.0 {
                    border.add(weight, sampler.border);
                    continue;
                }
                let value = texel.unwrap_or(sampler.border);
                let value = if sampler.compare == Compare::None {
                    value.map(|v| v * scale)
                } else {
                    [f32::from(u8::from(passes(sampler.compare, reference, value[0]))); 4]
                };
                sum.add(weight, value);
            }
        }
    }
    let value = sum.finish();
    if scale == 1.0 {
        return value;
    }
    border.finish(value.map(|v| v / scale))
}

/// What a texture's texels are multiplied by before they are weighted, and
/// the weighted sum divided by: 255 for the 8-bit unorm formats under the
/// standard reduction without comparison or sRGB decoding, so their
/// integers are weighted (with weights of 8 sub-texel bits every product
/// and sum is exact, and the one division rounds the exactly filtered
/// value), 1 otherwise. `plane::sample` does the same through
/// `Texel::SCALE`.
fn texel_scale(texture: &Texture, sampler: &SamplerState) -> f32 {
    let eight_bit_unorm = matches!(
        texture.format(),
        Format::R8Unorm
            | Format::Rg8Unorm
            | Format::Rgba8Unorm
            | Format::Bgra8Unorm
            | Format::A8Unorm
            | Format::L8
            | Format::A8L8
            | Format::X8R8G8B8
    );
    let plain = sampler.compare == Compare::None
        && sampler.reduction == Reduction::Standard
        && sampler.srgb == 0;
    if eight_bit_unorm && plain {
        UNORM8_SCALE
    } else {
        1.0
    }
}

/// The scale of 8-bit unorm texels: their largest integer.
pub const UNORM8_SCALE: f32 = 255.0;

/// The border colour's share of a scaled filter (taps outside the texture
/// under border addressing), kept apart from the scaled texels so that a
/// border read alone gives the border colour exactly.
#[derive(Default)]
pub(crate) struct BorderSum(Option<[f32; 4]>);

impl BorderSum {
    /// Adds the border colour `border` with `weight`.
    pub(crate) fn add(&mut self, weight: f32, border: [f32; 4]) {
        let sum = self.0.get_or_insert([0.0; 4]);
        for (s, b) in sum.iter_mut().zip(border) {
            *s += weight * b;
        }
    }

    /// `texels` (the texels' filtered share, already divided by the
    /// scale) plus the border's share, if any tap read the border.
    pub(crate) fn finish(self, texels: [f32; 4]) -> [f32; 4] {
        match self.0 {
            Some(b) => std::array::from_fn(|c| texels[c] + b[c]),
            None => texels,
        }
    }
}

/// Whether `texture` holds integers (never filtered: a corner of an
/// integer cube reads its own face's texel).
fn integer(texture: &Texture) -> bool {
    matches!(texture.format().kind(), FormatKind::Uint | FormatKind::Sint)
}

/// One texel after addressing, or the border colour; on a cube, the texel
/// across a seam or the mean of a corner's three.
pub(crate) fn tap(
    texture: &Texture,
    sampler: &SamplerState,
    at: &Lookup,
    mip: u32,
    index: [i64; 3],
) -> [f32; 4] {
    tap_texel(texture, sampler, at, mip, index).unwrap_or(sampler.border)
}

/// [`tap`], with `None` where it reads the border colour.
fn tap_texel(
    texture: &Texture,
    sampler: &SamplerState,
    at: &Lookup,
    mip: u32,
    index: [i64; 3],
) -> Option<[f32; 4]> {
    let size = texture.level_size(mip);
    if at.cube {
        let face = at.slice % 6;
        let base = at.slice - face;
        let read = |[x, y, f]: [u32; 3]| {
            let words = texture.fetch(x as i32, y as i32, (base + f) as i32, mip as i32);
            decoded(texture, sampler, words)
        };
        return Some(match seam::resolve(face, index[0], index[1], size[0]) {
            SeamTap::One(texel) => read(texel),
            SeamTap::Corner([own, ..]) if integer(texture) => read(own),
            SeamTap::Corner(texels) => {
                let [a, b, c] = texels.map(read);
                std::array::from_fn(|k| (a[k] + b[k] + c[k]) / 3.0)
            }
        });
    }
    let mut resolved = [0u32; 3];
    for axis in 0..at.dims {
        resolved[axis] = address::resolve(sampler.address[axis], index[axis], size[axis])?;
    }
    let z = if at.dims == 3 { resolved[2] } else { at.slice };
    let words = texture.fetch(resolved[0] as i32, resolved[1] as i32, z as i32, mip as i32);
    Some(decoded(texture, sampler, words))
}

/// A texel's words as f32s; with D3D9's `SRGBTEXTURE` (`sampler.srgb`),
/// r, g and b of a non-integer format are decoded from sRGB.
fn decoded(texture: &Texture, sampler: &SamplerState, words: [u32; 4]) -> [f32; 4] {
    let mut value = words.map(f32::from_bits);
    if sampler.srgb != 0 && !integer(texture) {
        for v in &mut value[..3] {
            *v = srgb_to_linear(f64::from(*v)) as f32;
        }
    }
    value
}
