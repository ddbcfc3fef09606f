//! Decoded operands to IR sources, destinations and resources, with the
//! declaration checks every register reference goes through.

use super::Lowerer;
use crate::ir::{Dst, File, Index, Resource, ResourceKind, Src, SysVal, XYZW};
use crate::sm4::decode::{Instruction, OpIndex, Operand, Sel};
use crate::sm4::Sm4Error;

pub(super) fn modifiers(mut s: Src, op: &Operand) -> Src {
    match op.modifier() {
        1 => s.neg = true,
        2 => s.abs = true,
        3 => {
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

    pub(super) fn temp_index(&self, op: &Operand) -> Result<Index, Sm4Error> {
        let ix = self.index(op.indices.first())?;
        if ix.base >= self.declared_temps.unwrap_or(0) {
            return Err(self.err(format!(
                "r{} past dcl_temps {}",
                ix.base,
                self.declared_temps.unwrap_or(0)
            )));
        }
        Ok(ix)
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
        let swizzle = swizzle_of(op.sel);
        let reg = |file: File, index: Index| Src {
            file,
            index,
            swizzle,
            neg: false,
            abs: false,
            imm: [0; 4],
        };
        let s = match op.ty {
            0 => reg(File::Temp, self.temp_index(op)?),
            1 => {
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
            2 => reg(File::Output, self.index(op.indices.first())?),
            3 => {
                let (file, index) = self.indexable(op)?;
                reg(file, index)
            }
            4 => match op.imm.as_slice() {
                [w] => Src::splat(*w),
                [a, b, c, d] => Src::imm([*a, *b, *c, *d]).swizzled(swizzle),
                _ => return Err(self.err("malformed immediate")),
            },
            5 => match op.imm.as_slice() {
                [lo, hi] => Src::imm([*lo, *hi, *lo, *hi]),
                [a, b, c, d, ..] => Src::imm([*a, *b, *c, *d]).swizzled(swizzle),
                _ => return Err(self.err("malformed 64-bit immediate")),
            },
            8 => {
                let slot = self.index(op.indices.first())?.base;
                if !self.prog.cbs.iter().any(|c| c.slot == slot) {
                    return Err(self.err(format!("cb{slot} is not declared")));
                }
                reg(File::Const(slot), self.index(op.indices.get(1))?)
            }
            9 => reg(File::ImmConst, self.index(op.indices.first())?),
            11 => reg(File::SysVal(SysVal::PrimitiveId), Index::fixed(0)),
            13 => reg(File::Null, Index::fixed(0)),
            32 => reg(File::SysVal(SysVal::DispatchThreadId), Index::fixed(0)),
            33 => reg(File::SysVal(SysVal::GroupId), Index::fixed(0)),
            34 => reg(File::SysVal(SysVal::GroupThreadId), Index::fixed(0)),
            36 => reg(File::SysVal(SysVal::GroupIndex), Index::fixed(0)),
            t => return Err(self.err(format!("operand type {t} is not supported as a source"))),
        };
        Ok(modifiers(s, op))
    }

    pub(super) fn dst(&self, op: &Operand, saturate: bool) -> Result<Dst, Sm4Error> {
        let mask = match op.sel {
            Sel::Mask(m) => m,
            Sel::One => 1,
            _ => 0xf,
        };
        let (file, index) = match op.ty {
            0 => (File::Temp, self.temp_index(op)?),
            2 => {
                let ix = self.index(op.indices.first())?;
                if !self.outputs.contains_key(&ix.base) && ix.rel.is_none() {
                    return Err(self.err(format!("o{} is not declared", ix.base)));
                }
                (File::Output, ix)
            }
            3 => self.indexable(op)?,
            12 | 38 | 39 if self.depth => (File::Output, Index::fixed(self.depth_reg())),
            12 | 38 | 39 => return Err(self.err("oDepth is not declared")),
            13 => return Ok(Dst::null()),
            t => {
                return Err(self.err(format!(
                    "operand type {t} is not supported as a destination"
                )))
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
        let (res, known) = match op.ty {
            7 => (
                Resource::Srv(slot),
                self.prog.srvs.iter().any(|r| r.slot == slot),
            ),
            30 => (
                Resource::Uav(slot),
                self.prog.uavs.iter().any(|r| r.slot == slot),
            ),
            31 => (
                Resource::Tgsm(slot),
                self.prog.tgsm.iter().any(|r| r.id == slot),
            ),
            t => return Err(self.err(format!("operand type {t} is not a resource"))),
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
        if op.ty != 6 || !self.samplers.contains(&slot) {
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
