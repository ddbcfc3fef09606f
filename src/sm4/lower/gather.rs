//! `gather4`, `gather4_c`, `gather4_po`, `gather4_po_c` and `lod`.

use super::operands::swizzle_of;
use super::Lowerer;
use crate::ir::{GatherOffset, Inst, SlotOffsets};
use crate::sm4::decode::{Instruction, Sel};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::Sm4Error;

impl Lowerer {
    /// A gather: the sampler operand's selected (or first swizzled)
    /// component is the channel gathered; `_po` forms take their offsets
    /// from the operand after the address, others from `aoffimmi`.
    pub(super) fn gather(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let programmable = matches!(ins.opcode(), O::Gather4Po | O::Gather4PoC);
        let compare = matches!(ins.opcode(), O::Gather4C | O::Gather4PoC);
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let first = if programmable { 3 } else { 2 };
        let offset = if programmable {
            GatherOffset::Programmable(self.src(self.operand(ins, 2)?)?)
        } else {
            GatherOffset::Immediate(ins.offsets().unwrap_or([0; 3]))
        };
        let rop = self.operand(ins, first)?;
        let (res, texture) = self.lookup_slot(rop)?;
        let sop = self.operand(ins, first + 1)?;
        let (sampler, sampler_offset) = self.lookup_slot(sop)?;
        let channel = match sop.sel {
            Sel::Select(c) => c,
            Sel::Swizzle(s) => s[0],
            _ => 0,
        };
        let compare = if compare {
            Some(self.src(self.operand(ins, first + 2)?)?)
        } else {
            None
        };
        self.emit(Inst::Gather {
            dst,
            res,
            sampler,
            coord,
            channel,
            offset,
            swizzle: swizzle_of(rop.sel),
            compare,
            slots: SlotOffsets::boxed(texture, sampler_offset),
        });
        Ok(())
    }

    /// `lod dst, address, resource, sampler`.
    pub(super) fn query_lod(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let rop = self.operand(ins, 2)?;
        let (res, texture) = self.lookup_slot(rop)?;
        let (sampler, sampler_offset) = self.lookup_slot(self.operand(ins, 3)?)?;
        self.emit(Inst::QueryLod {
            dst,
            res,
            sampler,
            coord,
            swizzle: swizzle_of(rop.sel),
            slots: SlotOffsets::boxed(texture, sampler_offset),
        });
        Ok(())
    }
}
