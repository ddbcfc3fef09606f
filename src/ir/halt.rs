//! `abort` and `debug_break`: how a shader that runs one stops its call
//! and says where.
//!
//! Compiled code that reaches either instruction with any lane running
//! stores a halt word in the call's interrupt word and returns. The word
//! stops every other call of the draw or dispatch, as an embedder's
//! interrupt does, and tells the API which instruction stopped it: bit 31
//! set, bit 30 set for `debug_break`, bits 0-29 the instruction's byte
//! offset in 4-byte units (every D3D9 and SM4/5 instruction starts on a
//! token boundary).

/// Which instruction stopped a call (see [`super::Inst::Halt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HaltKind {
    /// `abort`: the shader asked to stop.
    Abort,
    /// `debug_break`: a breakpoint, with no debugger to take it.
    DebugBreak,
}

impl HaltKind {
    /// The instruction's name.
    pub fn name(self) -> &'static str {
        match self {
            HaltKind::Abort => "abort",
            HaltKind::DebugBreak => "debug_break",
        }
    }
}

const HALTED: u32 = 1 << 31;
const DEBUG_BREAK: u32 = 1 << 30;
const OFFSET_WORDS: u32 = DEBUG_BREAK - 1;

/// The interrupt word for `kind` at byte `offset` of the program.
pub fn halt_word(kind: HaltKind, offset: u32) -> u32 {
    let kind_bit = match kind {
        HaltKind::Abort => 0,
        HaltKind::DebugBreak => DEBUG_BREAK,
    };
    HALTED | kind_bit | ((offset / 4) & OFFSET_WORDS)
}

/// The instruction and byte offset a halt word names; `None` for any
/// other interrupt value.
pub fn halted(word: u32) -> Option<(HaltKind, u32)> {
    if word & HALTED == 0 {
        return None;
    }
    let kind = if word & DEBUG_BREAK != 0 {
        HaltKind::DebugBreak
    } else {
        HaltKind::Abort
    };
    Some((kind, (word & OFFSET_WORDS) * 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for kind in [HaltKind::Abort, HaltKind::DebugBreak] {
            for offset in [0, 4, 60, 0x0fff_fffc] {
                assert_eq!(halted(halt_word(kind, offset)), Some((kind, offset)));
            }
        }
        // Byte 60 is word 15: bit 31 and 0xf for abort, bit 30 too for
        // debug_break.
        assert_eq!(halt_word(HaltKind::Abort, 60), 0x8000_000f);
        assert_eq!(halt_word(HaltKind::DebugBreak, 60), 0xc000_000f);
    }

    #[test]
    fn an_embedders_interrupt_is_no_halt() {
        assert_eq!(halted(1), None);
        assert_eq!(halted(0x7fff_ffff), None);
    }
}
