//! Factor processing: culling, clamping to the partitioning's range and to
//! the hull shader's declared maximum, rounding, parity, and conversion to
//! fixed point, before any point is placed.

use super::fixed::{self, Fixed, ONE};
use super::partition::Parity;
use super::Partitioning;

const MIN_ODD: f32 = 1.0;
const MAX_ODD: f32 = 63.0;
const MIN_EVEN: f32 = 2.0;
const MAX_EVEN: f32 = 64.0;
const MIN_ISOLINE_DENSITY: f32 = 1.0;
const MAX_ISOLINE_DENSITY: f32 = 64.0;
/// The smallest positive 16.16 fraction, 2^-16.
const FIXED_EPSILON: f32 = 1.0 / 65536.0;

/// One factor after processing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Factor {
    /// The clamped (and for integer partitioning rounded) factor in 16.16.
    pub value: Fixed,
    /// The parity its edge is split with.
    pub parity: Parity,
}

/// What a tri or quad patch's factors call for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PatchFactors<const EDGES: usize, const INSIDE: usize> {
    /// An edge factor is not greater than 0 (or is NaN): no output at all.
    Culled,
    /// Every factor is 1 (integer, pow2 or fractional odd): the patch is
    /// output as its corners alone.
    Minimal,
    /// Factors to tessellate with.
    Split {
        /// Edge factors in the domain's edge order.
        edges: [Factor; EDGES],
        /// Inside factors (tri: one; quad: U then V).
        inside: [Factor; INSIDE],
    },
}

/// The isoline factors after processing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IsolineFactors {
    /// Line density, always split as integer partitioning.
    pub density: Factor,
    /// Line detail, split with the patch's partitioning.
    pub detail: Factor,
}

/// True if any edge factor culls the patch: not greater than 0, or NaN.
fn culls(edges: &[f32]) -> bool {
    edges.iter().any(|&f| f.is_nan() || f <= 0.0)
}

/// Whether the partitioning rounds factors up to whole numbers.
fn is_integer(partitioning: Partitioning) -> bool {
    matches!(partitioning, Partitioning::Integer | Partitioning::Pow2)
}

/// The range factors are clamped to: the partitioning's own range with its
/// upper end lowered to `max_tess_factor` (a NaN maximum is ignored, and the
/// upper end never goes below the lower end).
fn range(partitioning: Partitioning, max_tess_factor: f32) -> (f32, f32) {
    let (lower, upper) = match partitioning {
        Partitioning::Integer | Partitioning::Pow2 => (MIN_ODD, MAX_EVEN),
        Partitioning::FractionalOdd => (MIN_ODD, MAX_ODD),
        Partitioning::FractionalEven => (MIN_EVEN, MAX_EVEN),
    };
    (lower, lower_upper_bound(lower, upper, max_tess_factor))
}

fn lower_upper_bound(lower: f32, upper: f32, max_tess_factor: f32) -> f32 {
    if max_tess_factor < upper {
        max_tess_factor.max(lower)
    } else {
        upper
    }
}

/// Clamps to [lower, upper]; NaN and values flushed as denormals become
/// `lower` (the spec's IEEE min/max with denormal flushing).
fn clamp(value: f32, lower: f32, upper: f32) -> f32 {
    if value > lower {
        value.min(upper)
    } else {
        lower
    }
}

/// Parity of a whole-number factor under integer partitioning.
fn whole_parity(value: f32) -> Parity {
    if (value as i32) & 1 == 0 {
        Parity::Even
    } else {
        Parity::Odd
    }
}

/// Parity every factor of a fractional partitioning is split with.
fn fractional_parity(partitioning: Partitioning) -> Parity {
    if partitioning == Partitioning::FractionalOdd {
        Parity::Odd
    } else {
        Parity::Even
    }
}

