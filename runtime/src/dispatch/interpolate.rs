//! Pixel-shader inputs across a draw's rectangle, prepared once per draw.

/// The pixels of one axis of a draw: for each, where it lies across the
/// rectangle (0 at its start, 1 at its end) and its position word.
#[derive(Debug, Clone)]
pub(super) struct Axis(Vec<(f64, u32)>);

impl Axis {
    /// `count` pixels from `first`, sampled at `center` within each, across
    /// the rectangle's span `start..end` along this axis.
    pub(super) fn new(first: u32, count: usize, start: u32, end: u32, center: f32) -> Axis {
        let span = f64::from(end - start);
        Axis(
            (0..count)
                .map(|i| {
                    let at = f64::from(first + i as u32) + f64::from(center);
                    ((at - f64::from(start)) / span, (at as f32).to_bits())
                })
                .collect(),
        )
    }

    /// Pixel `i` from `first`: its place across the rectangle and its position word.
    #[inline]
    pub(super) fn at(&self, i: usize) -> (f64, u32) {
        self.0[i]
    }
}

/// One component of an input given at the rectangle's corners (top-left,
/// top-right, bottom-left, bottom-right).
#[derive(Debug, Clone, Copy)]
pub(super) enum Interpolant {
    /// The four corners have the same word: every pixel gets it, bit for bit.
    Flat(u32),
    /// The corners as f64, interpolated bilinearly and rounded to f32.
    Bilinear {
        /// Top-left value.
        top_left: f64,
        /// Top-right minus top-left.
        top_step: f64,
        /// Bottom-left value.
        bottom_left: f64,
        /// Bottom-right minus bottom-left.
        bottom_step: f64,
    },
}

impl Interpolant {
    /// Component `component` of the corner words `corners`.
    pub(super) fn new(corners: &[[u32; 4]; 4], component: usize) -> Interpolant {
        let w = corners.map(|corner| corner[component]);
        if w.iter().all(|x| *x == w[0]) {
            return Interpolant::Flat(w[0]);
        }
        let [tl, tr, bl, br] = w.map(|x| f64::from(f32::from_bits(x)));
        Interpolant::Bilinear {
            top_left: tl,
            top_step: tr - tl,
            bottom_left: bl,
            bottom_step: br - bl,
        }
    }

    /// The word at (u, v) of the rectangle, each in [0, 1].
    #[inline]
    pub(super) fn at(&self, u: f64, v: f64) -> u32 {
        match *self {
            Interpolant::Flat(word) => word,
            Interpolant::Bilinear {
                top_left,
                top_step,
                bottom_left,
                bottom_step,
            } => {
                let top = top_left + top_step * u;
                let bottom = bottom_left + bottom_step * u;
                ((top + (bottom - top) * v) as f32).to_bits()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Interpolant;

    #[test]
    fn equal_corners_copy_bits() {
        let word = 0x7fc0_1234;
        let corners = [[word, 0x8000_0000, 1, 2]; 4];
        for c in 0..4 {
            let i = Interpolant::new(&corners, c);
            assert_eq!(i.at(0.3, 0.7), corners[0][c]);
        }
    }

    #[test]
    fn corners_blend_bilinearly() {
        let f = |x: f32| x.to_bits();
        let corners = [[f(0.0); 4], [f(1.0); 4], [f(2.0); 4], [f(4.0); 4]];
        let i = Interpolant::new(&corners, 0);
        assert_eq!(i.at(0.0, 0.0), f(0.0));
        assert_eq!(i.at(1.0, 0.0), f(1.0));
        assert_eq!(i.at(0.0, 1.0), f(2.0));
        assert_eq!(i.at(1.0, 1.0), f(4.0));
        assert_eq!(i.at(0.5, 0.5), f(1.75));
        // Rounded once, from f64, to f32.
        assert_eq!(i.at(1.0 / 3.0, 0.0), f((1.0f64 / 3.0) as f32));
    }
}
