//! Strips to lists, in Direct3D's order.
//!
//! A line strip of n vertices is the lines (i, i + 1). A triangle strip is
//! the triangles (i, i + 1, i + 2) for even i and (i, i + 2, i + 1) for odd
//! i, so that every triangle keeps the first one's winding (Microsoft's
//! triangle-strip documentation: v1 v2 v3, then v2 v4 v3, ...). A strip too
//! short for one primitive yields nothing.

use super::topology::GsOutput;

/// Appends to `out` the positions in a strip of `len` vertices of each list
/// primitive's vertices, primitive by primitive.
pub fn strips_to_list(kind: GsOutput, len: usize, out: &mut Vec<usize>) {
    match kind {
        GsOutput::PointList => out.extend(0..len),
        GsOutput::LineStrip => {
            for i in 1..len {
                out.extend([i - 1, i]);
            }
        }
        GsOutput::TriangleStrip => {
            for i in 2..len {
                let first = i - 2;
                if first % 2 == 0 {
                    out.extend([first, first + 1, first + 2]);
                } else {
                    out.extend([first, first + 2, first + 1]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(kind: GsOutput, len: usize) -> Vec<usize> {
        let mut v = Vec::new();
        strips_to_list(kind, len, &mut v);
        v
    }

    #[test]
    fn triangle_strips_alternate_winding() {
        // Five vertices make three triangles: 012, then 1 3 2 (odd: second
        // and third swapped), then 234.
        assert_eq!(
            list(GsOutput::TriangleStrip, 5),
            [0, 1, 2, 1, 3, 2, 2, 3, 4]
        );
        assert!(list(GsOutput::TriangleStrip, 2).is_empty());
    }

    #[test]
    fn line_strips_and_points() {
        assert_eq!(list(GsOutput::LineStrip, 3), [0, 1, 1, 2]);
        assert!(list(GsOutput::LineStrip, 1).is_empty());
        assert_eq!(list(GsOutput::PointList, 2), [0, 1]);
    }
}
