//! The SM4/SM5 token decoder: a faithful, typed view of a program.

use super::encoding::{
    ComponentCount, ExtendedOpcodeType, ExtendedOperandType, IndexRepresentation, OperandModifier,
    SelectionMode, TestBoolean,
};
use super::fields::{
    self, AOFFIMMI, EXTENDED, EXTENDED_RESOURCE_DIMENSION, EXTENDED_TYPE, INDEX_DIMENSION,
    INSTRUCTION_LENGTH, MAJOR_VERSION, MINOR_VERSION, MIN_PRECISION, NON_UNIFORM, NUM_COMPONENTS,
    OPCODE, OPCODE_CONTROLS, OPERAND_MODIFIER, OPERAND_TYPE, PROGRAM_TYPE, SATURATE,
    SELECTION_MODE, SELECT_1, STRUCTURE_STRIDE, TEST_BOOLEAN, WRITE_MASK,
};
use super::opcodes::{self, Item, OpInfo, Opcode};
use super::registers::OperandType;
use super::Sm4Error;
use smallvec::SmallVec;

/// The program type in the version token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramType {
    /// `ps`.
    Pixel,
    /// `vs`.
    Vertex,
    /// `gs`.
    Geometry,
    /// `hs`.
    Hull,
    /// `ds`.
    Domain,
    /// `cs`.
    Compute,
}

impl ProgramType {
    /// The two-letter prefix of the version name (`ps`, `vs`, ...).
    pub fn prefix(self) -> &'static str {
        match self {
            ProgramType::Pixel => "ps",
            ProgramType::Vertex => "vs",
            ProgramType::Geometry => "gs",
            ProgramType::Hull => "hs",
            ProgramType::Domain => "ds",
            ProgramType::Compute => "cs",
        }
    }

    /// The program type number of the version token.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The program type of a version-token number.
    pub fn from_code(code: u32) -> Option<Self> {
        [
            Self::Pixel,
            Self::Vertex,
            Self::Geometry,
            Self::Hull,
            Self::Domain,
            Self::Compute,
        ]
        .get(code as usize)
        .copied()
    }
}

/// How an operand selects components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sel {
    /// A zero-component operand (samplers, labels, ...).
    None,
    /// A one-component operand.
    One,
    /// A four-component operand with a write mask.
    Mask(u8),
    /// A four-component operand with a swizzle.
    Swizzle([u8; 4]),
    /// A four-component operand reading one component.
    Select(u8),
}

/// One index of an operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpIndex {
    /// Representation (an [`IndexRepresentation`] number).
    pub repr: u32,
    /// The immediate part (0 when the representation has none).
    pub value: u64,
    /// The relative part.
    pub rel: Option<Box<Operand>>,
}

/// An operand with everything its tokens say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operand {
    /// The first operand token, as read.
    pub token: u32,
    /// Operand type (bits 12-19), as read: see [`Operand::register`].
    pub ty: u32,
    /// Component selection.
    pub sel: Sel,
    /// Extended operand tokens, as read.
    pub ext: SmallVec<[u32; 1]>,
    /// Indices, outermost first.
    pub indices: SmallVec<[OpIndex; 2]>,
    /// Literal words for immediate operands.
    pub imm: SmallVec<[u32; 4]>,
}

impl Operand {
    /// The operand type, or `None` for a number no operand type has.
    pub fn register(&self) -> Option<OperandType> {
        OperandType::from_code(self.ty)
    }

    /// Whether the operand is of type `ty`.
    pub fn is(&self, ty: OperandType) -> bool {
        self.ty == ty.code()
    }

    /// The extended modifier token, if any.
    fn modifier_token(&self) -> Option<u32> {
        self.ext
            .iter()
            .copied()
            .find(|e| EXTENDED_TYPE.get(*e) == ExtendedOperandType::Modifier.code())
    }

