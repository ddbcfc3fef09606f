//! Inputs, outputs, samplers and the fixed prologue / epilogue.

use super::*;
use crate::ir::{AluOp, Dim, File, Interpolation, IoReg, ResourceDecl, ResourceKind, SysVal};

impl Lowerer<'_> {
    /// Records a sampler `s#` with a `D3DSAMPLER_TEXTURE_TYPE`.
    pub(super) fn declare_sampler(&mut self, slot: u32, ty: u32) {
        let dim = match ty {
            1 => Dim::Texture1D,
            3 => Dim::TextureCube,
            4 => Dim::Texture3D,
            _ => Dim::Texture2D,
        };
        if !self.prog.srvs.iter().any(|r| r.slot == slot) {
            self.prog.srvs.push(ResourceDecl {
                slot,
                kind: ResourceKind::Typed(dim),
            });
        }
    }

    fn usage_name(usage: u32) -> String {
        USAGES
            .get(usage as usize)
            .map_or(String::new(), |u| u.to_uppercase())
    }

    /// The IR input file register of `v#` / `t#` (registering it), as a source.
    pub(super) fn input(&mut self, ty: RegType, num: u32) -> Result<Src, D3d9Error> {
        let ps = self.version.is_ps();
        let (reg, name, semantic, index) = match ty {
            RegType::Input if ps && self.version.major < 3 => {
                (num, format!("v{num}"), "COLOR".to_string(), num)
            }
            RegType::AddrOrTexture if ps => {
                (10 + num, format!("t{num}"), "TEXCOORD".to_string(), num)
            }
            RegType::Input => {
                let d = self.decls.get(&(ty, num)).and_then(|d| d.first()).copied();
                let (sem, idx) = d.map_or((String::new(), 0), |d| {
                    (Self::usage_name(d.usage), d.usage_index)
                });
                (num, format!("v{num}"), sem, idx)
            }
            _ => return Err(self.err("not an input register")),
        };
        if num >= 32 {
            return Err(self.err(format!("input register {name} out of range")));
        }
        let decl = self.decls.get(&(ty, num)).and_then(|d| d.first()).copied();
        let interpolation = if decl.is_some_and(|d| d.centroid) {
            Interpolation::Centroid
        } else {
            Interpolation::Linear
        };
        let mask = decl.map_or(0xF, |d| if d.mask == 0 { 0xF } else { d.mask });
        self.inputs.entry(reg).or_insert(IoReg {
            reg,
            name,
            mask,
            semantic,
            semantic_index: index,
            interpolation,
        });
        Ok(Src::reg(File::Input, reg))
    }

    /// The system value behind `vPos` / `vFace`, as a float source.
    pub(super) fn misc(&mut self, num: u32) -> Result<Src, D3d9Error> {
        match num {
            0 => Ok(Src::reg(File::SysVal(SysVal::Position), 0)),
            1 => {
                let t = self.tmp();
                // vFace is a scalar: every component reads the flag in x.
                let face = Src::reg(File::SysVal(SysVal::FrontFace), 0).scalar(0);
                self.alu(
                    AluOp::Movc,
                    Dst::temp(t, 0xF),
                    vec![face, Src::splat_f32(1.0), Src::splat_f32(-1.0)],
                );
                Ok(Src::temp(t))
            }
            _ => Err(self.err(format!("unknown misc register {num}"))),
        }
    }

    /// The IR output register for a D3D9 output register (registering it).
    pub(super) fn output(&mut self, reg: Register, mask: u8) -> Result<u32, D3d9Error> {
        let n = reg.num;
        let (ir_reg, name, semantic, index) = match reg.ty {
            RegType::RastOut => match n {
                0 => (0, "oPos".to_string(), "POSITION".to_string(), 0),
                1 => (11, "oFog".to_string(), "FOG".to_string(), 0),
                2 => (12, "oPts".to_string(), "PSIZE".to_string(), 0),
                _ => return Err(self.err("unknown rasteriser output")),
            },
            RegType::AttrOut if n < 2 => (1 + n, format!("oD{n}"), "COLOR".to_string(), n),
            RegType::Output if self.version.major < 3 && n < 8 => {
                (3 + n, format!("oT{n}"), "TEXCOORD".to_string(), n)
            }
            RegType::Output if n < 16 => {
                let decls = self
                    .decls
                    .get(&(RegType::Output, n))
                    .cloned()
                    .unwrap_or_default();
                if decls.is_empty() {
                    self.add_output(n, format!("o{n}"), String::new(), 0, mask);
                }
                for d in decls {
                    let mask = if d.mask == 0 { 0xF } else { d.mask };
                    self.add_output(
                        n,
                        format!("o{n}"),
                        Self::usage_name(d.usage),
                        d.usage_index,
                        mask,
                    );
                }
                return Ok(n);
            }
            RegType::ColorOut if n < 8 => (n, format!("oC{n}"), "SV_TARGET".to_string(), n),
            RegType::DepthOut => {
                self.prog.depth_output = Some(DEPTH_OUT);
                (DEPTH_OUT, "oDepth".to_string(), "SV_DEPTH".to_string(), 0)
            }
            _ => return Err(self.err(format!("register {reg:?} is not a writable output"))),
        };
        self.add_output(ir_reg, name, semantic, index, mask);
        Ok(ir_reg)
    }

    fn add_output(
        &mut self,
        reg: u32,
        name: String,
        semantic: String,
        semantic_index: u32,
        mask: u8,
    ) {
        let key = (reg, format!("{semantic}{semantic_index}"));
        let e = self.outputs.entry(key).or_insert(IoReg {
            reg,
            name,
            mask: 0,
            semantic,
            semantic_index,
            interpolation: Interpolation::Linear,
        });
        e.mask |= mask;
    }

    /// Declares every `dcl`'d input and, for ps_1_0..1_3, copies `t#` into temps.
    pub(super) fn prologue(&mut self) -> Result<(), D3d9Error> {
        let declared: Vec<(RegType, u32)> = self.decls.keys().copied().collect();
        for (ty, num) in declared {
            let is_input =
                ty == RegType::Input || (ty == RegType::AddrOrTexture && self.version.is_ps());
            if is_input {
                self.input(ty, num)?;
            }
        }
        if self.ps1() && !self.version.at_least(1, 4) {
            let mut used = [false; 8];
            for inst in self.shader.instructions() {
                let regs = inst
                    .dst
                    .iter()
                    .map(|d| d.reg)
                    .chain(inst.src.iter().map(|s| s.reg));
                for r in regs.filter(|r| r.ty == RegType::AddrOrTexture && r.num < 8) {
                    used[r.num as usize] = true;
                }
            }
            for n in (0..8u32).filter(|n| used[*n as usize]) {
                let src = self.input(RegType::AddrOrTexture, n)?;
                self.use_temp(TEX_BASE + n);
                self.alu(AluOp::Mov, Dst::temp(TEX_BASE + n, 0xF), vec![src]);
            }
        }
        Ok(())
    }

    /// ps_1_x: the colour result is `r0`.
    pub(super) fn epilogue(&mut self) -> Result<(), D3d9Error> {
        if self.ps1() {
            let out = self.output(
                Register {
                    ty: RegType::ColorOut,
                    num: 0,
                },
                0xF,
            )?;
            self.use_temp(0);
            self.alu(
                AluOp::Mov,
                Dst::reg(File::Output, out, 0xF),
                vec![Src::temp(0)],
            );
        }
        Ok(())
    }
}
