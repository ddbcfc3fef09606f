//! Seamless cube filtering (required since D3D10): a tap that falls off its
//! face is read from the neighbouring face, and a tap past a corner (off
//! the face along both axes) is the average of the three texels that meet
//! there.
//!
//! A tap off the face is found by turning its texel centre into a
//! direction (`cube::direction`) and projecting that onto the face it
//! points at; the texel there is the one under the projected point.

use super::cube;

/// Where a cube tap reads: one texel, or the three a corner averages.
/// Each texel is (x, y, face).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SeamTap {
    /// One texel.
    One([u32; 3]),
    /// A corner: the mean of three texels.
    Corner([[u32; 3]; 3]),
}

/// Tap `(i, j)` of face `face` (faces `n` × `n` texels).
pub(crate) fn resolve(face: u32, i: i64, j: i64, n: u32) -> SeamTap {
    let n64 = i64::from(n);
    let inside = |k: i64| (0..n64).contains(&k);
    let clamp = |k: i64| k.clamp(0, n64 - 1);
    match (inside(i), inside(j)) {
        (true, true) => SeamTap::One([i as u32, j as u32, face]),
        (false, true) | (true, false) => SeamTap::One(across(face, i, j, n)),
        (false, false) => SeamTap::Corner([
            [clamp(i) as u32, clamp(j) as u32, face],
            across(face, i, clamp(j), n),
            across(face, clamp(i), j, n),
        ]),
    }
}

/// The texel under tap `(i, j)` of face `face`, which lies off the face
/// along one axis: no further than the neighbouring face's far edge.
fn across(face: u32, i: i64, j: i64, n: u32) -> [u32; 3] {
    let n64 = i64::from(n);
    let centre = |k: i64| (k.clamp(-n64, 2 * n64 - 1) as f32 + 0.5) / n as f32;
    let dir = cube::direction(face, [centre(i), centre(j)]);
    let p = cube::project(dir);
    let texel = |c: f32| ((c * n as f32).floor().max(0.0) as u32).min(n - 1);
    [texel(p.uv[0]), texel(p.uv[1]), p.face]
}

#[cfg(test)]
mod tests {
    use super::{resolve, SeamTap};

    /// Faces in D3D order.
    const PX: u32 = 0;
    const NX: u32 = 1;
    const PY: u32 = 2;
    const NZ: u32 = 5;
    const PZ: u32 = 4;

    #[test]
    fn taps_inside_stay() {
        assert_eq!(resolve(PX, 1, 0, 2), SeamTap::One([1, 0, PX]));
    }

    #[test]
    fn edges_cross_to_the_neighbour() {
        // +X's right edge (u = 1: z = -1) meets -Z's left edge (u = 0: x =
        // +1); rows keep their y, so row 0 stays row 0.
        assert_eq!(resolve(PX, 2, 0, 2), SeamTap::One([0, 0, NZ]));
        // +X's left edge (z = +1) meets +Z's right edge (x = +1).
        assert_eq!(resolve(PX, -1, 1, 2), SeamTap::One([1, 1, PZ]));
        // +X's top edge (v = 0: y = +1) meets +Y's right edge (x = +1);
        // on +Y, v follows z, and +X's column 0 (z near +1) is +Y's row 1.
        assert_eq!(resolve(PX, 0, -1, 2), SeamTap::One([1, 1, PY]));
        // -X's right edge (z = +1) meets +Z's left edge (x = -1).
        assert_eq!(resolve(NX, 2, 1, 2), SeamTap::One([0, 1, PZ]));
    }

    #[test]
    fn corners_average_three_texels() {
        // Past +Z's top-right corner (x = +1, y = +1): +Z's own corner
        // texel, +X's top-left texel and +Y's bottom-right texel.
        assert_eq!(
            resolve(PZ, 2, -1, 2),
            SeamTap::Corner([[1, 0, PZ], [0, 0, PX], [1, 1, PY]])
        );
    }
}
