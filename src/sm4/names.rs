//! Name tables shared by the disassembler and the assembler, so that both
//! directions read the same words.

/// Operand type numbers and their register names.
pub const REGISTERS: &[(u32, &str)] = &[
    (0, "r"),
    (1, "v"),
    (2, "o"),
    (3, "x"),
    (6, "s"),
    (7, "t"),
    (8, "cb"),
    (9, "icb"),
    (10, "l"),
    (11, "vPrim"),
    (12, "oDepth"),
    (13, "null"),
    (14, "rasterizer"),
    (15, "oMask"),
    (16, "m"),
    (17, "fb"),
    (18, "ft"),
    (19, "fp"),
    (20, "fi"),
    (21, "fo"),
    (22, "vOutputControlPointID"),
    (23, "vForkInstanceID"),
    (24, "vJoinInstanceID"),
    (25, "vicp"),
    (26, "vocp"),
    (27, "vpc"),
    (28, "vDomain"),
    (29, "this"),
    (30, "u"),
    (31, "g"),
    (32, "vThreadID"),
    (33, "vThreadGroupID"),
    (34, "vThreadIDInGroup"),
    (35, "vCoverage"),
    (36, "vThreadIDInGroupFlattened"),
    (37, "vGSInstanceID"),
    (38, "oDepthGE"),
    (39, "oDepthLE"),
    (40, "vCycleCounter"),
    (41, "oStencilRef"),
    (42, "vInnerCoverage"),
];

/// Operand types that hold a single component.
pub const SCALAR_REGISTERS: &[u32] = &[11, 12, 15, 22, 23, 24, 35, 36, 37, 38, 39, 41, 42];

/// Single-component operand types that compilers declare as one-component
/// operands (the others are declared with no components): the depth,
/// coverage and stencil outputs and the coverage inputs.
pub const ONE_COMPONENT_DECLS: &[u32] = &[12, 15, 35, 38, 39, 41, 42];

/// Resource dimensions (`D3D10_SB_RESOURCE_DIMENSION`).
pub const DIMS: &[(u32, &str)] = &[
    (1, "buffer"),
    (2, "texture1d"),
    (3, "texture2d"),
    (4, "texture2dms"),
    (5, "texture3d"),
    (6, "texturecube"),
    (7, "texture1darray"),
    (8, "texture2darray"),
    (9, "texture2dmsarray"),
    (10, "texturecubearray"),
    (11, "raw_buffer"),
    (12, "structured_buffer"),
];

/// Resource return types.
pub const RETURN_TYPES: &[(u32, &str)] = &[
    (1, "unorm"),
    (2, "snorm"),
    (3, "int"),
    (4, "uint"),
    (5, "float"),
    (6, "mixed"),
    (7, "double"),
    (8, "continued"),
    (9, "unused"),
];

/// System-value names of `_sgv`/`_siv` declarations.
pub const SYSVALS: &[(u32, &str)] = &[
    (0, "undefined"),
    (1, "position"),
    (2, "clip_distance"),
    (3, "cull_distance"),
    (4, "render_target_array_index"),
    (5, "viewport_array_index"),
    (6, "vertex_id"),
    (7, "primitive_id"),
    (8, "instance_id"),
    (9, "is_front_face"),
    (10, "sample_index"),
    (11, "finalQuadUeq0EdgeTessFactor"),
    (12, "finalQuadVeq0EdgeTessFactor"),
    (13, "finalQuadUeq1EdgeTessFactor"),
    (14, "finalQuadVeq1EdgeTessFactor"),
    (15, "finalQuadUInsideTessFactor"),
    (16, "finalQuadVInsideTessFactor"),
    (17, "finalTriUeq0EdgeTessFactor"),
    (18, "finalTriVeq0EdgeTessFactor"),
    (19, "finalTriWeq0EdgeTessFactor"),
    (20, "finalTriInsideTessFactor"),
    (21, "finalLineDetailTessFactor"),
    (22, "finalLineDensityTessFactor"),
];

