//! The enumerated fields of declarations and extended tokens, with the names
//! the disassembler prints and the other spellings the assembler reads, so
//! that both directions read the same words.

use super::named::named_enum;
use super::opcodes::Opcode;

named_enum! {
    /// A resource dimension (`D3D10_SB_RESOURCE_DIMENSION`; 0, unknown, has no name).
    pub enum ResourceDimension {
        /// A typed buffer.
        Buffer = 1 => "buffer",
        /// A 1D texture.
        Texture1D = 2 => "texture1d",
        /// A 2D texture.
        Texture2D = 3 => "texture2d",
        /// A multisampled 2D texture.
        Texture2DMs = 4 => "texture2dms",
        /// A 3D texture.
        Texture3D = 5 => "texture3d",
        /// A cube texture.
        TextureCube = 6 => "texturecube",
        /// A 1D texture array.
        Texture1DArray = 7 => "texture1darray",
        /// A 2D texture array.
        Texture2DArray = 8 => "texture2darray",
        /// A multisampled 2D texture array.
        Texture2DMsArray = 9 => "texture2dmsarray",
        /// A cube texture array.
        TextureCubeArray = 10 => "texturecubearray",
        /// A raw buffer.
        RawBuffer = 11 => "raw_buffer",
        /// A structured buffer.
        StructuredBuffer = 12 => "structured_buffer",
    }
}

impl ResourceDimension {
    /// Whether the dimension is multisampled (and declares a sample count).
    pub fn is_multisampled(self) -> bool {
        matches!(
            self,
            ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray
        )
    }
}

named_enum! {
    /// A resource return type.
    pub enum ReturnType {
        /// Unsigned normalized.
        Unorm = 1 => "unorm",
        /// Signed normalized.
        Snorm = 2 => "snorm",
        /// Signed integer (fxc spells it `sint`).
        Sint = 3 => "int",
        /// Unsigned integer.
        Uint = 4 => "uint",
        /// Float.
        Float = 5 => "float",
        /// Mixed.
        Mixed = 6 => "mixed",
        /// Double.
        Double = 7 => "double",
        /// Continued.
        Continued = 8 => "continued",
        /// Unused.
        Unused = 9 => "unused",
    }
}

named_enum! {
    /// A system-value name of `_sgv`/`_siv` declarations (`D3D10_SB_NAME`).
    pub enum SystemValue {
        /// None.
        Undefined = 0 => "undefined",
        /// The position.
        Position = 1 => "position",
        /// Clip distances.
        ClipDistance = 2 => "clip_distance",
        /// Cull distances.
        CullDistance = 3 => "cull_distance",
        /// The render-target array index.
        RenderTargetArrayIndex = 4 => "render_target_array_index",
        /// The viewport array index.
        ViewportArrayIndex = 5 => "viewport_array_index",
        /// The vertex id.
        VertexId = 6 => "vertex_id",
        /// The primitive id.
        PrimitiveId = 7 => "primitive_id",
        /// The instance id.
        InstanceId = 8 => "instance_id",
        /// The front-face flag.
        IsFrontFace = 9 => "is_front_face",
        /// The sample index.
        SampleIndex = 10 => "sample_index",
        /// Quad edge tessellation factor (u = 0).
        FinalQuadUEq0EdgeTessFactor = 11 => "finalQuadUeq0EdgeTessFactor",
        /// Quad edge tessellation factor (v = 0).
        FinalQuadVEq0EdgeTessFactor = 12 => "finalQuadVeq0EdgeTessFactor",
        /// Quad edge tessellation factor (u = 1).
        FinalQuadUEq1EdgeTessFactor = 13 => "finalQuadUeq1EdgeTessFactor",
        /// Quad edge tessellation factor (v = 1).
        FinalQuadVEq1EdgeTessFactor = 14 => "finalQuadVeq1EdgeTessFactor",
        /// Quad inside tessellation factor (u).
        FinalQuadUInsideTessFactor = 15 => "finalQuadUInsideTessFactor",
        /// Quad inside tessellation factor (v).
        FinalQuadVInsideTessFactor = 16 => "finalQuadVInsideTessFactor",
        /// Triangle edge tessellation factor (u = 0).
        FinalTriUEq0EdgeTessFactor = 17 => "finalTriUeq0EdgeTessFactor",
        /// Triangle edge tessellation factor (v = 0).
        FinalTriVEq0EdgeTessFactor = 18 => "finalTriVeq0EdgeTessFactor",
        /// Triangle edge tessellation factor (w = 0).
        FinalTriWEq0EdgeTessFactor = 19 => "finalTriWeq0EdgeTessFactor",
        /// Triangle inside tessellation factor.
        FinalTriInsideTessFactor = 20 => "finalTriInsideTessFactor",
        /// Line detail tessellation factor.
        FinalLineDetailTessFactor = 21 => "finalLineDetailTessFactor",
        /// Line density tessellation factor.
        FinalLineDensityTessFactor = 22 => "finalLineDensityTessFactor",
    }
}

