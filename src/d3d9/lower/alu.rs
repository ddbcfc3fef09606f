//! Arithmetic instructions.

use super::*;
use crate::ir::AluOp;

/// 1.0 as bits, for turning comparison masks into 1.0 / 0.0.
const ONE: u32 = 0x3F80_0000;

/// `lit`'s largest power (D3D9 asm reference: MAXPOWER = 127.9961).
const MAX_POWER: f32 = 127.9961;

impl Lowerer<'_> {
    fn srcs(&mut self, inst: &Instruction) -> Result<Vec<Src>, D3d9Error> {
        inst.src.iter().map(|p| self.src(p)).collect()
    }

    fn mul_op(&self) -> AluOp {
        if self.options.legacy_mul {
            AluOp::MulLegacy
        } else {
            AluOp::Mul
        }
    }

    fn mad_op(&self) -> AluOp {
        if self.options.legacy_mul {
            AluOp::MadLegacy
        } else {
            AluOp::Mad
        }
    }

    /// The scalar a D3D9 scalar operation reads: the replicated component
    /// (the w position when the swizzle is not a replicate).
    fn scalar_of(s: Src) -> Src {
        let c = s.swizzle[3];
        Src {
            swizzle: [c; 4],
            ..s
        }
    }

    /// Writes `value` (a full temp) through the instruction's destination.
    fn write_temp(&mut self, inst: &Instruction, value: u32) -> Result<(), D3d9Error> {
        self.write(inst, |l, d| {
            l.alu(AluOp::Mov, d, vec![Src::temp(value)]);
            Ok(())
        })
    }

    /// Lowers an arithmetic instruction.
    pub(super) fn arith(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let need = opcodes::info(inst.opcode).map_or(0, |i| opcodes::source_count(i, self.version));
        if inst.src.len() < usize::from(need) || inst.dst.is_none() {
            return Err(self.err("missing operands"));
        }
        let s = self.srcs(inst)?;
        let simple = |op: AluOp| -> Option<(AluOp, Vec<Src>)> { Some((op, s.clone())) };
        let direct = match inst.opcode {
            MOV | MOVA if self.writes_a0(inst) => return self.address_move(inst, s[0].clone()),
            MOV => simple(AluOp::Mov),
            ABS => Some((AluOp::Mov, vec![s[0].clone().absolute()])),
            ADD => simple(AluOp::Add),
            SUB => Some((AluOp::Add, vec![s[0].clone(), s[1].clone().negated()])),
            MUL => simple(self.mul_op()),
            MAD => simple(self.mad_op()),
            MIN => simple(AluOp::Min),
            MAX => simple(AluOp::Max),
            FRC => simple(AluOp::Frc),
            RCP => Some((AluOp::Rcp, vec![Self::scalar_of(s[0].clone())])),
            RSQ => Some((AluOp::Rsq, vec![Self::scalar_of(s[0].clone()).absolute()])),
            LOG | LOGP
                if !(inst.opcode == LOGP && self.version.is_vs() && self.version.major < 2) =>
            {
                Some((AluOp::Log, vec![Self::scalar_of(s[0].clone()).absolute()]))
            }
            EXP | EXPP
                if !(inst.opcode == EXPP && self.version.is_vs() && self.version.major < 2) =>
            {
                Some((AluOp::Exp, vec![Self::scalar_of(s[0].clone())]))
            }
            DSX => simple(AluOp::DerivRtxFine),
            DSY => simple(AluOp::DerivRtyFine),
            _ => None,
        };
        if let Some((op, src)) = direct {
            return self.write(inst, |l, d| {
                l.alu(op, d, src);
                Ok(())
            });
        }
        match inst.opcode {
            DP3 | DP4 => {
                let n = if inst.opcode == DP3 { 3 } else { 4 };
                let legacy = self.options.legacy_mul;
                let (a, b) = (s[0].clone(), s[1].clone());
                self.write(inst, |l, dst| {
                    l.emit(Inst::Dot {
                        n,
                        legacy,
                        dst,
                        a,
                        b,
                    });
                    Ok(())
                })
            }
            SLT | SGE | CMP | CND | SETP => self.compare(inst, &s),
            LRP => {
                let t = self.tmp();
                self.alu(
                    AluOp::Add,
                    Dst::temp(t, 0xF),
                    vec![s[1].clone(), s[2].clone().negated()],
                );
                let op = self.mad_op();
                self.alu(
                    op,
                    Dst::temp(t, 0xF),
                    vec![s[0].clone(), Src::temp(t), s[2].clone()],
                );
                self.write_temp(inst, t)
            }
            M4X4 | M4X3 | M3X4 | M3X3 | M3X2 => self.matrix(inst, &s),
            DP2ADD => {
                let t = self.tmp();
                let legacy = self.options.legacy_mul;
                self.emit(Inst::Dot {
                    n: 2,
                    legacy,
                    dst: Dst::temp(t, 0xF),
                    a: s[0].clone(),
                    b: s[1].clone(),
                });
                let c = s[2].clone();
                let c = Src {
                    swizzle: [c.swizzle[0]; 4],
                    ..c
                };
                self.alu(AluOp::Add, Dst::temp(t, 0xF), vec![Src::temp(t), c]);
                self.write_temp(inst, t)
            }
            POW => {
                let t = self.tmp();
                let a = Self::scalar_of(s[0].clone()).absolute();
                self.alu(AluOp::Log, Dst::temp(t, 0xF), vec![a]);
                self.alu(
                    AluOp::Mul,
                    Dst::temp(t, 0xF),
                    vec![Src::temp(t), Self::scalar_of(s[1].clone())],
                );
                self.alu(AluOp::Exp, Dst::temp(t, 0xF), vec![Src::temp(t)]);
                self.write_temp(inst, t)
            }
            CRS => {
                let t = self.tmp();
                let (a, b) = (s[0].clone(), s[1].clone());
                let mul = self.mul_op();
                let mad = self.mad_op();
                self.alu(
                    mul,
                    Dst::temp(t, 0xF),
                    vec![
                        a.clone().swizzled([2, 0, 1, 3]),
                        b.clone().swizzled([1, 2, 0, 3]),
                    ],
                );
                let prod = Src::temp(t).negated();
                self.alu(
                    mad,
                    Dst::temp(t, 0xF),
                    vec![a.swizzled([1, 2, 0, 3]), b.swizzled([2, 0, 1, 3]), prod],
                );
                self.write_temp(inst, t)
            }
            NRM => {
                let t = self.tmp();
                self.emit(Inst::Dot {
                    n: 3,
                    legacy: false,
                    dst: Dst::temp(t, 0xF),
                    a: s[0].clone(),
                    b: s[0].clone(),
                });
                self.alu(AluOp::Rsq, Dst::temp(t, 0xF), vec![Src::temp(t)]);
                self.alu(
                    AluOp::Mul,
                    Dst::temp(t, 0xF),
                    vec![s[0].clone(), Src::temp(t)],
                );
                self.write_temp(inst, t)
            }
            SINCOS => {
                let t = self.tmp();
                let a = Self::scalar_of(s[0].clone());
                self.alu(AluOp::Cos, Dst::temp(t, 1), vec![a.clone()]);
                self.alu(AluOp::Sin, Dst::temp(t, 2), vec![a]);
                self.write_temp(inst, t)
            }
            SGN => {
                let (pos, neg) = (self.tmp(), self.tmp());
                self.alu(
                    AluOp::Lt,
                    Dst::temp(pos, 0xF),
                    vec![Src::splat(0), s[0].clone()],
                );
                self.alu(
                    AluOp::Lt,
                    Dst::temp(neg, 0xF),
                    vec![s[0].clone(), Src::splat(0)],
                );
                self.alu(
                    AluOp::IAdd,
                    Dst::temp(neg, 0xF),
                    vec![Src::temp(neg), Src::temp(pos).negated()],
                );
                self.alu(AluOp::IToF, Dst::temp(neg, 0xF), vec![Src::temp(neg)]);
                self.write_temp(inst, neg)
            }
            LIT => self.lit(inst, s[0].clone()),
            DST => {
                let t = self.tmp();
                self.alu(AluOp::Mov, Dst::temp(t, 0xF), vec![Src::splat_f32(1.0)]);
                let mul = self.mul_op();
                self.alu(mul, Dst::temp(t, 2), vec![s[0].clone(), s[1].clone()]);
                self.alu(AluOp::Mov, Dst::temp(t, 4), vec![s[0].clone()]);
                self.alu(AluOp::Mov, Dst::temp(t, 8), vec![s[1].clone()]);
                self.write_temp(inst, t)
            }
            EXPP => self.expp_vs1(inst, Self::scalar_of(s[0].clone())),
            LOGP => self.logp_vs1(inst, Self::scalar_of(s[0].clone()).absolute()),
            _ => Err(self.err(format!("unsupported opcode {:#x}", inst.opcode))),
        }
    }

    fn writes_a0(&self, inst: &Instruction) -> bool {
        self.version.is_vs()
            && inst
                .dst
                .as_ref()
                .is_some_and(|d| d.reg.ty == RegType::AddrOrTexture)
    }

    /// `mova` rounds to nearest; vs_1_1 `mov a0` rounds down.
    fn address_move(&mut self, inst: &Instruction, value: Src) -> Result<(), D3d9Error> {
        let t = self.tmp();
        if inst.opcode == MOVA {
            self.alu(
                AluOp::Add,
                Dst::temp(t, 0xF),
                vec![value, Src::splat_f32(0.5)],
            );
            self.alu(AluOp::RoundNi, Dst::temp(t, 0xF), vec![Src::temp(t)]);
        } else {
            self.alu(AluOp::RoundNi, Dst::temp(t, 0xF), vec![value]);
        }
        self.alu(AluOp::FToI, Dst::temp(t, 0xF), vec![Src::temp(t)]);
        self.write_temp(inst, t)
    }

    fn compare(&mut self, inst: &Instruction, s: &[Src]) -> Result<(), D3d9Error> {
        let t = self.tmp();
        let full = Dst::temp(t, 0xF);
        match inst.opcode {
            SLT | SGE => {
                let op = if inst.opcode == SLT {
                    AluOp::Lt
                } else {
                    AluOp::Ge
                };
                self.alu(op, full.clone(), vec![s[0].clone(), s[1].clone()]);
                self.alu(AluOp::And, full, vec![Src::temp(t), Src::splat(ONE)]);
            }
            CMP => {
                self.alu(AluOp::Ge, full.clone(), vec![s[0].clone(), Src::splat(0)]);
                self.alu(
                    AluOp::Movc,
                    full,
                    vec![Src::temp(t), s[1].clone(), s[2].clone()],
                );
            }
            CND => {
                self.alu(
                    AluOp::Lt,
                    full.clone(),
                    vec![Src::splat_f32(0.5), s[0].clone()],
                );
                self.alu(
                    AluOp::Movc,
                    full,
                    vec![Src::temp(t), s[1].clone(), s[2].clone()],
                );
            }
            _ => {
                let cond = self.comparison(inst.controls, s[0].clone(), s[1].clone())?;
                self.alu(AluOp::Mov, full, vec![cond]);
            }
        }
        self.write_temp(inst, t)
    }

    /// Evaluates an `ifc`/`breakc`/`setp` comparison into a scratch mask.
    pub(super) fn comparison(&mut self, controls: u8, a: Src, b: Src) -> Result<Src, D3d9Error> {
        let (op, a, b) = match controls {
            1 => (AluOp::Lt, b, a),
            2 => (AluOp::Eq, a, b),
            3 => (AluOp::Ge, a, b),
            4 => (AluOp::Lt, a, b),
            5 => (AluOp::Ne, a, b),
            6 => (AluOp::Ge, b, a),
            other => return Err(self.err(format!("unknown comparison {other}"))),
        };
        let t = self.tmp();
        self.alu(op, Dst::temp(t, 0xF), vec![a, b]);
        Ok(Src::temp(t))
    }

    fn matrix(&mut self, inst: &Instruction, s: &[Src]) -> Result<(), D3d9Error> {
        let (n, rows) = match inst.opcode {
            M4X4 => (4, 4),
            M4X3 => (4, 3),
            M3X4 => (3, 4),
            M3X3 => (3, 3),
            _ => (3, 2),
        };
        let t = self.tmp();
        let legacy = self.options.legacy_mul;
        let p = &inst.src[1];
        for row in 0..rows {
            let reg = Register {
                num: p.reg.num + row,
                ..p.reg
            };
            let m = self.base(reg, &p.rel)?.swizzled(p.swizzle);
            let m = self.modify(m, p.modifier)?;
            self.emit(Inst::Dot {
                n,
                legacy,
                dst: Dst::temp(t, 1 << row),
                a: s[0].clone(),
                b: m,
            });
        }
        self.write_temp(inst, t)
    }

    /// lit: the power is clamped to ±MAXPOWER (127.9961) before `y^power`.
    fn lit(&mut self, inst: &Instruction, s: Src) -> Result<(), D3d9Error> {
        let (t, m) = (self.tmp(), self.tmp());
        let one = |l: &mut Self, d: Dst| l.alu(AluOp::Mov, d, vec![Src::splat_f32(1.0)]);
        self.alu(
            AluOp::Max,
            Dst::temp(m, 1),
            vec![s.clone().scalar(3), Src::splat_f32(-MAX_POWER)],
        );
        self.alu(
            AluOp::Min,
            Dst::temp(m, 1),
            vec![Src::temp(m).scalar(0), Src::splat_f32(MAX_POWER)],
        );
        self.alu(AluOp::Log, Dst::temp(t, 4), vec![s.clone().scalar(1)]);
        self.alu(
            AluOp::Mul,
            Dst::temp(t, 4),
            vec![Src::temp(t), Src::temp(m).scalar(0)],
        );
        self.alu(AluOp::Exp, Dst::temp(t, 4), vec![Src::temp(t)]);
        self.alu(
            AluOp::Lt,
            Dst::temp(m, 6),
            vec![Src::splat(0), s.clone().swizzled([0, 0, 1, 1])],
        );
        self.alu(
            AluOp::And,
            Dst::temp(m, 4),
            vec![Src::temp(m).scalar(1), Src::temp(m).scalar(2)],
        );
        self.alu(
            AluOp::And,
            Dst::temp(t, 4),
            vec![Src::temp(t), Src::temp(m)],
        );
        self.alu(
            AluOp::Max,
            Dst::temp(t, 2),
            vec![s.scalar(0), Src::splat(0)],
        );
        one(self, Dst::temp(t, 9));
        self.write_temp(inst, t)
    }

    /// vs_1_x `expp`: (2^floor(x), frac(x), 2^x, 1).
    fn expp_vs1(&mut self, inst: &Instruction, s: Src) -> Result<(), D3d9Error> {
        let t = self.tmp();
        self.alu(AluOp::RoundNi, Dst::temp(t, 1), vec![s.clone()]);
        self.alu(AluOp::Exp, Dst::temp(t, 1), vec![Src::temp(t)]);
        self.alu(AluOp::Frc, Dst::temp(t, 2), vec![s.clone()]);
        self.alu(AluOp::Exp, Dst::temp(t, 4), vec![s]);
        self.alu(AluOp::Mov, Dst::temp(t, 8), vec![Src::splat_f32(1.0)]);
        self.write_temp(inst, t)
    }

    /// vs_1_x `logp`: (floor(log2 x), x / 2^floor(log2 x), log2 x, 1).
    fn logp_vs1(&mut self, inst: &Instruction, s: Src) -> Result<(), D3d9Error> {
        let (t, e) = (self.tmp(), self.tmp());
        self.alu(AluOp::Log, Dst::temp(t, 4), vec![s.clone()]);
        self.alu(
            AluOp::RoundNi,
            Dst::temp(t, 1),
            vec![Src::temp(t).scalar(2)],
        );
        self.alu(
            AluOp::Exp,
            Dst::temp(e, 1),
            vec![Src::temp(t).scalar(0).negated()],
        );
        self.alu(AluOp::Mul, Dst::temp(t, 2), vec![s, Src::temp(e).scalar(0)]);
        self.alu(AluOp::Mov, Dst::temp(t, 8), vec![Src::splat_f32(1.0)]);
        self.write_temp(inst, t)
    }
}
