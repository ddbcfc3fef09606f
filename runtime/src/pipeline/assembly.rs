//! Input assembly: the vertices a draw reads, grouped into primitives the
//! way D3D11 defines each topology.

use super::strips::strips_to_list;
use super::topology::{GsOutput, Topology};

/// An index that ends the current strip (D3D11's strip-cut value for
/// 32-bit indices).
pub const STRIP_CUT: u32 = u32::MAX;

/// The vertices a draw's last vertex stage produced, and how to read them:
/// what the vertex shader (or the domain shader) hands to the geometry
/// shader or to stream output.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexSource {
    /// Output registers, vertex-major: vertex `v`'s register `r` is
    /// `registers[v * regs_per_vertex + r]`.
    pub registers: Vec<[u32; 4]>,
    /// Registers per vertex.
    pub regs_per_vertex: usize,
    /// How the vertices form primitives.
    pub topology: Topology,
    /// The vertex of each position, in drawing order ([`STRIP_CUT`] ends a
    /// strip); `None` draws every vertex in order. A vertex past
    /// `registers` reads zeros.
    pub indices: Option<Vec<u32>>,
}

/// Primitives with their vertices' registers copied out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Primitives {
    /// Vertices in each primitive.
    pub vertices_per_primitive: usize,
    /// Registers per vertex.
    pub regs_per_vertex: usize,
    /// Registers, primitive-major, then vertex, then register.
    pub registers: Vec<[u32; 4]>,
    /// Each primitive's SV_PrimitiveID.
    pub ids: Vec<u32>,
}

impl Primitives {
    /// Empty primitives of a shape.
    pub fn empty(vertices_per_primitive: usize, regs_per_vertex: usize) -> Primitives {
        Primitives {
            vertices_per_primitive,
            regs_per_vertex,
            registers: Vec::new(),
            ids: Vec::new(),
        }
    }

    /// How many primitives there are.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The registers of vertex `v` of primitive `p`.
    pub fn vertex(&self, p: usize, v: usize) -> &[[u32; 4]] {
        let at = (p * self.vertices_per_primitive + v) * self.regs_per_vertex;
        &self.registers[at..at + self.regs_per_vertex]
    }

    /// Appends the primitives of `other` (of the same shape) after these.
    pub fn extend(&mut self, other: Primitives) {
        self.registers.extend(other.registers);
        self.ids.extend(other.ids);
    }

    /// The primitives as stream output sees them without a geometry
    /// shader: points, lines or triangles, adjacent vertices dropped.
    pub fn without_adjacency(&self) -> Primitives {
        let keep: &[usize] = match self.vertices_per_primitive {
            4 => &[1, 2],
            6 => &[0, 2, 4],
            n => &[0, 1, 2][..n.min(3)],
        };
        let mut out = Primitives::empty(keep.len(), self.regs_per_vertex);
        for p in 0..self.len() {
            for &v in keep {
                out.registers.extend_from_slice(self.vertex(p, v));
            }
        }
        out.ids = self.ids.clone();
        out
    }
}

/// Groups a source's vertices into primitives. Primitive ids count from 0
/// across strip cuts.
pub fn assemble(src: &VertexSource) -> Primitives {
    let regs = src.regs_per_vertex;
    let count = src.registers.len().checked_div(regs).unwrap_or(0);
    let order: Vec<u32> = match &src.indices {
        Some(i) => i.clone(),
        None => (0..count as u32).collect(),
    };
    let n = src.topology.primitive_vertices();
    let mut out = Primitives::empty(n, regs);
    let mut positions = Vec::new();
    for segment in order.split(|&i| i == STRIP_CUT) {
        positions.clear();
        segment_primitives(src.topology, segment.len(), &mut positions);
        for &p in &positions {
            let v = segment[p] as usize;
            match src.registers.get(v * regs..(v + 1) * regs) {
                Some(r) if v < count => out.registers.extend_from_slice(r),
                _ => out.registers.extend(std::iter::repeat_n([0; 4], regs)),
            }
        }
        let first = out.ids.len() as u32;
        out.ids
            .extend(first..first + (positions.len() / n.max(1)) as u32);
    }
    out
}

