//! Pixel-shader inputs across a draw's rectangle, prepared once per draw.

use super::PixelInput;

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
                    let pixel = first + i as u32;
                    let at = f64::from(pixel) + f64::from(center);
                    (
                        place(pixel, center, 0.0, start, span),
                        (at as f32).to_bits(),
                    )
                })
                .collect(),
        )
    }

    /// Pixel `i` from `first`: its place across the rectangle and its position word.
    #[inline]
    pub(super) fn at(&self, i: usize) -> (f64, u32) {
        self.0[i]
    }

    /// Pixels along the axis.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }
}

/// Where a point lies across a rectangle's span `span` from `start` along
/// one axis (0 at its start edge, 1 at its end): pixel `pixel` plus
/// `center` plus `offset`, added in f64 in that order, less `start`, over
/// `span`. Every draw path places its pixels and samples, and `eval_*` its
/// points, with it.
pub(crate) fn place(pixel: u32, center: f32, offset: f64, start: u32, span: f64) -> f64 {
    (f64::from(pixel) + f64::from(center) + offset - f64::from(start)) / span
}

/// One component of an input given at the rectangle's corners (top-left,
/// top-right, bottom-left, bottom-right).
#[derive(Debug, Clone, Copy)]
enum Interpolant {
    /// The four corners have the same word: every pixel gets it, bit for bit.
    Flat(u32),
    /// The corners as f64, interpolated bilinearly ([`column`], [`blend`]).
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
    fn new(corners: &[[u32; 4]; 4], component: usize) -> Interpolant {
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
}

/// The words of an input given at the rectangle's corners at place (`u`,
/// `v`) across it, computed as the row loop computes them: components
/// whose corners agree keep their word; the others are their column's
/// top and rise at `u` ([`column`]) blended at `v` rounded to f32
/// ([`blend`]).
pub(crate) fn corner_value(corners: &[[u32; 4]; 4], u: f64, v: f64) -> [u32; 4] {
    std::array::from_fn(|c| match Interpolant::new(corners, c) {
        Interpolant::Flat(word) => word,
        Interpolant::Bilinear {
            top_left,
            top_step,
            bottom_left,
            bottom_step,
        } => {
            let [top, rise] = column([top_left, top_step, bottom_left, bottom_step], u);
            blend(top, rise, v as f32)
        }
    })
}

/// The top and rise of a column at place `u` across the rectangle, of a
/// component whose corners give `steps` (top left, top step, bottom left,
/// bottom step): `top = top_left + top_step × u` and `rise = (bottom_left
/// + bottom_step × u) − top`, in f64, each rounded to f32 ([`narrow`]).
fn column(steps: [f64; 4], u: f64) -> [f32; 2] {
    let [top_left, top_step, bottom_left, bottom_step] = steps;
    let top = top_left + top_step * u;
    let rise = (bottom_left + bottom_step * u) - top;
    [narrow(top), narrow(rise)]
}

/// `x` rounded to f32, a denormal result made the zero of its sign: what
/// a conversion gives with denormals flushed, as compiled code runs.
fn narrow(x: f64) -> f32 {
    flushed(x as f32)
}

/// `x`, or the zero of its sign when it is a denormal.
fn flushed(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The word of a component at place `v` (rounded to f32) down a column
/// whose top and rise are `top` and `rise` ([`column`]): `top + rise × v`
/// as one f32 fused multiply-add, a denormal result flushed, as the row
/// loop's compiled code computes it with one vector FMA for a quad's four
/// pixels (GPUs interpolate in f32 as well).
pub(crate) fn blend(top: f32, rise: f32, v: f32) -> u32 {
    flushed(rise.mul_add(v, top)).to_bits()
}

/// A draw's inputs, prepared once: the words that are the same at every
/// pixel, and for the components that vary, their values along the top
/// edge and rises to the bottom edge at every column ([`column`]), laid
/// out as the row loop reads them ([`Inputs::quad_table`]). A pixel's
/// word is their [`blend`] at its row's place.
#[derive(Debug, Clone)]
pub(super) struct Inputs {
    /// (register × 4 + component, word) of the flat components.
    flat: Vec<(usize, u32)>,
    /// Register × 4 + component of the varying components.
    varying: Vec<usize>,
    /// The row loop's table ([`Inputs::quad_table`]).
    table: Vec<f32>,
}

impl Inputs {
    /// The inputs of registers below `regs` (a later input replaces an
    /// earlier one of the same register) over the pixels of `columns`.
    pub(super) fn new(inputs: &[PixelInput], regs: usize, columns: &Axis) -> Inputs {
        let mut slots: Vec<Option<Interpolant>> = vec![None; 4 * regs];
        for input in inputs.iter().filter(|i| (i.reg as usize) < regs) {
            for c in 0..4 {
                slots[4 * input.reg as usize + c] = Some(Interpolant::new(&input.corners, c));
            }
        }
        let mut flat = Vec::new();
        let mut varying = Vec::new();
        let mut steps = Vec::new();
        for (slot, interpolant) in slots.into_iter().enumerate() {
            match interpolant {
                Some(Interpolant::Flat(word)) => flat.push((slot, word)),
                Some(Interpolant::Bilinear {
                    top_left,
                    top_step,
                    bottom_left,
                    bottom_step,
                }) => {
                    varying.push(slot);
                    steps.push([top_left, top_step, bottom_left, bottom_step]);
                }
                None => {}
            }
        }
        Inputs {
            flat,
            varying,
            table: quad_table(&steps, columns),
        }
    }

    /// Writes the flat components into every lane of a call's input block
    /// of `lanes` lanes.
    pub(super) fn fill_flat(&self, block: &mut [u32], lanes: usize) {
        for &(slot, word) in &self.flat {
            block[slot * lanes..(slot + 1) * lanes].fill(word);
        }
    }

    /// The input-block components that vary (register × 4 + component),
    /// in the order of [`Inputs::quad_table`]'s entries.
    pub(super) fn varying_slots(&self) -> Vec<u32> {
        self.varying.iter().map(|&slot| slot as u32).collect()
    }

    /// The compiled row loop's table ([`crate::abi::DrawRow::table`]): per
    /// quad column (columns `2q` and `2q + 1`) and varying component, the
    /// left and right columns' tops twice (left, right, left, right), then
    /// their rises the same way. A pixel's word is the [`blend`] of its
    /// column's top and rise at its row's place down the rectangle.
    pub(super) fn quad_table(&self) -> &[f32] {
        &self.table
    }
}

/// The row loop's table of the varying components whose corner values
/// give `steps` (top left, top step, bottom left, bottom step) over the
/// pixels of `columns`, in one pass (a draw makes it before any row
/// runs). A last column without a right neighbour stands for both.
fn quad_table(steps: &[[f64; 4]], columns: &Axis) -> Vec<f32> {
    let quads = columns.len().div_ceil(2);
    let mut table = Vec::with_capacity(8 * steps.len() * quads);
    for q in 0..quads {
        let left = columns.at(2 * q).0;
        let right = columns.at((2 * q + 1).min(columns.len() - 1)).0;
        for &component in steps {
            let [[top_l, rise_l], [top_r, rise_r]] = [left, right].map(|u| column(component, u));
            table.extend([top_l, top_r, top_l, top_r, rise_l, rise_r, rise_l, rise_r]);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::{blend, Axis, Inputs};
    use crate::dispatch::PixelInput;

    /// The words of the pixel at column `x`, place `v`, as the compiled
    /// row loop computes them: flat components from a four-lane block,
    /// varying ones from the quad table.
    fn block(inputs: &Inputs, x: usize, v: f64) -> Vec<u32> {
        let mut block = vec![0; 32];
        inputs.fill_flat(&mut block, 4);
        let mut words: Vec<u32> = block.chunks(4).map(|lanes| lanes[0]).collect();
        let (slots, table) = (inputs.varying_slots(), inputs.quad_table());
        for (i, slot) in slots.iter().enumerate() {
            let entry = &table[((x / 2) * slots.len() + i) * 8..][..8];
            let (top, rise) = (entry[x % 2], entry[4 + x % 2]);
            assert_eq!([top, rise], [entry[2 + x % 2], entry[6 + x % 2]]);
            words[*slot as usize] = blend(top, rise, v as f32);
        }
        words
    }

    #[test]
    fn equal_corners_copy_bits() {
        let corners = [[0x7fc0_1234, 0x8000_0000, 1, 2]; 4];
        let columns = Axis::new(0, 5, 0, 4, 0.5);
        let inputs = Inputs::new(&[PixelInput { reg: 1, corners }], 2, &columns);
        assert_eq!(block(&inputs, 3, 0.7)[4..], corners[0]);
    }

    #[test]
    fn corners_blend_bilinearly() {
        let f = |x: f32| x.to_bits();
        let corners = [[f(0.0); 4], [f(1.0); 4], [f(2.0); 4], [f(4.0); 4]];
        // Columns at u = 0, 1/3, 1/2, 1.
        let columns = Axis::new(0, 4, 0, 6, 0.0);
        let columns = Axis(vec![
            columns.at(0),
            columns.at(2),
            columns.at(3),
            (1.0, 0),
            (1.0, 0),
        ]);
        let inputs = Inputs::new(&[PixelInput { reg: 0, corners }], 1, &columns);
        assert_eq!(block(&inputs, 0, 0.0)[0], f(0.0));
        assert_eq!(block(&inputs, 3, 0.0)[0], f(1.0));
        assert_eq!(block(&inputs, 0, 1.0)[0], f(2.0));
        assert_eq!(block(&inputs, 3, 1.0)[0], f(4.0));
        assert_eq!(block(&inputs, 2, 0.5)[0], f(1.75));
        // The column's top rounded once, from f64, to f32.
        assert_eq!(block(&inputs, 1, 0.0)[0], f((1.0f64 / 3.0) as f32));
    }

    #[test]
    fn corner_values_match_the_row_table_bit_for_bit() {
        let f = |x: f32| x.to_bits();
        // A third and a tenth are inexact, so the two paths agree only if
        // they round alike; component 1 is flat and keeps its word.
        let corners = [
            [f(0.0), 7, f(1.0), 0],
            [f(1.0), 7, f(0.1), 0],
            [f(1.0 / 3.0), 7, f(2.0), 0],
            [f(4.0), 7, f(-3.0), 0],
        ];
        let columns = Axis::new(0, 6, 0, 6, 0.5);
        let inputs = Inputs::new(&[PixelInput { reg: 0, corners }], 1, &columns);
        for x in 0..6 {
            for v in [0.0, 0.25, 0.7] {
                let u = columns.at(x).0;
                assert_eq!(
                    super::corner_value(&corners, u, v),
                    block(&inputs, x, v)[..4]
                );
            }
        }
    }

    #[test]
    fn later_inputs_replace_earlier_ones() {
        let f = |x: f32| x.to_bits();
        let varying = [[f(0.0); 4], [f(1.0); 4], [f(2.0); 4], [f(4.0); 4]];
        let flat = [[7; 4]; 4];
        let columns = Axis::new(0, 3, 0, 2, 0.5);
        let first = Inputs::new(
            &[
                PixelInput {
                    reg: 0,
                    corners: varying,
                },
                PixelInput {
                    reg: 0,
                    corners: flat,
                },
            ],
            1,
            &columns,
        );
        assert_eq!(block(&first, 1, 0.5)[..4], [7; 4]);
        let second = Inputs::new(
            &[
                PixelInput {
                    reg: 0,
                    corners: flat,
                },
                PixelInput {
                    reg: 0,
                    corners: varying,
                },
                PixelInput {
                    reg: 5,
                    corners: flat,
                },
            ],
            1,
            &columns,
        );
        assert_eq!(block(&second, 0, 0.0)[..4], [f(0.25); 4]);
    }
}
