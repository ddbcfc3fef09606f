//! Decoded operands to IR sources, destinations and resources, with the
//! declaration checks every register reference goes through.

use super::Lowerer;
use crate::ir::{Dst, File, Index, Resource, ResourceKind, Src, SysVal, XYZW};
use crate::sm4::decode::{Instruction, OpIndex, Operand, Sel};
use crate::sm4::encoding::OperandModifier;
use crate::sm4::registers::OperandType as T;
use crate::sm4::Sm4Error;

pub(super) fn modifiers(mut s: Src, op: &Operand) -> Src {
    match OperandModifier::from_code(op.modifier()) {
        Some(OperandModifier::Neg) => s.neg = true,
        Some(OperandModifier::Abs) => s.abs = true,
        Some(OperandModifier::AbsNeg) => {
            s.abs = true;
            s.neg = true;
        }
        _ => {}
    }
    s
}

pub(super) fn swizzle_of(sel: Sel) -> [u8; 4] {
    match sel {
        Sel::Swizzle(s) => s,
        Sel::Select(c) => [c; 4],
        Sel::One => [0; 4],
        Sel::None | Sel::Mask(_) => XYZW,
    }
}

pub(super) fn reads(s: &Src, d: &Dst) -> bool {
    let same = s.file == d.file
        && (s.index.base == d.index.base || s.index.rel.is_some() || d.index.rel.is_some());
    same || s.index.rel.as_deref().is_some_and(|r| reads(r, d))
}

pub(super) fn alias(d: &Dst, srcs: &[&Src]) -> bool {
    d.file != File::Null && srcs.iter().any(|s| reads(s, d))
}

impl Lowerer {
    pub(super) fn index(&self, ix: Option<&OpIndex>) -> Result<Index, Sm4Error> {
        let ix = ix.ok_or_else(|| self.err("operand lacks an index"))?;
        let base = u32::try_from(ix.value).map_err(|_| self.err("64-bit register index"))?;
        let rel = match &ix.rel {
            Some(r) => Some(Box::new(self.src(r)?)),
            None => None,
        };
        Ok(Index { base, rel })
    }

    pub(super) fn indexable(&self, op: &Operand) -> Result<(File, Index), Sm4Error> {
        let id = self.index(op.indices.first())?.base;
        if !self.prog.indexables.iter().any(|d| d.id == id) {
            return Err(self.err(format!("x{id} is not declared")));
        }
        Ok((File::Indexable(id), self.index(op.indices.get(1))?))
    }

    /// A source operand. Scalar system values (vertex, instance and primitive
    /// ids, front face) read component x of their IR register, whatever
    /// component of `v#` they were declared in.
    pub(super) fn src(&self, op: &Operand) -> Result<Src, Sm4Error> {
        if let Some(s) = self.tess_src(op)? {
            return Ok(modifiers(s, op));
        }
        let swizzle = swizzle_of(op.sel);
        let reg = |file: File, index: Index| Src {
            file,
            index,
            swizzle,
            neg: false,
            abs: false,
            imm: [0; 4],
        };
        let s = match op.register() {
            Some(T::Temp) => reg(File::Temp, self.index(op.indices.first())?),
            Some(T::Input) if op.indices.len() == 2 => self.gs_input_src(op, swizzle)?,
            Some(T::Input) => {
                let ix = self.index(op.indices.first())?;
                match self.sysval_inputs.get(&ix.base) {
                    Some(&sv) if sv == SysVal::Position => reg(File::SysVal(sv), Index::fixed(0)),
                    Some(&sv) => Src {
                        swizzle: [0; 4],
                        ..reg(File::SysVal(sv), Index::fixed(0))
                    },
                    None if self.inputs.contains_key(&ix.base) || ix.rel.is_some() => {
                        reg(File::Input, ix)
                    }
                    None => return Err(self.err(format!("v{} is not declared", ix.base))),
                }
            }
            Some(T::Output) => reg(File::Output, self.index(op.indices.first())?),
            Some(T::IndexableTemp) => {
                let (file, index) = self.indexable(op)?;
                reg(file, index)
            }
            Some(T::Immediate32) => match op.imm.as_slice() {
                [w] => Src::splat(*w),
                [a, b, c, d] => Src::imm([*a, *b, *c, *d]).swizzled(swizzle),
                _ => return Err(self.err("malformed immediate")),
            },
            Some(T::Immediate64) => match op.imm.as_slice() {
                [lo, hi] => Src::imm([*lo, *hi, *lo, *hi]),
                [a, b, c, d, ..] => Src::imm([*a, *b, *c, *d]).swizzled(swizzle),
                _ => return Err(self.err("malformed 64-bit immediate")),
            },
            Some(T::ConstantBuffer) => {
                let slot = self.index(op.indices.first())?.base;
                if !self.prog.cbs.iter().any(|c| c.slot == slot) {
                    return Err(self.err(format!("cb{slot} is not declared")));
                }
                reg(File::Const(slot), self.index(op.indices.get(1))?)
            }
            Some(T::ThisPointer) => reg(
                File::Const(crate::ir::class::CLASS_CB_SLOT),
                self.index(op.indices.first())?,
            ),
            Some(T::ImmediateConstantBuffer) => {
                reg(File::ImmConst, self.index(op.indices.first())?)
            }
            Some(T::InputPrimitiveId) => reg(File::SysVal(SysVal::PrimitiveId), Index::fixed(0)),
            Some(T::InputGsInstanceId) => reg(File::SysVal(SysVal::GsInstanceId), Index::fixed(0)),
            Some(T::InputCoverageMask) => Src {
                swizzle: [0; 4],
                ..reg(File::SysVal(SysVal::Coverage), Index::fixed(0))
            },
            Some(T::Null) => reg(File::Null, Index::fixed(0)),
            Some(T::InputThreadId) => reg(File::SysVal(SysVal::DispatchThreadId), Index::fixed(0)),
            Some(T::InputThreadGroupId) => reg(File::SysVal(SysVal::GroupId), Index::fixed(0)),
            Some(T::InputThreadIdInGroup) => {
                reg(File::SysVal(SysVal::GroupThreadId), Index::fixed(0))
            }
            Some(T::InputThreadIdInGroupFlattened) => {
                reg(File::SysVal(SysVal::GroupIndex), Index::fixed(0))
            }
            _ => {
                let t = op.ty;
                return Err(self.err(format!("operand type {t} is not supported as a source")));
            }
        };
        Ok(modifiers(s, op))
    }

