//! The quad domain: points on the four edges, then concentric inner rings
//! spiralling in (ending in a middle row when an axis splits evenly), and
//! the triangles stitching each ring to the next and closing the middle.
//!
//! The outer edges are u == 0 (from v = 1 down to v = 0), v == 0 (u rising),
//! u == 1 (v rising) and v == 1 (u falling), in that order.

use super::connectivity::{Diagonals, Remap, TriangleWriter};
use super::factors::Factor;
use super::fixed::{Fixed, HALF, ONE};
use super::partition::{EdgeSplit, Parity};

const U: usize = 0;
const V: usize = 1;

/// A quad patch's splits, ready to place points and stitch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuadPatch {
    edges: [EdgeSplit; 4],
    inside: [EdgeSplit; 2],
}

impl QuadPatch {
    /// Prepares a patch from processed factors (edges u==0, v==0, u==1,
    /// v==1; inside U then V).
    pub fn new(edges: [Factor; 4], inside: [Factor; 2]) -> Self {
        let inside = inside.map(|f| {
            let mut split = EdgeSplit::new(f.value, f.parity);
            // An inside factor of 1 still gets an inner row to stitch to.
            let minimum = if split.parity == Parity::Odd { 4 } else { 3 };
            split.point_count = split.point_count.max(minimum);
            split
        });
        QuadPatch {
            edges: edges.map(|f| EdgeSplit::new(f.value, f.parity)),
            inside,
        }
    }

    fn inside_counts(&self) -> [i32; 2] {
        [self.inside[U].point_count, self.inside[V].point_count]
    }

    /// The domain points in output order.
    pub fn points(&self) -> Vec<[Fixed; 2]> {
        let mut points = Vec::new();
        for (edge, split) in self.edges.iter().enumerate() {
            let last = split.point_count - 1;
            for p in 0..last {
                let q = if edge == 1 || edge == 2 { p } else { last - p };
                let t = split.place(q);
                points.push(match edge {
                    0 => [0, t],
                    1 => [t, 0],
                    2 => [ONE, t],
                    _ => [t, ONE],
                });
            }
        }

        let counts = self.inside_counts();
        let rings = counts[U].min(counts[V]) / 2;
        for ring in 1..rings {
            let first = ring;
            let last = [counts[U] - 1 - ring, counts[V] - 1 - ring];
            for edge in 0..4 {
                // Edges 0 and 2 run along V at a fixed U; 1 and 3 the reverse.
                let (across, along) = if edge % 2 == 0 { (U, V) } else { (V, U) };
                let fixed_at = if edge < 2 { first } else { last[across] };
                let offset = self.inside[across].place(fixed_at);
                for p in first..last[along] {
                    let q = if edge == 1 || edge == 2 {
                        p
                    } else {
                        last[along] - (p - first)
                    };
                    let t = self.inside[along].place(q);
                    points.push(if along == V { [offset, t] } else { [t, offset] });
                }
            }
        }

        // An even axis leaves a degenerate innermost ring: a middle row.
        if counts[U] > counts[V] && self.inside[V].parity == Parity::Even {
            for p in rings..=counts[U] - 1 - rings {
                points.push([self.inside[U].place(p), HALF]);
            }
        } else if counts[V] >= counts[U] && self.inside[U].parity == Parity::Even {
            for p in (rings..=counts[V] - 1 - rings).rev() {
                points.push([HALF, self.inside[V].place(p)]);
            }
        }
        points
    }

    /// Stitches the rings and the middle into clockwise triangles, written
    /// through `out`.
    pub fn triangles(&self, out: &mut TriangleWriter) {
        let counts = self.inside_counts();
        let rows_to_centre = [(counts[U] + 1) / 2, (counts[V] + 1) / 2];
        let rings = rows_to_centre[U].min(rows_to_centre[V]);
        // The ring that is a middle row, for edges running along each axis.
        let middle_row_ring = |along: usize| {
            let other = 1 - along;
            (self.inside[other].parity == Parity::Even).then(|| rows_to_centre[other] - 1)
        };

        let mut outer_counts = self.edges.map(|s| s.point_count);
        let mut inner_start: i32 = outer_counts.iter().sum::<i32>() - 4;
        let mut outer_start = 0;
        for ring in 1..rings {
            let inner_counts = [counts[U] - 2 * ring, counts[V] - 2 * ring];
            let ring_inner_first = inner_start;
            let ring_outer_first = outer_start;
            for (edge, outer_count) in outer_counts.iter_mut().enumerate() {
                let along = if edge % 2 == 0 { V } else { U };
                let inner_count = inner_counts[along];
                let on_middle_row = middle_row_ring(along) == Some(ring);
                // The last side ends on the ring's first points, stored at
                // the start of each ring; on the middle row the inner points
                // of the last two sides are the row itself, walked backwards.
                let (inner_at, outer_at) = if edge == 3 && on_middle_row {
                    let from = inner_start + 1;
                    out.set_remap(Remap::Reversed {
                        from,
                        sum: 2 * from - 1,
                        corner: Some((outer_start + *outer_count - 1, ring_outer_first)),
                    });
                    (from, outer_start)
                } else if edge == 3 {
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
                } else if edge == 2 && on_middle_row {
                    out.set_remap(Remap::Reversed {
                        from: inner_start,
                        sum: 2 * inner_start,
                        corner: None,
                    });
                    (inner_start, outer_start)
                } else {
                    (inner_start, outer_start)
                };
                if ring == 1 {
                    out.stitch_transition(
                        &self.inside[along],
                        inner_at,
                        &self.edges[edge],
                        outer_at,
                    );
                } else {
                    out.stitch_regular(true, Diagonals::Mirrored, inner_count, inner_at, outer_at);
                }
                out.set_remap(Remap::Identity);
                outer_start += *outer_count - 1;
                if edge == 2 && on_middle_row {
                    inner_start -= inner_count - 1;
                } else {
                    inner_start += inner_count - 1;
                }
                *outer_count = inner_count;
            }
        }

        // An odd axis leaves a strip of quads in the middle.
        let parity = [self.inside[U].parity, self.inside[V].parity];
        if counts[U] > counts[V] && parity[V] == Parity::Odd {
            let extra = if parity[U] == Parity::Even { 2 } else { 1 };
            let quads = (((counts[U] >> 1) - (counts[V] >> 1)) << 1) + extra;
            let from = outer_start + quads + 2;
            out.set_remap(Remap::Reversed {
                from,
                sum: 2 * from + quads,
                corner: Some((from, outer_start)),
            });
            out.stitch_regular(
                false,
                Diagonals::InsideToOutside,
                quads + 1,
                from,
                outer_start + 1,
            );
            out.set_remap(Remap::Identity);
        } else if counts[V] >= counts[U] && parity[U] == Parity::Odd {
            let extra = if parity[V] == Parity::Even { 2 } else { 1 };
            let quads = (((counts[V] >> 1) - (counts[U] >> 1)) << 1) + extra;
            let from = outer_start + quads + 1;
            out.set_remap(Remap::Reversed {
                from,
                sum: 2 * from + quads,
                corner: None,
            });
            let diagonals = if parity[V] == Parity::Even {
                Diagonals::InsideToOutside
            } else {
                Diagonals::InsideToOutsideExceptMiddle
            };
            out.stitch_regular(false, diagonals, quads + 1, from, outer_start);
            out.set_remap(Remap::Identity);
        }
    }
}
