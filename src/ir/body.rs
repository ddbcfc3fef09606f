//! Function bodies: instructions, each with the place in the bytecode it
//! was lowered from.
//!
//! A [`Body`] reads as a slice of [`Inst`] (it dereferences to `[Inst]`),
//! so analyses and the backend walk it as before; positions sit in a
//! parallel vector that only [`Body::push`] and [`Body::append`] grow, so
//! the two never disagree in length.

use super::Inst;
use std::fmt;
use std::ops::Deref;

/// Where an IR instruction came from in the bytecode. A front end gives
/// every IR instruction it makes for a bytecode instruction (every piece
/// of a macro such as `m4x4`, `sincos`, an `fcall` or a hull phase's
/// switch) that instruction's position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Index of the bytecode instruction, declarations included (SM4/SM5:
    /// in the program; D3D9: in the token stream, comments not counted).
    pub index: u32,
    /// Byte offset of the instruction's first token (SM4/SM5: from the
    /// program's version token; D3D9: from the version token).
    pub offset: u32,
    /// The opcode's name (`mov`, `m4x4`, `hs_fork_phase`).
    pub opcode: &'static str,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} (`{}` at byte {})",
            self.index, self.opcode, self.offset
        )
    }
}

/// An instruction's place: its index in its IR function and, for IR
/// lowered from bytecode, its bytecode position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// Index in the IR function (main or a subroutine).
    pub index: usize,
    /// Where it came from; `None` for hand-built IR.
    pub pos: Option<Pos>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(pos) => pos.fmt(f),
            None => write!(f, "IR instruction {}", self.index),
        }
    }
}

/// A function body: its instructions in order and each one's position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Body {
    insts: Vec<Inst>,
    pos: Vec<Option<Pos>>,
}

impl Body {
    /// An empty body.
    pub fn new() -> Self {
        Body::default()
    }

    /// Appends an instruction lowered from the bytecode at `pos`
    /// (`None`: built by hand, from no bytecode).
    pub fn push(&mut self, inst: Inst, pos: Option<Pos>) {
        self.insts.push(inst);
        self.pos.push(pos);
    }

    /// Moves every instruction of `other` to the end of this body,
    /// positions included, leaving `other` empty.
    pub fn append(&mut self, other: &mut Body) {
        self.insts.append(&mut other.insts);
        self.pos.append(&mut other.pos);
    }

    /// The instructions.
    pub fn as_slice(&self) -> &[Inst] {
        &self.insts
    }

    /// Where instruction `index` came from, when it was lowered from bytecode.
    pub fn pos(&self, index: usize) -> Option<Pos> {
        self.pos.get(index).copied().flatten()
    }

    /// The place of instruction `index` (also past the end, for errors
    /// about the end of the function).
    pub fn place(&self, index: usize) -> Place {
        Place {
            index,
            pos: self.pos(index),
        }
    }
}

impl Deref for Body {
    type Target = [Inst];

    fn deref(&self) -> &[Inst] {
        &self.insts
    }
}

impl From<Vec<Inst>> for Body {
    /// A hand-built body: no instruction has a bytecode position.
    fn from(insts: Vec<Inst>) -> Self {
        let pos = vec![None; insts.len()];
        Body { insts, pos }
    }
}

impl<'a> IntoIterator for &'a Body {
    type Item = &'a Inst;
    type IntoIter = std::slice::Iter<'a, Inst>;

    fn into_iter(self) -> Self::IntoIter {
        self.insts.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOV: Pos = Pos {
        index: 2,
        offset: 40,
        opcode: "mov",
    };

    #[test]
    fn positions_stay_in_step_with_instructions() {
        let mut a = Body::from(vec![Inst::Loop]);
        let mut b = Body::new();
        b.push(Inst::Break, Some(MOV));
        b.push(Inst::EndLoop, None);
        a.append(&mut b);
        assert!(b.is_empty());
        assert_eq!(a.len(), 3);
        assert_eq!(a.pos(0), None);
        assert_eq!(a.pos(1), Some(MOV));
        assert_eq!(a.pos(2), None);
        assert_eq!(
            a.place(3),
            Place {
                index: 3,
                pos: None
            }
        );
    }

    #[test]
    fn a_place_names_the_bytecode_when_it_knows_it() {
        let known = Place {
            index: 7,
            pos: Some(MOV),
        };
        assert_eq!(known.to_string(), "instruction 2 (`mov` at byte 40)");
        let built = Place {
            index: 7,
            pos: None,
        };
        assert_eq!(built.to_string(), "IR instruction 7");
    }
}