/// Processes a tri (3 edges, 1 inside) or quad (4 edges, 2 inside) patch's
/// factors.
///
/// Under fractional odd partitioning, once any factor would exceed 1 the
/// inside factors are kept just above 1 so that an inner ring ("picture
/// frame") exists; a quad's raw inside factors count for that test, a tri's
/// single inside factor does not.
pub(crate) fn process_patch<const EDGES: usize, const INSIDE: usize>(
    partitioning: Partitioning,
    raw_edges: [f32; EDGES],
    raw_inside: [f32; INSIDE],
    max_tess_factor: f32,
) -> PatchFactors<EDGES, INSIDE> {
    if culls(&raw_edges) {
        return PatchFactors::Culled;
    }
    let integer = is_integer(partitioning);
    let (mut lower, upper) = range(partitioning, max_tess_factor);
    let round = |f: f32| if integer { f.ceil() } else { f };
    let edges = raw_edges.map(|f| round(clamp(f, lower, upper)));

    if partitioning == Partitioning::FractionalOdd {
        let frame_threshold = MIN_ODD + FIXED_EPSILON / 2.0;
        let inside_counts = INSIDE > 1;
        let any_above = edges.iter().any(|&f| f > frame_threshold)
            || (inside_counts && raw_inside.iter().any(|&f| f > frame_threshold));
        if any_above {
            lower = MIN_ODD + FIXED_EPSILON;
        }
    }
    let inside = raw_inside.map(|f| round(clamp(f, lower, upper)));

    let edge_factors = edges.map(|f| Factor {
        value: fixed::from_f32(f),
        parity: if integer {
            whole_parity(f)
        } else {
            fractional_parity(partitioning)
        },
    });
    let inside_factors = inside.map(|f| Factor {
        value: fixed::from_f32(f),
        parity: if !integer {
            fractional_parity(partitioning)
        } else if f == 1.0 {
            Parity::Even
        } else {
            whole_parity(f)
        },
    });

    let may_be_minimal = integer || partitioning == Partitioning::FractionalOdd;
    let all_one = edge_factors
        .iter()
        .chain(inside_factors.iter())
        .all(|f| f.value == ONE);
    if may_be_minimal && all_one {
        return PatchFactors::Minimal;
    }
    PatchFactors::Split {
        edges: edge_factors,
        inside: inside_factors,
    }
}

