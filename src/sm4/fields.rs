//! Named masks and shifts of every token field the front end reads or
//! writes: the version, opcode, operand, extended and declaration tokens.

/// A bit field of a token: `width` bits from bit `shift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The lowest bit.
    pub shift: u32,
    /// The number of bits.
    pub width: u32,
}

impl Field {
    /// The field of `width` bits from bit `shift`.
    pub const fn new(shift: u32, width: u32) -> Field {
        Field { shift, width }
    }

    /// The largest value the field holds.
    pub const fn max(self) -> u32 {
        (((1u64 << self.width) - 1) & 0xffff_ffff) as u32
    }

    /// The field's bits in place.
    pub const fn mask(self) -> u32 {
        self.max() << self.shift
    }

    /// The field's value in `token`.
    pub const fn get(self, token: u32) -> u32 {
        (token >> self.shift) & self.max()
    }

    /// Whether a one-bit field is set in `token`.
    pub const fn is_set(self, token: u32) -> bool {
        token & self.mask() != 0
    }

    /// `value` in place (cut to the field's width).
    pub const fn put(self, value: u32) -> u32 {
        (value & self.max()) << self.shift
    }
}

// The version token.

/// The program type (`D3D10_SB_TOKENIZED_PROGRAM_TYPE`).
pub const PROGRAM_TYPE: Field = Field::new(16, 16);
/// The major shader model.
pub const MAJOR_VERSION: Field = Field::new(4, 4);
/// The minor shader model.
pub const MINOR_VERSION: Field = Field::new(0, 4);

// The opcode token.

/// The opcode number.
pub const OPCODE: Field = Field::new(0, 11);
/// The opcode-specific control field.
pub const OPCODE_CONTROLS: Field = Field::new(11, 13);
/// The instruction length in words (0 for custom data, whose length is the
/// next word).
pub const INSTRUCTION_LENGTH: Field = Field::new(24, 7);
/// Another token follows (extended opcode or operand tokens chain this way).
pub const EXTENDED: Field = Field::new(31, 1);
/// `_sat`.
pub const SATURATE: Field = Field::new(13, 1);
/// The test of conditional instructions (a [`TestBoolean`](super::encoding::TestBoolean)).
pub const TEST_BOOLEAN: Field = Field::new(18, 1);
/// The components `precise` applies to.
pub const PRECISE_MASK: Field = Field::new(19, 4);
/// The return type of `resinfo` and `sample_info`.
pub const RESINFO_RETURN_TYPE: Field = Field::new(11, 2);
/// The `sync` flags (see [`SYNC_FLAGS`]).
pub const SYNC: Field = Field::new(11, 4);
/// `sync`: threads in the group.
pub const SYNC_THREADS_IN_GROUP: u32 = 1 << 11;
/// `sync`: thread-group shared memory.
pub const SYNC_GROUP_SHARED_MEMORY: u32 = 1 << 12;
/// `sync`: UAV memory, group scope.
pub const SYNC_UAV_MEMORY_GROUP: u32 = 1 << 13;
/// `sync`: UAV memory, global scope.
pub const SYNC_UAV_MEMORY_GLOBAL: u32 = 1 << 14;
/// `sync` flag suffixes, in printing order, with their token bits.
pub const SYNC_FLAGS: &[(u32, &str)] = &[
    (SYNC_UAV_MEMORY_GLOBAL, "_uglobal"),
    (SYNC_UAV_MEMORY_GROUP, "_ugroup"),
    (SYNC_GROUP_SHARED_MEMORY, "_g"),
    (SYNC_THREADS_IN_GROUP, "_t"),
];

// Declaration fields of the opcode token.

