//! Control flow: branches, loops, subroutines, `texkill` (predicated too).

use super::*;
use crate::ir::{AluOp, File};

/// Which loop a loop end closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LoopEnd {
    /// `endrep`: only the iteration counter steps.
    Rep,
    /// `endloop`: the counter and the loop register `aL` step.
    Loop,
}

impl Lowerer<'_> {
    /// A boolean/predicate condition: the value to test and whether nonzero means taken.
    fn condition(&mut self, p: &SrcParam) -> Result<(Src, bool), D3d9Error> {
        if p.modifier == SrcMod::Not {
            let plain = SrcParam {
                modifier: SrcMod::None,
                ..p.clone()
            };
            return Ok((self.src(&plain)?, false));
        }
        Ok((self.src(p)?, true))
    }

    fn operand<'b>(&self, inst: &'b Instruction, i: usize) -> Result<&'b SrcParam, D3d9Error> {
        inst.src.get(i).ok_or_else(|| self.err("missing operand"))
    }

    fn label_of(&self, p: &SrcParam) -> Result<u32, D3d9Error> {
        if p.reg.ty != RegType::Label {
            return Err(self.err("call target is not a label"));
        }
        Ok(p.reg.num)
    }

    fn loop_temps(&mut self) -> Result<(u32, u32), D3d9Error> {
        if self.loop_depth >= MAX_LOOP_DEPTH {
            return Err(self.err("loops nested too deeply"));
        }
        let counter = LOOP_BASE + 2 * self.loop_depth;
        self.loop_depth += 1;
        self.use_temp(counter + 1);
        Ok((counter, counter + 1))
    }

    fn loop_head(&mut self, counter: u32) {
        self.emit(Inst::Loop);
        let t = self.tmp();
        self.alu(
            AluOp::IGe,
            Dst::temp(t, 1),
            vec![Src::splat(0), Src::temp(counter).scalar(0)],
        );
        self.emit(Inst::BreakC {
            cond: Src::temp(t).scalar(0),
            nz: true,
        });
    }

    /// Ends a `rep` or `loop` body: counts the iteration down (and steps
    /// `aL` for `loop`).
    fn loop_tail(&mut self, end: LoopEnd) -> Result<(), D3d9Error> {
        if self.loop_depth == 0 {
            return Err(self.err("end of a loop that was not opened"));
        }
        self.loop_depth -= 1;
        let counter = LOOP_BASE + 2 * self.loop_depth;
        if end == LoopEnd::Loop {
            let al = counter + 1;
            self.alu(
                AluOp::IAdd,
                Dst::temp(al, 1),
                vec![Src::temp(al), Src::temp(counter).scalar(1)],
            );
        }
        self.alu(
            AluOp::IAdd,
            Dst::temp(counter, 1),
            vec![Src::temp(counter), Src::splat(u32::MAX)],
        );
        self.emit(Inst::EndLoop);
        Ok(())
    }

    /// Lowers flow-control instructions and `texkill`.
    pub(super) fn flow(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        match inst.opcode {
            CALL => {
                let label = self.label_of(self.operand(inst, 0)?)?;
                self.emit(Inst::Call { label });
            }
            CALLNZ => {
                let label = self.label_of(self.operand(inst, 0)?)?;
                let (cond, nz) = self.condition(self.operand(inst, 1)?)?;
                self.emit(Inst::CallC { cond, nz, label });
            }
            LABEL => {
                let label = self.label_of(self.operand(inst, 0)?)?;
                self.start_function(label);
            }
            RET => {
                if !self.at_function_end {
                    self.emit(Inst::Ret);
                }
            }
            REP => {
                let count = self.src(self.operand(inst, 0)?)?;
                let outer = self.al_temp();
                let (counter, al) = self.loop_temps()?;
                self.alu(AluOp::Mov, Dst::temp(counter, 1), vec![count.scalar(0)]);
                if self.loop_depth > 1 {
                    self.alu(
                        AluOp::Mov,
                        Dst::temp(al, 1),
                        vec![Src::temp(outer).scalar(0)],
                    );
                }
                self.loop_head(counter);
            }
            LOOP => {
                let i = self.src(self.operand(inst, 1)?)?;
                let (counter, al) = self.loop_temps()?;
                self.alu(
                    AluOp::Mov,
                    Dst::temp(counter, 3),
                    vec![i.clone().swizzled([0, 2, 2, 2])],
                );
                self.alu(AluOp::Mov, Dst::temp(al, 1), vec![i.scalar(1)]);
                self.loop_head(counter);
            }
            ENDREP => self.loop_tail(LoopEnd::Rep)?,
            ENDLOOP => self.loop_tail(LoopEnd::Loop)?,
            IF => {
                let (cond, nz) = self.condition(self.operand(inst, 0)?)?;
                self.emit(Inst::If { cond, nz });
            }
            IFC | BREAKC => {
                let a = self.src(self.operand(inst, 0)?)?;
                let b = self.src(self.operand(inst, 1)?)?;
                let cond = self.comparison(inst.controls, a.scalar(0), b.scalar(0))?;
                self.emit(if inst.opcode == IFC {
                    Inst::If { cond, nz: true }
                } else {
                    Inst::BreakC { cond, nz: true }
                });
            }
            BREAKP => {
                let (cond, nz) = self.condition(self.operand(inst, 0)?)?;
                self.emit(Inst::BreakC { cond, nz });
            }
            ELSE => self.emit(Inst::Else),
            ENDIF => self.emit(Inst::EndIf),
            BREAK => self.emit(Inst::Break),
            TEXKILL => self.texkill(inst)?,
            _ => return Err(self.err("not a flow instruction")),
        }
        Ok(())
    }

    fn texkill(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let d = inst
            .dst
            .as_ref()
            .ok_or_else(|| self.err("texkill without operand"))?;
        let value =
            if self.ps1() && !self.version.at_least(1, 4) && d.reg.ty == RegType::AddrOrTexture {
                self.input(RegType::AddrOrTexture, d.reg.num)?
            } else {
                self.base(d.reg, &d.rel)?
            };
        let mask = if self.ps1() { 7 } else { d.mask };
        let t = self.tmp();
        self.alu(AluOp::Lt, Dst::temp(t, 0xF), vec![value, Src::splat(0)]);
        if let Some(p) = &inst.predicate {
            // `(p0) texkill`: a component counts only where the predicate
            // (swizzled, `!` applied) is true.
            let pred = self.src(p)?;
            self.alu(AluOp::And, Dst::temp(t, 0xF), vec![Src::temp(t), pred]);
        }
        let any = self.tmp();
        self.alu(AluOp::Mov, Dst::temp(any, 1), vec![Src::splat(0)]);
        for c in (0..4u8).filter(|c| mask & (1 << c) != 0) {
            self.alu(
                AluOp::Or,
                Dst::temp(any, 1),
                vec![Src::temp(any), Src::temp(t).scalar(c)],
            );
        }
        self.emit(Inst::Discard {
            cond: Src::reg(File::Temp, any).scalar(0),
            nz: true,
        });
        Ok(())
    }
}
