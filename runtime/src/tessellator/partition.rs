//! Splitting one edge (or one inside axis) into segments: how many points a
//! factor gives and where each point lies along [0, 1].
//!
//! A factor is halved; each half edge holds the points of the whole number
//! just below and just above that half, blended by the half's fraction, and
//! the second half mirrors the first. So a fractional factor moves points
//! smoothly and symmetrically about the middle (t and 1 - t), and a point
//! appears or vanishes in the order the spec's "ruler" split order gives.

use super::fixed::{self, Fixed, HALF, ONE};

/// Whether a factor is split into an odd or an even number of segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parity {
    /// An even number of segments: a point always sits at the middle.
    Even,
    /// An odd number of segments: a segment always straddles the middle.
    Odd,
}

/// Everything needed to place the points of one processed factor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeSplit {
    /// The parity the factor is split with.
    pub parity: Parity,
    /// Points along the whole edge, both ends included.
    pub point_count: i32,
    /// Points on one half edge, the shared middle point of an even split
    /// not included.
    pub half_points: i32,
    /// The half factor's fraction: how far points have moved from their
    /// places at the whole number below towards those at the one above.
    fraction: Fixed,
    /// Points past this one exist at the whole number above but are one
    /// place further along than at the whole number below: the point that
    /// appears next is inserted here.
    split_point: i32,
    /// 1 / segments of the whole split below the factor.
    inv_floor_segments: Fixed,
    /// 1 / segments of the whole split above the factor.
    inv_ceil_segments: Fixed,
}

impl EdgeSplit {
    /// Prepares to split an edge whose fixed-point factor is `factor`.
    pub fn new(factor: Fixed, parity: Parity) -> Self {
        let odd = parity == Parity::Odd;
        let mut half = factor.div_ceil(2);
        // A factor of 1 split evenly acts as if it were odd.
        if odd || half == HALF {
            half += HALF;
        }
        let floor_half = fixed::floor(half);
        let ceil_half = fixed::ceil(half);
        let half_points = (ceil_half >> fixed::FRACTION_BITS) as i32;
        let floor_whole = (floor_half >> fixed::FRACTION_BITS) as i32;
        let split_point = if ceil_half == floor_half {
            half_points + 1
        } else if odd {
            if floor_half == ONE {
                0
            } else {
                (without_top_bit(floor_whole - 1) << 1) + 1
            }
        } else {
            (without_top_bit(floor_whole) << 1) + 1
        };
        let odd_adjust = u32::from(odd);
        let floor_segments = ((floor_half * 2) >> fixed::FRACTION_BITS) - odd_adjust;
        let ceil_segments = ((ceil_half * 2) >> fixed::FRACTION_BITS) - odd_adjust;
        EdgeSplit {
            parity,
            point_count: point_count(factor, parity),
            half_points,
            fraction: half - floor_half,
            split_point,
            inv_floor_segments: fixed::reciprocal(floor_segments),
            inv_ceil_segments: fixed::reciprocal(ceil_segments),
        }
    }

    /// The position along [0, 1] of point number `point` (0 at the start,
    /// `point_count - 1` at the end).
    pub fn place(&self, point: i32) -> Fixed {
        let mirrored = point >= self.half_points;
        let point = if mirrored {
            2 * self.half_points - point - i32::from(self.parity == Parity::Odd)
        } else {
            point
        };
        if point == self.half_points {
            return HALF;
        }
        let on_ceil = point as u32;
        let on_floor = if point > self.split_point {
            on_ceil - 1
        } else {
            on_ceil
        };
        let at_floor = on_floor.wrapping_mul(self.inv_floor_segments);
        let at_ceil = on_ceil.wrapping_mul(self.inv_ceil_segments);
        let blended = at_floor
            .wrapping_mul(ONE - self.fraction)
            .wrapping_add(at_ceil.wrapping_mul(self.fraction));
        let location = blended.wrapping_add(HALF) >> fixed::FRACTION_BITS;
        if mirrored {
            ONE - location
        } else {
            location
        }
    }
}

/// Points along an edge of fixed-point factor `factor` split with `parity`,
/// both ends included.
pub(crate) fn point_count(factor: Fixed, parity: Parity) -> i32 {
    let half = factor.div_ceil(2);
    match parity {
        Parity::Odd => ((fixed::ceil(HALF + half) * 2) >> fixed::FRACTION_BITS) as i32,
        Parity::Even => ((fixed::ceil(half) * 2) >> fixed::FRACTION_BITS) as i32 + 1,
    }
}

/// `value` with its most significant set bit cleared (0 stays 0).
fn without_top_bit(value: i32) -> i32 {
    if value <= 0 {
        0
    } else {
        value & !(1 << (31 - value.leading_zeros()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(factor: f32, parity: Parity) -> EdgeSplit {
        EdgeSplit::new(fixed::from_f32(factor), parity)
    }

    fn positions(factor: f32, parity: Parity) -> Vec<f32> {
        let s = split(factor, parity);
        (0..s.point_count)
            .map(|p| fixed::to_f32(s.place(p)))
            .collect()
    }

    #[test]
    fn whole_factors_split_evenly() {
        assert_eq!(positions(1.0, Parity::Odd), [0.0, 1.0]);
        assert_eq!(positions(2.0, Parity::Even), [0.0, 0.5, 1.0]);
        assert_eq!(positions(4.0, Parity::Even), [0.0, 0.25, 0.5, 0.75, 1.0]);
        let thirds = positions(3.0, Parity::Odd);
        assert_eq!(thirds.len(), 4);
        assert_eq!(thirds[1], fixed::to_f32(0x5555));
        assert_eq!(thirds[2], fixed::to_f32(ONE - 0x5555));
    }

    #[test]
    fn point_counts_round_up_to_the_parity() {
        // Odd: the next odd whole number of segments, plus one point.
        assert_eq!(point_count(fixed::from_f32(1.0), Parity::Odd), 2);
        assert_eq!(point_count(fixed::from_f32(1.5), Parity::Odd), 4);
        assert_eq!(point_count(fixed::from_f32(3.0), Parity::Odd), 4);
        assert_eq!(point_count(fixed::from_f32(3.01), Parity::Odd), 6);
        // Even: the next even whole number of segments, plus one point.
        assert_eq!(point_count(fixed::from_f32(2.0), Parity::Even), 3);
        assert_eq!(point_count(fixed::from_f32(2.5), Parity::Even), 5);
        assert_eq!(point_count(fixed::from_f32(64.0), Parity::Even), 65);
    }

    #[test]
    fn fractional_splits_are_symmetric_and_increasing() {
        for (parity, lowest) in [(Parity::Odd, 1.0f32), (Parity::Even, 2.0)] {
            let mut factor = lowest;
            while factor <= 64.0 {
                let s = split(factor, parity);
                let n = s.point_count;
                for p in 0..n {
                    assert_eq!(
                        s.place(p) + s.place(n - 1 - p),
                        ONE,
                        "{factor} {parity:?} {p}"
                    );
                    if p > 0 {
                        assert!(s.place(p) > s.place(p - 1), "{factor} {parity:?} {p}");
                    }
                }
                assert_eq!(s.place(0), 0);
                assert_eq!(s.place(n - 1), ONE);
                factor += 0.125;
            }
        }
    }

    #[test]
    fn top_bit_removal() {
        assert_eq!(without_top_bit(0), 0);
        assert_eq!(without_top_bit(1), 0);
        assert_eq!(without_top_bit(6), 2);
        assert_eq!(without_top_bit(31), 15);
    }
}
