//! The D3D9 opcode table: one row per opcode.

use super::types::Version;

/// Extra words an opcode carries besides register parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// Only register parameters.
    None,
    /// A destination followed by this many literal words (`def*`).
    Literal(u8),
    /// A declaration token before the destination (`dcl`).
    Dcl,
}

/// One opcode's description.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// The opcode number (bits 15:0 of the instruction token).
    pub code: u16,
    /// The assembler name (version-specific names are chosen by [`mnemonic`]).
    pub name: &'static str,
    /// Whether a destination parameter comes first.
    pub dst: bool,
    /// Source parameters in shader model 2.0 and later (and vs_1_x).
    pub src: u8,
    /// Source parameters in ps_1_0 .. ps_1_3 and in ps_1_4, where they differ.
    pub src_ps1: Option<[u8; 2]>,
    /// Source parameters in shader model 3.0, where they differ.
    pub src_sm3: Option<u8>,
    /// Literal or declaration words.
    pub extra: Extra,
}

const fn op(code: u16, name: &'static str, dst: bool, src: u8) -> OpInfo {
    OpInfo {
        code,
        name,
        dst,
        src,
        src_ps1: None,
        src_sm3: None,
        extra: Extra::None,
    }
}

/// `nop`.
pub const NOP: u16 = 0;
/// `mov`.
pub const MOV: u16 = 1;
/// `add`.
pub const ADD: u16 = 2;
/// `sub`.
pub const SUB: u16 = 3;
/// `mad`.
pub const MAD: u16 = 4;
/// `mul`.
pub const MUL: u16 = 5;
/// `rcp`.
pub const RCP: u16 = 6;
/// `rsq`.
pub const RSQ: u16 = 7;
/// `dp3`.
pub const DP3: u16 = 8;
/// `dp4`.
pub const DP4: u16 = 9;
/// `min`.
pub const MIN: u16 = 10;
/// `max`.
pub const MAX: u16 = 11;
/// `slt`.
pub const SLT: u16 = 12;
/// `sge`.
pub const SGE: u16 = 13;
/// `exp`.
pub const EXP: u16 = 14;
/// `log`.
pub const LOG: u16 = 15;
/// `lit`.
pub const LIT: u16 = 16;
/// `dst`.
pub const DST: u16 = 17;
/// `lrp`.
pub const LRP: u16 = 18;
/// `frc`.
pub const FRC: u16 = 19;
/// `m4x4`.
pub const M4X4: u16 = 20;
/// `m4x3`.
pub const M4X3: u16 = 21;
/// `m3x4`.
pub const M3X4: u16 = 22;
/// `m3x3`.
pub const M3X3: u16 = 23;
/// `m3x2`.
pub const M3X2: u16 = 24;
/// `call`.
pub const CALL: u16 = 25;
/// `callnz`.
pub const CALLNZ: u16 = 26;
/// `loop`.
pub const LOOP: u16 = 27;
/// `ret`.
pub const RET: u16 = 28;
/// `endloop`.
pub const ENDLOOP: u16 = 29;
/// `label`.
pub const LABEL: u16 = 30;
/// `dcl`.
pub const DCL: u16 = 31;
/// `pow`.
pub const POW: u16 = 32;
/// `crs`.
pub const CRS: u16 = 33;
/// `sgn`.
pub const SGN: u16 = 34;
/// `abs`.
pub const ABS: u16 = 35;
/// `nrm`.
pub const NRM: u16 = 36;
/// `sincos`.
pub const SINCOS: u16 = 37;
/// `rep`.
pub const REP: u16 = 38;
/// `endrep`.
pub const ENDREP: u16 = 39;
/// `if`.
pub const IF: u16 = 40;
/// `if_comp`.
pub const IFC: u16 = 41;
/// `else`.
pub const ELSE: u16 = 42;
/// `endif`.
pub const ENDIF: u16 = 43;
/// `break`.
pub const BREAK: u16 = 44;
/// `break_comp`.
pub const BREAKC: u16 = 45;
/// `mova`.
pub const MOVA: u16 = 46;
/// `defb`.
pub const DEFB: u16 = 47;
/// `defi`.
pub const DEFI: u16 = 48;
/// `texcoord` / `texcrd`.
pub const TEXCOORD: u16 = 64;
/// `texkill`.
pub const TEXKILL: u16 = 65;
/// `tex` / `texld` / `texldp` / `texldb`.
pub const TEX: u16 = 66;
/// `texbem`.
pub const TEXBEM: u16 = 67;
/// `texbeml`.
pub const TEXBEML: u16 = 68;
/// `texreg2ar`.
pub const TEXREG2AR: u16 = 69;
/// `texreg2gb`.
pub const TEXREG2GB: u16 = 70;
/// `texm3x2pad`.
pub const TEXM3X2PAD: u16 = 71;
/// `texm3x2tex`.
pub const TEXM3X2TEX: u16 = 72;
/// `texm3x3pad`.
pub const TEXM3X3PAD: u16 = 73;
/// `texm3x3tex`.
pub const TEXM3X3TEX: u16 = 74;
/// `texm3x3spec`.
pub const TEXM3X3SPEC: u16 = 76;
/// `texm3x3vspec`.
pub const TEXM3X3VSPEC: u16 = 77;
/// `expp`.
pub const EXPP: u16 = 78;
/// `logp`.
pub const LOGP: u16 = 79;
/// `cnd`.
pub const CND: u16 = 80;
/// `def`.
pub const DEF: u16 = 81;
/// `texreg2rgb`.
pub const TEXREG2RGB: u16 = 82;
/// `texdp3tex`.
pub const TEXDP3TEX: u16 = 83;
/// `texm3x2depth`.
pub const TEXM3X2DEPTH: u16 = 84;
/// `texdp3`.
pub const TEXDP3: u16 = 85;
/// `texm3x3`.
pub const TEXM3X3: u16 = 86;
/// `texdepth`.
pub const TEXDEPTH: u16 = 87;
/// `cmp`.
pub const CMP: u16 = 88;
/// `bem`.
pub const BEM: u16 = 89;
/// `dp2add`.
pub const DP2ADD: u16 = 90;
/// `dsx`.
pub const DSX: u16 = 91;
/// `dsy`.
pub const DSY: u16 = 92;
/// `texldd`.
pub const TEXLDD: u16 = 93;
/// `setp_comp`.
pub const SETP: u16 = 94;
/// `texldl`.
pub const TEXLDL: u16 = 95;
/// `breakp`.
pub const BREAKP: u16 = 96;
/// `phase`.
pub const PHASE: u16 = 0xFFFD;
/// Comment token opcode.
pub const COMMENT: u16 = 0xFFFE;
/// End token opcode.
pub const END: u16 = 0xFFFF;

