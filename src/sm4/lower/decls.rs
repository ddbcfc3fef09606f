//! Declarations: registers, resources, inputs and outputs, and the final
//! assembly of the program's interface.

use super::{Io, Lowerer, SCRATCH};
use crate::dxbc::{Container, SignatureElement};
use crate::ir::{
    CbDecl, Dim, IndexableDecl, Interpolation, IoReg, Program, ResourceDecl, ResourceKind, Stage,
    SysVal, TgsmDecl,
};
use crate::sm4::decode::{Instruction, Sel};
use crate::sm4::fields::{INTERPOLATION_MODE, RESOURCE_DIMENSION};
use crate::sm4::names::{InterpolationMode, ResourceDimension, SystemValue};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType;
use crate::sm4::Sm4Error;

impl Lowerer {
    pub(super) fn declaration(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        if self.tess_declaration(ins)? || self.class_declaration(ins)? {
            return Ok(());
        }
        let op0 = ins.operands.first();
        let slot = || op0.and_then(|o| o.index(0)).unwrap_or(0) as u32;
        let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
        match ins.opcode() {
            O::DclResource => {
                let dim = self.dim(ins.field(RESOURCE_DIMENSION))?;
                self.prog.srvs.push(ResourceDecl {
                    slot: slot(),
                    kind: ResourceKind::Typed(dim),
                });
            }
            O::DclResourceRaw => self.prog.srvs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Raw,
            }),
            O::DclResourceStructured => self.prog.srvs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Structured(word(0)),
            }),
            O::DclUavTyped => {
                let dim = self.dim(ins.field(RESOURCE_DIMENSION))?;
                self.prog.uavs.push(ResourceDecl {
                    slot: slot(),
                    kind: ResourceKind::Typed(dim),
                });
            }
            O::DclUavRaw => self.prog.uavs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Raw,
            }),
            O::DclUavStructured => self.prog.uavs.push(ResourceDecl {
                slot: slot(),
                kind: ResourceKind::Structured(word(0)),
            }),
            O::DclTgsmRaw => self.prog.tgsm.push(TgsmDecl {
                id: slot(),
                size: word(0),
                stride: 0,
            }),
            O::DclTgsmStructured => self.prog.tgsm.push(TgsmDecl {
                id: slot(),
                size: word(0).saturating_mul(word(1)),
                stride: word(0),
            }),
            O::DclConstantBuffer => {
                let rows = op0.and_then(|o| o.index(1)).unwrap_or(0) as u32;
                self.prog.cbs.push(CbDecl { slot: slot(), rows });
            }
            O::DclSampler => self.samplers.push(slot()),
            O::DclTemps => {
                if self.named_temps > word(0) {
                    log::warn!(
                        "r{} past dcl_temps {}: the program gets {} temps",
                        self.named_temps - 1,
                        word(0),
                        self.named_temps
                    );
                }
                self.declared_temps = Some(word(0));
            }
            O::DclIndexableTemp => self.prog.indexables.push(IndexableDecl {
                id: word(0),
                count: word(1),
            }),
            O::DclThreadGroup => self.prog.thread_group = [word(0), word(1), word(2)],
            O::DclInput
            | O::DclInputSgv
            | O::DclInputSiv
            | O::DclInputPs
            | O::DclInputPsSgv
            | O::DclInputPsSiv => self.input(ins)?,
            O::DclOutput | O::DclOutputSgv | O::DclOutputSiv => self.output(ins)?,
            O::DclInputPrimitive
            | O::DclOutputTopology
            | O::DclVerticesOut
            | O::DclGsInstances
            | O::DclStream => self.gs_declaration(ins)?,
            O::DclGlobalFlags | O::DclIndexRange => {}
            _ => return Err(self.err("declaration not supported by the lowering")),
        }
        Ok(())
    }

    pub(super) fn dim(&self, code: u32) -> Result<Dim, Sm4Error> {
        use ResourceDimension as R;
        Ok(match R::from_code(code) {
            Some(R::Buffer) => Dim::Buffer,
            Some(R::Texture1D) => Dim::Texture1D,
            Some(R::Texture2D) => Dim::Texture2D,
            Some(R::Texture3D) => Dim::Texture3D,
            Some(R::TextureCube) => Dim::TextureCube,
            Some(R::Texture1DArray) => Dim::Texture1DArray,
            Some(R::Texture2DArray) => Dim::Texture2DArray,
            Some(R::TextureCubeArray) => Dim::TextureCubeArray,
            Some(R::Texture2DMs) => Dim::Texture2DMS,
            Some(R::Texture2DMsArray) => Dim::Texture2DMSArray,
            _ => return Err(self.err(format!("resource dimension {code} is not supported"))),
        })
    }

    pub(super) fn input(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        if !op.is(OperandType::Input) {
            return Ok(());
        }
        let geometry = self.prog.stage == Stage::Geometry;
        let reg = self.index(op.indices.get(usize::from(geometry)))?.base;
        let name = ins.words.first().copied().and_then(SystemValue::from_code);
        let sysval = match (ins.opcode(), name) {
            _ if geometry => None,
            (
                O::DclInputSgv | O::DclInputSiv | O::DclInputPsSgv | O::DclInputPsSiv,
                Some(SystemValue::Position),
            ) if self.prog.stage == Stage::Pixel => Some(SysVal::Position),
            (_, Some(SystemValue::VertexId)) => Some(SysVal::VertexId),
            (_, Some(SystemValue::PrimitiveId)) => Some(SysVal::PrimitiveId),
            (_, Some(SystemValue::InstanceId)) => Some(SysVal::InstanceId),
            (_, Some(SystemValue::IsFrontFace)) => Some(SysVal::FrontFace),
            (_, Some(SystemValue::SampleIndex)) if self.prog.stage == Stage::Pixel => {
                Some(SysVal::SampleIndex)
            }
            _ => None,
        };
        use InterpolationMode as M;
        let mode = M::from_code(ins.field(INTERPOLATION_MODE));
        let sampled = matches!(mode, Some(M::LinearSample | M::LinearNoPerspectiveSample));
        let centroid = matches!(
            mode,
            Some(M::LinearCentroid | M::LinearNoPerspectiveCentroid)
        );
        if let Some(sv) = sysval {
            let sample_position = sv == SysVal::Position && sampled;
            self.prog.per_sample |= sv == SysVal::SampleIndex || sample_position;
            self.prog.sample_position |= sample_position;
            self.prog.centroid_position |= sv == SysVal::Position && centroid;
            self.sysval_inputs.insert(reg, sv);
            return Ok(());
        }
        let interpolation = match M::from_code(ins.field(INTERPOLATION_MODE)) {
            Some(M::Constant) => Interpolation::Constant,
            Some(M::LinearCentroid | M::LinearNoPerspectiveCentroid) => Interpolation::Centroid,
            Some(M::LinearNoPerspective) => Interpolation::NoPerspective,
            Some(M::LinearSample | M::LinearNoPerspectiveSample) => Interpolation::Sample,
            _ => Interpolation::Linear,
        };
        let entry = self.inputs.entry(reg).or_default();
        entry.mask |= if let Sel::Mask(m) = op.sel { m } else { 0xf };
        if matches!(
            ins.opcode(),
            O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv
        ) {
            entry.interpolation = interpolation;
            self.prog.per_sample |= interpolation == Interpolation::Sample;
        }
        Ok(())
    }

    pub(super) fn output(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        match op.register() {
            Some(OperandType::Output) => {
                let reg = self.index(op.indices.first())?.base;
                if self.prog.stage == Stage::Geometry {
                    self.gs_output_declared(reg);
                }
                self.outputs.entry(reg).or_default().mask |=
                    if let Sel::Mask(m) = op.sel { m } else { 0xf };
            }
            Some(t) if t.is_depth_output() => self.depth = true,
            Some(OperandType::OutputStencilRef) => self.stencil_ref = true,
            Some(OperandType::OutputCoverageMask) => self.mask = true,
            _ => {
                let t = op.ty;
                return Err(self.err(format!("output operand type {t} is not supported")));
            }
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
        if self.prog.stage == Stage::Geometry {
            self.prog.geometry = Some(self.gs_info(container)?);
        }
        self.prog.temps = self
            .temps()
            .saturating_add(self.scratch_used.min(SCRATCH))
            .max(self.hull_temps);
        merge_indexables(&mut self.prog.indexables);
        self.prog.tess = self.tess.take().map(|t| t.info);
        let unlisted_output = match self.prog.stage {
            Stage::Pixel => Unlisted::Target,
            _ => Unlisted::Unnamed,
        };
        self.prog.inputs = self
            .inputs
            .iter()
            .map(|(&reg, io)| io_reg(reg, io, container.inputs(), Unlisted::Unnamed, "v"))
            .collect();
        self.prog.outputs = self
            .outputs
            .iter()
            .map(|(&reg, io)| io_reg(reg, io, container.outputs(), unlisted_output, "o"))
            .collect();
        let lane_input = match self.prog.stage {
            Stage::Hull => Some(("vOutputControlPointID", "SV_OUTPUTCONTROLPOINTID", 1)),
            Stage::Domain => Some(("vDomain", "SV_DOMAINLOCATION", 7)),
            _ => None,
        };
        if let Some((name, semantic, mask)) = lane_input {
            self.prog.inputs = vec![IoReg {
                reg: 0,
                name: name.into(),
                mask,
                semantic: semantic.into(),
                semantic_index: 0,
                interpolation: Interpolation::Linear,
            }];
        }
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
        if self.stencil_ref {
            self.prog.outputs.push(IoReg {
                reg: self.stencil_ref_reg(),
                name: "oStencilRef".into(),
                mask: 1,
                semantic: "SV_STENCILREF".into(),
                semantic_index: 0,
                interpolation: Interpolation::Linear,
            });
        }
        if self.mask {
            let reg = self.mask_reg();
            self.prog.mask_output = Some(reg);
            self.prog.outputs.push(IoReg {
                reg,
                name: "oMask".into(),
                mask: 1,
                semantic: "SV_COVERAGE".into(),
                semantic_index: 0,
                interpolation: Interpolation::Linear,
            });
        }
        Ok(self.prog)
    }
}

