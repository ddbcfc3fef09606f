//! `gather4*` and `lod`: the other lookups through a sampler.
//!
//! A gather reads the four texels of mip 0 a bilinear lookup at the lane's
//! coordinates would blend, and returns one component of each: x the
//! texel at (i0, j1), y (i1, j1), z (i1, j0), w (i0, j0), where (i0, j0)
//! is the top-left texel (`floor(u × size − 0.5)`) moved by the offsets.
//! Each tap is addressed as a sample's is (border taps read the border
//! colour in the format's component space; cube taps cross seams). A
//! component the format lacks reads D3D's default, as texel reads give it
//! (0 for r, g, b, 1 for alpha). `gather4_c` compares the lane's reference
//! with the selected component of each texel (1.0 passing, 0.0 failing).
//! Offsets use their low 6 bits as a signed number (D3D11's −32..31 range
//! of `gather4_po`; immediate offsets are already −8..7); cubes ignore
//! them. Integer formats give their words' bits.
//!
//! `lod` gives, per lane, x the level of detail a `sample` through the
//! sampler would use (the footprint's, plus the sampler's bias, clamped to
//! [min_lod, max_lod] and to the texture's mips) and y the same before any
//! clamp; z and w are 0. Anisotropic samplers report their probes' level.

use super::filter::{axis_taps, passes, tap};
use super::footprint::footprint;
use super::{border, lane_lookup, lod, Compare, Filter, Lane, QuadSample, SamplerState};
use crate::abi::View;
use crate::texture::{Texture, TextureKind};

/// The arguments of one 2x2 quad's gather. Lanes 0..4 as in [`QuadSample`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GatherSample {
    /// Coordinates, `[component][lane]`, as [`QuadSample::coord`].
    pub coord: [[f32; 4]; 4],
    /// Texel offsets along u and v, `[axis][lane]` (low 6 bits, signed).
    pub offset: [[i32; 4]; 2],
    /// Per lane: the value `gather4_c` compares texels with.
    pub reference: [f32; 4],
    /// The component gathered, 0..4 (r, g, b, a).
    pub channel: u32,
    /// Nonzero for `gather4_c`: compare with the sampler's function.
    pub compare: u32,
}

/// An offset's low 6 bits, sign-extended.
fn six_bits(offset: i32) -> i32 {
    (offset << 26) >> 26
}

/// The results of gathering from `texture` through `sampler` for one quad,
/// `[component][lane]`, as the module documentation says. An unbound
/// texture or a buffer gathers zeros.
pub fn gather_quad(
    texture: Option<&Texture>,
    sampler: &SamplerState,
    args: &GatherSample,
) -> [[f32; 4]; 4] {
    let Some(texture) =
        texture.filter(|t| t.kind() != TextureKind::Buffer && !t.kind().is_multisampled())
    else {
        return [[0.0; 4]; 4];
    };
    let sampler = &SamplerState {
        border: border::in_format(texture.format(), sampler.border),
        ..*sampler
    };
    let quad = QuadSample {
        coord: args.coord,
        ..QuadSample::default()
    };
    let channel = (args.channel & 3) as usize;
    let size = texture.level_size(0);
    let lanes: [[f32; 4]; 4] = std::array::from_fn(|lane| {
        let Lane { lookup, .. } = lane_lookup(texture, &quad, lane);
        let offset = |axis: usize| {
            if lookup.cube {
                0
            } else {
                six_bits(args.offset[axis][lane])
            }
        };
        let [(i0, _), (i1, _)] = axis_taps(Filter::Linear, lookup.coord[0], size[0], offset(0));
        let [(j0, _), (j1, _)] = if lookup.dims >= 2 {
            axis_taps(Filter::Linear, lookup.coord[1], size[1], offset(1))
        } else {
            [(0, 1.0), (0, 0.0)]
        };
        let read = |i: i64, j: i64| {
            let value = tap(texture, sampler, &lookup, 0, [i, j, 0])[channel];
            if args.compare == 0 {
                value
            } else {
                let compare = match sampler.compare {
                    Compare::None => Compare::Always,
                    other => other,
                };
                f32::from(u8::from(passes(compare, args.reference[lane], value)))
            }
        };
        [read(i0, j1), read(i1, j1), read(i1, j0), read(i0, j0)]
    });
    std::array::from_fn(|component| lanes.map(|value| value[component]))
}