/// Appends the positions in a run of `len` vertices (no cut inside) of each
/// primitive's vertices.
fn segment_primitives(topology: Topology, len: usize, out: &mut Vec<usize>) {
    let n = topology.primitive_vertices();
    match topology {
        Topology::LineStrip => strips_to_list(GsOutput::LineStrip, len, out),
        Topology::TriangleStrip => strips_to_list(GsOutput::TriangleStrip, len, out),
        Topology::LineStripAdj => {
            for i in 3..len {
                out.extend(i - 3..=i);
            }
        }
        Topology::TriangleStripAdj => triangle_strip_adj(len, out),
        _ => out.extend(0..len - len % n.max(1)),
    }
}

/// The triangles of a triangle strip with adjacency of `len` vertices, as
/// (vertex 0, neighbour of edge 0-1, vertex 1, neighbour of edge 1-2,
/// vertex 2, neighbour of edge 2-0), the geometry-shader input order.
/// Triangle `i` of `n` takes strip vertices 2i, 2i + 2, 2i + 4 (the two
/// first swapped for odd `i`, keeping the winding); its neighbours are the
/// odd vertices around it, the strip's ends using the vertex just past them.
fn triangle_strip_adj(len: usize, out: &mut Vec<usize>) {
    if len < 6 {
        return;
    }
    let n = (len - 4) / 2;
    for i in 0..n {
        let j = 2 * i;
        let tri = match (i, i + 1 == n, i % 2 == 1) {
            (0, true, _) => [0, 1, 2, 5, 4, 3],
            (0, false, _) => [0, 1, 2, 6, 4, 3],
            (_, false, false) => [j, j - 2, j + 2, j + 6, j + 4, j + 3],
            (_, false, true) => [j + 2, j - 2, j, j + 3, j + 4, j + 6],
            (_, true, false) => [j, j - 2, j + 2, j + 5, j + 4, j + 3],
            (_, true, true) => [j + 2, j - 2, j, j + 3, j + 4, j + 5],
        };
        out.extend(tri);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(topology: Topology, vertices: u32, indices: Option<Vec<u32>>) -> VertexSource {
        VertexSource {
            registers: (0..vertices).map(|v| [v, 0, 0, 0]).collect(),
            regs_per_vertex: 1,
            topology,
            indices,
        }
    }

    fn firsts(p: &Primitives) -> Vec<u32> {
        p.registers.iter().map(|r| r[0]).collect()
    }

    #[test]
    fn strips_split_at_cuts_and_ids_continue() {
        // Indices 0 1 2 3 | 4 5 6: a 4-vertex strip (two triangles, the
        // second odd: 1 3 2) and a 3-vertex one (4 5 6); ids 0, 1, 2.
        let s = source(
            Topology::TriangleStrip,
            7,
            Some(vec![0, 1, 2, 3, STRIP_CUT, 4, 5, 6]),
        );
        let p = assemble(&s);
        assert_eq!(firsts(&p), [0, 1, 2, 1, 3, 2, 4, 5, 6]);
        assert_eq!(p.ids, [0, 1, 2]);
    }

    #[test]
    fn lists_drop_incomplete_primitives_and_missing_vertices_read_zero() {
        // Seven vertices of a line list are three lines; index 9 is past
        // the three vertices given and reads zeros.
        let p = assemble(&source(Topology::LineList, 7, None));
        assert_eq!(p.len(), 3);
        let p = assemble(&source(Topology::PointList, 3, Some(vec![2, 9])));
        assert_eq!(firsts(&p), [2, 0]);
    }

    #[test]
    fn adjacency_topologies() {
        // Line strip with adjacency of 5 vertices: lines (0 1 2 3), (1 2 3 4).
        let p = assemble(&source(Topology::LineStripAdj, 5, None));
        assert_eq!(firsts(&p), [0, 1, 2, 3, 1, 2, 3, 4]);
        // Triangle strip with adjacency of 8 vertices: two triangles,
        // first (0 2 4) with neighbours 1, 6, 3; second, odd and last,
        // (4 2 6) with neighbours 0, 5, 7.
        let p = assemble(&source(Topology::TriangleStripAdj, 8, None));
        assert_eq!(firsts(&p), [0, 1, 2, 6, 4, 3, 4, 0, 2, 5, 6, 7]);
        // Without a geometry shader the neighbours go.
        assert_eq!(firsts(&p.without_adjacency()), [0, 2, 4, 4, 2, 6]);
    }
}
