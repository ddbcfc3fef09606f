//! The fixed-function D3D11 tessellator: turns a patch's tessellation
//! factors into domain points and the primitives connecting them, bit for
//! bit as the D3D11 functional specification's fixed-point algorithm does.
//!
//! Points come in 16.16 fixed point converted to `f32`, so they are exact
//! multiples of 2^-16; their order and the index order and winding are
//! those of the specification, so a domain shader run over
//! [`Tessellation::points`] and assembled with [`Tessellation::indices`]
//! produces what D3D11 hardware does.
//!
//! The hull shader's work (computing the factors, and any reduction of edge
//! factors into inside factors) is not done here: factors come in as the
//! hull shader's patch constants output them.
//!
//! Points to know, all as the spec (and Microsoft's reference tessellator,
//! which `runtime/tests/tessellator.rs` compares against bit for bit) does:
//!
//! - pow2 partitioning is split exactly like integer partitioning; rounding
//!   factors to powers of two is left to the hull shader;
//! - fractional odd factors are clamped to [1, 63], fractional even to
//!   [2, 64], integer and pow2 to [1, 64] (then rounded up);
//! - factors a few 2^-16 above a whole number can give sliver triangles
//!   with zero (or, by rounding, very slightly negative) area, as can a
//!   fractional odd inside factor of 1 next to larger factors (it is raised
//!   to 1 + 2^-16, putting the inner ring on the edges).

mod connectivity;
mod factors;
mod fixed;
mod isoline;
mod partition;
mod patch;
mod quad;
mod tri;

use connectivity::Winding;
use patch::Patch;

/// The patch domain (`dcl_tessellator_domain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Triangle patches: points are barycentric (u, v) with w = 1 - u - v.
    Tri,
    /// Quad patches: points are (u, v) in [0, 1]².
    Quad,
    /// Isoline patches: lines of constant v, points along u.
    Isoline,
}

/// How factors split edges (`dcl_tessellator_partitioning`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    /// Factors in [1, 64], rounded up to whole numbers.
    Integer,
    /// As the fixed-function stage sees it, the same as `Integer`: rounding
    /// factors to powers of two is the hull shader's job.
    Pow2,
    /// Factors in [1, 63], split into an odd number of segments with the
    /// fraction moving the newest points smoothly.
    FractionalOdd,
    /// Factors in [2, 64], split into an even number of segments with the
    /// fraction moving the newest points smoothly.
    FractionalEven,
}

/// The primitives output (`dcl_tessellator_output_primitive`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    /// Every domain point once, as a point list.
    Point,
    /// Line segments: an isoline patch's lines. For tri and quad patches,
    /// which D3D11 does not allow with lines, the points in output order
    /// joined one after the other (as the spec's reference does).
    Line,
    /// Triangles wound clockwise in the domain's (u, v) space. Isoline
    /// patches output lines instead.
    TriangleCw,
    /// Triangles wound counter-clockwise. Isoline patches output lines
    /// instead.
    TriangleCcw,
}

/// How [`Tessellation::indices`] is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    /// One index per point.
    PointList,
    /// Two indices per line segment.
    LineList,
    /// Three indices per triangle.
    TriangleList,
}

impl Topology {
    /// Indices per primitive.
    pub fn indices_per_primitive(self) -> usize {
        match self {
            Topology::PointList => 1,
            Topology::LineList => 2,
            Topology::TriangleList => 3,
        }
    }
}

/// A patch's tessellation factors, as the hull shader outputs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TessFactors {
    /// `SV_TessFactor`: tri edges u==0, v==0, w==0 (3 used); quad edges
    /// u==0, v==0, u==1, v==1 (4 used); isoline line density then line
    /// detail (2 used). Unused entries are ignored.
    pub edges: [f32; 4],
    /// `SV_InsideTessFactor`: tri 1 used, quad U then V (2 used), isoline
    /// none.
    pub inside: [f32; 2],
    /// The hull shader's `dcl_hs_max_tessfactor`: lowers the upper end of
    /// every factor's range (never below its lower end; NaN is ignored).
    /// Integer and pow2 factors are rounded up after this clamp, so a
    /// fractional maximum such as 7.5 lets them reach 8. 64 means no extra
    /// clamp.
    pub max_tess_factor: f32,
}

impl TessFactors {
    /// The largest factor any partitioning allows, the default maximum.
    pub const MAX: f32 = 64.0;

    /// Factors of a tri patch: edges u==0, v==0, w==0, and the inside.
    pub fn tri(edges: [f32; 3], inside: f32) -> Self {
        TessFactors {
            edges: [edges[0], edges[1], edges[2], 0.0],
            inside: [inside, 0.0],
            max_tess_factor: Self::MAX,
        }
    }

    /// Factors of a quad patch: edges u==0, v==0, u==1, v==1, and the
    /// inside factors along U and V.
    pub fn quad(edges: [f32; 4], inside: [f32; 2]) -> Self {
        TessFactors {
            edges,
            inside,
            max_tess_factor: Self::MAX,
        }
    }

    /// Factors of an isoline patch: how many lines, and how finely each is
    /// split.
    pub fn isoline(density: f32, detail: f32) -> Self {
        TessFactors {
            edges: [density, detail, 0.0, 0.0],
            inside: [0.0; 2],
            max_tess_factor: Self::MAX,
        }
    }

    /// The same factors with a `dcl_hs_max_tessfactor` clamp.
    pub fn with_max_tess_factor(self, max_tess_factor: f32) -> Self {
        TessFactors {
            max_tess_factor,
            ..self
        }
    }
}

/// The output of tessellating one patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// Domain points (`SV_DomainLocation`): quad and isoline (u, v); tri
    /// barycentric (u, v) with w = 1 - u - v.
    pub points: Vec<[f32; 2]>,
    /// Indices into `points`, read as `topology` says.
    pub indices: Vec<u32>,
    /// How `indices` group into primitives.
    pub topology: Topology,
}

impl Tessellation {
    /// True if the patch was culled (or otherwise produced nothing).
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Number of primitives.
    pub fn primitive_count(&self) -> usize {
        self.indices.len() / self.topology.indices_per_primitive()
    }
}

/// Tessellates one patch: the domain points and the primitives connecting
/// them, in D3D11's order. A patch with an edge factor not greater than 0,
/// or NaN, is culled and gives an empty tessellation.
pub fn tessellate(
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    factors: &TessFactors,
) -> Tessellation {
    let topology = match (domain, output) {
        (_, OutputPrimitive::Point) => Topology::PointList,
        (Domain::Isoline, _) | (_, OutputPrimitive::Line) => Topology::LineList,
        _ => Topology::TriangleList,
    };
    let Some(patch) = Patch::new(domain, partitioning, factors) else {
        return Tessellation {
            points: Vec::new(),
            indices: Vec::new(),
            topology,
        };
    };
    let points = patch.points();
    let count = points.len() as u32;
    let indices = match topology {
        Topology::PointList => (0..count).collect(),
        // Tri and quad patches have no lines of their own.
        Topology::LineList if domain != Domain::Isoline => {
            (1..count).flat_map(|p| [p - 1, p]).collect()
        }
        _ => patch.primitives(if output == OutputPrimitive::TriangleCcw {
            Winding::CounterClockwise
        } else {
            Winding::Clockwise
        }),
    };
    Tessellation {
        points: points.iter().map(|p| p.map(fixed::to_f32)).collect(),
        indices,
        topology,
    }
}
