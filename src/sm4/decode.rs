//! The SM4/SM5 token decoder: a faithful, typed view of a program.

use super::opcodes::{self, OpInfo};
use super::Sm4Error;

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
    /// Representation (0 imm32, 1 imm64, 2 relative, 3 imm32 + relative, 4 imm64 + relative).
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
    /// Operand type (bits 12-19): 0 `r`, 1 `v`, 2 `o`, 3 `x`, 4 `l`, 8 `cb`, 30 `u` ...
    pub ty: u32,
    /// Component selection.
    pub sel: Sel,
    /// Extended operand tokens, as read.
    pub ext: Vec<u32>,
    /// Indices, outermost first.
    pub indices: Vec<OpIndex>,
    /// Literal words for immediate operands.
    pub imm: Vec<u32>,
}

impl Operand {
    /// The modifier of the extended token: 0 none, 1 neg, 2 abs, 3 -abs.
    pub fn modifier(&self) -> u32 {
        self.ext
            .iter()
            .find(|e| *e & 0x3f == 1)
            .map_or(0, |e| (e >> 6) & 0xff)
    }

    /// The minimum precision of the extended token (0 = default).
    pub fn min_precision(&self) -> u32 {
        self.ext
            .iter()
            .find(|e| *e & 0x3f == 1)
            .map_or(0, |e| (e >> 14) & 7)
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
    /// The opcode-specific control bits 11-23.
    pub fn controls(&self) -> u32 {
        (self.token >> 11) & 0x1fff
    }

    /// Whether the `_sat` bit is set.
    pub fn saturate(&self) -> bool {
        self.token & (1 << 13) != 0 && !self.info.decl
    }

    /// Whether a conditional instruction tests for nonzero.
    pub fn test_nz(&self) -> bool {
        self.token & (1 << 18) != 0
    }

    /// Sample offsets of an extended sample-controls token.
    pub fn offsets(&self) -> Option<[i8; 3]> {
        let e = self.extended.iter().find(|e| *e & 0x3f == 1)?;
        let field = |shift: u32| (((e >> shift) & 0xf) as i8) << 4 >> 4;
        Some([field(9), field(13), field(17)])
    }

    /// Resource dimension (and stride) of an extended resource-dimension token.
    pub fn resource_dim(&self) -> Option<(u32, u32)> {
        self.extended
            .iter()
            .find(|e| *e & 0x3f == 2)
            .map(|e| ((e >> 6) & 0x1f, (e >> 11) & 0xfff))
    }

    /// Return types of an extended resource-return-type token.
    pub fn return_type(&self) -> Option<[u32; 4]> {
        let e = self.extended.iter().find(|e| *e & 0x3f == 3)?;
        Some([0, 1, 2, 3].map(|i| (e >> (6 + 4 * i)) & 0xf))
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
        let ty = (token >> 12) & 0xff;
        let sel = match token & 3 {
            0 => Sel::None,
            1 => Sel::One,
            2 => match (token >> 2) & 3 {
                0 => Sel::Mask(((token >> 4) & 0xf) as u8),
                1 => Sel::Swizzle([0, 1, 2, 3].map(|i| ((token >> (4 + 2 * i)) & 3) as u8)),
                2 => Sel::Select(((token >> 4) & 3) as u8),
                m => return Err(self.err(format!("invalid component selection mode {m}"))),
            },
            _ => return Err(self.err("N-component operands are not supported")),
        };
        let mut ext = Vec::new();
        let mut more = token & 0x8000_0000 != 0;
        while more {
            let e = self.next("an extended operand token")?;
            more = e & 0x8000_0000 != 0;
            ext.push(e);
        }
        let dims = (token >> 20) & 3;
        let mut indices = Vec::new();
        for d in 0..dims {
            let repr = (token >> (22 + 3 * d)) & 7;
            let value = match repr {
                0 | 3 => u64::from(self.next("an index")?),
                1 | 4 => {
                    (u64::from(self.next("an index")?) << 32) | u64::from(self.next("an index")?)
                }
                2 => 0,
                _ => return Err(self.err(format!("invalid index representation {repr}"))),
            };
            let rel = if repr >= 2 {
                Some(Box::new(self.operand(depth + 1)?))
            } else {
                None
            };
            indices.push(OpIndex { repr, value, rel });
        }
        let comps = if sel == Sel::One { 1 } else { 4 };
        let imm_words = match ty {
            4 => comps,
            5 if comps == 1 => 2,
            5 => 4,
            _ => 0,
        };
        let mut imm = Vec::new();
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
    let program_type = ProgramType::from_code(version >> 16)
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
        let code = token & 0x7ff;
        let info = opcodes::info(code).ok_or(Sm4Error::Decode {
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
        let len = if info.layout == "c" {
            r.next("the custom data length")? as usize
        } else {
            ((token >> 24) & 0x7f) as usize
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
        let mut more = token & 0x8000_0000 != 0 && !info.decl && info.layout != "c";
        while more {
            let e = r.next("an extended opcode token")?;
            more = e & 0x8000_0000 != 0;
            extended.push(e);
        }
        let mut operands = Vec::new();
        let mut words = Vec::new();
        for kind in info.layout.chars() {
            match kind {
                'd' | 's' => operands.push(r.operand(0)?),
                'u' => words.push(r.next("a declaration word")?),
                _ => {
                    while r.pos < r.end {
                        words.push(r.tokens[r.pos]);
                        r.pos += 1;
                    }
                }
            }
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
        major: (version >> 4) & 0xf,
        minor: version & 0xf,
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