    /// The modifier number of the extended token (an [`OperandModifier`]
    /// number; 0 without one).
    pub fn modifier(&self) -> u32 {
        self.modifier_token()
            .map_or(OperandModifier::None.code(), |e| OPERAND_MODIFIER.get(e))
    }

    /// The minimum precision of the extended token (0 = default).
    pub fn min_precision(&self) -> u32 {
        self.modifier_token().map_or(0, |e| MIN_PRECISION.get(e))
    }

    /// Whether the extended token marks the operand non-uniform.
    pub fn non_uniform(&self) -> bool {
        self.modifier_token().is_some_and(|e| NON_UNIFORM.is_set(e))
    }

    /// The static part of index `i`.
    pub fn index(&self, i: usize) -> Option<u64> {
        self.indices.get(i).map(|x| x.value)
    }
}

/// One instruction or declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// The opcode's table row.
    pub info: &'static OpInfo,
    /// The opcode token as read.
    pub token: u32,
    /// Extended opcode tokens as read.
    pub extended: Vec<u32>,
    /// Operands in order.
    pub operands: Vec<Operand>,
    /// Raw words of the layout (`u`, `*`, custom data payload).
    pub words: Vec<u32>,
    /// Token index of the opcode token in the program.
    pub offset: usize,
}

impl Instruction {
    /// The opcode.
    pub fn opcode(&self) -> Opcode {
        self.info.op
    }

    /// The opcode-specific control bits 11-23 (shifted down).
    pub fn controls(&self) -> u32 {
        OPCODE_CONTROLS.get(self.token)
    }

    /// The value of field `f` of the opcode token.
    pub fn field(&self, f: fields::Field) -> u32 {
        f.get(self.token)
    }

    /// Whether the `_sat` bit is set.
    pub fn saturate(&self) -> bool {
        SATURATE.is_set(self.token) && !self.info.decl
    }

    /// Whether a conditional instruction tests for nonzero.
    pub fn test_nz(&self) -> bool {
        TEST_BOOLEAN.get(self.token) == TestBoolean::NonZero.code()
    }

    /// The extended opcode token of type `ty`, if any.
    fn extended_of(&self, ty: ExtendedOpcodeType) -> Option<u32> {
        self.extended
            .iter()
            .copied()
            .find(|e| EXTENDED_TYPE.get(*e) == ty.code())
    }

    /// Sample offsets of an extended sample-controls token.
    pub fn offsets(&self) -> Option<[i8; 3]> {
        let e = self.extended_of(ExtendedOpcodeType::SampleControls)?;
        Some(AOFFIMMI.map(|f| ((f.get(e) as i8) << 4) >> 4))
    }

    /// Resource dimension (and stride) of an extended resource-dimension token.
    pub fn resource_dim(&self) -> Option<(u32, u32)> {
        self.extended_of(ExtendedOpcodeType::ResourceDimension)
            .map(|e| (EXTENDED_RESOURCE_DIMENSION.get(e), STRUCTURE_STRIDE.get(e)))
    }

    /// Return types of an extended resource-return-type token.
    pub fn return_type(&self) -> Option<[u32; 4]> {
        let e = self.extended_of(ExtendedOpcodeType::ResourceReturnType)?;
        Some([0, 1, 2, 3].map(|i| fields::extended_return_type(i).get(e)))
    }
}

/// A decoded program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shader {
    /// The stage.
    pub program_type: ProgramType,
    /// Major shader model.
    pub major: u32,
    /// Minor shader model.
    pub minor: u32,
    /// Instructions and declarations in order.
    pub instructions: Vec<Instruction>,
}

struct Reader<'a> {
    tokens: &'a [u32],
    pos: usize,
    end: usize,
    index: usize,
    name: &'static str,
}