/// The `lod` results for one quad, `[component][lane]`: (clamped,
/// unclamped, 0, 0) from the quad's own derivatives (`args.coord`; the
/// other fields are not read). An unbound texture or a buffer gives zeros.
pub fn lod_quad(
    texture: Option<&Texture>,
    sampler: &SamplerState,
    args: &QuadSample,
) -> [[f32; 4]; 4] {
    let Some(texture) =
        texture.filter(|t| t.kind() != TextureKind::Buffer && !t.kind().is_multisampled())
    else {
        return [[0.0; 4]; 4];
    };
    let quad = QuadSample {
        coord: args.coord,
        ..QuadSample::default()
    };
    let probes = if sampler.filter == Filter::Anisotropic {
        sampler.anisotropy()
    } else {
        1
    };
    let last = (texture.mips() - 1) as f32;
    let lanes: [[f32; 4]; 4] = std::array::from_fn(|lane| {
        let Lane { dx, dy, .. } = lane_lookup(texture, &quad, lane);
        let unclamped = footprint(&dx, &dy, probes).lod + sampler.lod_bias;
        let clamped = lod::clamp(unclamped, sampler).clamp(0.0, last);
        [clamped, unclamped, 0.0, 0.0]
    });
    std::array::from_fn(|component| lanes.map(|value| value[component]))
}

/// Reads the texture behind `view` (unbound when `view` or its `texture`
/// is null).
///
/// # Safety
///
/// As [`super::dxjit_sample_quad`]'s `view`.
unsafe fn bound<'a>(view: *const View) -> Option<&'a Texture> {
    // SAFETY: the caller guarantees `view` is null or valid, and its `texture` null or a live Texture.
    unsafe {
        view.as_ref()
            .and_then(|v| v.texture.cast::<Texture>().as_ref())
    }
}

/// The entry point compiled code calls for a quad's gather: writes
/// [`gather_quad`] of the texture behind `view` to `out`.
///
/// # Safety
///
/// As [`super::dxjit_sample_quad`], with `args` a valid [`GatherSample`].
pub unsafe extern "C" fn dxjit_gather_quad(
    view: *const View,
    sampler: *const SamplerState,
    args: *const GatherSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: forwarded contract.
    let texture = unsafe { bound(view) };
    // SAFETY: the caller guarantees `sampler` and `args` point to valid values.
    let (sampler, args) = unsafe { (&*sampler, &*args) };
    let result = gather_quad(texture, sampler, args);
    // SAFETY: the caller guarantees `out` is valid for a write.
    unsafe { out.write(result) };
}

/// The entry point compiled code calls for a quad's `lod`: writes
/// [`lod_quad`] of the texture behind `view` to `out`.
///
/// # Safety
///
/// As [`super::dxjit_sample_quad`].
pub unsafe extern "C" fn dxjit_lod_quad(
    view: *const View,
    sampler: *const SamplerState,
    args: *const QuadSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: forwarded contract.
    let texture = unsafe { bound(view) };
    // SAFETY: the caller guarantees `sampler` and `args` point to valid values.
    let (sampler, args) = unsafe { (&*sampler, &*args) };
    let result = lod_quad(texture, sampler, args);
    // SAFETY: the caller guarantees `out` is valid for a write.
    unsafe { out.write(result) };
}

#[cfg(test)]
mod tests {
    use super::six_bits;

    #[test]
    fn offsets_keep_six_signed_bits() {
        assert_eq!(
            [0, 31, -32, 32, 33, -33, 63, 64].map(six_bits),
            [0, 31, -32, -32, -31, 31, -1, 0]
        );
    }
}
