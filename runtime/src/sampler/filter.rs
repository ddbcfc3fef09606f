//! Filtering within one mip level: texel taps, addressing, weights and the
//! comparison of comparison samplers.

use super::{address, Address, Compare, Filter, SamplerState};
use crate::format::FormatKind;
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
    /// Cube faces clamp at their edges whatever the sampler says.
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
fn passes(compare: Compare, reference: f32, texel: f32) -> bool {
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

/// The filtered value of mip `mip` at `at`, as four f32s. Float and unorm
/// formats are filtered; integer formats take the point filter and give
/// their words' bits. A comparison sampler compares `reference` with each
/// tap's first component before filtering and gives the weighted pass
/// fraction in all four components. Taps outside the texture under border
/// addressing read the border colour.
pub(crate) fn sample_level(
    texture: &Texture,
    sampler: &SamplerState,
    at: &Lookup,
    mip: u32,
    reference: f32,
) -> [f32; 4] {
    let integer = matches!(texture.format().kind(), FormatKind::Uint | FormatKind::Sint);
    let filter = if integer {
        Filter::Point
    } else {
        sampler.filter
    };
    let size = texture.level_size(mip);
    let axes: [[(i64, f32); 2]; 3] = std::array::from_fn(|axis| {
        if axis < at.dims {
            axis_taps(filter, at.coord[axis], size[axis], at.offset[axis])
        } else {
            [(0, 1.0), (0, 0.0)]
        }
    });
    if integer && sampler.compare == Compare::None {
        return tap(texture, sampler, at, mip, axes.map(|taps| taps[0].0));
    }
    let mut sum = [0.0f32; 4];
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
                for (s, v) in sum.iter_mut().zip(value) {
                    *s += weight * v;
                }
            }
        }
    }
    sum
}

/// One texel after addressing, or the border colour.
fn tap(
    texture: &Texture,
    sampler: &SamplerState,
    at: &Lookup,
    mip: u32,
    index: [i64; 3],
) -> [f32; 4] {
    let size = texture.level_size(mip);
    let mut resolved = [0u32; 3];
    for axis in 0..at.dims {
        let mode = if at.cube {
            Address::Clamp
        } else {
            sampler.address[axis]
        };
        match address::resolve(mode, index[axis], size[axis]) {
            Some(i) => resolved[axis] = i,
            None => return sampler.border,
        }
    }
    let z = if at.dims == 3 { resolved[2] } else { at.slice };
    let words = texture.fetch(resolved[0] as i32, resolved[1] as i32, z as i32, mip as i32);
    words.map(f32::from_bits)
}
