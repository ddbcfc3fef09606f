//! Declarations: registers, resources, inputs and outputs, and the final
//! assembly of the program's interface.

use super::{Io, Lowerer, SCRATCH};
use crate::dxbc::{Container, SignatureElement};
use crate::ir::{
    CbDecl, Dim, IndexableDecl, Interpolation, IoReg, Program, ResourceDecl, ResourceKind, Stage,
    SysVal, TgsmDecl,
};
use crate::sm4::decode::{Instruction, Sel};
use crate::sm4::Sm4Error;

impl Lowerer {
    pub(super) fn declaration(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op0 = ins.operands.first();
        let slot = || op0.and_then(|o| o.index(0)).unwrap_or(0) as u32;
        let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
        match ins.info.code {
            88 => {
                let dim = self.dim((ins.token >> 11) & 0x1f)?;
                self.prog.srvs.push(ResourceDecl {
                    slot: slot(),
                    kind: ResourceKind::Typed(dim),
                });
            }
            161 => self.prog.srvs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Raw,
            }),
            162 => self.prog.srvs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Structured(word(0)),
            }),
            156 => {
                let dim = self.dim((ins.token >> 11) & 0x1f)?;
                self.prog.uavs.push(ResourceDecl {
                    slot: slot(),
                    kind: ResourceKind::Typed(dim),
                });
            }
            157 => self.prog.uavs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Raw,
            }),
            158 => self.prog.uavs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Structured(word(0)),
            }),
            159 => self.prog.tgsm.push(TgsmDecl {
                id: slot(),
                size: word(0),
                stride: 0,
            }),
            160 => self.prog.tgsm.push(TgsmDecl {
                id: slot(),
                size: word(0).saturating_mul(word(1)),
                stride: word(0),
            }),
            89 => {
                let rows = op0.and_then(|o| o.index(1)).unwrap_or(0) as u32;
                self.prog.cbs.push(CbDecl { slot: slot(), rows });
            }
            90 => self.samplers.push(slot()),
            104 => self.declared_temps = Some(word(0)),
            105 => self.prog.indexables.push(IndexableDecl {
                id: word(0),
                count: word(1),
            }),
            155 => self.prog.thread_group = [word(0), word(1), word(2)],
            95..=100 => self.input(ins)?,
            101..=103 => self.output(ins)?,
            106 | 91 | 143 => {}
            _ => return Err(self.err("declaration not supported by the lowering")),
        }
        Ok(())
    }

    pub(super) fn dim(&self, code: u32) -> Result<Dim, Sm4Error> {
        Ok(match code {
            1 => Dim::Buffer,
            2 => Dim::Texture1D,
            3 => Dim::Texture2D,
            5 => Dim::Texture3D,
            6 => Dim::TextureCube,
            7 => Dim::Texture1DArray,
            8 => Dim::Texture2DArray,
            10 => Dim::TextureCubeArray,
            d => return Err(self.err(format!("resource dimension {d} is not supported"))),
        })
    }

    pub(super) fn input(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        if op.ty != 1 {
            return Ok(());
        }
        let reg = self.index(op.indices.first())?.base;
        let name = ins.words.first().copied();
        let sysval = match (ins.info.code, name) {
            (96 | 97 | 99 | 100, Some(1)) if self.prog.stage == Stage::Pixel => {
                Some(SysVal::Position)
            }
            (_, Some(6)) => Some(SysVal::VertexId),
            (_, Some(7)) => Some(SysVal::PrimitiveId),
            (_, Some(8)) => Some(SysVal::InstanceId),
            (_, Some(9)) => Some(SysVal::FrontFace),
            _ => None,
        };
        if let Some(sv) = sysval {
            self.sysval_inputs.insert(reg, sv);
            return Ok(());
        }
        let interpolation = match (ins.token >> 11) & 0xf {
            1 => Interpolation::Constant,
            3 | 5 => Interpolation::Centroid,
            4 | 7 => Interpolation::NoPerspective,
            _ => Interpolation::Linear,
        };
        let entry = self.inputs.entry(reg).or_default();
        entry.mask |= if let Sel::Mask(m) = op.sel { m } else { 0xf };
        if ins.info.code >= 98 {
            entry.interpolation = interpolation;
        }
        Ok(())
    }

    pub(super) fn output(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        match op.ty {
            2 => {
                let reg = self.index(op.indices.first())?.base;
                self.outputs.entry(reg).or_default().mask |=
                    if let Sel::Mask(m) = op.sel { m } else { 0xf };
            }
            12 | 38 | 39 => self.depth = true,
            t => return Err(self.err(format!("output operand type {t} is not supported"))),
        }
        Ok(())
    }

    pub(super) fn finish(mut self, container: &Container) -> Result<Program, Sm4Error> {
        let body = std::mem::take(&mut self.body);
        match self.label {
            Some(l) => self.prog.subroutines.push((l, body)),
            None => self.main = Some(body),
        }
        self.prog.main = self.main.take().unwrap_or_default();
        self.prog.temps = self
            .declared_temps
            .unwrap_or(0)
            .saturating_add(self.scratch_used.min(SCRATCH));
        let pixel = self.prog.stage == Stage::Pixel;
        self.prog.inputs = self
            .inputs
            .iter()
            .map(|(&reg, io)| io_reg(reg, io, container.inputs(), false, "v"))
            .collect();
        self.prog.outputs = self
            .outputs
            .iter()
            .map(|(&reg, io)| io_reg(reg, io, container.outputs(), pixel, "o"))
            .collect();
        if self.depth {
            let reg = self.depth_reg();
            self.prog.depth_output = Some(reg);
            self.prog.outputs.push(IoReg {
                reg,
                name: "oDepth".into(),
                mask: 1,
                semantic: "SV_DEPTH".into(),
                semantic_index: 0,
                interpolation: Interpolation::Linear,
            });
        }
        Ok(self.prog)
    }
}

/// The IR description of register `reg`, named from the signature element on it.
fn io_reg(reg: u32, io: &Io, sig: &[SignatureElement], pixel_out: bool, prefix: &str) -> IoReg {
    let elem = sig
        .iter()
        .find(|e| e.register == reg && e.mask & io.mask != 0)
        .or_else(|| sig.iter().find(|e| e.register == reg));
    let (semantic, semantic_index) = match elem {
        Some(e) => (e.semantic.to_uppercase(), e.semantic_index),
        None if pixel_out => ("SV_TARGET".to_string(), reg),
        None => (String::new(), 0),
    };
    IoReg {
        reg,
        name: format!("{prefix}{reg}"),
        mask: io.mask,
        semantic,
        semantic_index,
        interpolation: io.interpolation,
    }
}