/// Pixel-input interpolation modes of `dcl_input_ps*`.
pub const INTERPOLATIONS: &[(u32, &str)] = &[
    (1, "constant"),
    (2, "linear"),
    (3, "linear centroid"),
    (4, "linear noperspective"),
    (5, "linear noperspective centroid"),
    (6, "linear sample"),
    (7, "linear noperspective sample"),
];

/// System-value names fxc spells differently from vkd3d (the assembler
/// reads both).
pub const FXC_SYSVALS: &[(u32, &str)] = &[(4, "rendertarget_array_index"), (10, "sampleIndex")];

/// System-value spellings RenderDoc prints, read by the assembler only.
pub const SYSVAL_ALIASES: &[(u32, &str)] = &[
    (2, "clipdistance"),
    (3, "culldistance"),
    (6, "vertexid"),
    (7, "primitiveid"),
    (8, "instanceid"),
    (9, "isfrontface"),
    (10, "sampleidx"),
];

/// Resource-dimension spellings RenderDoc prints, read by the assembler
/// only.
pub const DIM_ALIASES: &[(u32, &str)] = &[(11, "rawbuffer")];

/// Opcode names fxc prints where they differ from the opcode table's
/// (the assembler reads both).
pub const FXC_OPCODES: &[(u32, &str)] = &[
    (3, "breakc"),
    (5, "callc"),
    (8, "continuec"),
    (46, "ldms"),
    (63, "retc"),
    (89, "dcl_constantbuffer"),
    (91, "dcl_indexrange"),
    (94, "dcl_maxout"),
    (110, "samplepos"),
    (111, "sampleinfo"),
    (206, "dcl_gsinstances"),
];

/// Other tools' spellings of opcode names, read by the assembler only.
pub const OPCODE_ALIASES: &[(u32, &str)] = &[
    (20, "emitThenCut"),
    (46, "ld_ms"),
    (119, "emitThenCut_stream"),
    (206, "dcl_gs_instance_count"),
    (208, "debugbreak"),
];

/// `dcl_globalFlags` bits (of the opcode token's control field).
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

/// `sync` flag suffixes, in printing order, with their control bits.
pub const SYNC_FLAGS: &[(u32, &str)] = &[(8, "_uglobal"), (4, "_ugroup"), (2, "_g"), (1, "_t")];

/// `dcl_sampler` modes.
pub const SAMPLER_MODES: &[(u32, &str)] = &[
    (0, "mode_default"),
    (1, "mode_comparison"),
    (2, "mode_mono"),
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

/// Keywords of declarations whose value is the opcode token's control field
/// (geometry and tessellation state).
pub const DECL_KEYWORDS: &[(u16, &[(u32, &str)])] = &[
    (
        92,
        &[
            (1, "pointlist"),
            (2, "linelist"),
            (3, "linestrip"),
            (4, "trianglelist"),
            (5, "trianglestrip"),
            (10, "linelist_adj"),
            (11, "linestrip_adj"),
            (12, "trianglelist_adj"),
            (13, "trianglestrip_adj"),
        ],
    ),
    (
        93,
        &[
            (1, "point"),
            (2, "line"),
            (3, "triangle"),
            (6, "lineadj"),
            (7, "triangleadj"),
        ],
    ),
    (
        149,
        &[(1, "domain_isoline"), (2, "domain_tri"), (3, "domain_quad")],
    ),
    (
        150,
        &[
            (1, "partitioning_integer"),
            (2, "partitioning_pow2"),
            (3, "partitioning_fractional_odd"),
            (4, "partitioning_fractional_even"),
        ],
    ),
    (
        151,
        &[
            (1, "output_point"),
            (2, "output_line"),
            (3, "output_triangle_cw"),
            (4, "output_triangle_ccw"),
        ],
    ),
];

/// Declarations whose control field is a count printed as a number.
pub const DECL_COUNTS: &[u16] = &[147, 148];

/// The keyword table of a declaration opcode, if it has one.
pub fn decl_keywords(code: u16) -> Option<&'static [(u32, &'static str)]> {
    DECL_KEYWORDS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, k)| *k)
}

/// Minimum-precision names of the extended operand token.
pub const MIN_PRECISIONS: &[(u32, &str)] =
    &[(1, "min16f"), (2, "min2_8f"), (4, "min16i"), (5, "min16u")];
