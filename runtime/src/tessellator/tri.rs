//! The triangle domain: points on the three edges, then concentric inner
//! rings spiralling in, and the triangles stitching each ring to the next.
//!
//! Points are barycentric (u, v), w = 1 - u - v. The outer edges are
//! u == 0 (from v = 1 to w = 1), v == 0 (from w = 1 to u = 1) and w == 0
//! (from u = 1 to v = 1), in that order.

use super::connectivity::{Diagonals, Remap, TriangleWriter};
use super::factors::Factor;
use super::fixed::{Fixed, HALF, ONE, ONE_THIRD, TWO_THIRDS};
use super::partition::{EdgeSplit, Parity};

/// A tri patch's splits, ready to place points and stitch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TriPatch {
    edges: [EdgeSplit; 3],
    inside: EdgeSplit,
}

impl TriPatch {
    /// Prepares a patch from processed factors (edges u==0, v==0, w==0).
    pub fn new(edges: [Factor; 3], inside: Factor) -> Self {
        let mut inside = EdgeSplit::new(inside.value, inside.parity);
        // An inside factor of 1 still gets an inner row to stitch to.
        let minimum = if inside.parity == Parity::Odd { 4 } else { 3 };
        inside.point_count = inside.point_count.max(minimum);
        TriPatch {
            edges: edges.map(|f| EdgeSplit::new(f.value, f.parity)),
            inside,
        }
    }

    /// The domain points in output order.
    pub fn points(&self) -> Vec<[Fixed; 2]> {
        let mut points = Vec::new();
        for (edge, split) in self.edges.iter().enumerate() {
            let last = split.point_count - 1;
            for p in 0..last {
                // Walking u==0 and w==0 runs their parameter backwards.
                let q = if edge == 1 { p } else { last - p };
                let t = split.place(q);
                points.push(match edge {
                    0 => [0, t],
                    1 => [t, 0],
                    _ => [t, ONE - t],
                });
            }
        }

        let inside = &self.inside;
        for ring in 1..inside.point_count / 2 {
            let first = ring;
            let last = inside.point_count - 1 - ring;
            // The ring's inset, mapped from edge parameter to barycentric.
            let inset = (inside.place(first) * TWO_THIRDS + HALF) >> 16;
            let shift = inset.div_ceil(2);
            for edge in 0..3 {
                for p in first..last {
                    let q = if edge == 1 { p } else { last - (p - first) };
                    let t = inside.place(q).wrapping_sub(shift);
                    points.push(match edge {
                        0 => [inset, t],
                        1 => [t, inset],
                        _ => [t, ONE.wrapping_sub(t).wrapping_sub(inset)],
                    });
                }
            }
        }
        if inside.parity == Parity::Even {
            points.push([ONE_THIRD, ONE_THIRD]);
        }
        points
    }

    /// Stitches the rings into clockwise triangles, written through `out`.
    pub fn triangles(&self, out: &mut TriangleWriter) {
        let inside = &self.inside;
        let mut outer_counts = self.edges.map(|s| s.point_count);
        let mut inner_start: i32 = outer_counts.iter().sum::<i32>() - 3;
        let mut outer_start = 0;
        for ring in 1..(inside.point_count + 1) / 2 {
            let inner_count = inside.point_count - 2 * ring;
            let ring_inner_first = inner_start;
            let ring_outer_first = outer_start;
            for (edge, outer_count) in outer_counts.iter_mut().enumerate() {
                // The last side ends on the ring's first points, stored at
                // the start of each ring rather than after the side.
                let (inner_at, outer_at) = if edge == 2 {
                    out.set_remap(Remap::WrapAround {
                        inner_offset: inner_start,
                        inner_last: inner_count - 1,
                        inner_first_stored: ring_inner_first,
                        outer_from: inner_count,
                        outer_offset: outer_start - inner_count,
                        outer_last: inner_count + *outer_count - 1,
                        outer_first_stored: ring_outer_first,
                    });
                    (0, inner_count)
                } else {
                    (inner_start, outer_start)
                };
                if ring == 1 {
                    out.stitch_transition(inside, inner_at, &self.edges[edge], outer_at);
                } else {
                    out.stitch_regular(true, Diagonals::Mirrored, inner_count, inner_at, outer_at);
                }
                out.set_remap(Remap::Identity);
                outer_start += *outer_count - 1;
                inner_start += inner_count - 1;
                *outer_count = inner_count;
            }
        }
        if inside.parity == Parity::Odd {
            out.triangle(outer_start, outer_start + 1, outer_start + 2);
        }
    }
}
