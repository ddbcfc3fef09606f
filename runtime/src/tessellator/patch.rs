//! A patch ready to tessellate: its factors processed, and the domain's
//! point and primitive generation chosen.

use super::connectivity::{TriangleWriter, Winding};
use super::factors::{self, PatchFactors};
use super::fixed::{Fixed, ONE};
use super::isoline::IsolinePatch;
use super::quad::QuadPatch;
use super::tri::TriPatch;
use super::{Domain, Partitioning, TessFactors};

/// A patch that is not culled.
pub(crate) enum Patch {
    /// A tri patch whose factors are all 1: its corners and one triangle.
    MinimalTri,
    /// A quad patch whose factors are all 1: its corners and two triangles.
    MinimalQuad,
    /// A tri patch to split.
    Tri(TriPatch),
    /// A quad patch to split.
    Quad(QuadPatch),
    /// An isoline patch.
    Isoline(IsolinePatch),
}

impl Patch {
    /// Processes the factors the domain uses; `None` if they cull the patch.
    pub fn new(domain: Domain, partitioning: Partitioning, factors: &TessFactors) -> Option<Patch> {
        let max = factors.max_tess_factor;
        let [e0, e1, e2, e3] = factors.edges;
        Some(match domain {
            Domain::Isoline => Patch::Isoline(IsolinePatch::new(factors::process_isoline(
                partitioning,
                e0,
                e1,
                max,
            )?)),
            Domain::Tri => {
                match factors::process_patch(partitioning, [e0, e1, e2], [factors.inside[0]], max) {
                    PatchFactors::Culled => return None,
                    PatchFactors::Minimal => Patch::MinimalTri,
                    PatchFactors::Split { edges, inside } => {
                        Patch::Tri(TriPatch::new(edges, inside[0]))
                    }
                }
            }
            Domain::Quad => {
                match factors::process_patch(partitioning, [e0, e1, e2, e3], factors.inside, max) {
                    PatchFactors::Culled => return None,
                    PatchFactors::Minimal => Patch::MinimalQuad,
                    PatchFactors::Split { edges, inside } => {
                        Patch::Quad(QuadPatch::new(edges, inside))
                    }
                }
            }
        })
    }

    /// The domain points in output order, in 16.16 fixed point.
    pub fn points(&self) -> Vec<[Fixed; 2]> {
        match self {
            // Tri corners v = 1, w = 1, u = 1: where the edges u==0, v==0
            // and w==0 start.
            Patch::MinimalTri => vec![[0, ONE], [0, 0], [ONE, 0]],
            Patch::MinimalQuad => vec![[0, 0], [ONE, 0], [ONE, ONE], [0, ONE]],
            Patch::Tri(patch) => patch.points(),
            Patch::Quad(patch) => patch.points(),
            Patch::Isoline(patch) => patch.points(),
        }
    }

    /// The patch's own primitives: triangles wound as `winding` says for
    /// tri and quad patches, line segments for isolines.
    pub fn primitives(&self, winding: Winding) -> Vec<u32> {
        let mut writer = TriangleWriter::new(winding);
        match self {
            Patch::MinimalTri => writer.triangle(0, 1, 2),
            Patch::MinimalQuad => {
                writer.triangle(0, 1, 3);
                writer.triangle(1, 2, 3);
            }
            Patch::Tri(patch) => patch.triangles(&mut writer),
            Patch::Quad(patch) => patch.triangles(&mut writer),
            Patch::Isoline(patch) => return patch.segments(),
        }
        writer.finish()
    }
}
