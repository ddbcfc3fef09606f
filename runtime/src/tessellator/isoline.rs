//! The isoline domain: lines of constant v (density), each split along u
//! (detail). The line at v == 1 is not drawn.

use super::factors::IsolineFactors;
use super::fixed::Fixed;
use super::partition::EdgeSplit;

/// An isoline patch's splits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IsolinePatch {
    density: EdgeSplit,
    detail: EdgeSplit,
}

impl IsolinePatch {
    /// Prepares a patch from processed factors.
    pub fn new(factors: IsolineFactors) -> Self {
        IsolinePatch {
            density: EdgeSplit::new(factors.density.value, factors.density.parity),
            detail: EdgeSplit::new(factors.detail.value, factors.detail.parity),
        }
    }

    fn lines(&self) -> i32 {
        self.density.point_count - 1
    }

    /// The domain points, line by line, each line from u = 0 to u = 1.
    pub fn points(&self) -> Vec<[Fixed; 2]> {
        (0..self.lines())
            .flat_map(|line| {
                let v = self.density.place(line);
                (0..self.detail.point_count).map(move |p| [self.detail.place(p), v])
            })
            .collect()
    }

    /// Two indices per segment, line by line.
    pub fn segments(&self) -> Vec<u32> {
        let per_line = self.detail.point_count as u32;
        (0..self.lines() as u32)
            .flat_map(|line| {
                let first = line * per_line;
                (1..per_line).flat_map(move |p| [first + p - 1, first + p])
            })
            .collect()
    }
}
