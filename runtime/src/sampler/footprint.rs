//! One lane's lookup in the generic path: level of detail, the choice
//! between the magnification and minification filters, mip selection and
//! anisotropic probes.
//!
//! - The level of detail is D3D11's order: the footprint's (or the lane's)
//!   level, plus the sampler's `lod_bias` (and the lane's bias), then
//!   clamped to [`SamplerState::min_lod`, `max_lod`]. A clamped level ≤ 0
//!   magnifies (the magnification filter), above 0 minifies.
//! - Anisotropic minification follows the approximation the
//!   `EXT_texture_filter_anisotropic` specification describes (D3D11.3's
//!   7.18.x leaves the footprint to the implementation): with `Px`, `Py` the lengths of the x and y
//!   derivatives in texels of mip 0, `Pmax`/`Pmin` the longer/shorter,
//!   `N = min(ceil(Pmax / Pmin), max_anisotropy)` probes, a level of detail
//!   of `log2(Pmax / N)`, and the probes spaced evenly along the longer
//!   derivative across the footprint, at `(k + 0.5) / N − 0.5` of it for
//!   k = 0..N, each a trilinear lookup, averaged (or reduced by min/max).
//!   Explicit levels (`sample_l`) have no footprint: one probe.

use super::filter::{self, Lookup};
use super::reduce::Reducer;
use super::{lod, Filter, QuadSample, SamplerState, LOD_BIAS, LOD_LEVEL};
use crate::texture::Texture;

/// The shape of a lane's footprint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Footprint {
    /// The level of detail before bias and clamps.
    pub lod: f32,
    /// Anisotropic probes (1 for isotropic filtering).
    pub probes: u32,
    /// The longer derivative, in texels of mip 0.
    pub axis: [f32; 3],
}

/// The footprint of derivatives `dx`, `dy` (texels of mip 0) for at most
/// `max_probes` anisotropic probes.
pub(crate) fn footprint(dx: &[f32; 3], dy: &[f32; 3], max_probes: u32) -> Footprint {
    let isotropic = Footprint {
        lod: lod::from_derivatives(dx, dy),
        probes: 1,
        axis: [0.0; 3],
    };
    if max_probes <= 1 {
        return isotropic;
    }
    let length = |d: &[f32; 3]| d.iter().map(|c| c * c).sum::<f32>().sqrt();
    let (px, py) = (length(dx), length(dy));
    let (major, minor, axis) = if px >= py {
        (px, py, *dx)
    } else {
        (py, px, *dy)
    };
    let ratio = (major / minor).ceil();
    if ratio.is_nan() || ratio <= 1.0 || !major.is_finite() {
        return isotropic;
    }
    let probes = ratio.min(max_probes as f32) as u32;
    Footprint {
        lod: (major / probes as f32).log2(),
        probes,
        axis,
    }
}

/// Lane `lane`'s value: `lookup` is where it reads, `dx`, `dy` its
/// derivatives in texels of mip 0.
pub(crate) fn sample_lane(
    texture: &Texture,
    sampler: &SamplerState,
    args: &QuadSample,
    lane: usize,
    lookup: &Lookup,
    derivatives: (&[f32; 3], &[f32; 3]),
    integer: bool,
) -> [f32; 4] {
    let anisotropic = sampler.filter == Filter::Anisotropic && !integer;
    let max_probes = if anisotropic && args.mode != LOD_LEVEL {
        sampler.anisotropy()
    } else {
        1
    };
    let shape = footprint(derivatives.0, derivatives.1, max_probes);
    let unbiased = match args.mode {
        LOD_LEVEL => args.lod[lane],
        LOD_BIAS => shape.lod + args.lod[lane],
        _ => shape.lod,
    };
    let level = lod::clamp(unbiased + sampler.lod_bias, sampler);
    let (filter, probes) = if level > 0.0 {
        (sampler.filter, shape.probes)
    } else {
        (sampler.magnification(), 1)
    };
    let levels = lod::select(level, sampler, texture.mips(), integer);
    let size = texture.level_size(0).map(|s| s as f32);
    let reference = args.reference[lane];
    let trilinear = |at: &Lookup| {
        let [(first, _), (second, weight)] = levels;
        let value = filter::sample_level(texture, sampler, at, first, filter, reference);
        if weight > 0.0 {
            let other = filter::sample_level(texture, sampler, at, second, filter, reference);
            Reducer::blend(sampler, value, other, weight)
        } else {
            value
        }
    };
    if probes <= 1 {
        return trilinear(lookup);
    }
    let mut sum = Reducer::new(sampler);
    let weight = 1.0 / probes as f32;
    for k in 0..probes {
        let t = (k as f32 + 0.5) / probes as f32 - 0.5;
        let mut at = *lookup;
        for (axis, c) in at.coord.iter_mut().enumerate().take(lookup.dims) {
            *c += t * shape.axis[axis] / size[axis];
        }
        sum.add(weight, trilinear(&at));
    }
    sum.finish()
}

#[cfg(test)]
mod tests {
    use super::footprint;

    #[test]
    fn isotropic_footprints_take_one_probe() {
        // Px = Py = 4: ratio 1, one probe at log2(4) = 2.
        let f = footprint(&[4.0, 0.0, 0.0], &[0.0, 4.0, 0.0], 16);
        assert_eq!((f.lod, f.probes), (2.0, 1));
    }

    #[test]
    fn skewed_footprints_take_more_probes() {
        // Px = 8, Py = 1: ratio 8. Max 16: 8 probes, log2(8 / 8) = 0.
        let f = footprint(&[8.0, 0.0, 0.0], &[0.0, 1.0, 0.0], 16);
        assert_eq!((f.lod, f.probes, f.axis), (0.0, 8, [8.0, 0.0, 0.0]));
        // Max 2: 2 probes, log2(8 / 2) = 2.
        let f = footprint(&[8.0, 0.0, 0.0], &[0.0, 1.0, 0.0], 2);
        assert_eq!((f.lod, f.probes), (2.0, 2));
        // Max 1: isotropic, log2(8) = 3.
        let f = footprint(&[8.0, 0.0, 0.0], &[0.0, 1.0, 0.0], 1);
        assert_eq!((f.lod, f.probes), (3.0, 1));
        // Ratio 2.5 rounds up to 3 probes along y: log2(5 / 3).
        let f = footprint(&[0.0, 2.0, 0.0], &[0.0, 5.0, 0.0], 16);
        assert_eq!((f.lod, f.probes), ((5.0f32 / 3.0).log2(), 3));
    }

    #[test]
    fn degenerate_footprints_do_not_panic() {
        let zero = footprint(&[0.0; 3], &[0.0; 3], 16);
        assert_eq!(zero.probes, 1);
        let line = footprint(&[4.0, 0.0, 0.0], &[0.0; 3], 16);
        assert_eq!((line.lod, line.probes), (-2.0, 16));
        let nan = footprint(&[f32::NAN, 0.0, 0.0], &[1.0, 0.0, 0.0], 16);
        assert_eq!(nan.probes, 1);
    }
}