named_enum! {
    /// A pixel-input interpolation mode of `dcl_input_ps*` (0, undefined,
    /// has no name).
    pub enum InterpolationMode {
        /// Constant.
        Constant = 1 => "constant",
        /// Linear.
        Linear = 2 => "linear",
        /// Linear, centroid.
        LinearCentroid = 3 => "linear centroid",
        /// Linear without perspective.
        LinearNoPerspective = 4 => "linear noperspective",
        /// Linear without perspective, centroid.
        LinearNoPerspectiveCentroid = 5 => "linear noperspective centroid",
        /// Linear, per sample.
        LinearSample = 6 => "linear sample",
        /// Linear without perspective, per sample.
        LinearNoPerspectiveSample = 7 => "linear noperspective sample",
    }
}

named_enum! {
    /// A `dcl_sampler` mode.
    pub enum SamplerMode {
        /// Default.
        Default = 0 => "mode_default",
        /// Comparison.
        Comparison = 1 => "mode_comparison",
        /// Mono.
        Mono = 2 => "mode_mono",
    }
}

named_enum! {
    /// The output topology of `dcl_outputtopology`.
    pub enum PrimitiveTopology {
        /// Points.
        PointList = 1 => "pointlist",
        /// Lines.
        LineList = 2 => "linelist",
        /// A line strip.
        LineStrip = 3 => "linestrip",
        /// Triangles.
        TriangleList = 4 => "trianglelist",
        /// A triangle strip.
        TriangleStrip = 5 => "trianglestrip",
        /// Lines with adjacency.
        LineListAdj = 10 => "linelist_adj",
        /// A line strip with adjacency.
        LineStripAdj = 11 => "linestrip_adj",
        /// Triangles with adjacency.
        TriangleListAdj = 12 => "trianglelist_adj",
        /// A triangle strip with adjacency.
        TriangleStripAdj = 13 => "trianglestrip_adj",
    }
}

named_enum! {
    /// The input primitive of `dcl_inputprimitive`.
    pub enum Primitive {
        /// A point.
        Point = 1 => "point",
        /// A line.
        Line = 2 => "line",
        /// A triangle.
        Triangle = 3 => "triangle",
        /// A line with adjacency.
        LineAdj = 6 => "lineadj",
        /// A triangle with adjacency.
        TriangleAdj = 7 => "triangleadj",
    }
}

named_enum! {
    /// The domain of `dcl_tessellator_domain`.
    pub enum TessellatorDomain {
        /// Isolines.
        Isoline = 1 => "domain_isoline",
        /// Triangles.
        Triangle = 2 => "domain_tri",
        /// Quads.
        Quad = 3 => "domain_quad",
    }
}

