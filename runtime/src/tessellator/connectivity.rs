//! Triangle connectivity: stitching a row of points on an outer ring to the
//! row facing it on the next ring in, in D3D11's order, with the output
//! winding applied as triangles are written.
//!
//! Stitching walks two rows whose points are numbered consecutively. Where a
//! row is not stored consecutively (the last side of a ring wraps around to
//! the ring's first point; the middle row of an even split is stored
//! backwards), a [`Remap`] turns the walk's numbers into stored indices.

use super::partition::{EdgeSplit, Parity};

/// Which way the output triangles turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Winding {
    /// Clockwise, the order the stitching produces.
    Clockwise,
    /// Counter-clockwise: the second and third index of every triangle swap.
    CounterClockwise,
}

/// How a stitch's point numbers map to stored point indices.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Remap {
    /// Numbers are stored indices.
    #[default]
    Identity,
    /// The last side of a ring: the inner row is numbered from 0 and the
    /// outer row from `outer_from`; each row's final number is the ring's
    /// first point, stored elsewhere.
    WrapAround {
        /// Added to an inner number to give its stored index.
        inner_offset: i32,
        /// The inner number that stands for the inner ring's first point.
        inner_last: i32,
        /// Where the inner ring's first point is stored.
        inner_first_stored: i32,
        /// The first outer number; inner numbers are below it.
        outer_from: i32,
        /// Added to an outer number to give its stored index.
        outer_offset: i32,
        /// The outer number that stands for the outer ring's first point.
        outer_last: i32,
        /// Where the outer ring's first point is stored.
        outer_first_stored: i32,
    },
    /// Numbers from `from` on count down through a row stored backwards
    /// (number n is stored at `sum - n`); `corner`, if any, is one number
    /// (checked first) stored at a given index.
    Reversed {
        /// The first number of the backwards row.
        from: i32,
        /// A backwards number n is stored at `sum - n`.
        sum: i32,
        /// A (number, stored index) pair that overrides the rest.
        corner: Option<(i32, i32)>,
    },
}

impl Remap {
    fn apply(self, n: i32) -> i32 {
        match self {
            Remap::Identity => n,
            Remap::WrapAround {
                inner_offset,
                inner_last,
                inner_first_stored,
                outer_from,
                outer_offset,
                outer_last,
                outer_first_stored,
            } => {
                if n >= outer_from {
                    if n == outer_last {
                        outer_first_stored
                    } else {
                        n + outer_offset
                    }
                } else if n == inner_last {
                    inner_first_stored
                } else {
                    n + inner_offset
                }
            }
            Remap::Reversed { from, sum, corner } => match corner {
                Some((number, stored)) if n == number => stored,
                _ if n >= from => sum - n,
                _ => n,
            },
        }
    }
}

/// How the quads between two rows of equal length are cut into triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Diagonals {
    /// Every diagonal runs from the inner row forward to the outer row.
    InsideToOutside,
    /// As `InsideToOutside`, but the middle quad is cut the other way.
    InsideToOutsideExceptMiddle,
    /// The first half's diagonals run from outer to inner, the second
    /// half's from inner to outer, so the cut is mirrored about the middle.
    Mirrored,
}

/// Collects triangle indices.
#[derive(Debug)]
pub(crate) struct TriangleWriter {
    winding: Winding,
    remap: Remap,
    indices: Vec<u32>,
}

impl TriangleWriter {
    /// An empty writer with the given output winding.
    pub fn new(winding: Winding) -> Self {
        TriangleWriter {
            winding,
            remap: Remap::Identity,
            indices: Vec::new(),
        }
    }

    /// Sets how the following stitches' numbers map to stored indices.
    pub fn set_remap(&mut self, remap: Remap) {
        self.remap = remap;
    }

    /// The indices written, three per triangle.
    pub fn finish(self) -> Vec<u32> {
        self.indices
    }

    /// Writes a triangle given in clockwise order.
    pub fn triangle(&mut self, a: i32, b: i32, c: i32) {
        let [a, b, c] = [a, b, c].map(|n| self.remap.apply(n) as u32);
        match self.winding {
            Winding::Clockwise => self.indices.extend([a, b, c]),
            Winding::CounterClockwise => self.indices.extend([a, c, b]),
        }
    }

    /// Stitches an inner row of `inner_count` points to an outer row with
    /// one more point (`trapezoid`: the outer row extends one point past
    /// each end) or the same number of points.
    pub fn stitch_regular(
        &mut self,
        trapezoid: bool,
        diagonals: Diagonals,
        inner_count: i32,
        inner_start: i32,
        outer_start: i32,
    ) {
        let mut inner = inner_start;
        let mut outer = outer_start;
        if trapezoid {
            self.triangle(outer, outer + 1, inner);
            outer += 1;
        }
        let quads = inner_count - 1;
        match diagonals {
            Diagonals::InsideToOutside => {
                for _ in 0..quads {
                    self.triangle(inner, outer, outer + 1);
                    self.triangle(inner, outer + 1, inner + 1);
                    inner += 1;
                    outer += 1;
                }
            }
            Diagonals::InsideToOutsideExceptMiddle => {
                let before_middle = inner_count / 2 - 1;
                for _ in 0..before_middle {
                    self.triangle(outer, outer + 1, inner);
                    self.triangle(inner, outer + 1, inner + 1);
                    inner += 1;
                    outer += 1;
                }
                self.triangle(outer, inner + 1, inner);
                self.triangle(outer, outer + 1, inner + 1);
                inner += 1;
                outer += 1;
                for _ in before_middle.max(0) + 2..inner_count {
                    self.triangle(outer, outer + 1, inner);
                    self.triangle(inner, outer + 1, inner + 1);
                    inner += 1;
                    outer += 1;
                }
            }
            Diagonals::Mirrored => {
                let first_half = inner_count / 2;
                for _ in 0..first_half {
                    self.triangle(outer, inner + 1, inner);
                    self.triangle(outer, outer + 1, inner + 1);
                    inner += 1;
                    outer += 1;
                }
                for _ in first_half..quads {
                    self.triangle(inner, outer, outer + 1);
                    self.triangle(inner, outer + 1, inner + 1);
                    inner += 1;
                    outer += 1;
                }
            }
        }
        if trapezoid {
            self.triangle(outer, outer + 1, inner);
        }
    }

