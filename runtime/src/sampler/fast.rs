//! The fast path of [`super::sample_quad`]: 2D textures read without
//! comparison, in the formats of [`super::texel`]. The format is matched
//! once per quad and the rest is compiled for it; the level of detail of
//! implicit derivatives is computed once per quad (the four lanes share
//! them); each level is filtered by [`plane::sample`]. The results are the
//! generic path's, bit for bit (NaNs aside: which NaN a NaN result carries
//! is not fixed by Rust's float semantics).

use super::texel::{Bgra8, Bgra8Srgb, Rg32F, Rgba32F, Rgba8, Rgba8Srgb, Texel, R32F, R8};
use super::{lod, plane, Compare, MipFilter, QuadSample, SamplerState, LOD_GRADIENT};
use crate::format::Format;
use crate::texture::{Texture, TextureKind};
use std::cell::OnceCell;

#[cfg(test)]
mod tests;

/// A quad's lookup on the fast path: the results, `[component][lane]`.
pub(crate) type Quad = fn(&Texture, &SamplerState, &QuadSample) -> [[f32; 4]; 4];

/// The fast path's lookup for `texture` read through `sampler`, or `None`
/// when the fast path does not cover them (it filters without choosing
/// between minification and magnification, so it takes only samplers with
/// a [`SamplerState::uniform_filter`]).
pub(crate) fn quad_for(texture: &Texture, sampler: &SamplerState) -> Option<Quad> {
    if texture.kind() != TextureKind::Texture2D
        || sampler.compare != Compare::None
        || sampler.uniform_filter().is_none()
        || sampler.srgb != 0
    {
        return None;
    }
    Some(match texture.format() {
        Format::Rgba8Unorm => quad::<Rgba8>,
        Format::Bgra8Unorm => quad::<Bgra8>,
        Format::Rgba8UnormSrgb => quad::<Rgba8Srgb>,
        Format::Bgra8UnormSrgb => quad::<Bgra8Srgb>,
        Format::R8Unorm => quad::<R8>,
        Format::R32Float => quad::<R32F>,
        Format::Rg32Float => quad::<Rg32F>,
        Format::Rgba32Float => quad::<Rgba32F>,
        _ => return None,
    })
}

/// The quad's results for a 2D texture of format `T`.
fn quad<T: Texel>(texture: &Texture, sampler: &SamplerState, args: &QuadSample) -> [[f32; 4]; 4] {
    debug_assert_eq!(texture.format(), T::FORMAT);
    if sampler.mip_filter == MipFilter::None {
        let level = texture.level(0, 0);
        return transpose(std::array::from_fn(|lane| {
            plane::sample::<T>(level, sampler, args, lane)
        }));
    }
    let mut cache = (0, texture.level(0, 0));
    let mut level = |mip: u32| {
        if cache.0 != mip {
            cache = (mip, texture.level(0, mip));
        }
        cache.1
    };
    let levels = lane_levels(texture, sampler, args);
    transpose(std::array::from_fn(|lane| {
        let [(first, _), (second, weight)] = levels[lane];
        let mut value = plane::sample::<T>(level(first), sampler, args, lane);
        if weight > 0.0 {
            let other = plane::sample::<T>(level(second), sampler, args, lane);
            for (v, o) in value.iter_mut().zip(other) {
                *v = *v * (1.0 - weight) + o * weight;
            }
        }
        value
    }))
}

/// `[component][lane]` from `[lane][component]`.
fn transpose(lanes: [[f32; 4]; 4]) -> [[f32; 4]; 4] {
    let [a, b, c, d] = lanes;
    [
        [a[0], b[0], c[0], d[0]],
        [a[1], b[1], c[1], d[1]],
        [a[2], b[2], c[2], d[2]],
        [a[3], b[3], c[3], d[3]],
    ]
}

/// The mips each lane reads and their weights, as the generic path selects
/// them; implicit derivatives are the quad's, so their level of detail is
/// computed at most once.
fn lane_levels(
    texture: &Texture,
    sampler: &SamplerState,
    args: &QuadSample,
) -> [[(u32, f32); 2]; 4] {
    let size = texture.level_size(0).map(|s| s as f32);
    let texels = |d: [f32; 2]| [d[0] * size[0], d[1] * size[1], 0.0];
    let quad_lod = OnceCell::new();
    std::array::from_fn(|lane| {
        lod::lane_levels(args, lane, sampler, texture.mips(), false, || {
            if args.mode == LOD_GRADIENT {
                let dx = texels([args.ddx[0][lane], args.ddx[1][lane]]);
                let dy = texels([args.ddy[0][lane], args.ddy[1][lane]]);
                return lod::from_derivatives(&dx, &dy);
            }
            *quad_lod.get_or_init(|| {
                let c = &args.coord;
                let dx = texels([c[0][1] - c[0][0], c[1][1] - c[1][0]]);
                let dy = texels([c[0][2] - c[0][0], c[1][2] - c[1][0]]);
                lod::from_derivatives(&dx, &dy)
            })
        })
    })
}