/// Merges declarations of the same `x#` (hull phases each declare their
/// own) into one of the largest size.
fn merge_indexables(decls: &mut Vec<IndexableDecl>) {
    let mut merged: Vec<IndexableDecl> = Vec::with_capacity(decls.len());
    for d in decls.drain(..) {
        match merged.iter_mut().find(|m| m.id == d.id) {
            Some(m) => m.count = m.count.max(d.count),
            None => merged.push(d),
        }
    }
    *decls = merged;
}

/// The semantic of a register the signature does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unlisted {
    /// None (an empty name).
    Unnamed,
    /// `SV_TARGET` with the register's number: pixel-shader outputs.
    Target,
}

/// The IR description of register `reg`, named from the signature element on it.
fn io_reg(reg: u32, io: &Io, sig: &[SignatureElement], unlisted: Unlisted, prefix: &str) -> IoReg {
    let elem = sig
        .iter()
        .find(|e| e.register == reg && e.mask & io.mask != 0)
        .or_else(|| sig.iter().find(|e| e.register == reg));
    let (semantic, semantic_index) = match elem {
        Some(e) => (e.semantic.to_uppercase(), e.semantic_index),
        None => match unlisted {
            Unlisted::Target => ("SV_TARGET".to_string(), reg),
            Unlisted::Unnamed => (String::new(), 0),
        },
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
