//! Texture instructions: `texld*`, `texcoord`/`texcrd`, the ps_1_x texture
//! addressing ops, `bem` and `texdepth`.

use super::*;
use crate::ir::{AluOp, File, Lod};

impl Lowerer<'_> {
    fn stage(&self, inst: &Instruction) -> Result<u32, D3d9Error> {
        inst.dst
            .as_ref()
            .map(|d| d.reg.num)
            .ok_or_else(|| self.err("missing destination"))
    }

    fn operand_src(&mut self, inst: &Instruction, i: usize) -> Result<Src, D3d9Error> {
        let p = inst
            .src
            .get(i)
            .ok_or_else(|| self.err("missing operand"))?
            .clone();
        self.src(&p)
    }

    /// The interpolated texture coordinate of stage `n` (ps_1_x).
    fn texcoord(&mut self, n: u32) -> Result<Src, D3d9Error> {
        self.input(RegType::AddrOrTexture, n)
    }

    fn sample(
        &mut self,
        inst: &Instruction,
        stage: u32,
        coord: Src,
        lod: Lod,
        swizzle: [u8; 4],
    ) -> Result<(), D3d9Error> {
        if !self.prog.srvs.iter().any(|r| r.slot == stage) {
            self.declare_sampler(stage, 2);
        }
        self.write(inst, |l, dst| {
            l.emit(Inst::Sample {
                dst,
                res: stage,
                sampler: stage,
                coord,
                lod,
                offset: [0; 3],
                swizzle,
                compare: None,
                slots: None,
            });
            Ok(())
        })
    }

    fn write_value(&mut self, inst: &Instruction, value: Src) -> Result<(), D3d9Error> {
        self.write(inst, |l, d| {
            l.alu(AluOp::Mov, d, vec![value]);
            Ok(())
        })
    }

    /// Bump-environment transform of `coord.xy` by stage `m`'s matrix and `bump.xy`.
    fn bump(&mut self, m: u32, coord: Src, bump: Src) -> u32 {
        let t = self.tmp();
        let mat = Src::reg(File::Const(bump::BUMP_ENV_SLOT), m);
        self.alu(AluOp::Mov, Dst::temp(t, 0xF), vec![coord]);
        self.alu(
            AluOp::Mad,
            Dst::temp(t, 3),
            vec![mat.clone(), bump.clone().scalar(0), Src::temp(t)],
        );
        self.alu(
            AluOp::Mad,
            Dst::temp(t, 3),
            vec![mat.swizzled([2, 3, 2, 3]), bump.scalar(1), Src::temp(t)],
        );
        t
    }

    /// Dot product of stage `m`'s texture coordinate with `n` into component `c` of the accumulator.
    fn texm_row(&mut self, inst: &Instruction, c: u8) -> Result<(), D3d9Error> {
        let m = self.stage(inst)?;
        let tc = self.texcoord(m)?;
        let n = self.operand_src(inst, 0)?;
        self.use_temp(TEXM.max(TEXM_EYE));
        self.emit(Inst::Dot {
            n: 3,
            legacy: false,
            dst: Dst::temp(TEXM, 1 << c),
            a: tc.clone(),
            b: n,
        });
        self.alu(AluOp::Mov, Dst::temp(TEXM_EYE, 1 << c), vec![tc.scalar(3)]);
        Ok(())
    }

    /// `oDepth = saturate(num / den)`, or 1 where `den` is 0 (texdepth, texm3x2depth).
    fn write_depth(&mut self, num: Src, den: Src) -> Result<(), D3d9Error> {
        let t = self.tmp();
        let out = self.output(
            Register {
                ty: RegType::DepthOut,
                num: 0,
            },
            1,
        )?;
        self.emit(Inst::Alu {
            op: AluOp::Div,
            dst: Dst {
                saturate: true,
                ..Dst::temp(t, 1)
            },
            src: vec![num, den.clone()],
        });
        self.alu(
            AluOp::Eq,
            Dst::temp(t, 2),
            vec![den.scalar(0), Src::splat(0)],
        );
        self.alu(
            AluOp::Movc,
            Dst::reg(File::Output, out, 1),
            vec![Src::temp(t).scalar(1), Src::splat_f32(1.0), Src::temp(t)],
        );
        Ok(())
    }

    /// Lowers texture instructions.
    pub(super) fn texture(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let old_ps = self.ps1() && !self.version.at_least(1, 4);
        match inst.opcode {
            TEXCOORD if old_ps => {
                let tc = self.texcoord(self.stage(inst)?)?;
                let t = self.tmp();
                self.emit(Inst::Alu {
                    op: AluOp::Mov,
                    dst: Dst {
                        saturate: true,
                        ..Dst::temp(t, 7)
                    },
                    src: vec![tc],
                });
                self.alu(AluOp::Mov, Dst::temp(t, 8), vec![Src::splat_f32(1.0)]);
                self.write_value(inst, Src::temp(t))
            }
            TEXCOORD => {
                let v = self.operand_src(inst, 0)?;
                self.write_value(inst, v)
            }
            TEX if old_ps => {
                let m = self.stage(inst)?;
                let tc = self.texcoord(m)?;
                self.sample(inst, m, tc, Lod::Implicit, XYZW)
            }
            TEX if self.ps1() => {
                let m = self.stage(inst)?;
                let tc = self.operand_src(inst, 0)?;
                self.sample(inst, m, tc, Lod::Implicit, XYZW)
            }
            TEX | TEXLDL | TEXLDD => self.texld(inst),
            TEXBEM | TEXBEML => {
                let m = self.stage(inst)?;
                let tc = self.texcoord(m)?;
                let n = self.operand_src(inst, 0)?;
                let coord = self.bump(m, tc, n.clone());
                if inst.opcode == TEXBEM {
                    return self.sample(inst, m, Src::temp(coord), Lod::Implicit, XYZW);
                }
                let r = self.tmp();
                self.emit(Inst::Sample {
                    dst: Dst::temp(r, 0xF),
                    res: m,
                    sampler: m,
                    coord: Src::temp(coord),
                    lod: Lod::Implicit,
                    offset: [0; 3],
                    swizzle: XYZW,
                    compare: None,
                    slots: None,
                });
                if !self.prog.srvs.iter().any(|x| x.slot == m) {
                    self.declare_sampler(m, 2);
                }
                // Luminance: saturate(src.b * scale + offset) scales red, green and blue.
                let lum = Src::reg(File::Const(bump::BUMP_ENV_SLOT), bump::STAGES as u32 + m);
                self.emit(Inst::Alu {
                    op: AluOp::Mad,
                    dst: Dst {
                        saturate: true,
                        ..Dst::temp(coord, 1)
                    },
                    src: vec![n.scalar(2), lum.clone().scalar(0), lum.scalar(1)],
                });
                self.alu(
                    AluOp::Mul,
                    Dst::temp(r, 7),
                    vec![Src::temp(r), Src::temp(coord).scalar(0)],
                );
                self.write_value(inst, Src::temp(r))
            }
            BEM => {
                let m = self.stage(inst)?;
                let a = self.operand_src(inst, 0)?;
                let b = self.operand_src(inst, 1)?;
                let t = self.bump(m, a, b);
                self.write_value(inst, Src::temp(t))
            }
            TEXREG2AR | TEXREG2GB | TEXREG2RGB => {
                let m = self.stage(inst)?;
                let n = self.operand_src(inst, 0)?;
                let sw = match inst.opcode {
                    TEXREG2AR => [3, 0, 0, 0],
                    TEXREG2GB => [1, 2, 2, 2],
                    _ => [0, 1, 2, 2],
                };
                self.sample(inst, m, n.swizzled(sw), Lod::Implicit, XYZW)
            }
            TEXM3X2PAD | TEXM3X3PAD => {
                let c = if inst.opcode == TEXM3X2PAD {
                    0
                } else {
                    (self.pad_count % 2) as u8
                };
                self.pad_count += 1;
                self.texm_row(inst, c)
            }
            TEXM3X2TEX | TEXM3X2DEPTH => {
                self.pad_count = 0;
                self.texm_row(inst, 1)?;
                if inst.opcode == TEXM3X2DEPTH {
                    return self.write_depth(Src::temp(TEXM).scalar(0), Src::temp(TEXM).scalar(1));
                }
                let m = self.stage(inst)?;
                self.sample(
                    inst,
                    m,
                    Src::temp(TEXM).swizzled([0, 1, 1, 1]),
                    Lod::Implicit,
                    XYZW,
                )
            }
            TEXM3X3TEX | TEXM3X3 | TEXM3X3SPEC | TEXM3X3VSPEC => {
                self.pad_count = 0;
                self.texm_row(inst, 2)?;
                self.texm3x3(inst)
            }
            TEXDP3TEX | TEXDP3 => {
                let m = self.stage(inst)?;
                let tc = self.texcoord(m)?;
                let n = self.operand_src(inst, 0)?;
                let t = self.tmp();
                self.emit(Inst::Dot {
                    n: 3,
                    legacy: false,
                    dst: Dst::temp(t, 0xF),
                    a: tc,
                    b: n,
                });
                if inst.opcode == TEXDP3 {
                    return self.write_value(inst, Src::temp(t));
                }
                self.alu(AluOp::Mov, Dst::temp(t, 0xE), vec![Src::splat(0)]);
                self.sample(inst, m, Src::temp(t), Lod::Implicit, XYZW)
            }
            TEXDEPTH => {
                let d = inst
                    .dst
                    .as_ref()
                    .ok_or_else(|| self.err("missing destination"))?;
                let r = self.base(d.reg, &Relative::None)?;
                self.write_depth(r.clone().scalar(0), r.scalar(1))
            }
            _ => Err(self.err("not a texture instruction")),
        }
    }

    fn texm3x3(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let m = self.stage(inst)?;
        let normal = Src::temp(TEXM);
        match inst.opcode {
            TEXM3X3 => {
                let t = self.tmp();
                self.alu(AluOp::Mov, Dst::temp(t, 7), vec![normal]);
                self.alu(AluOp::Mov, Dst::temp(t, 8), vec![Src::splat_f32(1.0)]);
                self.write_value(inst, Src::temp(t))
            }
            TEXM3X3TEX => self.sample(inst, m, normal, Lod::Implicit, XYZW),
            _ => {
                let eye = if inst.opcode == TEXM3X3SPEC {
                    self.operand_src(inst, 1)?
                } else {
                    Src::temp(TEXM_EYE)
                };
                let (t, r) = (self.tmp(), self.tmp());
                self.emit(Inst::Dot {
                    n: 3,
                    legacy: false,
                    dst: Dst::temp(t, 1),
                    a: normal.clone(),
                    b: eye.clone(),
                });
                self.emit(Inst::Dot {
                    n: 3,
                    legacy: false,
                    dst: Dst::temp(t, 2),
                    a: normal.clone(),
                    b: normal.clone(),
                });
                self.alu(
                    AluOp::Div,
                    Dst::temp(t, 1),
                    vec![Src::temp(t).scalar(0), Src::temp(t).scalar(1)],
                );
                self.alu(
                    AluOp::Add,
                    Dst::temp(t, 1),
                    vec![Src::temp(t), Src::temp(t)],
                );
                self.alu(
                    AluOp::Mad,
                    Dst::temp(r, 0xF),
                    vec![normal, Src::temp(t).scalar(0), eye.negated()],
                );
                self.sample(inst, m, Src::temp(r), Lod::Implicit, XYZW)
            }
        }
    }

    fn texld(&mut self, inst: &Instruction) -> Result<(), D3d9Error> {
        let coord = self.operand_src(inst, 0)?;
        let sp = inst
            .src
            .get(1)
            .ok_or_else(|| self.err("missing sampler"))?
            .clone();
        if sp.reg.ty != RegType::Sampler {
            return Err(self.err("texture lookup without a sampler register"));
        }
        let stage = sp.reg.num;
        let (coord, lod) = match inst.opcode {
            TEXLDL => (coord.clone(), Lod::Level(coord.scalar(3))),
            TEXLDD => {
                let dx = self.operand_src(inst, 2)?;
                let dy = self.operand_src(inst, 3)?;
                (coord, Lod::Gradient(dx, dy))
            }
            _ if inst.controls & 1 != 0 => {
                let t = self.tmp();
                self.alu(
                    AluOp::Div,
                    Dst::temp(t, 0xF),
                    vec![coord.clone(), coord.scalar(3)],
                );
                (Src::temp(t), Lod::Implicit)
            }
            _ if inst.controls & 2 != 0 => (coord.clone(), Lod::Bias(coord.scalar(3))),
            _ => (coord, Lod::Implicit),
        };
        self.sample(inst, stage, coord, lod, sp.swizzle)
    }
}
