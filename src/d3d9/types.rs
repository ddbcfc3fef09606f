//! The typed view of a decoded D3D9 shader.

use super::ctab::Ctab;

/// The stage a shader runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// A vertex shader (`vs_*`).
    Vertex,
    /// A pixel shader (`ps_*`).
    Pixel,
}

/// A shader model version from the version token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1, 2, 3).
    pub major: u8,
    /// Minor version (0..4, 1 for `2_x`, 0xFF for software models).
    pub minor: u8,
}

impl Version {
    /// True for pixel shaders.
    pub fn is_ps(&self) -> bool {
        self.kind == ShaderKind::Pixel
    }

    /// True for vertex shaders.
    pub fn is_vs(&self) -> bool {
        self.kind == ShaderKind::Vertex
    }

    /// The version as `major * 256 + minor`, for ordered comparisons.
    pub fn number(&self) -> u16 {
        u16::from(self.major) << 8 | u16::from(self.minor)
    }

    /// True when the version is at least `major.minor`.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        self.number() >= (u16::from(major) << 8 | u16::from(minor))
    }

    /// The version token.
    pub fn token(&self) -> u32 {
        let high = if self.is_ps() {
            0xFFFF_0000
        } else {
            0xFFFE_0000
        };
        high | u32::from(self.major) << 8 | u32::from(self.minor)
    }

    /// The assembler name (`vs_1_1`, `ps_2_x`, `vs_3_sw`).
    pub fn name(&self) -> String {
        let stage = if self.is_ps() { "ps" } else { "vs" };
        let minor = match (self.major, self.minor) {
            (2, 1) => "x".to_string(),
            (_, 0xFF) => "sw".to_string(),
            (_, m) => m.to_string(),
        };
        format!("{stage}_{}_{minor}", self.major)
    }
}

/// A register file (`D3DSHADER_PARAM_REGISTER_TYPE`). Some numbers name
/// different files in vertex and pixel shaders; see the variant docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegType {
    /// 0: `r#`.
    Temp,
    /// 1: `v#`.
    Input,
    /// 2: `c#`.
    Const,
    /// 3: `a0` in vertex shaders, `t#` in pixel shaders.
    AddrOrTexture,
    /// 4: `oPos` (0), `oFog` (1), `oPts` (2).
    RastOut,
    /// 5: `oD#`.
    AttrOut,
    /// 6: `oT#` (vs < 3.0) or `o#` (vs_3_0).
    Output,
    /// 7: `i#`.
    ConstInt,
    /// 8: `oC#`.
    ColorOut,
    /// 9: `oDepth`.
    DepthOut,
    /// 10: `s#`.
    Sampler,
    /// 11: `c#` from 2048.
    Const2,
    /// 12: `c#` from 4096.
    Const3,
    /// 13: `c#` from 6144.
    Const4,
    /// 14: `b#`.
    ConstBool,
    /// 15: `aL`.
    Loop,
    /// 16: half-precision temporaries `h#`.
    TempFloat16,
    /// 17: `vPos` (0), `vFace` (1).
    Misc,
    /// 18: `l#`.
    Label,
    /// 19: `p0`.
    Predicate,
}

impl RegType {
    /// The type for a register-type number.
    pub fn from_number(n: u32) -> Option<Self> {
        use RegType::*;
        const ALL: [RegType; 20] = [
            Temp,
            Input,
            Const,
            AddrOrTexture,
            RastOut,
            AttrOut,
            Output,
            ConstInt,
            ColorOut,
            DepthOut,
            Sampler,
            Const2,
            Const3,
            Const4,
            ConstBool,
            Loop,
            TempFloat16,
            Misc,
            Label,
            Predicate,
        ];
        ALL.get(n as usize).copied()
    }

    /// The register-type number.
    pub fn number(self) -> u32 {
        self as u32
    }
}

/// A register: file and number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Register {
    /// The file.
    pub ty: RegType,
    /// The number within the file.
    pub num: u32,
}

/// Relative addressing of an operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Relative {
    /// Statically indexed.
    None,
    /// vs_1_x: indexed by `a0.x` with no extra token.
    ImplicitA0,
    /// Indexed by the register of an extra token (`a0` or `aL`).
    Token(Box<SrcParam>),
}

