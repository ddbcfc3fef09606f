//! Memory, texture, control-flow and subroutine instructions.

use super::operands::swizzle_of;
use super::Lowerer;
use crate::ir::{
    AtomicOp, Dim, Inst, Lod, ResInfoReturn, Resource, ResourceKind, SlotOffsets, Src,
};
use crate::sm4::decode::Instruction;
use crate::sm4::encoding::{CustomDataClass, ResInfoReturnType};
use crate::sm4::fields::{
    CUSTOM_DATA_CLASS, RESINFO_RETURN_TYPE, SYNC_GROUP_SHARED_MEMORY, SYNC_THREADS_IN_GROUP,
    SYNC_UAV_MEMORY_GLOBAL, SYNC_UAV_MEMORY_GROUP,
};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::Sm4Error;

/// Whether an atomic instruction returns the memory's original value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Returns {
    /// `atomic_*`: nothing.
    Nothing,
    /// `imm_atomic_*`: the original value, into the first operand.
    Original,
}

/// Whether a lookup compares texels with a reference value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Comparison {
    /// `sample`, `sample_l`, `sample_b`, `sample_d`: no comparison.
    None,
    /// `sample_c`, `sample_c_lz`: operand 4 holds the reference.
    Reference,
}

impl Lowerer {
    pub(super) fn count(mask: u8) -> u8 {
        (8 - mask.leading_zeros()) as u8
    }

    /// An atomic operation on a UAV or group-shared memory; `imm_atomic_*`
    /// forms return the original value in their first operand.
    pub(super) fn atomic(
        &mut self,
        op: AtomicOp,
        ins: &Instruction,
        returns: Returns,
    ) -> Result<(), Sm4Error> {
        let (dst, first) = match returns {
            Returns::Original => (Some(self.dst(self.operand(ins, 0)?, false)?), 1),
            Returns::Nothing => (None, 0),
        };
        let res = self.resource(self.operand(ins, first)?)?;
        let addr = self.src(self.operand(ins, first + 1)?)?;
        let (compare, value) = if op == AtomicOp::CompareExchange {
            (
                Some(self.src(self.operand(ins, first + 2)?)?),
                self.src(self.operand(ins, first + 3)?)?,
            )
        } else {
            (None, self.src(self.operand(ins, first + 2)?)?)
        };
        self.emit(Inst::Atomic {
            op,
            dst,
            res,
            addr,
            value,
            compare,
        });
        Ok(())
    }