/// Every opcode, one row each.
pub const OPCODES: &[OpInfo] = &[
    op(NOP, "nop", false, 0),
    op(MOV, "mov", true, 1),
    op(ADD, "add", true, 2),
    op(SUB, "sub", true, 2),
    op(MAD, "mad", true, 3),
    op(MUL, "mul", true, 2),
    op(RCP, "rcp", true, 1),
    op(RSQ, "rsq", true, 1),
    op(DP3, "dp3", true, 2),
    op(DP4, "dp4", true, 2),
    op(MIN, "min", true, 2),
    op(MAX, "max", true, 2),
    op(SLT, "slt", true, 2),
    op(SGE, "sge", true, 2),
    op(EXP, "exp", true, 1),
    op(LOG, "log", true, 1),
    op(LIT, "lit", true, 1),
    op(DST, "dst", true, 2),
    op(LRP, "lrp", true, 3),
    op(FRC, "frc", true, 1),
    op(M4X4, "m4x4", true, 2),
    op(M4X3, "m4x3", true, 2),
    op(M3X4, "m3x4", true, 2),
    op(M3X3, "m3x3", true, 2),
    op(M3X2, "m3x2", true, 2),
    op(CALL, "call", false, 1),
    op(CALLNZ, "callnz", false, 2),
    op(LOOP, "loop", false, 2),
    op(RET, "ret", false, 0),
    op(ENDLOOP, "endloop", false, 0),
    op(LABEL, "label", false, 1),
    OpInfo {
        extra: Extra::Dcl,
        ..op(DCL, "dcl", true, 0)
    },
    op(POW, "pow", true, 2),
    op(CRS, "crs", true, 2),
    op(SGN, "sgn", true, 3),
    op(ABS, "abs", true, 1),
    op(NRM, "nrm", true, 1),
    OpInfo {
        src_sm3: Some(1),
        ..op(SINCOS, "sincos", true, 3)
    },
    op(REP, "rep", false, 1),
    op(ENDREP, "endrep", false, 0),
    op(IF, "if", false, 1),
    op(IFC, "if", false, 2),
    op(ELSE, "else", false, 0),
    op(ENDIF, "endif", false, 0),
    op(BREAK, "break", false, 0),
    op(BREAKC, "break", false, 2),
    op(MOVA, "mova", true, 1),
    OpInfo {
        extra: Extra::Literal(1),
        ..op(DEFB, "defb", true, 0)
    },
    OpInfo {
        extra: Extra::Literal(4),
        ..op(DEFI, "defi", true, 0)
    },
    OpInfo {
        src_ps1: Some([0, 1]),
        ..op(TEXCOORD, "texcrd", true, 1)
    },
    op(TEXKILL, "texkill", true, 0),
    OpInfo {
        src_ps1: Some([0, 1]),
        ..op(TEX, "texld", true, 2)
    },
    op(TEXBEM, "texbem", true, 1),
    op(TEXBEML, "texbeml", true, 1),
    op(TEXREG2AR, "texreg2ar", true, 1),
    op(TEXREG2GB, "texreg2gb", true, 1),
    op(TEXM3X2PAD, "texm3x2pad", true, 1),
    op(TEXM3X2TEX, "texm3x2tex", true, 1),
    op(TEXM3X3PAD, "texm3x3pad", true, 1),
    op(TEXM3X3TEX, "texm3x3tex", true, 1),
    op(TEXM3X3SPEC, "texm3x3spec", true, 2),
    op(TEXM3X3VSPEC, "texm3x3vspec", true, 1),
    op(EXPP, "expp", true, 1),
    op(LOGP, "logp", true, 1),
    op(CND, "cnd", true, 3),
    OpInfo {
        extra: Extra::Literal(4),
        ..op(DEF, "def", true, 0)
    },
    op(TEXREG2RGB, "texreg2rgb", true, 1),
    op(TEXDP3TEX, "texdp3tex", true, 1),
    op(TEXM3X2DEPTH, "texm3x2depth", true, 1),
    op(TEXDP3, "texdp3", true, 1),
    op(TEXM3X3, "texm3x3", true, 1),
    op(TEXDEPTH, "texdepth", true, 0),
    op(CMP, "cmp", true, 3),
    op(BEM, "bem", true, 2),
    op(DP2ADD, "dp2add", true, 3),
    op(DSX, "dsx", true, 1),
    op(DSY, "dsy", true, 1),
    op(TEXLDD, "texldd", true, 4),
    op(SETP, "setp", true, 2),
    op(TEXLDL, "texldl", true, 2),
    op(BREAKP, "breakp", false, 1),
    op(PHASE, "phase", false, 0),
];

