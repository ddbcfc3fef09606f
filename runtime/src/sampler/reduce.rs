//! How weighted values combine: the weighted sum of standard filtering, or
//! the component-wise minimum or maximum of D3D11.1's reduction filters
//! (over the values of non-zero weight).

use super::{Compare, Reduction, SamplerState};

/// A running combination of weighted values.
pub(crate) struct Reducer {
    mode: Reduction,
    value: [f32; 4],
    empty: bool,
}

impl Reducer {
    /// An empty combination for `sampler`: comparison samplers always sum
    /// (their reduction is the comparison one).
    pub(crate) fn new(sampler: &SamplerState) -> Reducer {
        let mode = if sampler.compare == Compare::None {
            sampler.reduction
        } else {
            Reduction::Standard
        };
        Reducer {
            mode,
            value: [0.0; 4],
            empty: true,
        }
    }

    /// Adds `value` with `weight` (values of weight 0 are left out).
    pub(crate) fn add(&mut self, weight: f32, value: [f32; 4]) {
        if weight == 0.0 {
            return;
        }
        match self.mode {
            Reduction::Standard => {
                for (s, v) in self.value.iter_mut().zip(value) {
                    *s = weigh(*s, weight, v, self.empty);
                }
            }
            Reduction::Minimum if !self.empty => {
                self.value = std::array::from_fn(|c| self.value[c].min(value[c]));
            }
            Reduction::Maximum if !self.empty => {
                self.value = std::array::from_fn(|c| self.value[c].max(value[c]));
            }
            Reduction::Minimum | Reduction::Maximum => self.value = value,
        }
        self.empty = false;
    }

    /// The combination (zeros when nothing was added).
    pub(crate) fn finish(self) -> [f32; 4] {
        self.value
    }

    /// `a` and `b` blended with `b`'s weight `weight` (between two mips): a
    /// linear blend, or under min/max reduction the minimum or maximum of
    /// the values of non-zero weight.
    pub(crate) fn blend(sampler: &SamplerState, a: [f32; 4], b: [f32; 4], weight: f32) -> [f32; 4] {
        let mode = Reducer::new(sampler).mode;
        match mode {
            _ if weight <= 0.0 => a,
            Reduction::Standard => std::array::from_fn(|c| a[c] * (1.0 - weight) + b[c] * weight),
            Reduction::Minimum if weight < 1.0 => std::array::from_fn(|c| a[c].min(b[c])),
            Reduction::Maximum if weight < 1.0 => std::array::from_fn(|c| a[c].max(b[c])),
            Reduction::Minimum | Reduction::Maximum => b,
        }
    }
}

/// `sum + weight × value`, or the product alone for the first term
/// (`first`): a sum does not start from +0, so a single tap of weight 1
/// (point filtering) is its texel exactly, −0 included, and taps that are
/// all −0 sum to −0.
pub(crate) fn weigh(sum: f32, weight: f32, value: f32, first: bool) -> f32 {
    if first {
        weight * value
    } else {
        sum + weight * value
    }
}
