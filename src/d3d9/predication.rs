//! Where the predicate of a predicated instruction lives and what may carry one.
//!
//! Bit 28 of an SM2.0+ instruction token marks it predicated. Its predicate
//! (`[!]p0[.swizzle]`) is a source-parameter token placed right after the
//! destination (and its relative-addressing token), before the sources; an
//! instruction without a destination has it first. That is where fxc writes
//! it and where Wine (`shader_sm1_read_instruction`), vkd3d-shader
//! (`d3dbc.c`) and dxbc-spirv (`sm3_parser.cpp`) read it. The length field
//! (bits 27:24) counts it with the other parameter tokens.
//!
//! Only arithmetic and texture instructions may be predicated; flow control
//! (`if`, `callnz`, `breakp` take `p0` as an ordinary source instead) and
//! declarations may not (asm reference, `setp_comp`).

use super::opcodes::*;
use super::types::{RegType, Relative, SrcMod, SrcParam, Version};

/// Whether an instruction with opcode `code` may have bit 28 set in `version`.
pub fn may_be_predicated(code: u16, version: Version) -> bool {
    version.major >= 2
        && !matches!(
            code,
            CALL | CALLNZ
                | LOOP
                | RET
                | ENDLOOP
                | LABEL
                | DCL
                | REP
                | ENDREP
                | IF
                | IFC
                | ELSE
                | ENDIF
                | BREAK
                | BREAKC
                | BREAKP
                | DEF
                | DEFI
                | DEFB
                | PHASE
        )
}

/// Why a decoded predicate token cannot be one, if it cannot: it must name
/// `p0`, unindexed, with no modifier other than `!`.
pub fn predicate_problem(p: &SrcParam) -> Option<&'static str> {
    if p.reg.ty != RegType::Predicate || p.reg.num != 0 {
        return Some("the predicate token (after the destination) does not name p0");
    }
    if p.rel != Relative::None {
        return Some("the predicate p0 cannot be indexed");
    }
    if !matches!(p.modifier, SrcMod::None | SrcMod::Not) {
        return Some("the predicate p0 takes no modifier but !");
    }
    None
}