/// The resource dimension of `dcl_resource*` and `dcl_uav*`.
pub const RESOURCE_DIMENSION: Field = Field::new(11, 5);
/// The sample count of multisampled `dcl_resource`.
pub const SAMPLE_COUNT: Field = Field::new(16, 7);
/// `_glc` of UAV declarations.
pub const UAV_GLOBALLY_COHERENT: Field = Field::new(16, 1);
/// `_opc` of UAV declarations: the UAV has a hidden (order-preserving) counter.
pub const UAV_ORDER_PRESERVING: Field = Field::new(23, 1);
/// The interpolation mode of `dcl_input_ps*`.
pub const INTERPOLATION_MODE: Field = Field::new(11, 4);
/// The access pattern of `dcl_constantBuffer` (set: dynamically indexed).
pub const CONSTANT_BUFFER_DYNAMIC: Field = Field::new(11, 1);
/// The mode of `dcl_sampler`.
pub const SAMPLER_MODE: Field = Field::new(11, 4);
/// The flags of `dcl_globalFlags`.
pub const GLOBAL_FLAGS: Field = Field::new(11, 13);
/// `dcl_interface`'s dynamic indexing.
pub const INTERFACE_DYNAMIC: Field = Field::new(11, 1);
/// The value of declarations whose whole control field is one number: the
/// geometry topologies, control-point counts and tessellator state.
pub const DECLARATION_VALUE: Field = Field::new(11, 13);
/// The data class of a custom-data block.
pub const CUSTOM_DATA_CLASS: Field = Field::new(11, 21);

// The operand token.

/// The number of components (a [`ComponentCount`](super::encoding::ComponentCount)).
pub const NUM_COMPONENTS: Field = Field::new(0, 2);
/// How four components are selected (a [`SelectionMode`](super::encoding::SelectionMode)).
pub const SELECTION_MODE: Field = Field::new(2, 2);
/// The write mask of mask mode.
pub const WRITE_MASK: Field = Field::new(4, 4);
/// The component of select-1 mode.
pub const SELECT_1: Field = Field::new(4, 2);
/// The operand type (an [`OperandType`](super::registers::OperandType)).
pub const OPERAND_TYPE: Field = Field::new(12, 8);
/// The number of indices.
pub const INDEX_DIMENSION: Field = Field::new(20, 2);

/// Component `i` of a swizzle.
pub const fn swizzle(i: u32) -> Field {
    Field::new(4 + 2 * i, 2)
}

/// The representation of index `d` (an [`IndexRepresentation`](super::encoding::IndexRepresentation)).
pub const fn index_representation(d: u32) -> Field {
    Field::new(22 + 3 * d, 3)
}

// Extended tokens.

/// The type of an extended opcode or operand token.
pub const EXTENDED_TYPE: Field = Field::new(0, 6);
/// The modifier of an extended operand token (an [`OperandModifier`](super::encoding::OperandModifier)).
pub const OPERAND_MODIFIER: Field = Field::new(6, 8);
/// The minimum precision of an extended operand token.
pub const MIN_PRECISION: Field = Field::new(14, 3);
/// The non-uniform flag of an extended operand token.
pub const NON_UNIFORM: Field = Field::new(17, 1);
/// The `_aoffimmi` offsets (u, v, w) of a sample-controls token, each
/// signed.
pub const AOFFIMMI: [Field; 3] = [Field::new(9, 4), Field::new(13, 4), Field::new(17, 4)];
/// The dimension of a resource-dimension token.
pub const EXTENDED_RESOURCE_DIMENSION: Field = Field::new(6, 5);
/// The structure stride of a resource-dimension token.
pub const STRUCTURE_STRIDE: Field = Field::new(11, 12);

/// Component `i`'s return type in a resource-return-type token.
pub const fn extended_return_type(i: u32) -> Field {
    Field::new(6 + 4 * i, 4)
}

// Declaration words.

/// Component `i`'s return type in a resource declaration's return-type word.
pub const fn return_type(i: u32) -> Field {
    Field::new(4 * i, 4)
}

/// The number of function tables in `dcl_interface`'s third word.
pub const INTERFACE_TABLE_COUNT: Field = Field::new(0, 16);
/// The array size in `dcl_interface`'s third word.
pub const INTERFACE_ARRAY_SIZE: Field = Field::new(16, 16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_and_write_their_bits() {
        assert_eq!(OPCODE.mask(), 0x7ff);
        assert_eq!(INSTRUCTION_LENGTH.get(0x0900_0036), 9);
        assert_eq!(OPERAND_TYPE.put(8), 0x8000);
        assert_eq!(PROGRAM_TYPE.max(), 0xffff);
        assert_eq!(CUSTOM_DATA_CLASS.get(0xffff_ffff), 0xffff_ffff >> 11);
        assert!(EXTENDED.is_set(0x8000_0000));
        assert_eq!(index_representation(2).mask(), 7 << 28);
        assert_eq!(SYNC.mask(), SYNC_FLAGS.iter().fold(0, |m, (b, _)| m | b));
        assert_eq!(Field::new(0, 32).max(), u32::MAX);
    }
}
