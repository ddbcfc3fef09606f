//! Primitive topologies of a pipeline draw, numbered as
//! `D3D11_PRIMITIVE_TOPOLOGY` numbers them.

use crate::checks::invalid;
use crate::status::Outcome;
use dxjit_runtime::pipeline::Topology as RuntimeTopology;

/// How a draw's vertices form primitives: `D3D11_PRIMITIVE_TOPOLOGY`'s
/// numbers. Patch lists of 1 to 32 control points are 33 to 64
/// (`DXJIT_TOPOLOGY_PATCH_LIST1 + n - 1`).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// Every vertex is a point.
    PointList = 1,
    /// Every two vertices are a line.
    LineList = 2,
    /// Each vertex after the first ends a line from the one before.
    LineStrip = 3,
    /// Every three vertices are a triangle.
    TriangleList = 4,
    /// Each vertex after the second ends a triangle with the two before.
    TriangleStrip = 5,
    /// Lines with their neighbours, four vertices each.
    LineListAdj = 10,
    /// A line strip with neighbours at both ends.
    LineStripAdj = 11,
    /// Triangles with their neighbours, six vertices each.
    TriangleListAdj = 12,
    /// A triangle strip with neighbours interleaved.
    TriangleStripAdj = 13,
    /// Patches of one control point.
    PatchList1 = 33,
    /// Patches of 32 control points (the most).
    PatchList32 = 64,
}

/// The runtime's topology a `dxjit_topology` number names.
pub fn topology(id: u32) -> Outcome<RuntimeTopology> {
    Ok(match id {
        1 => RuntimeTopology::PointList,
        2 => RuntimeTopology::LineList,
        3 => RuntimeTopology::LineStrip,
        4 => RuntimeTopology::TriangleList,
        5 => RuntimeTopology::TriangleStrip,
        10 => RuntimeTopology::LineListAdj,
        11 => RuntimeTopology::LineStripAdj,
        12 => RuntimeTopology::TriangleListAdj,
        13 => RuntimeTopology::TriangleStripAdj,
        33..=64 => RuntimeTopology::PatchList((id - 32) as u8),
        _ => return invalid(format!("unknown topology {id}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_d3d11s() {
        // D3D11_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST is 35.
        assert_eq!(topology(35).unwrap(), RuntimeTopology::PatchList(3));
        assert_eq!(topology(64).unwrap(), RuntimeTopology::PatchList(32));
        assert_eq!(topology(5).unwrap(), RuntimeTopology::TriangleStrip);
        assert!(topology(6).is_err() && topology(32).is_err() && topology(65).is_err());
    }
}
