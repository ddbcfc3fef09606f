//! Multisampled resources as shaders see them: `ld2dms`, `sample_info` and
//! `sample_pos`, and D3D's standard sample patterns, which both
//! multisampled textures and multisampled render targets use.

use crate::abi::View;
use crate::texture::Texture;

/// The sample counts a render target may have: D3D11 requires every
/// device to support 1, 2, 4 and 8 samples for render-target formats.
pub const TARGET_SAMPLE_COUNTS: [u32; 4] = [1, 2, 4, 8];

/// D3D11's standard sample pattern for 1 sample, in 1/16 pixel from the
/// pixel centre (D3D11.3 functional specification, "Standard Sample
/// Patterns"; Vulkan's standard locations are the same points).
const PATTERN_1: [[i8; 2]; 1] = [[0, 0]];
/// The standard pattern for 2 samples.
const PATTERN_2: [[i8; 2]; 2] = [[4, 4], [-4, -4]];
/// The standard pattern for 4 samples.
const PATTERN_4: [[i8; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
/// The standard pattern for 8 samples.
const PATTERN_8: [[i8; 2]; 8] = [
    [1, -3],
    [-1, 3],
    [5, 1],
    [-3, -5],
    [-5, 5],
    [-7, -1],
    [3, 7],
    [7, -7],
];
/// The standard pattern for 16 samples.
const PATTERN_16: [[i8; 2]; 16] = [
    [1, 1],
    [-1, -3],
    [-3, 2],
    [4, -1],
    [-5, -2],
    [2, 5],
    [5, 3],
    [3, -5],
    [-2, 6],
    [0, -7],
    [-4, -6],
    [-6, 4],
    [-8, 0],
    [7, -4],
    [6, 7],
    [-7, -8],
];

/// The standard pattern of a resource with `samples` samples a pixel; empty
/// for counts D3D has no pattern for.
pub fn standard_pattern(samples: u32) -> &'static [[i8; 2]] {
    match samples {
        1 => &PATTERN_1,
        2 => &PATTERN_2,
        4 => &PATTERN_4,
        8 => &PATTERN_8,
        16 => &PATTERN_16,
        _ => &[],
    }
}

/// The position of sample `index` of a `samples`-sample pixel, in pixels
/// from its centre, as `sample_pos` returns it: (x, y, 0, 0), or all zeros
/// when the index is out of range.
pub fn sample_position(samples: u32, index: i32) -> [f32; 4] {
    let pattern = standard_pattern(samples);
    match usize::try_from(index).ok().and_then(|i| pattern.get(i)) {
        Some(&[x, y]) => [f32::from(x) / 16.0, f32::from(y) / 16.0, 0.0, 0.0],
        None => [0.0; 4],
    }
}

/// Where D3D evaluates an attribute at a pixel's centroid, in pixels from
/// its centre (D3D11.3, 3.5.5 "Centroid Sampling of Attributes"), for a
/// pixel of `samples` samples (0 counts as 1) whose primitive covers
/// `coverage` (bit i = sample i) under the sample mask `mask`. Coverage is
/// taken after ANDing it with the mask, as the rule's second case says and
/// as `vCoverage` is (16.3.2):
/// - every sample covered: the pixel centre;
/// - some: the first covered sample, in increasing index;
/// - none (helper pixels): the mask's first sample when the mask leaves
///   some of the pixel's samples out, else the centre.
pub fn centroid(coverage: u32, mask: u32, samples: u32) -> [f32; 2] {
    let samples = samples.max(1);
    let all = 1u32.checked_shl(samples).map_or(u32::MAX, |bit| bit - 1);
    let covered = coverage & mask & all;
    let masked = mask & all;
    let sample = match covered {
        c if c == all => None,
        0 => (masked != all && masked != 0).then_some(masked.trailing_zeros()),
        c => Some(c.trailing_zeros()),
    };
    sample.map_or([0.0; 2], |i| {
        let [x, y, _, _] = sample_position(samples, i as i32);
        [x, y]
    })
}

/// The texture behind `view`, if it is one.
///
/// # Safety
/// `view` is null or points to a valid view record whose non-null `texture`
/// was set by `Texture::view` on a texture that outlives the call.
unsafe fn texture_of<'a>(view: *const View) -> Option<&'a Texture> {
    if view.is_null() {
        return None;
    }
    // SAFETY: the caller passes a valid view record.
    let v = unsafe { &*view };
    // SAFETY: a non-null `texture` is set only by `Texture::view` and the texture outlives the call.
    (!v.texture.is_null()).then(|| unsafe { &*(v.texture as *const Texture) })
}

/// The sample count `sample_info` reports for `view`: a texture's samples
/// a texel (1 for textures that are not multisampled), 0 with nothing bound.
///
/// # Safety
/// `view` points to a valid view record.
pub unsafe extern "C" fn dxjit_sample_count(view: *const View) -> u32 {
    // SAFETY: forwarded from the caller.
    unsafe { texture_of(view) }.map_or(0, Texture::samples)
}

/// `sample_pos` of sample `index` of `view`'s texture, written to `out` as
/// four floats (zeros for a null or unbound view).
///
/// # Safety
/// `view` is null or points to a valid view record; `out` has room for four words.
pub unsafe extern "C" fn dxjit_sample_pos(view: *const View, index: i32, out: *mut f32) {
    // SAFETY: forwarded from the caller.
    let samples = unsafe { dxjit_sample_count(view) };
    let words = sample_position(samples, index);
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

/// `sample_pos rasterizer`: sample `index` of a rasterizer with `samples`
/// samples a pixel (0 counts as 1), written to `out` as four floats.
///
/// # Safety
/// `out` has room for four words.
pub unsafe extern "C" fn dxjit_raster_sample_pos(samples: u32, index: i32, out: *mut f32) {
    let words = sample_position(samples.max(1), index);
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

/// `ld2dms`: sample `sample` of texel (x, y) of layer `slice` of `view`'s
/// texture, as four words; out-of-range texels, layers and samples (and
/// views that are not textures) read zeros.
///
/// # Safety
/// `view` points to a valid view record; `out` has room for four words.
pub unsafe extern "C" fn dxjit_load_sample(
    view: *const View,
    x: i32,
    y: i32,
    slice: i32,
    sample: i32,
    out: *mut u32,
) {
    // SAFETY: forwarded from the caller.
    let words = unsafe { texture_of(view) }.map_or([0; 4], |t| t.fetch_sample(x, y, slice, sample));
    // SAFETY: `out` has room for four words.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 4) };
}

#[cfg(test)]
mod tests {
    use super::{centroid, sample_position, standard_pattern};

    #[test]
    fn patterns_have_their_counts_and_stay_inside_the_pixel() {
        for n in [1, 2, 4, 8, 16] {
            let p = standard_pattern(n);
            assert_eq!(p.len(), n as usize);
            assert!(p.iter().flatten().all(|c| (-8..=7).contains(c)));
        }
        assert!(standard_pattern(3).is_empty());
    }

    #[test]
    fn positions_match_the_spec_table() {
        // 4x sample 1 is (6, -2)/16; 8x sample 7 is (7, -7)/16; 16x sample
        // 15 is (-7, -8)/16 (D3D11.3 "Standard Sample Patterns").
        assert_eq!(sample_position(4, 1), [0.375, -0.125, 0.0, 0.0]);
        assert_eq!(sample_position(8, 7), [0.4375, -0.4375, 0.0, 0.0]);
        assert_eq!(sample_position(16, 15), [-0.4375, -0.5, 0.0, 0.0]);
        assert_eq!(sample_position(1, 0), [0.0; 4]);
        assert_eq!(sample_position(4, 4), [0.0; 4]);
        assert_eq!(sample_position(4, -1), [0.0; 4]);
    }

    #[test]
    fn centroids_follow_the_three_cases_of_the_rule() {
        // 4x: samples at (-2, -6), (6, -2), (-6, 2), (2, 6) sixteenths.
        assert_eq!(centroid(0b1111, u32::MAX, 4), [0.0, 0.0]);
        assert_eq!(centroid(0b0110, u32::MAX, 4), [0.375, -0.125]);
        assert_eq!(centroid(0b1000, u32::MAX, 4), [0.125, 0.375]);
        // The mask is ANDed first: full coverage under mask 0b1100 is
        // sample 2; coverage the mask clears entirely falls to the helper
        // rule.
        assert_eq!(centroid(0b1111, 0b1100, 4), [-0.375, 0.125]);
        assert_eq!(centroid(0b0011, 0b1100, 4), [-0.375, 0.125]);
        // Helpers: the mask's first sample when it is a subset, else the centre.
        assert_eq!(centroid(0, 0b1010, 4), [0.375, -0.125]);
        assert_eq!(centroid(0, u32::MAX, 4), [0.0, 0.0]);
        assert_eq!(centroid(0, 0, 4), [0.0, 0.0]);
        // Bits past the count do not count; one sample is the centre.
        assert_eq!(centroid(0b1_0000, 0b1_1111, 4), [0.0, 0.0]);
        assert_eq!(centroid(0, 0, 1), [0.0, 0.0]);
        assert_eq!(centroid(1, u32::MAX, 0), [0.0, 0.0]);
        // 8x sample 3 is (-3, -5).
        assert_eq!(centroid(0b1000, u32::MAX, 8), [-0.1875, -0.3125]);
    }
}