    /// A `sample*` lookup: its level of detail (or gradients) starts at
    /// operand `lod` when it has one.
    pub(super) fn sample(
        &mut self,
        ins: &Instruction,
        lod: Option<usize>,
        comparison: Comparison,
    ) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let rop = self.operand(ins, 2)?;
        let (res, texture) = self.lookup_slot(rop)?;
        let (sampler, sampler_offset) = self.lookup_slot(self.operand(ins, 3)?)?;
        let compare = match comparison {
            Comparison::Reference => Some(self.src(self.operand(ins, 4)?)?),
            Comparison::None => None,
        };
        let lod = match (ins.opcode(), lod) {
            (O::SampleCLz, _) => Lod::Level(Src::splat_f32(0.0)),
            (O::SampleD, Some(i)) => Lod::Gradient(
                self.src(self.operand(ins, i)?)?,
                self.src(self.operand(ins, i + 1)?)?,
            ),
            (O::SampleB, Some(i)) => Lod::Bias(self.src(self.operand(ins, i)?)?),
            (_, Some(i)) => Lod::Level(self.src(self.operand(ins, i)?)?),
            _ => Lod::Implicit,
        };
        let offset = ins.offsets().unwrap_or([0; 3]);
        self.emit(Inst::Sample {
            dst,
            res,
            sampler,
            coord,
            lod,
            offset,
            swizzle: swizzle_of(rop.sel),
            compare,
            slots: SlotOffsets::boxed(texture, sampler_offset),
        });
        Ok(())
    }

    pub(super) fn fetch(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let rop = self.operand(ins, 2)?;
        let swizzle = swizzle_of(rop.sel);
        // A slot the lanes choose reads whatever kind is bound there; a
        // fixed one is a typed buffer or a texture as declared.
        let (res, slots) = match self.lookup_slot(rop)? {
            (res, Some(texture)) => (res, SlotOffsets::boxed(Some(texture), None)),
            _ => {
                let (res, kind) = self.srv(rop)?;
                if kind == Some(ResourceKind::Typed(Dim::Buffer)) {
                    self.emit(Inst::LoadTyped {
                        dst,
                        res: Resource::Srv(res),
                        coord,
                        swizzle,
                        with_mip: false,
                    });
                    return Ok(());
                }
                (res, None)
            }
        };
        self.emit(Inst::Fetch {
            dst,
            res,
            coord,
            offset: ins.offsets().unwrap_or([0; 3]),
            swizzle,
            slots,
        });
        Ok(())
    }

    pub(super) fn memory_or_flow(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let o = |i: usize| self.operand(ins, i);
        let inst = match ins.opcode() {
            O::LdRaw => Inst::LoadRaw {
                dst: self.dst(o(0)?, false)?,
                offset: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                swizzle: swizzle_of(o(2)?.sel),
            },
            O::StoreRaw => Inst::StoreRaw {
                res: self.resource(o(0)?)?,
                offset: self.src(o(1)?)?,
                value: self.src(o(2)?)?,
                count: Self::count(self.dst_mask(o(0)?)),
            },
            O::LdStructured => Inst::LoadStructured {
                dst: self.dst(o(0)?, false)?,
                index: self.src(o(1)?)?,
                offset: self.src(o(2)?)?,
                res: self.resource(o(3)?)?,
                swizzle: swizzle_of(o(3)?.sel),
            },
            O::StoreStructured => Inst::StoreStructured {
                res: self.resource(o(0)?)?,
                index: self.src(o(1)?)?,
                offset: self.src(o(2)?)?,
                value: self.src(o(3)?)?,
                count: Self::count(self.dst_mask(o(0)?)),
            },
            O::LdUavTyped => Inst::LoadTyped {
                dst: self.dst(o(0)?, false)?,
                coord: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                swizzle: swizzle_of(o(2)?.sel),
                with_mip: false,
            },
            O::StoreUavTyped => Inst::StoreTyped {
                res: self.resource(o(0)?)?,
                coord: self.src(o(1)?)?,
                value: self.src(o(2)?)?,
            },
            O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicCmpStore
            | O::AtomicIadd
            | O::AtomicImax
            | O::AtomicImin
            | O::AtomicUmax
            | O::AtomicUmin
            | O::ImmAtomicIadd
            | O::ImmAtomicAnd
            | O::ImmAtomicOr
            | O::ImmAtomicXor
            | O::ImmAtomicExch
            | O::ImmAtomicCmpExch
            | O::ImmAtomicImax
            | O::ImmAtomicImin
            | O::ImmAtomicUmax
            | O::ImmAtomicUmin => return self.atomic_arm(ins),
            O::Bufinfo => Inst::BufInfo {
                dst: self.dst(o(0)?, false)?,
                res: self.resource(o(1)?)?,
                swizzle: swizzle_of(o(1)?.sel),
            },
            O::Resinfo => Inst::ResInfo {
                dst: self.dst(o(0)?, ins.saturate())?,
                mip: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                ret: match ResInfoReturnType::from_code(ins.field(RESINFO_RETURN_TYPE)) {
                    Some(ResInfoReturnType::Float) => ResInfoReturn::Float,
                    Some(ResInfoReturnType::RcpFloat) => ResInfoReturn::RcpFloat,
                    _ => ResInfoReturn::Uint,
                },
                swizzle: swizzle_of(o(2)?.sel),
            },
            O::Sync => {
                let t = ins.token;
                Inst::Sync {
                    group: t & SYNC_THREADS_IN_GROUP != 0,
                    tgsm: t & SYNC_GROUP_SHARED_MEMORY != 0,
                    uav: t & (SYNC_UAV_MEMORY_GROUP | SYNC_UAV_MEMORY_GLOBAL) != 0,
                }
            }
            O::Sample => return self.sample(ins, None, Comparison::None),
            O::SampleC => return self.sample(ins, None, Comparison::Reference),
            O::SampleCLz => return self.sample(ins, None, Comparison::Reference),
            O::SampleL | O::SampleB => return self.sample(ins, Some(4), Comparison::None),
            O::SampleD => return self.sample(ins, Some(4), Comparison::None),
            O::Ld => return self.fetch(ins),
            O::Ld2dms | O::SampleInfo | O::SamplePos => return self.msaa(ins),
            O::EvalSnapped | O::EvalSampleIndex | O::EvalCentroid => return self.eval(ins),
            O::Gather4 | O::Gather4C | O::Gather4Po | O::Gather4PoC => return self.gather(ins),
            O::Lod => return self.query_lod(ins),
            O::If => {
                let (cond, nz) = self.cond(ins)?;
                Inst::If { cond, nz }
            }
            O::Else => Inst::Else,
            O::Endif => Inst::EndIf,
            O::Loop => Inst::Loop,
            O::Endloop => Inst::EndLoop,
            O::Break => Inst::Break,
            O::Breakp => {
                let (cond, nz) = self.cond(ins)?;
                Inst::BreakC { cond, nz }
            }
            O::Continue => Inst::Continue,
            O::Continuec => {
                let (cond, nz) = self.cond(ins)?;
                Inst::ContinueC { cond, nz }
            }
            O::Switch => Inst::Switch {
                sel: self.src(o(0)?)?,
            },
            O::Case => Inst::Case(
                o(0)?
                    .imm
                    .first()
                    .copied()
                    .ok_or_else(|| self.err("case needs a literal"))?,
            ),
            O::Default => Inst::Default,
            O::Endswitch => Inst::EndSwitch,
            O::Ret => Inst::Ret,
            O::Retp => {
                let (cond, nz) = self.cond(ins)?;
                Inst::RetC { cond, nz }
            }
            O::Discard => {
                let (cond, nz) = self.cond(ins)?;
                Inst::Discard { cond, nz }
            }
            O::Call => Inst::Call {
                label: self.label_of(o(0)?)?,
            },
            O::Callc => {
                let (cond, nz) = self.cond(ins)?;
                Inst::CallC {
                    cond,
                    nz,
                    label: self.label_of(o(1)?)?,
                }
            }
            O::Label => return self.start_label(self.label_of(o(0)?)?),
            O::DclImmediateConstantBuffer => return self.custom_data(ins),
            O::Nop => return Ok(()),
            _ => return Err(self.err("instruction not supported by the lowering")),
        };
        self.emit(inst);
        Ok(())
    }

    pub(super) fn atomic_arm(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        use AtomicOp as T;
        let (op, returns) = match ins.opcode() {
            O::AtomicAnd => (T::And, Returns::Nothing),
            O::AtomicOr => (T::Or, Returns::Nothing),
            O::AtomicXor => (T::Xor, Returns::Nothing),
            O::AtomicCmpStore => (T::CompareExchange, Returns::Nothing),
            O::AtomicIadd => (T::IAdd, Returns::Nothing),
            O::AtomicImax => (T::IMax, Returns::Nothing),
            O::AtomicImin => (T::IMin, Returns::Nothing),
            O::AtomicUmax => (T::UMax, Returns::Nothing),
            O::AtomicUmin => (T::UMin, Returns::Nothing),
            O::ImmAtomicIadd => (T::IAdd, Returns::Original),
            O::ImmAtomicAnd => (T::And, Returns::Original),
            O::ImmAtomicOr => (T::Or, Returns::Original),
            O::ImmAtomicXor => (T::Xor, Returns::Original),
            O::ImmAtomicExch => (T::Exchange, Returns::Original),
            O::ImmAtomicCmpExch => (T::CompareExchange, Returns::Original),
            O::ImmAtomicImax => (T::IMax, Returns::Original),
            O::ImmAtomicImin => (T::IMin, Returns::Original),
            O::ImmAtomicUmax => (T::UMax, Returns::Original),
            _ => (T::UMin, Returns::Original),
        };
        self.atomic(op, ins, returns)
    }

    pub(super) fn start_label(&mut self, label: u32) -> Result<(), Sm4Error> {
        let body = std::mem::take(&mut self.body);
        match self.label.replace(label) {
            Some(prev) => self.prog.subroutines.push((prev, body)),
            None => self.main = Some(body),
        }
        Ok(())
    }

    pub(super) fn custom_data(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        if ins.field(CUSTOM_DATA_CLASS) == CustomDataClass::ImmediateConstantBuffer.code() {
            if !ins.words.len().is_multiple_of(4) {
                return Err(self.err("immediate constant buffer size is not a multiple of 4 words"));
            }
            self.prog.icb = ins
                .words
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect();
        }
        Ok(())
    }
}