/// Source-parameter modifiers (`D3DSHADER_PARAM_SRCMOD_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrcMod {
    /// 0: none.
    None,
    /// 1: `-r`.
    Neg,
    /// 2: `r_bias` (x - 0.5).
    Bias,
    /// 3: `-r_bias`.
    BiasNeg,
    /// 4: `r_bx2` (2x - 1).
    Sign,
    /// 5: `-r_bx2`.
    SignNeg,
    /// 6: `1-r`.
    Comp,
    /// 7: `r_x2`.
    X2,
    /// 8: `-r_x2`.
    X2Neg,
    /// 9: `r_dz` (divide by z).
    Dz,
    /// 10: `r_dw` (divide by w).
    Dw,
    /// 11: `r_abs`.
    Abs,
    /// 12: `-r_abs`.
    AbsNeg,
    /// 13: `!r`.
    Not,
}

impl SrcMod {
    /// The modifier for its number.
    pub fn from_number(n: u32) -> Option<Self> {
        use SrcMod::*;
        const ALL: [SrcMod; 14] = [
            None, Neg, Bias, BiasNeg, Sign, SignNeg, Comp, X2, X2Neg, Dz, Dw, Abs, AbsNeg, Not,
        ];
        ALL.get(n as usize).copied()
    }

    /// The modifier's number.
    pub fn number(self) -> u32 {
        self as u32
    }
}

/// Result modifier bit: saturate.
pub const MOD_SAT: u8 = 1;
/// Result modifier bit: partial precision.
pub const MOD_PP: u8 = 2;
/// Result modifier bit: centroid.
pub const MOD_CENTROID: u8 = 4;

/// A destination parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DstParam {
    /// The register written.
    pub reg: Register,
    /// Write mask, bit 0 = x.
    pub mask: u8,
    /// Result modifiers (`MOD_SAT | MOD_PP | MOD_CENTROID`, other bits kept as found).
    pub modifiers: u8,
    /// ps_1_x shift scale: 1..3 multiply by 2^n, -1..-3 divide.
    pub shift: i8,
    /// Relative addressing (vs_3_0 outputs).
    pub rel: Relative,
}

/// A source parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SrcParam {
    /// The register read.
    pub reg: Register,
    /// For each component position, the register component read.
    pub swizzle: [u8; 4],
    /// The modifier.
    pub modifier: SrcMod,
    /// Relative addressing.
    pub rel: Relative,
}

/// What follows an instruction's operands besides registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Nothing.
    None,
    /// `def`/`defi` (four words) or `defb` (one word).
    Literal(Vec<u32>),
    /// `dcl`: the declaration token (usage and index, or sampler type).
    Dcl(u32),
}

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Offset of the instruction token in words.
    pub offset: usize,
    /// The opcode (bits 15:0).
    pub opcode: u16,
    /// Opcode-specific controls (bits 23:16): comparison, texld variant.
    pub controls: u8,
    /// ps_1_x co-issue bit.
    pub coissue: bool,
    /// The destination, when the opcode has one.
    pub dst: Option<DstParam>,
    /// The sources in order.
    pub src: Vec<SrcParam>,
    /// The predicate register of a predicated instruction.
    pub predicate: Option<SrcParam>,
    /// Literal or declaration data.
    pub payload: Payload,
}

/// A comment block (`0xFFFE` opcode) kept in the instruction stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Offset of the comment token.
    pub offset: usize,
    /// The comment's words.
    pub words: Vec<u32>,
}

/// An element of the shader body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// An instruction.
    Inst(Instruction),
    /// A comment block.
    Comment(Comment),
}

/// A decoded shader.
#[derive(Debug, Clone, PartialEq)]
pub struct Shader {
    /// The version token.
    pub version: Version,
    /// Instructions and comments in token order.
    pub items: Vec<Item>,
    /// The constant table from the first CTAB comment, if any.
    pub ctab: Option<Ctab>,
}

impl Shader {
    /// The instructions, without comments.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.items.iter().filter_map(|i| match i {
            Item::Inst(inst) => Some(inst),
            Item::Comment(_) => None,
        })
    }
}

/// Comparison controls of `ifc`, `breakc` and `setp`.
pub const COMPARISONS: [(u8, &str); 6] = [
    (1, "gt"),
    (2, "eq"),
    (3, "ge"),
    (4, "lt"),
    (5, "ne"),
    (6, "le"),
];

/// Declaration usages (`D3DDECLUSAGE`) by number.
pub const USAGES: [&str; 14] = [
    "position",
    "blendweight",
    "blendindices",
    "normal",
    "psize",
    "texcoord",
    "tangent",
    "binormal",
    "tessfactor",
    "positiont",
    "color",
    "fog",
    "depth",
    "sample",
];

/// Sampler texture types (`D3DSAMPLER_TEXTURE_TYPE`, bits 30:27 of a sampler `dcl`).
pub const SAMPLER_TYPES: [(u32, &str); 4] = [(1, "1d"), (2, "2d"), (3, "cube"), (4, "volume")];
