//! Arithmetic instructions, including those with two destinations.

use super::operands::alias;
use super::Lowerer;
use crate::ir::{AluOp, DoubleOp, Dst, File, Inst, Src};
use crate::sm4::decode::Instruction;
use crate::sm4::Sm4Error;

/// How the first operation of [`Lowerer::two`] reads its second source
/// (the second operation always reads the sources as written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FirstReads {
    /// As written.
    AsWritten,
    /// Negated: `usubb`'s difference is `a + -b`, its borrow reads `b`.
    SecondNegated,
}

impl Lowerer {
    pub(super) fn alu(&mut self, op: AluOp, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let src = self.srcs(ins, 1)?;
        self.emit(Inst::Alu { op, dst, src });
        Ok(())
    }

    pub(super) fn double(&mut self, op: DoubleOp, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let src = self.srcs(ins, 1)?;
        self.emit(Inst::Double { op, dst, src });
        Ok(())
    }

    /// Two results from the same sources: the first goes through a scratch
    /// temporary when its destination is read by the second computation.
    pub(super) fn pair(&mut self, ops: [(AluOp, Vec<Src>); 2], dsts: [Dst; 2]) {
        let [(op0, src0), (op1, src1)] = ops;
        let [d0, d1] = dsts;
        let refs: Vec<&Src> = src1.iter().collect();
        let staged = alias(&d0, &refs);
        if d0.file != File::Null {
            let target = if staged {
                Dst::temp(self.scratch(0), d0.mask)
            } else {
                d0.clone()
            };
            self.emit(Inst::Alu {
                op: op0,
                dst: Dst {
                    saturate: d0.saturate && !staged,
                    ..target.clone()
                },
                src: src0,
            });
        }
        if d1.file != File::Null {
            self.emit(Inst::Alu {
                op: op1,
                dst: d1,
                src: src1,
            });
        }
        if staged {
            let s = Src::temp(self.scratch(0));
            self.emit(Inst::Alu {
                op: AluOp::Mov,
                dst: d0,
                src: vec![s],
            });
        }
    }

    /// An instruction with two destinations, each the result of one of
    /// `ops` on the same sources.
    pub(super) fn two(
        &mut self,
        ins: &Instruction,
        ops: [AluOp; 2],
        first_reads: FirstReads,
    ) -> Result<(), Sm4Error> {
        let d0 = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let d1 = self.dst(self.operand(ins, 1)?, ins.saturate())?;
        let src = self.srcs(ins, 2)?;
        let mut first = src.clone();
        if first_reads == FirstReads::SecondNegated {
            if let Some(b) = first.get_mut(1) {
                *b = b.clone().negated();
            }
        }
        let second = src;
        self.pair([(ops[0], first), (ops[1], second)], [d0, d1]);
        Ok(())
    }

    pub(super) fn swapc(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let d0 = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let d1 = self.dst(self.operand(ins, 1)?, ins.saturate())?;
        let s = self.srcs(ins, 2)?;
        let [cond, a, b] =
            <[Src; 3]>::try_from(s).map_err(|_| self.err("swapc needs three sources"))?;
        let refs = [&cond, &a, &b];
        if alias(&d0, &refs) || alias(&d1, &refs) {
            let (t0, t1) = (self.scratch(0), self.scratch(1));
            self.emit(Inst::Swapc {
                dst: [Dst::temp(t0, d0.mask), Dst::temp(t1, d1.mask)],
                cond,
                a,
                b,
            });
            for (d, t) in [(d0, t0), (d1, t1)] {
                if d.file != File::Null {
                    self.emit(Inst::Alu {
                        op: AluOp::Mov,
                        dst: d,
                        src: vec![Src::temp(t)],
                    });
                }
            }
        } else {
            self.emit(Inst::Swapc {
                dst: [d0, d1],
                cond,
                a,
                b,
            });
        }
        Ok(())
    }

    pub(super) fn dot(&mut self, n: u8, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let a = self.src(self.operand(ins, 1)?)?;
        let b = self.src(self.operand(ins, 2)?)?;
        self.emit(Inst::Dot {
            n,
            legacy: false,
            dst,
            a,
            b,
        });
        Ok(())
    }
}
