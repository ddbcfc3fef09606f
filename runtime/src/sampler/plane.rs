//! Filtering within one mip of a 2D texture read without comparison, for
//! one texel format: the fast counterpart of `filter::sample_level`, with
//! the same taps, weights and summation order.

use super::filter::{axis_taps, BorderSum};
use super::reduce::weigh;
use super::texel::Texel;
use super::{address, QuadSample, SamplerState};
use crate::texture::Level;

/// The filtered value of `level` where lane `lane` of `args` reads (its
/// normalized u and v, its texel indices moved by the offsets): each axis's
/// taps are addressed once, taps of zero weight are skipped, and taps
/// outside the texture under border addressing read the border colour.
/// Texels are weighted as `T` reads them (scaled by `T::SCALE`) and the sum
/// divided by the scale, as `filter::sample_level` does.
/// (Each argument is read on its own: compiled code stores them one by one,
/// and a wider load across them would stall.)
#[inline]
pub(crate) fn sample<T: Texel>(
    level: Level<'_>,
    sampler: &SamplerState,
    args: &QuadSample,
    lane: usize,
) -> [f32; 4] {
    let (u, v) = (args.coord[0][lane], args.coord[1][lane]);
    let [(x0, wx0), (x1, wx1)] = axis_taps(sampler.filter, u, level.width, args.offset[0]);
    let [(y0, wy0), (y1, wy1)] = axis_taps(sampler.filter, v, level.height, args.offset[1]);
    let [ax, ay, _] = sampler.address;
    let columns = [
        (address::resolve(ax, x0, level.width), wx0),
        (address::resolve(ax, x1, level.width), wx1),
    ];
    let rows = [
        (address::resolve(ay, y0, level.height), wy0),
        (address::resolve(ay, y1, level.height), wy1),
    ];
    let mut sum = [0.0f32; 4];
    let mut first = true;
    let mut border = BorderSum::default();
    for (x, wx) in columns {
        for (y, wy) in rows {
            let weight = wx * wy;
            if weight == 0.0 {
                continue;
            }
            let value = match (x, y) {
                (Some(x), Some(y)) => {
                    T::read(level.bytes, y as usize * level.width as usize + x as usize)
                }
                _ if T::SCALE != 1.0 => {
                    border.add(weight, sampler.border);
                    continue;
                }
                _ => sampler.border,
            };
            for c in 0..4 {
                sum[c] = weigh(sum[c], weight, value[c], first);
            }
            first = false;
        }
    }
    if T::SCALE == 1.0 {
        return sum;
    }
    border.finish(sum.map(|s| s / T::SCALE))
}
