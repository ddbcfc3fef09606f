//! `imm_atomic_alloc` and `imm_atomic_consume`: steps of a UAV's hidden
//! counter (append / consume structured buffers, `IncrementCounter` /
//! `DecrementCounter`).

use super::Lowerer;
use crate::ir::{Inst, Resource};
use crate::sm4::decode::Instruction;
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::Sm4Error;

impl Lowerer {
    /// `imm_atomic_alloc dst, u#` / `imm_atomic_consume dst, u#`.
    pub(super) fn uav_counter(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, false)?;
        let res = self.resource(self.operand(ins, 1)?)?;
        if !matches!(res, Resource::Uav(_)) {
            return Err(self.err(format!("counter of {res:?}: only UAVs have one")));
        }
        self.emit(Inst::UavCounter {
            dst,
            res,
            consume: ins.opcode() == O::ImmAtomicConsume,
        });
        Ok(())
    }
}
