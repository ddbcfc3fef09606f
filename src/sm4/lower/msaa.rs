//! Multisampled resources: `ld2dms`, `sample_info` and `sample_pos`.

use super::operands::swizzle_of;
use super::Lowerer;
use crate::ir::Inst;
use crate::sm4::decode::{Instruction, Operand};
use crate::sm4::encoding::SAMPLE_INFO_UINT;
use crate::sm4::fields::RESINFO_RETURN_TYPE;
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType;
use crate::sm4::Sm4Error;

impl Lowerer {
    /// The multisampled-resource instructions; others are not handled here.
    pub(super) fn msaa(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let inst = match ins.opcode() {
            O::Ld2dms => {
                let rop = self.operand(ins, 2)?;
                Inst::LoadSample {
                    dst,
                    coord: self.src(self.operand(ins, 1)?)?,
                    res: self.srv(rop)?.0,
                    sample: self.src(self.operand(ins, 3)?)?,
                    offset: ins.offsets().unwrap_or([0; 3]),
                    swizzle: swizzle_of(rop.sel),
                }
            }
            O::SampleInfo => {
                let rop = self.operand(ins, 1)?;
                Inst::SampleInfo {
                    dst,
                    res: self.srv_or_rasterizer(rop)?,
                    uint: ins.field(RESINFO_RETURN_TYPE) == SAMPLE_INFO_UINT,
                    swizzle: swizzle_of(rop.sel),
                }
            }
            O::SamplePos => {
                let rop = self.operand(ins, 1)?;
                Inst::SamplePos {
                    dst,
                    res: self.srv_or_rasterizer(rop)?,
                    index: self.src(self.operand(ins, 2)?)?,
                    swizzle: swizzle_of(rop.sel),
                }
            }
            _ => return Err(self.err("not a multisampled-resource instruction")),
        };
        self.emit(inst);
        Ok(())
    }

    /// A `t#` operand's slot, or `None` for the `rasterizer` register.
    fn srv_or_rasterizer(&self, op: &Operand) -> Result<Option<u32>, Sm4Error> {
        if op.is(OperandType::Rasterizer) {
            Ok(None)
        } else {
            Ok(Some(self.srv(op)?.0))
        }
    }
}