/// Processes an isoline patch's factors; `None` if the patch is culled.
///
/// Detail is clamped and rounded like any edge of the partitioning; density
/// is clamped to [1, 64] and always rounded up to a whole number.
pub(crate) fn process_isoline(
    partitioning: Partitioning,
    raw_density: f32,
    raw_detail: f32,
    max_tess_factor: f32,
) -> Option<IsolineFactors> {
    if culls(&[raw_density, raw_detail]) {
        return None;
    }
    let integer = is_integer(partitioning);
    let (lower, upper) = range(partitioning, max_tess_factor);
    let detail = clamp(raw_detail, lower, upper);
    let detail = if integer { detail.ceil() } else { detail };
    let density_upper =
        lower_upper_bound(MIN_ISOLINE_DENSITY, MAX_ISOLINE_DENSITY, max_tess_factor);
    let density = clamp(raw_density, MIN_ISOLINE_DENSITY, density_upper).ceil();
    Some(IsolineFactors {
        density: Factor {
            value: fixed::from_f32(density),
            parity: whole_parity(density),
        },
        detail: Factor {
            value: fixed::from_f32(detail),
            parity: if integer {
                whole_parity(detail)
            } else {
                fractional_parity(partitioning)
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(value: f32, parity: Parity) -> Factor {
        Factor {
            value: fixed::from_f32(value),
            parity,
        }
    }

    #[test]
    fn zero_negative_and_nan_edges_cull() {
        for bad in [0.0, -0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
            let tri = process_patch(Partitioning::Integer, [1.0, bad, 3.0], [2.0], 64.0);
            assert_eq!(tri, PatchFactors::Culled, "{bad}");
            assert_eq!(process_isoline(Partitioning::Integer, bad, 4.0, 64.0), None);
            assert_eq!(process_isoline(Partitioning::Integer, 4.0, bad, 64.0), None);
        }
        // Inside factors never cull: NaN clamps to the range's lower end.
        let quad = process_patch(Partitioning::Integer, [2.0; 4], [f32::NAN, 0.0], 64.0);
        assert_eq!(
            quad,
            PatchFactors::Split {
                edges: [factor(2.0, Parity::Even); 4],
                inside: [factor(1.0, Parity::Even); 2],
            }
        );
    }

    #[test]
    fn integer_rounds_up_and_clamps() {
        let tri = process_patch(Partitioning::Integer, [0.2, 2.5, 100.0], [3.0001], 64.0);
        assert_eq!(
            tri,
            PatchFactors::Split {
                edges: [
                    factor(1.0, Parity::Odd),
                    factor(3.0, Parity::Odd),
                    factor(64.0, Parity::Even)
                ],
                inside: [factor(4.0, Parity::Even)],
            }
        );
    }

    #[test]
    fn pow2_is_split_like_integer() {
        let pow2 = process_patch(Partitioning::Pow2, [3.0, 5.5, 7.0, 1.0], [3.0, 6.0], 64.0);
        let int = process_patch(
            Partitioning::Integer,
            [3.0, 5.5, 7.0, 1.0],
            [3.0, 6.0],
            64.0,
        );
        assert_eq!(pow2, int);
    }

    #[test]
    fn fractional_ranges() {
        let odd = process_patch(Partitioning::FractionalOdd, [70.0, 0.5, 2.5], [0.5], 64.0);
        assert_eq!(
            odd,
            PatchFactors::Split {
                edges: [
                    factor(63.0, Parity::Odd),
                    factor(1.0, Parity::Odd),
                    factor(2.5, Parity::Odd)
                ],
                // Picture frame: kept just above 1.
                inside: [Factor {
                    value: ONE + 1,
                    parity: Parity::Odd
                }],
            }
        );
        let even = process_patch(Partitioning::FractionalEven, [70.0, 0.5, 2.5], [0.5], 64.0);
        assert_eq!(
            even,
            PatchFactors::Split {
                edges: [
                    factor(64.0, Parity::Even),
                    factor(2.0, Parity::Even),
                    factor(2.5, Parity::Even)
                ],
                inside: [factor(2.0, Parity::Even)],
            }
        );
    }

    #[test]
    fn all_ones_is_minimal_except_for_fractional_even() {
        for p in [
            Partitioning::Integer,
            Partitioning::Pow2,
            Partitioning::FractionalOdd,
        ] {
            assert_eq!(
                process_patch(p, [1.0; 4], [1.0; 2], 64.0),
                PatchFactors::Minimal
            );
            assert_eq!(
                process_patch(p, [0.5; 3], [0.25], 64.0),
                PatchFactors::Minimal
            );
        }
        assert!(matches!(
            process_patch(Partitioning::FractionalEven, [1.0; 4], [1.0; 2], 64.0),
            PatchFactors::Split { .. }
        ));
        // A quad's inside factor above 1 opens the picture frame.
        assert!(matches!(
            process_patch(Partitioning::FractionalOdd, [1.0; 4], [1.5, 1.0], 64.0),
            PatchFactors::Split { .. }
        ));
    }

    #[test]
    fn max_tess_factor_lowers_the_upper_bound() {
        let tri = process_patch(Partitioning::FractionalOdd, [9.0, 3.0, 17.0], [12.0], 5.5);
        assert_eq!(
            tri,
            PatchFactors::Split {
                edges: [
                    factor(5.5, Parity::Odd),
                    factor(3.0, Parity::Odd),
                    factor(5.5, Parity::Odd)
                ],
                inside: [factor(5.5, Parity::Odd)],
            }
        );
        // Never below the range's lower end; NaN is ignored.
        let even = process_patch(Partitioning::FractionalEven, [9.0; 3], [9.0], 1.0);
        assert!(
            matches!(even, PatchFactors::Split { edges, .. } if edges[0] == factor(2.0, Parity::Even))
        );
        let nan = process_patch(Partitioning::Integer, [9.0; 3], [9.0], f32::NAN);
        assert!(
            matches!(nan, PatchFactors::Split { edges, .. } if edges[0] == factor(9.0, Parity::Odd))
        );
    }

    #[test]
    fn isoline_density_is_always_whole() {
        let iso = process_isoline(Partitioning::FractionalEven, 2.5, 2.5, 64.0).unwrap();
        assert_eq!(iso.density, factor(3.0, Parity::Odd));
        assert_eq!(iso.detail, factor(2.5, Parity::Even));
        let iso = process_isoline(Partitioning::Integer, 100.0, 0.1, 64.0).unwrap();
        assert_eq!(iso.density, factor(64.0, Parity::Even));
        assert_eq!(iso.detail, factor(1.0, Parity::Odd));
    }
}
