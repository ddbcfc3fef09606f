//! Operands: register mapping, source modifiers, and writing results
//! (shift scale, saturation, predication, co-issue).

use super::*;
use crate::ir::{AluOp, File, Index};

impl Lowerer<'_> {
    /// The temp holding `aL` of the innermost loop.
    pub(super) fn al_temp(&self) -> u32 {
        LOOP_BASE + 2 * self.loop_depth.saturating_sub(1) + 1
    }

    fn relative(&mut self, rel: &Relative) -> Result<Option<Box<Src>>, D3d9Error> {
        Ok(match rel {
            Relative::None => None,
            Relative::ImplicitA0 => {
                self.use_temp(ADDR);
                Some(Box::new(Src::temp(ADDR).scalar(0)))
            }
            Relative::Token(p) => {
                let t = match (p.reg.ty, self.version.kind) {
                    (RegType::AddrOrTexture, ShaderKind::Vertex) => ADDR,
                    (RegType::Loop, _) => self.al_temp(),
                    _ => {
                        return Err(self.err("relative addressing through an unsupported register"))
                    }
                };
                self.use_temp(t);
                Some(Box::new(Src::temp(t).scalar(p.swizzle[0])))
            }
        })
    }

    /// Constant register `row` of `slot` (0 float, 1 integer, 2 boolean).
    /// A direct read of a register a `def`, `defi` or `defb` gave is that
    /// literal: D3D9 lets no API call change it, so compiled code need not
    /// load it (the bound buffer's copy still carries it for relative reads).
    fn constant(&mut self, slot: u32, row: u32, rel: Option<Box<Src>>) -> Src {
        if rel.is_none() {
            let defined = self.prog.const_overrides.iter().rev();
            if let Some((_, _, words)) = defined
                .into_iter()
                .find(|(s, r, _)| (*s, *r) == (slot, row))
            {
                return Src::imm(*words);
            }
        }
        let s = slot as usize;
        if rel.is_some() {
            if slot == 0 {
                self.relative_consts = true;
            }
            self.rows[s] = self.rows[s]
                .max(row + 1)
                .max(if slot == 0 { 0 } else { 16 });
        } else {
            self.rows[s] = self.rows[s].max(row + 1);
        }
        Src {
            index: Index { base: row, rel },
            ..Src::reg(File::Const(slot), row)
        }
    }

    /// The register a source names, unswizzled and unmodified.
    pub(super) fn base(&mut self, reg: Register, rel: &Relative) -> Result<Src, D3d9Error> {
        let rel = self.relative(rel)?;
        let n = reg.num;
        let src = match reg.ty {
            RegType::Temp if n < 32 => {
                self.use_temp(n);
                Src::temp(n)
            }
            RegType::Input => {
                let mut s = self.input(RegType::Input, n)?;
                s.index.rel = rel;
                // Below ps_3_0, v# are colour registers: clamped to [0, 1].
                if self.version.is_ps() && self.version.major < 3 {
                    let t = self.tmp();
                    self.emit(Inst::Alu {
                        op: AluOp::Mov,
                        dst: Dst {
                            saturate: true,
                            ..Dst::temp(t, 0xF)
                        },
                        src: vec![s],
                    });
                    return Ok(Src::temp(t));
                }
                s
            }
            RegType::AddrOrTexture if self.version.is_vs() => {
                self.use_temp(ADDR);
                let t = self.tmp();
                self.alu(AluOp::IToF, Dst::temp(t, 0xF), vec![Src::temp(ADDR)]);
                Src::temp(t)
            }
            RegType::AddrOrTexture if self.ps1() && !self.version.at_least(1, 4) && n < 8 => {
                self.use_temp(TEX_BASE + n);
                Src::temp(TEX_BASE + n)
            }
            RegType::AddrOrTexture => self.input(RegType::AddrOrTexture, n)?,
            RegType::Const | RegType::Const2 | RegType::Const3 | RegType::Const4 => {
                let row = self.const_row(reg)?;
                let c = self.constant(0, row, rel);
                if self.ps1() {
                    let t = self.tmp();
                    self.alu(AluOp::Max, Dst::temp(t, 0xF), vec![c, Src::splat_f32(-1.0)]);
                    self.alu(
                        AluOp::Min,
                        Dst::temp(t, 0xF),
                        vec![Src::temp(t), Src::splat_f32(1.0)],
                    );
                    return Ok(Src::temp(t));
                }
                c
            }
            RegType::ConstInt => self.constant(1, n, rel),
            RegType::ConstBool => self.constant(2, n, rel),
            RegType::Loop => {
                let t = self.al_temp();
                self.use_temp(t);
                Src::temp(t)
            }
            RegType::Misc => self.misc(n)?,
            RegType::Predicate => {
                self.use_temp(PRED);
                Src::temp(PRED)
            }
            RegType::Output
            | RegType::RastOut
            | RegType::AttrOut
            | RegType::ColorOut
            | RegType::DepthOut => {
                let out = self.output(reg, 0)?;
                Src {
                    index: Index { base: out, rel },
                    ..Src::reg(File::Output, out)
                }
            }
            _ => return Err(self.err(format!("register {reg:?} cannot be read"))),
        };
        Ok(src)
    }

    /// A source operand with its swizzle and modifier applied.
    pub(super) fn src(&mut self, p: &SrcParam) -> Result<Src, D3d9Error> {
        let s = self.base(p.reg, &p.rel)?.swizzled(p.swizzle);
        self.modify(s, p.modifier)
    }

    /// Applies a D3D9 source modifier to a value.
    pub(super) fn modify(&mut self, s: Src, m: SrcMod) -> Result<Src, D3d9Error> {
        let full = |t: u32| Dst::temp(t, 0xF);
        Ok(match m {
            SrcMod::None => s,
            SrcMod::Neg => s.negated(),
            SrcMod::Abs => s.absolute(),
            SrcMod::AbsNeg => s.absolute().negated(),
            SrcMod::Bias | SrcMod::BiasNeg => {
                let t = self.tmp();
                self.alu(AluOp::Add, full(t), vec![s, Src::splat_f32(-0.5)]);
                if m == SrcMod::BiasNeg {
                    Src::temp(t).negated()
                } else {
                    Src::temp(t)
                }
            }
            SrcMod::Sign | SrcMod::SignNeg => {
                let t = self.tmp();
                self.alu(
                    AluOp::Mad,
                    full(t),
                    vec![s, Src::splat_f32(2.0), Src::splat_f32(-1.0)],
                );
                if m == SrcMod::SignNeg {
                    Src::temp(t).negated()
                } else {
                    Src::temp(t)
                }
            }
            SrcMod::Comp => {
                let t = self.tmp();
                self.alu(AluOp::Add, full(t), vec![s.negated(), Src::splat_f32(1.0)]);
                Src::temp(t)
            }
            SrcMod::X2 | SrcMod::X2Neg => {
                let t = self.tmp();
                self.alu(AluOp::Add, full(t), vec![s.clone(), s]);
                if m == SrcMod::X2Neg {
                    Src::temp(t).negated()
                } else {
                    Src::temp(t)
                }
            }
            SrcMod::Dz | SrcMod::Dw => {
                let t = self.tmp();
                let by = if m == SrcMod::Dz { 2 } else { 3 };
                self.alu(AluOp::Div, full(t), vec![s.clone(), s.scalar(by)]);
                Src::temp(t)
            }
            SrcMod::Not => {
                let t = self.tmp();
                self.alu(AluOp::IEq, full(t), vec![s, Src::splat(0)]);
                Src::temp(t)
            }
        })
    }

    /// The IR destination a D3D9 destination names (mask and saturation included).
    pub(super) fn dst(&mut self, d: &DstParam) -> Result<Dst, D3d9Error> {
        let n = d.reg.num;
        let saturate = d.modifiers & MOD_SAT != 0;
        let (file, index) = match d.reg.ty {
            RegType::Temp if n < 32 => (File::Temp, n),
            RegType::AddrOrTexture if self.version.is_vs() => (File::Temp, ADDR),
            RegType::AddrOrTexture if self.ps1() && !self.version.at_least(1, 4) && n < 8 => {
                (File::Temp, TEX_BASE + n)
            }
            RegType::Predicate => (File::Temp, PRED),
            RegType::RastOut
            | RegType::AttrOut
            | RegType::Output
            | RegType::ColorOut
            | RegType::DepthOut => (File::Output, self.output(d.reg, d.mask)?),
            _ => return Err(self.err(format!("register {:?} cannot be written", d.reg))),
        };
        if file == File::Temp {
            self.use_temp(index);
        }
        let rel = self.relative(&d.rel)?;
        Ok(Dst {
            file,
            index: Index { base: index, rel },
            mask: d.mask,
            saturate,
        })
    }

    /// Writes an instruction's result: `f` computes into the destination it is
    /// given; shift scale, saturation, predication and co-issue are handled here.
    pub(super) fn write(
        &mut self,
        inst: &Instruction,
        f: impl FnOnce(&mut Self, Dst) -> Result<(), D3d9Error>,
    ) -> Result<(), D3d9Error> {
        let d = inst
            .dst
            .as_ref()
            .ok_or_else(|| self.err("missing destination"))?;
        let mut target = self.dst(d)?;
        if d.shift == 0 && inst.predicate.is_none() && !self.redirect {
            return f(self, target);
        }
        let s = self.tmp();
        let sd = Dst::temp(s, target.mask);
        f(self, sd.clone())?;
        if d.shift != 0 {
            let scale = 2f32.powi(i32::from(d.shift));
            self.alu(
                AluOp::Mul,
                sd.clone(),
                vec![Src::temp(s), Src::splat_f32(scale)],
            );
        }
        if target.saturate {
            self.emit(Inst::Alu {
                op: AluOp::Mov,
                dst: Dst {
                    saturate: true,
                    ..sd
                },
                src: vec![Src::temp(s)],
            });
            target.saturate = false;
        }
        if self.redirect {
            self.pending.push((target, s));
        } else if let Some(p) = &inst.predicate {
            self.predicated_copy(target, s, p);
        } else {
            self.alu(AluOp::Mov, target, vec![Src::temp(s)]);
        }
        Ok(())
    }

    fn predicated_copy(&mut self, target: Dst, s: u32, p: &SrcParam) {
        self.use_temp(PRED);
        let pred = Src::temp(PRED).swizzled(p.swizzle);
        let nz = p.modifier != SrcMod::Not;
        if target.file == File::Temp {
            let old = Src {
                index: target.index.clone(),
                ..Src::reg(File::Temp, 0)
            };
            let (a, b) = if nz {
                (Src::temp(s), old)
            } else {
                (old, Src::temp(s))
            };
            self.alu(AluOp::Movc, target, vec![pred, a, b]);
            return;
        }
        for c in 0..4u8 {
            if target.mask & (1 << c) == 0 {
                continue;
            }
            self.emit(Inst::If {
                cond: pred.clone().scalar(c),
                nz,
            });
            self.alu(
                AluOp::Mov,
                Dst {
                    mask: 1 << c,
                    ..target.clone()
                },
                vec![Src::temp(s)],
            );
            self.emit(Inst::EndIf);
        }
    }
}