/// The row of an opcode.
pub fn info(code: u16) -> Option<&'static OpInfo> {
    OPCODES.iter().find(|o| o.code == code)
}

/// The number of source parameters an opcode has in a version.
pub fn source_count(info: &OpInfo, version: Version) -> u8 {
    if version.is_ps() && version.major == 1 {
        if let Some(n) = info.src_ps1 {
            return n[usize::from(version.at_least(1, 4))];
        }
    }
    if version.major >= 3 {
        if let Some(n) = info.src_sm3 {
            return n;
        }
    }
    info.src
}

/// The assembler name of an instruction in a version (without modifiers).
pub fn mnemonic(info: &OpInfo, controls: u8, version: Version) -> String {
    let ps13 = version.is_ps() && !version.at_least(1, 4);
    let cmp = || {
        super::types::COMPARISONS
            .iter()
            .find(|(c, _)| *c == controls)
            .map_or("??", |(_, n)| n)
    };
    match info.code {
        TEX if ps13 => "tex".into(),
        TEX if controls & 1 != 0 => "texldp".into(),
        TEX if controls & 2 != 0 => "texldb".into(),
        TEXCOORD if ps13 => "texcoord".into(),
        IFC | BREAKC | SETP => format!("{}_{}", info.name, cmp()),
        _ => info.name.into(),
    }
}