impl Reader<'_> {
    fn err(&self, what: impl Into<String>) -> Sm4Error {
        Sm4Error::Decode {
            index: self.index,
            offset: self.pos * 4,
            opcode: self.name.to_string(),
            what: what.into(),
        }
    }

    fn next(&mut self, what: &str) -> Result<u32, Sm4Error> {
        if self.pos >= self.end {
            return Err(self.err(format!("instruction length ends before {what}")));
        }
        let t = self.tokens[self.pos];
        self.pos += 1;
        Ok(t)
    }

    fn operand(&mut self, depth: u32) -> Result<Operand, Sm4Error> {
        if depth > 3 {
            return Err(self.err("relative indices nested too deeply"));
        }
        let token = self.next("an operand")?;
        let ty = OPERAND_TYPE.get(token);
        let sel = match ComponentCount::from_code(NUM_COMPONENTS.get(token)) {
            Some(ComponentCount::Zero) => Sel::None,
            Some(ComponentCount::One) => Sel::One,
            Some(ComponentCount::Four) => match SelectionMode::from_code(SELECTION_MODE.get(token))
            {
                Some(SelectionMode::Mask) => Sel::Mask(WRITE_MASK.get(token) as u8),
                Some(SelectionMode::Swizzle) => {
                    Sel::Swizzle([0, 1, 2, 3].map(|i| fields::swizzle(i).get(token) as u8))
                }
                Some(SelectionMode::Select1) => Sel::Select(SELECT_1.get(token) as u8),
                None => {
                    let m = SELECTION_MODE.get(token);
                    return Err(self.err(format!("invalid component selection mode {m}")));
                }
            },
            _ => return Err(self.err("N-component operands are not supported")),
        };
        let mut ext = SmallVec::new();
        let mut more = EXTENDED.is_set(token);
        while more {
            let e = self.next("an extended operand token")?;
            more = EXTENDED.is_set(e);
            ext.push(e);
        }
        let dims = INDEX_DIMENSION.get(token);
        let mut indices = SmallVec::new();
        for d in 0..dims {
            let repr = fields::index_representation(d).get(token);
            let Some(representation) = IndexRepresentation::from_code(repr) else {
                return Err(self.err(format!("invalid index representation {repr}")));
            };
            let value = match representation.words() {
                1 => u64::from(self.next("an index")?),
                2 => (u64::from(self.next("an index")?) << 32) | u64::from(self.next("an index")?),
                _ => 0,
            };
            let rel = if representation.is_relative() {
                Some(Box::new(self.operand(depth + 1)?))
            } else {
                None
            };
            indices.push(OpIndex { repr, value, rel });
        }
        let comps = if sel == Sel::One { 1 } else { 4 };
        let imm_words = match OperandType::from_code(ty) {
            Some(OperandType::Immediate32) => comps,
            Some(OperandType::Immediate64) if comps == 1 => 2,
            Some(OperandType::Immediate64) => 4,
            _ => 0,
        };
        let mut imm = SmallVec::new();
        for _ in 0..imm_words {
            imm.push(self.next("an immediate")?);
        }
        Ok(Operand {
            token,
            ty,
            sel,
            ext,
            indices,
            imm,
        })
    }
}

/// Whether `rest`, the words of an instruction after its operands, is the
/// one zero word fxc writes after a `sample_pos` whose resource is a texture
/// (`Texture2DMS.GetSamplePosition`; with the rasterizer it writes none).
/// The word is outside the documented operand layout and carries nothing
/// (Microsoft's reference parser skips to the length, vkd3d reads by the
/// length, dxbc-spirv keeps it as an unused extra word, and 3DMigoto's
/// assembler writes a 0 there to match fxc), so the decoder accepts exactly
/// this word and no other trailing words.
fn fxc_sample_pos_padding(info: &OpInfo, operands: &[Operand], rest: &[u32]) -> bool {
    info.op == Opcode::SamplePos
        && operands.get(1).is_some_and(|o| o.is(OperandType::Resource))
        && rest == [0]
}