named_enum! {
    /// The partitioning of `dcl_tessellator_partitioning`.
    pub enum TessellatorPartitioning {
        /// Integer.
        Integer = 1 => "partitioning_integer",
        /// Powers of two.
        Pow2 = 2 => "partitioning_pow2",
        /// Odd fractional.
        FractionalOdd = 3 => "partitioning_fractional_odd",
        /// Even fractional.
        FractionalEven = 4 => "partitioning_fractional_even",
    }
}

named_enum! {
    /// The output primitive of `dcl_tessellator_output_primitive`.
    pub enum TessellatorOutputPrimitive {
        /// Points.
        Point = 1 => "output_point",
        /// Lines.
        Line = 2 => "output_line",
        /// Clockwise triangles.
        TriangleCw = 3 => "output_triangle_cw",
        /// Counter-clockwise triangles.
        TriangleCcw = 4 => "output_triangle_ccw",
    }
}

/// System-value names fxc spells differently from vkd3d (the assembler
/// reads both).
pub const FXC_SYSVALS: &[(SystemValue, &str)] = &[
    (
        SystemValue::RenderTargetArrayIndex,
        "rendertarget_array_index",
    ),
    (SystemValue::SampleIndex, "sampleIndex"),
];

/// System-value spellings RenderDoc prints, read by the assembler only.
pub const SYSVAL_ALIASES: &[(SystemValue, &str)] = &[
    (SystemValue::ClipDistance, "clipdistance"),
    (SystemValue::CullDistance, "culldistance"),
    (SystemValue::VertexId, "vertexid"),
    (SystemValue::PrimitiveId, "primitiveid"),
    (SystemValue::InstanceId, "instanceid"),
    (SystemValue::IsFrontFace, "isfrontface"),
    (SystemValue::SampleIndex, "sampleidx"),
];

/// Resource-dimension spellings RenderDoc prints, read by the assembler
/// only.
pub const DIM_ALIASES: &[(ResourceDimension, &str)] =
    &[(ResourceDimension::RawBuffer, "rawbuffer")];

/// `dcl_globalFlags` bits (values of [`GLOBAL_FLAGS`](super::fields::GLOBAL_FLAGS)).
pub const GLOBAL_FLAGS: &[(u32, &str)] = &[
    (1, "refactoringAllowed"),
    (2, "enableDoublePrecisionFloatOps"),
    (4, "forceEarlyDepthStencil"),
    (8, "enableRawAndStructuredBuffers"),
    (16, "skipOptimization"),
    (32, "enableMinimumPrecision"),
    (64, "enable11_1DoubleExtensions"),
    (128, "enable11_1ShaderExtensions"),
];

/// The name of `code` in `table`.
pub fn name(table: &[(u32, &'static str)], code: u32) -> Option<&'static str> {
    table.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// The code of `name` in `table`, ignoring ASCII case.
pub fn code(table: &[(u32, &str)], name: &str) -> Option<u32> {
    table
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(c, _)| *c)
}

/// The value of `name` in an alias table, ignoring ASCII case.
pub fn alias<T: Copy>(table: &[(T, &str)], name: &str) -> Option<T> {
    table
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(v, _)| *v)
}

/// The keywords of a declaration whose value is the opcode token's control
/// field (geometry and tessellation state), if it has them.
pub fn decl_keywords(op: Opcode) -> Option<&'static [(u32, &'static str)]> {
    match op {
        Opcode::DclOutputTopology => Some(PrimitiveTopology::TABLE),
        Opcode::DclInputPrimitive => Some(Primitive::TABLE),
        Opcode::DclTessellatorDomain => Some(TessellatorDomain::TABLE),
        Opcode::DclTessellatorPartitioning => Some(TessellatorPartitioning::TABLE),
        Opcode::DclTessellatorOutputPrimitive => Some(TessellatorOutputPrimitive::TABLE),
        _ => None,
    }
}

/// Whether a declaration's control field is a count printed as a number.
pub fn is_decl_count(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::DclInputControlPointCount | Opcode::DclOutputControlPointCount
    )
}
