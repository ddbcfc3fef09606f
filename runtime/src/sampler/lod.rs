//! Level-of-detail computation and mip selection.

use super::{MipFilter, QuadSample, SamplerState, LOD_BIAS, LOD_LEVEL};

/// The level of detail of a footprint whose x and y derivatives, in texels
/// of level 0, are `dx` and `dy`: log2 of the longer one's length
/// (isotropic), before any bias or clamp.
pub(crate) fn from_derivatives(dx: &[f32], dy: &[f32]) -> f32 {
    let length = |d: &[f32]| d.iter().map(|c| c * c).sum::<f32>().sqrt();
    length(dx).max(length(dy)).log2()
}

/// The mips lane `lane` reads and their weights: [`select`] of the level of
/// detail `args.mode` asks for plus the sampler's bias. That is the lane's
/// own level ([`LOD_LEVEL`]), or `derived` (the level [`from_derivatives`]
/// gives the lane's footprint) plus the lane's bias ([`LOD_BIAS`]) or alone.
/// Without a mip filter the level of detail does not matter and `derived`
/// is not called.
pub(crate) fn lane_levels(
    args: &QuadSample,
    lane: usize,
    sampler: &SamplerState,
    mips: u32,
    nearest: bool,
    derived: impl FnOnce() -> f32,
) -> [(u32, f32); 2] {
    let lod = if sampler.mip_filter == MipFilter::None {
        0.0
    } else {
        let unbiased = match args.mode {
            LOD_LEVEL => args.lod[lane],
            LOD_BIAS => derived() + args.lod[lane],
            _ => derived(),
        };
        unbiased + sampler.lod_bias
    };
    select(lod, sampler, mips, nearest)
}

/// The biased level of detail `lod` clamped to the sampler's [min_lod,
/// max_lod] (a NaN level counts as 0): the level that picks magnification
/// (≤ 0) or minification.
pub(crate) fn clamp(lod: f32, sampler: &SamplerState) -> f32 {
    let lod = if lod.is_nan() { 0.0 } else { lod };
    lod.max(sampler.min_lod).min(sampler.max_lod)
}

/// The mips to read and their weights for a biased level of detail `lod`:
/// clamped to the sampler's [min_lod, max_lod] and to the texture's mips,
/// then mip 0 (mip filter none), the nearest mip (point, or `nearest`), or
/// the two mips around it (linear). A NaN level of detail counts as 0.
pub(crate) fn select(
    lod: f32,
    sampler: &SamplerState,
    mips: u32,
    nearest: bool,
) -> [(u32, f32); 2] {
    let single = |level: u32| [(level, 1.0), (level, 0.0)];
    if sampler.mip_filter == MipFilter::None {
        return single(0);
    }
    let last = (mips - 1) as f32;
    let lod = clamp(lod, sampler).clamp(0.0, last);
    if nearest || sampler.mip_filter == MipFilter::Point {
        return single((lod + 0.5).floor().min(last) as u32);
    }
    let low = lod.floor();
    let frac = lod - low;
    let high = (low + 1.0).min(last);
    [(low as u32, 1.0 - frac), (high as u32, frac)]
}
