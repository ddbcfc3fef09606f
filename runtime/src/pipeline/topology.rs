//! Primitive topologies: what input assembly reads, what a geometry
//! shader takes and what it emits.

/// Geometry-shader streams (`dcl_stream m0` .. `m3`).
pub const MAX_STREAMS: usize = 4;

/// How input assembly groups vertices into primitives
/// (`D3D11_PRIMITIVE_TOPOLOGY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Every vertex is a point.
    PointList,
    /// Every two vertices are a line.
    LineList,
    /// Each vertex after the first ends a line from the one before.
    LineStrip,
    /// Every three vertices are a triangle.
    TriangleList,
    /// Each vertex after the second ends a triangle with the two before.
    TriangleStrip,
    /// Every four vertices are a line (the middle two) with its neighbours.
    LineListAdj,
    /// A line strip whose first and last vertices are only neighbours.
    LineStripAdj,
    /// Every six vertices are a triangle (0, 2, 4) with its neighbours (1, 3, 5).
    TriangleListAdj,
    /// A triangle strip with neighbours interleaved.
    TriangleStripAdj,
    /// Patches of 1 to 32 control points (for the hull shader).
    PatchList(u8),
}

impl Topology {
    /// Vertices in each primitive it produces.
    pub fn primitive_vertices(self) -> usize {
        match self {
            Topology::PointList => 1,
            Topology::LineList | Topology::LineStrip => 2,
            Topology::TriangleList | Topology::TriangleStrip => 3,
            Topology::LineListAdj | Topology::LineStripAdj => 4,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => 6,
            Topology::PatchList(n) => usize::from(n),
        }
    }

    /// The geometry-shader input primitive its primitives are, if any.
    pub fn gs_input(self) -> Option<GsInput> {
        Some(match self {
            Topology::PointList => GsInput::Point,
            Topology::LineList | Topology::LineStrip => GsInput::Line,
            Topology::TriangleList | Topology::TriangleStrip => GsInput::Triangle,
            Topology::LineListAdj | Topology::LineStripAdj => GsInput::LineAdj,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => GsInput::TriangleAdj,
            Topology::PatchList(_) => return None,
        })
    }
}

/// A geometry shader's input primitive (`dcl_inputprimitive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GsInput {
    /// One vertex.
    Point,
    /// Two vertices.
    Line,
    /// Three vertices.
    Triangle,
    /// Four vertices: neighbour, the line's two, neighbour.
    LineAdj,
    /// Six vertices: the triangle's at 0, 2, 4 and neighbours at 1, 3, 5.
    TriangleAdj,
}

impl GsInput {
    /// Vertices per input primitive.
    pub fn vertices(self) -> usize {
        match self {
            GsInput::Point => 1,
            GsInput::Line => 2,
            GsInput::Triangle => 3,
            GsInput::LineAdj => 4,
            GsInput::TriangleAdj => 6,
        }
    }
}

/// A geometry shader's output topology (`dcl_outputtopology`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GsOutput {
    /// Each emitted vertex is a point.
    PointList,
    /// Strips of lines, ended by `cut`.
    LineStrip,
    /// Strips of triangles, ended by `cut`.
    TriangleStrip,
}

impl GsOutput {
    /// Vertices per primitive once strips are lists.
    pub fn list_vertices(self) -> usize {
        match self {
            GsOutput::PointList => 1,
            GsOutput::LineStrip => 2,
            GsOutput::TriangleStrip => 3,
        }
    }
}
