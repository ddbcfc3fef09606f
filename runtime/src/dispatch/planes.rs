//! Pixel-shader inputs an embedder's rasterizer gives as plane equations,
//! and where in a quad they are evaluated: the one computation that fills
//! `shade_quads`' input registers and that `eval_*` repeats elsewhere in
//! the pixel (`crate::eval`), so that both give the same bits.

use super::Quad;

/// A pixel-shader input given as plane equations over the screen: component
/// `c` at the point (x, y) is `planes[c][0] * x + planes[c][1] * y +
/// planes[c][2]`, divided by the `one_over_w` plane's value there when it
/// is given (then `planes` interpolate attribute / w: perspective-correct).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneInput {
    /// The input register.
    pub reg: u32,
    /// a, b, c per component.
    pub planes: [[f32; 3]; 4],
    /// a, b, c of 1/w, for perspective-correct interpolation.
    pub one_over_w: Option<[f32; 3]>,
}

impl PlaneInput {
    /// The register's words at the point `[x, y]`: each plane as
    /// `a * x + b * y + c` in f32 (three roundings, no fused
    /// multiply-add), divided by the 1/w plane computed the same way, or
    /// by 1 without it.
    pub fn words_at(&self, [x, y]: [f32; 2]) -> [u32; 4] {
        let at = |[a, b, c]: [f32; 3]| a * x + b * y + c;
        let w = self.one_over_w.map_or(1.0, at);
        self.planes.map(|plane| (at(plane) / w).to_bits())
    }
}

/// The point pixel `p` of `quad` is evaluated at: its column and row plus
/// `center`, plus `offset` (in pixels), added in that order in f32. The
/// pixel's position system value is the same point.
pub fn pixel_point(quad: &Quad, p: usize, center: f32, offset: [f32; 2]) -> [f32; 2] {
    [
        quad.x as f32 + (p & 1) as f32 + center + offset[0],
        quad.y as f32 + (p >> 1) as f32 + center + offset[1],
    ]
}

/// The plane input of register `reg` among `planes`: the last that names
/// it, as a later plane replaces an earlier one.
pub fn plane_of(planes: &[PlaneInput], reg: u32) -> Option<&PlaneInput> {
    planes.iter().rev().find(|p| p.reg == reg)
}

#[cfg(test)]
mod tests {
    use super::{pixel_point, PlaneInput};
    use crate::dispatch::Quad;

    #[test]
    fn planes_divide_by_the_one_over_w_plane() {
        let quad = Quad {
            x: 2,
            y: 4,
            coverage: 0xf,
            front_facing: true,
        };
        // Pixel 3 at centre 0.5: (3.5, 5.5); an offset of (0.25, -0.5) moves it.
        assert_eq!(pixel_point(&quad, 3, 0.5, [0.0; 2]), [3.5, 5.5]);
        assert_eq!(pixel_point(&quad, 3, 0.5, [0.25, -0.5]), [3.75, 5.0]);
        let input = PlaneInput {
            reg: 0,
            planes: [
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [1.0, 1.0, 1.0],
            ],
            one_over_w: Some([0.0, 1.0, 0.0]),
        };
        let words = input.words_at([3.0, 4.0]).map(f32::from_bits);
        assert_eq!(words, [0.75, 1.0, 0.25, 2.0]);
        let affine = PlaneInput {
            one_over_w: None,
            ..input
        };
        assert_eq!(
            affine.words_at([3.0, 4.0]).map(f32::from_bits),
            [3.0, 4.0, 1.0, 8.0]
        );
    }
}
