//! The rates a measured point reaches and the ceilings they compare with:
//! work per second, GFLOP/s against the peak, GB/s against memcpy, texture
//! lookups and barriers per second, and which ceiling the case is nearest.

use super::measure::Point;
use super::peak::Peak;
use crate::case::Action;

/// Below this fraction of both ceilings a case counts as bound by neither.
const NEAR: f64 = 0.25;

/// What a case's action runs one invocation per.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A dispatch: compute invocations.
    Invocations,
    /// A draw: pixels.
    Pixels,
    /// A vertex batch: vertices.
    Vertices,
    /// A pipeline: the primitives input assembly makes.
    Primitives,
}

impl Work {
    /// The work of a case's action.
    pub fn of(action: &Action) -> Work {
        match action {
            Action::Draw(_) => Work::Pixels,
            Action::Vertices { .. } => Work::Vertices,
            Action::Pipeline(_) => Work::Primitives,
            Action::Dispatch { .. } | Action::None => Work::Invocations,
        }
    }

    /// The plural noun: `invocations`, `pixels`, `vertices`.
    pub fn noun(self) -> &'static str {
        match self {
            Work::Invocations => "invocations",
            Work::Pixels => "pixels",
            Work::Vertices => "vertices",
            Work::Primitives => "primitives",
        }
    }
}

/// The ceiling a case is nearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Float operations: the larger fraction is of the peak GFLOP/s.
    Alu,
    /// Memory: the larger fraction is of the memcpy rate.
    Memory,
    /// Neither rate reaches [`NEAR`] of its ceiling and the shader reads
    /// textures: the lookups' addressing, texel loads and filtering, vector
    /// work the float-operation count leaves out, are the likeliest cost
    /// (K4, whose two lookups take about 80 % of its time, is such a case).
    Sampling,
    /// Neither rate reaches [`NEAR`] of its ceiling and no texture is read:
    /// control flow, dispatch, barriers or helper calls take the time.
    Overhead,
    /// No ceiling is known (no action, no clock, nothing bound).
    Unknown,
}

impl Bound {
    /// The name JSON and the text report use.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Alu => "alu",
            Bound::Memory => "memory",
            Bound::Sampling => "sampling",
            Bound::Overhead => "overhead",
            Bound::Unknown => "unknown",
        }
    }
}

/// The rates of one point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Invocations (pixels, vertices) per second.
    pub per_s: f64,
    /// Billions of float operations per second, from the static count.
    pub gflops: Option<f64>,
    /// The peak for the point's threads.
    pub peak_gflops: Option<f64>,
    /// Bound bytes per second (every byte of the views counted once).
    pub gb_per_s: f64,
    /// The memcpy reference in the same unit.
    pub memcpy_gb_per_s: Option<f64>,
    /// Texture lookups per second (invocations × lookups per invocation),
    /// when the shader makes any.
    pub lookups_per_s: Option<f64>,
    /// Barriers the whole dispatch passes per second (groups × barriers per group).
    pub barriers_per_s: Option<f64>,
}

impl Rates {
    /// The rates of `point`; `groups` is the dispatch's thread-group count
    /// (0 for other actions).
    pub fn of(point: &Point, peak: Option<&Peak>, groups: u64) -> Rates {
        let seconds = point.median_ms() / 1e3;
        let per_second = |amount: f64| if seconds > 0.0 { amount / seconds } else { 0.0 };
        let invocations = point.invocations as f64;
        Rates {
            per_s: per_second(invocations),
            gflops: point
                .counts
                .map(|c| per_second(c.flops as f64 * invocations) / 1e9),
            peak_gflops: peak.map(|p| p.gflops(point.threads)),
            gb_per_s: per_second(point.bytes.total() as f64) / 1e9,
            memcpy_gb_per_s: point.memcpy_bytes_per_s.map(|r| r / 1e9),
            lookups_per_s: point
                .counts
                .filter(|c| c.lookups > 0)
                .map(|c| per_second(c.lookups as f64 * invocations)),
            barriers_per_s: point
                .counts
                .filter(|c| c.barriers > 0 && groups > 0)
                .map(|c| per_second((c.barriers * groups) as f64)),
        }
    }

    /// GFLOP/s as a fraction of the peak.
    pub fn peak_fraction(&self) -> Option<f64> {
        fraction(self.gflops?, self.peak_gflops?)
    }

    /// GB/s as a fraction of memcpy's.
    pub fn memcpy_fraction(&self) -> Option<f64> {
        fraction(self.gb_per_s, self.memcpy_gb_per_s?)
    }

    /// The ceiling the point is nearest.
    pub fn bound(&self) -> Bound {
        let (alu, memory) = (self.peak_fraction(), self.memcpy_fraction());
        let nearest = match (alu, memory) {
            (None, None) => return Bound::Unknown,
            (Some(a), Some(m)) if m > a => (Bound::Memory, m),
            (Some(a), _) => (Bound::Alu, a),
            (None, Some(m)) => (Bound::Memory, m),
        };
        if nearest.1 < NEAR && self.lookups_per_s.is_some() {
            Bound::Sampling
        } else if nearest.1 < NEAR {
            Bound::Overhead
        } else {
            nearest.0
        }
    }
}

fn fraction(value: f64, ceiling: f64) -> Option<f64> {
    (ceiling > 0.0).then(|| value / ceiling)
}

/// Thread groups a case's dispatch runs (0 for other actions).
pub fn groups(action: &Action) -> u64 {
    match action {
        Action::Dispatch { groups } => groups.iter().map(|g| u64::from(*g)).product(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(gflops: f64, gb_per_s: f64) -> Rates {
        Rates {
            per_s: 1.0,
            gflops: Some(gflops),
            peak_gflops: Some(100.0),
            gb_per_s,
            memcpy_gb_per_s: Some(10.0),
            lookups_per_s: None,
            barriers_per_s: None,
        }
    }

    #[test]
    fn the_nearer_ceiling_bounds() {
        assert_eq!(rates(60.0, 1.0).bound(), Bound::Alu);
        assert_eq!(rates(10.0, 8.0).bound(), Bound::Memory);
        assert_eq!(rates(10.0, 1.0).bound(), Bound::Overhead);
        let sampled = Rates {
            lookups_per_s: Some(1e6),
            ..rates(10.0, 1.0)
        };
        assert_eq!(sampled.bound(), Bound::Sampling);
        // A lookup rate does not hide a ceiling the case is near.
        let near = Rates {
            lookups_per_s: Some(1e6),
            ..rates(10.0, 8.0)
        };
        assert_eq!(near.bound(), Bound::Memory);
        let none = Rates {
            gflops: None,
            memcpy_gb_per_s: None,
            ..rates(0.0, 0.0)
        };
        assert_eq!(none.bound(), Bound::Unknown);
    }
}
