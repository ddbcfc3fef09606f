//! The enumerated fields of the token structure itself: component counts
//! and selection modes, index representations, extended token types,
//! operand modifiers, tests and custom-data classes.

use super::named::named_enum;

named_enum! {
    /// How many components an operand has (its token's bits 0-1).
    pub enum ComponentCount {
        /// No components (samplers, labels, ...).
        Zero = 0 => "0",
        /// One component.
        One = 1 => "1",
        /// Four components.
        Four = 2 => "4",
        /// N components (not used by SM4/SM5).
        N = 3 => "n",
    }
}

named_enum! {
    /// How a four-component operand selects its components.
    pub enum SelectionMode {
        /// A write mask.
        Mask = 0 => "mask",
        /// A swizzle.
        Swizzle = 1 => "swizzle",
        /// One component.
        Select1 = 2 => "select_1",
    }
}

named_enum! {
    /// How an operand index is stored.
    pub enum IndexRepresentation {
        /// One word.
        Immediate32 = 0 => "imm32",
        /// Two words.
        Immediate64 = 1 => "imm64",
        /// A relative operand.
        Relative = 2 => "relative",
        /// One word plus a relative operand.
        Immediate32PlusRelative = 3 => "imm32+relative",
        /// Two words plus a relative operand.
        Immediate64PlusRelative = 4 => "imm64+relative",
    }
}

impl IndexRepresentation {
    /// The number of immediate words.
    pub fn words(self) -> usize {
        match self {
            IndexRepresentation::Relative => 0,
            IndexRepresentation::Immediate32 | IndexRepresentation::Immediate32PlusRelative => 1,
            IndexRepresentation::Immediate64 | IndexRepresentation::Immediate64PlusRelative => 2,
        }
    }

    /// Whether a relative operand follows.
    pub fn is_relative(self) -> bool {
        matches!(
            self,
            IndexRepresentation::Relative
                | IndexRepresentation::Immediate32PlusRelative
                | IndexRepresentation::Immediate64PlusRelative
        )
    }
}

named_enum! {
    /// The type of an extended operand token.
    pub enum ExtendedOperandType {
        /// Nothing.
        Empty = 0 => "empty",
        /// A modifier, minimum precision and non-uniform flag.
        Modifier = 1 => "modifier",
    }
}

named_enum! {
    /// An operand modifier.
    pub enum OperandModifier {
        /// None.
        None = 0 => "",
        /// Negation.
        Neg = 1 => "neg",
        /// Absolute value.
        Abs = 2 => "abs",
        /// Negated absolute value.
        AbsNeg = 3 => "absneg",
    }
}

named_enum! {
    /// The type of an extended opcode token.
    pub enum ExtendedOpcodeType {
        /// Nothing.
        Empty = 0 => "empty",
        /// Texel offsets (`_aoffimmi`).
        SampleControls = 1 => "sample_controls",
        /// A resource dimension and stride (`_indexable`).
        ResourceDimension = 2 => "resource_dim",
        /// A resource return type.
        ResourceReturnType = 3 => "resource_return_type",
    }
}

named_enum! {
    /// What a conditional instruction tests for.
    pub enum TestBoolean {
        /// Zero.
        Zero = 0 => "_z",
        /// Nonzero.
        NonZero = 1 => "_nz",
    }
}

named_enum! {
    /// The return type of `resinfo`.
    pub enum ResInfoReturnType {
        /// Floats.
        Float = 0 => "",
        /// Reciprocal floats.
        RcpFloat = 1 => "_rcpFloat",
        /// Unsigned integers.
        Uint = 2 => "_uint",
    }
}

/// `sample_info`'s return-type field for `_uint` (the instruction's own
/// return type, float 0 or uint 1, not `resinfo`'s, where uint is 2): fxc
/// encodes `sampleinfo_uint` with 1.
pub const SAMPLE_INFO_UINT: u32 = 1;

named_enum! {
    /// The class of a custom-data block.
    pub enum CustomDataClass {
        /// A comment.
        Comment = 0 => "comment",
        /// Debug information.
        DebugInfo = 1 => "debuginfo",
        /// Opaque data.
        Opaque = 2 => "opaque",
        /// The immediate constant buffer.
        ImmediateConstantBuffer = 3 => "dcl_immediateConstantBuffer",
        /// A shader message (`printf`, `errorf`).
        ShaderMessage = 4 => "shader_message",
        /// The D3D9 clip-plane constant mappings.
        ClipPlaneConstantMappings = 5 => "clip_plane_constant_mappings",
    }
}

named_enum! {
    /// A minimum precision of the extended operand token (0, the default
    /// 32 bits, has no name and no value here).
    pub enum MinPrecision {
        /// 16-bit floats.
        Float16 = 1 => "min16f",
        /// 2.8 fixed point.
        Float2_8 = 2 => "min2_8f",
        /// 16-bit signed integers.
        Sint16 = 4 => "min16i",
        /// 16-bit unsigned integers.
        Uint16 = 5 => "min16u",
    }
}