/// Decodes a program's tokens (version token, length, then instructions).
pub fn decode(tokens: &[u32]) -> Result<Shader, Sm4Error> {
    let head = |what: &str| Sm4Error::Decode {
        index: 0,
        offset: 0,
        opcode: String::new(),
        what: what.to_string(),
    };
    let (&version, &length) = match tokens {
        [v, l, ..] => (v, l),
        _ => return Err(head("program shorter than its two header tokens")),
    };
    let program_type = ProgramType::from_code(PROGRAM_TYPE.get(version))
        .ok_or_else(|| head("unknown program type in the version token"))?;
    if length as usize > tokens.len() || length < 2 {
        return Err(head(&format!(
            "length token says {length} words, program has {}",
            tokens.len()
        )));
    }
    let end = length as usize;
    let mut instructions = Vec::new();
    let mut pos = 2;
    while pos < end {
        let index = instructions.len();
        let token = tokens[pos];
        let code = OPCODE.get(token);
        let info = opcodes::info(code).ok_or_else(|| Sm4Error::Decode {
            index,
            offset: pos * 4,
            opcode: format!("{code}"),
            what: "unknown opcode".into(),
        })?;
        let mut r = Reader {
            tokens,
            pos: pos + 1,
            end,
            index,
            name: info.name,
        };
        let len = if info.is_custom() {
            r.next("the custom data length")? as usize
        } else {
            INSTRUCTION_LENGTH.get(token) as usize
        };
        if len == 0 || pos + len > end {
            return Err(Sm4Error::Decode {
                index,
                offset: pos * 4,
                opcode: info.name.to_string(),
                what: format!("instruction length {len} runs past the program end"),
            });
        }
        r.end = pos + len;
        let mut extended = Vec::new();
        let mut more = EXTENDED.is_set(token) && !info.decl && !info.is_custom();
        while more {
            let e = r.next("an extended opcode token")?;
            more = EXTENDED.is_set(e);
            extended.push(e);
        }
        let mut operands = Vec::new();
        let mut words = Vec::new();
        for item in info.items() {
            match item {
                Item::Dst | Item::Src | Item::Scalar => operands.push(r.operand(0)?),
                Item::Word => words.push(r.next("a declaration word")?),
                Item::Rest | Item::Custom => {
                    while r.pos < r.end {
                        words.push(r.tokens[r.pos]);
                        r.pos += 1;
                    }
                }
            }
        }
        let rest = tokens.get(r.pos..r.end).unwrap_or_default();
        if fxc_sample_pos_padding(info, &operands, rest) {
            r.pos += 1;
        }
        if r.pos != r.end {
            let what = if r.pos < r.end {
                format!("{} unread words", r.end - r.pos)
            } else {
                format!("operands run {} words past the instruction", r.pos - r.end)
            };
            return Err(r.err(format!("{what}: operands disagree with the length field")));
        }
        instructions.push(Instruction {
            info,
            token,
            extended,
            operands,
            words,
            offset: pos,
        });
        pos += len;
    }
    Ok(Shader {
        program_type,
        major: MAJOR_VERSION.get(version),
        minor: MINOR_VERSION.get(version),
        instructions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(body: &[u32]) -> Vec<u32> {
        let mut t = vec![0x0000_0050, body.len() as u32 + 2];
        t.extend_from_slice(body);
        t
    }

    #[test]
    fn decodes_operands_with_modifiers_and_relative_indices() {
        // mov r0.x, -|cb1[r2.y + 3].zwxy|
        let s = decode(&program(&[
            0x0900_0036,
            0x0010_0012,
            0,
            0x8620_84e6,
            0x0000_00c1,
            1,
            3,
            0x0010_001a,
            2,
        ]))
        .unwrap();
        let ins = &s.instructions[0];
        assert_eq!(ins.info.name, "mov");
        let src = &ins.operands[1];
        assert_eq!(src.ty, 8);
        assert_eq!(src.modifier(), 3);
        assert_eq!(src.sel, Sel::Swizzle([2, 3, 0, 1]));
        assert_eq!(src.indices[1].value, 3);
        assert_eq!(
            src.indices[1].rel.as_ref().map(|r| r.sel),
            Some(Sel::Select(1))
        );
    }

    #[test]
    fn reports_truncation_unknown_opcodes_and_length_mismatch() {
        let truncated = decode(&program(&[0x0500_0036, 0x0010_0012, 0])).unwrap_err();
        assert!(
            matches!(
                truncated,
                Sm4Error::Decode {
                    index: 0,
                    offset: 8,
                    ..
                }
            ),
            "{truncated}"
        );
        let unknown = decode(&program(&[0x0100_03ff])).unwrap_err();
        assert!(unknown.to_string().contains("unknown opcode"), "{unknown}");
        let extra =
            decode(&program(&[0x0600_0036, 0x0010_0012, 0, 0x0000_4001, 5, 9])).unwrap_err();
        assert!(
            extra.to_string().contains("disagree with the length"),
            "{extra}"
        );
        assert!(decode(&[0x0000_0050]).is_err());
        assert!(decode(&[0xffff_0300, 2]).is_err());
    }

    #[test]
    fn accepts_fxc_zero_word_after_sample_pos_on_a_texture_only() {
        // sample_pos o0.xy, t0.xyxx, cb0[0].x as fxc writes it (vkd3d's
        // test_shader_sample_position, LGPL-2.1+): 1 opcode token, 2 + 2 + 3
        // operand words, then one 0 past the operands.
        let fxc = [
            0x0900_006e,
            0x0010_2032,
            0,
            0x0010_7046,
            0,
            0x0020_800a,
            0,
            0,
            0,
        ];
        let s = decode(&program(&fxc)).unwrap();
        assert_eq!(s.instructions[0].operands.len(), 3);
        assert!(s.instructions[0].words.is_empty());
        // Without the word (the documented layout) it decodes the same.
        let mut bare = fxc[..8].to_vec();
        bare[0] = 0x0800_006e;
        let b = decode(&program(&bare)).unwrap();
        assert_eq!(b.instructions[0].operands, s.instructions[0].operands);
        // A nonzero word, two words, or the word after the rasterizer are
        // still length mismatches.
        let mut nonzero = fxc;
        nonzero[8] = 1;
        let mut two = fxc.to_vec();
        two.push(0);
        two[0] = 0x0a00_006e;
        // sample_pos o0.xy, rasterizer.xyxx, cb0[0].x, 0
        let raster = [
            0x0800_006e,
            0x0010_2032,
            0,
            0x0000_e046,
            0x0020_800a,
            0,
            0,
            0,
        ];
        for bad in [&nonzero[..], &two, &raster] {
            let e = decode(&program(bad)).unwrap_err();
            assert!(e.to_string().contains("disagree with the length"), "{e}");
        }
    }

    #[test]
    fn decodes_hull_declarations_and_class_linkage() {
        // hs_5_0: hs_decls, dcl_input_control_point_count 3, dcl_hs_max_tessfactor 64.0,
        // dcl_function_body fb0, dcl_function_table ft0 = {fb0}, hs_fork_phase, ret
        let mut t = program(&[
            0x0100_0071,
            0x0100_1893,
            0x0200_0098,
            0x4280_0000,
            0x0200_0090,
            0,
            0x0400_0091,
            0,
            1,
            0,
            0x0100_0073,
            0x0100_003e,
        ]);
        t[0] = 0x0003_0050;
        let s = decode(&t).unwrap();
        assert_eq!(s.program_type, ProgramType::Hull);
        let names: Vec<&str> = s.instructions.iter().map(|i| i.info.name).collect();
        assert_eq!(
            names,
            [
                "hs_decls",
                "dcl_input_control_point_count",
                "dcl_hs_max_tessfactor",
                "dcl_function_body",
                "dcl_function_table",
                "hs_fork_phase",
                "ret"
            ]
        );
        assert_eq!(s.instructions[4].words, [0, 1, 0]);
    }
}