    pub(super) fn dst(&self, op: &Operand, saturate: bool) -> Result<Dst, Sm4Error> {
        let mask = match op.sel {
            Sel::Mask(m) => m,
            Sel::One => 1,
            _ => 0xf,
        };
        let (file, index) = match op.register() {
            Some(T::Temp) => (File::Temp, self.index(op.indices.first())?),
            Some(T::Output) => {
                let ix = self.index(op.indices.first())?;
                if !self.outputs.contains_key(&ix.base) && ix.rel.is_none() {
                    return Err(self.err(format!("o{} is not declared", ix.base)));
                }
                (File::Output, ix)
            }
            Some(T::IndexableTemp) => self.indexable(op)?,
            Some(t) if t.is_depth_output() && self.depth => {
                (File::Output, Index::fixed(self.depth_reg()))
            }
            Some(t) if t.is_depth_output() => return Err(self.err("oDepth is not declared")),
            Some(T::OutputStencilRef) if self.stencil_ref => {
                (File::Output, Index::fixed(self.stencil_ref_reg()))
            }
            Some(T::OutputStencilRef) => return Err(self.err("oStencilRef is not declared")),
            Some(T::OutputCoverageMask) if self.mask => {
                (File::Output, Index::fixed(self.mask_reg()))
            }
            Some(T::OutputCoverageMask) => return Err(self.err("oMask is not declared")),
            Some(T::Null) => return Ok(Dst::null()),
            _ => {
                let t = op.ty;
                return Err(self.err(format!(
                    "operand type {t} is not supported as a destination"
                )));
            }
        };
        Ok(Dst {
            file,
            index,
            mask,
            saturate,
        })
    }

    pub(super) fn resource(&self, op: &Operand) -> Result<Resource, Sm4Error> {
        let slot = self.index(op.indices.first())?.base;
        let (res, known) = match op.register() {
            Some(T::Resource) => (
                Resource::Srv(slot),
                self.prog.srvs.iter().any(|r| r.slot == slot),
            ),
            Some(T::UnorderedAccessView) => (
                Resource::Uav(slot),
                self.prog.uavs.iter().any(|r| r.slot == slot),
            ),
            Some(T::ThreadGroupSharedMemory) => (
                Resource::Tgsm(slot),
                self.prog.tgsm.iter().any(|r| r.id == slot),
            ),
            _ => {
                let t = op.ty;
                return Err(self.err(format!("operand type {t} is not a resource")));
            }
        };
        if !known {
            return Err(self.err(format!("resource {res:?} is not declared")));
        }
        Ok(res)
    }

    pub(super) fn srv(&self, op: &Operand) -> Result<(u32, Option<ResourceKind>), Sm4Error> {
        match self.resource(op)? {
            Resource::Srv(slot) => Ok((
                slot,
                self.prog
                    .srvs
                    .iter()
                    .find(|r| r.slot == slot)
                    .map(|r| r.kind),
            )),
            _ => Err(self.err("expected a t# resource")),
        }
    }

    pub(super) fn sampler(&self, op: &Operand) -> Result<u32, Sm4Error> {
        let slot = self.index(op.indices.first())?.base;
        let declared = self.samplers.contains(&slot) || self.class.reaches_undeclared_sampler();
        if !op.is(T::Sampler) || !declared {
            return Err(self.err(format!("s{slot} is not a declared sampler")));
        }
        Ok(slot)
    }

    pub(super) fn operand<'a>(
        &self,
        ins: &'a Instruction,
        i: usize,
    ) -> Result<&'a Operand, Sm4Error> {
        ins.operands
            .get(i)
            .ok_or_else(|| self.err(format!("missing operand {i}")))
    }

    pub(super) fn srcs(&self, ins: &Instruction, from: usize) -> Result<Vec<Src>, Sm4Error> {
        ins.operands
            .iter()
            .skip(from)
            .map(|o| self.src(o))
            .collect()
    }

    pub(super) fn cond(&self, ins: &Instruction) -> Result<(Src, bool), Sm4Error> {
        Ok((self.src(self.operand(ins, 0)?)?, ins.test_nz()))
    }

    pub(super) fn label_of(&self, op: &Operand) -> Result<u32, Sm4Error> {
        Ok(self.index(op.indices.first())?.base)
    }

    pub(super) fn dst_mask(&self, op: &Operand) -> u8 {
        match op.sel {
            Sel::Mask(m) => m,
            _ => 0xf,
        }
    }
}
