//! Filtering within one mip level: texel taps, addressing, weights, the
//! comparison of comparison samplers and the reduction of the taps.

use super::reduce::Reducer;
use super::seam::{self, SeamTap};
use super::{address, Compare, Filter, SamplerState};
use crate::format::{srgb_to_linear, FormatKind};
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

/// The taps along one axis: texel index and weight.
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
            let low = x.floor();
            let frac = x - low;
            let i = (low as i64).saturating_add(offset.into());
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
    let mut sum = Reducer::new(sampler);
    for &(x, wx) in &axes[0] {
        for &(y, wy) in &axes[1] {
            for &(z, wz) in &axes[2] {
                let weight = wx * wy * wz;
                if weight == 0.0 {
                    continue;
                }
                let value = tap(texture, sampler, at, mip, [x, y, z]);
                let value = if sampler.compare == Compare::None {
                    value
                } else {
                    [f32::from(u8::from(passes(sampler.compare, reference, value[0]))); 4]
                };
                sum.add(weight, value);
            }
        }
    }
    sum.finish()
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
    let size = texture.level_size(mip);
    if at.cube {
        let face = at.slice % 6;
        let base = at.slice - face;
        let read = |[x, y, f]: [u32; 3]| {
            let words = texture.fetch(x as i32, y as i32, (base + f) as i32, mip as i32);
            decoded(texture, sampler, words)
        };
        return match seam::resolve(face, index[0], index[1], size[0]) {
            SeamTap::One(texel) => read(texel),
            SeamTap::Corner([own, ..]) if integer(texture) => read(own),
            SeamTap::Corner(texels) => {
                let [a, b, c] = texels.map(read);
                std::array::from_fn(|k| (a[k] + b[k] + c[k]) / 3.0)
            }
        };
    }
    let mut resolved = [0u32; 3];
    for axis in 0..at.dims {
        match address::resolve(sampler.address[axis], index[axis], size[axis]) {
            Some(i) => resolved[axis] = i,
            None => return sampler.border,
        }
    }
    let z = if at.dims == 3 { resolved[2] } else { at.slice };
    let words = texture.fetch(resolved[0] as i32, resolved[1] as i32, z as i32, mip as i32);
    decoded(texture, sampler, words)
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