    /// Stitches the outermost inner ring's row to the patch edge facing it,
    /// two rows whose factors (and so point counts and parities) differ.
    ///
    /// Each half edge is walked from its end towards the middle, advancing
    /// along the inner or the outer row as the spec's split order says a
    /// point of that row would have appeared, then the middle is closed,
    /// then the second half is walked back out in mirror order.
    pub fn stitch_transition(
        &mut self,
        inner: &EdgeSplit,
        inner_start: i32,
        outer: &EdgeSplit,
        outer_start: i32,
    ) {
        let inner_half = half_points_before_middle(inner);
        let outer_half = half_points_before_middle(outer);
        let mut i = inner_start;
        let mut o = outer_start;

        if SPLIT_ORDER[0] < outer_half {
            self.triangle(o, o + 1, i);
            o += 1;
        }
        for &position in &SPLIT_ORDER[1..] {
            if position < inner_half {
                self.triangle(i, o, i + 1);
                i += 1;
            }
            if position < outer_half {
                self.triangle(o, o + 1, i);
                o += 1;
            }
        }

        match (inner.parity, outer.parity) {
            (Parity::Even, Parity::Even) => {}
            (Parity::Odd, Parity::Odd) => {
                self.triangle(i, o, i + 1);
                self.triangle(i + 1, o, o + 1);
                i += 1;
                o += 1;
            }
            (Parity::Even, Parity::Odd) => {
                self.triangle(i, o, o + 1);
                o += 1;
            }
            (Parity::Odd, Parity::Even) => {
                self.triangle(i, o, i + 1);
                i += 1;
            }
        }

        for &position in SPLIT_ORDER[1..].iter().rev() {
            if position < outer_half {
                self.triangle(o, o + 1, i);
                o += 1;
            }
            if position < inner_half {
                self.triangle(i, o, i + 1);
                i += 1;
            }
        }
        if SPLIT_ORDER[0] < outer_half {
            self.triangle(o, o + 1, i);
        }
    }
}

/// Points of a row's half edge strictly before the middle: an odd split's
/// half edge ends in the point next to the middle segment, which the middle
/// stitch consumes; an even split's middle point is not on its half edge.
fn half_points_before_middle(row: &EdgeSplit) -> i32 {
    match row.parity {
        Parity::Odd => row.half_points - 1,
        Parity::Even => row.half_points,
    }
}

/// The spec's ruler-function split order: entry k is where, on a half edge
/// at the largest factor, the k-th point to appear as a factor grows ends
/// up. A row whose half edge holds h points has exactly the points with
/// entries below h (covers odd factors up to 65 and even up to 64).
const SPLIT_ORDER: [i32; 33] = [
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3,
    28, 14, 29, 7, 30, 15, 31,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_clockwise_swaps_the_last_two() {
        let mut cw = TriangleWriter::new(Winding::Clockwise);
        let mut ccw = TriangleWriter::new(Winding::CounterClockwise);
        cw.triangle(0, 1, 2);
        ccw.triangle(0, 1, 2);
        assert_eq!(cw.finish(), [0, 1, 2]);
        assert_eq!(ccw.finish(), [0, 2, 1]);
    }

    #[test]
    fn regular_stitches_make_one_triangle_per_point_advanced() {
        for diagonals in [
            Diagonals::InsideToOutside,
            Diagonals::InsideToOutsideExceptMiddle,
            Diagonals::Mirrored,
        ] {
            for inner in 2..9 {
                let mut w = TriangleWriter::new(Winding::Clockwise);
                w.stitch_regular(false, diagonals, inner, 100, 0);
                assert_eq!(
                    w.finish().len() as i32,
                    6 * (inner - 1),
                    "{diagonals:?} {inner}"
                );
            }
        }
        let mut w = TriangleWriter::new(Winding::Clockwise);
        w.stitch_regular(true, Diagonals::Mirrored, 3, 100, 0);
        // 3 inner + 5 outer points: 3 + 5 - 2 triangles.
        assert_eq!(w.finish().len(), 3 * 6);
    }

    #[test]
    fn split_order_is_a_permutation() {
        let mut seen = SPLIT_ORDER.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..33).collect::<Vec<_>>());
    }

    #[test]
    fn reversed_remap_checks_the_corner_first() {
        let remap = Remap::Reversed {
            from: 10,
            sum: 25,
            corner: Some((10, 3)),
        };
        assert_eq!(remap.apply(9), 9);
        assert_eq!(remap.apply(10), 3);
        assert_eq!(remap.apply(11), 14);
    }
}
