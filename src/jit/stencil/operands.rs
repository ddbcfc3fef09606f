//! Operands as stencils see them: the register file of a source or
//! destination component (part of the key) and its address (the holes).
//!
//! Every read the translator would make with a literal register index is
//! one of these places; reads past a register file read the data's zero
//! word and writes past one are dropped, as the translator does.

use super::build::view_offset;
use super::key::{HoleValue, Place, PlaceHoles};
use super::stitch::{Stitcher, Unsupported};
use crate::ir::{Dst, File, Src, SysVal};
use crate::jit::operand::{sysval_slot, UNCHECKED_ROWS};
use dxjit_runtime::abi::{Frame, CB_SLOTS};
use std::mem::offset_of;

/// A frame pointer field as a place's key.
fn field(offset: usize) -> Place {
    Place::Framed(offset as u16)
}

impl Stitcher<'_> {
    /// Where component `c` (already through the swizzle) of `src` is read.
    pub fn source_place(
        &mut self,
        src: &Src,
        c: usize,
    ) -> Result<(Place, PlaceHoles), Unsupported> {
        if src.index.rel.is_some() {
            return Err(Unsupported("a relative index inside a relative index"));
        }
        let base = src.index.base;
        let soa = |reg: u32| u64::from(self.layout.component(0, reg, c));
        Ok(match src.file {
            File::Imm => self.word(src.imm[c]),
            File::Null => self.word(0),
            File::ImmConst => {
                let w = self.prog.icb.get(base as usize).map_or(0, |row| row[c]);
                self.word(w)
            }
            File::Temp => (
                Place::Scratch,
                PlaceHoles::new(&[HoleValue::Const(u64::from(self.layout.temp(base, c)))]),
            ),
            File::Input if base < self.input_regs => (
                field(offset_of!(Frame, inputs)),
                PlaceHoles::new(&[HoleValue::Const(soa(base))]),
            ),
            File::Output if base < self.output_regs => (
                field(offset_of!(Frame, outputs)),
                PlaceHoles::new(&[HoleValue::Const(soa(base))]),
            ),
            File::Input | File::Output => self.word(0),
            File::SysVal(SysVal::GroupId) => (
                Place::FrameWord,
                PlaceHoles::new(&[HoleValue::Const(
                    (offset_of!(Frame, group_id) + 4 * c.min(2)) as u64,
                )]),
            ),
            File::SysVal(SysVal::DispatchThreadId) => {
                let size = if c < 3 { self.prog.thread_group[c] } else { 0 };
                let local = sysval_slot(SysVal::GroupThreadId) as u32;
                (
                    Place::DispatchThread,
                    PlaceHoles::new(&[
                        HoleValue::Const((offset_of!(Frame, group_id) + 4 * c.min(2)) as u64),
                        HoleValue::Const(u64::from(size)),
                        HoleValue::Const(soa(local)),
                    ]),
                )
            }
            File::SysVal(sv) => (
                field(offset_of!(Frame, sysvals)),
                PlaceHoles::new(&[HoleValue::Const(soa(sysval_slot(sv) as u32))]),
            ),
            File::Indexable(id) => match self.layout.indexables.get(&id) {
                Some(&(at, count)) if base < count => (
                    Place::Scratch,
                    PlaceHoles::new(&[HoleValue::Const(u64::from(
                        self.layout.component(at, base, c),
                    ))]),
                ),
                Some(_) => self.word(0),
                None => return Err(Unsupported("an undeclared indexable temp")),
            },
            File::Const(slot) => {
                if slot as usize >= CB_SLOTS {
                    return Err(Unsupported("a constant buffer past the slots"));
                }
                let word = u64::from(base) * 16 + 4 * c as u64;
                let holes =
                    PlaceHoles::new(&[HoleValue::Const(view_offset(slot)), HoleValue::Const(word)]);
                if base < UNCHECKED_ROWS && slot != dxjit_runtime::dispatch::patch_rows::SLOT {
                    let need = &mut self.cb_static_bytes[slot as usize];
                    *need = (*need).max((base + 1) * 16);
                    (Place::CbWord, holes)
                } else {
                    (Place::CbChecked, holes)
                }
            }
        })
    }

    /// Where component `c` of `dst` is written.
    pub fn destination_place(
        &mut self,
        dst: &Dst,
        c: usize,
    ) -> Result<(Place, PlaceHoles), Unsupported> {
        if dst.index.rel.is_some() {
            return Err(Unsupported(
                "a relatively indexed destination stored by a piece",
            ));
        }
        let base = dst.index.base;
        let soa = u64::from(self.layout.component(0, base, c));
        Ok(match dst.file {
            File::Temp => (
                Place::Scratch,
                PlaceHoles::new(&[HoleValue::Const(u64::from(self.layout.temp(base, c)))]),
            ),
            File::Output if base < self.output_regs => (
                field(offset_of!(Frame, outputs)),
                PlaceHoles::new(&[HoleValue::Const(soa)]),
            ),
            File::Indexable(id) => match self.layout.indexables.get(&id) {
                Some(&(at, count)) if base < count => (
                    Place::Scratch,
                    PlaceHoles::new(&[HoleValue::Const(u64::from(at) + soa)]),
                ),
                Some(_) => (Place::Dropped, PlaceHoles::new(&[])),
                None => return Err(Unsupported("an undeclared indexable temp")),
            },
            File::Output | File::Null => (Place::Dropped, PlaceHoles::new(&[])),
            _ => return Err(Unsupported("a destination in a read-only file")),
        })
    }

    /// A word of the shader's data, read broadcast.
    fn word(&mut self, w: u32) -> (Place, PlaceHoles) {
        (
            Place::Data,
            PlaceHoles::new(&[HoleValue::Data(self.data.word(w))]),
        )
    }
}
