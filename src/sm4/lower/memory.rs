//! Memory, texture, control-flow and subroutine instructions.

use super::operands::swizzle_of;
use super::Lowerer;
use crate::ir::{AtomicOp, Dim, Inst, Lod, ResInfoReturn, Resource, ResourceKind, Src};
use crate::sm4::decode::Instruction;
use crate::sm4::Sm4Error;

impl Lowerer {
    pub(super) fn count(mask: u8) -> u8 {
        (8 - mask.leading_zeros()) as u8
    }

    pub(super) fn atomic(
        &mut self,
        op: AtomicOp,
        ins: &Instruction,
        returns: bool,
    ) -> Result<(), Sm4Error> {
        let (dst, first) = if returns {
            (Some(self.dst(self.operand(ins, 0)?, false)?), 1)
        } else {
            (None, 0)
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

    pub(super) fn sample(
        &mut self,
        ins: &Instruction,
        lod: Option<usize>,
        compare: bool,
    ) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let rop = self.operand(ins, 2)?;
        let (res, _) = self.srv(rop)?;
        let sampler = self.sampler(self.operand(ins, 3)?)?;
        let compare = if compare {
            Some(self.src(self.operand(ins, 4)?)?)
        } else {
            None
        };
        let lod = match (ins.info.code, lod) {
            (71, _) => Lod::Level(Src::splat_f32(0.0)),
            (73, Some(i)) => Lod::Gradient(
                self.src(self.operand(ins, i)?)?,
                self.src(self.operand(ins, i + 1)?)?,
            ),
            (74, Some(i)) => Lod::Bias(self.src(self.operand(ins, i)?)?),
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
        });
        Ok(())
    }

    pub(super) fn fetch(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let coord = self.src(self.operand(ins, 1)?)?;
        let rop = self.operand(ins, 2)?;
        let (res, kind) = self.srv(rop)?;
        let swizzle = swizzle_of(rop.sel);
        if kind == Some(ResourceKind::Typed(Dim::Buffer)) {
            self.emit(Inst::LoadTyped {
                dst,
                res: Resource::Srv(res),
                coord,
                swizzle,
                with_mip: false,
            });
        } else {
            self.emit(Inst::Fetch {
                dst,
                res,
                coord,
                offset: ins.offsets().unwrap_or([0; 3]),
                swizzle,
            });
        }
        Ok(())
    }

    pub(super) fn memory_or_flow(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let o = |i: usize| self.operand(ins, i);
        let inst = match ins.info.code {
            165 => Inst::LoadRaw {
                dst: self.dst(o(0)?, false)?,
                offset: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                swizzle: swizzle_of(o(2)?.sel),
            },
            166 => Inst::StoreRaw {
                res: self.resource(o(0)?)?,
                offset: self.src(o(1)?)?,
                value: self.src(o(2)?)?,
                count: Self::count(self.dst_mask(o(0)?)),
            },
            167 => Inst::LoadStructured {
                dst: self.dst(o(0)?, false)?,
                index: self.src(o(1)?)?,
                offset: self.src(o(2)?)?,
                res: self.resource(o(3)?)?,
                swizzle: swizzle_of(o(3)?.sel),
            },
            168 => Inst::StoreStructured {
                res: self.resource(o(0)?)?,
                index: self.src(o(1)?)?,
                offset: self.src(o(2)?)?,
                value: self.src(o(3)?)?,
                count: Self::count(self.dst_mask(o(0)?)),
            },
            163 => Inst::LoadTyped {
                dst: self.dst(o(0)?, false)?,
                coord: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                swizzle: swizzle_of(o(2)?.sel),
                with_mip: false,
            },
            164 => Inst::StoreTyped {
                res: self.resource(o(0)?)?,
                coord: self.src(o(1)?)?,
                value: self.src(o(2)?)?,
            },
            169..=177 | 180..=189 => return self.atomic_arm(ins),
            121 => Inst::BufInfo {
                dst: self.dst(o(0)?, false)?,
                res: self.resource(o(1)?)?,
                swizzle: swizzle_of(o(1)?.sel),
            },
            61 => Inst::ResInfo {
                dst: self.dst(o(0)?, ins.saturate())?,
                mip: self.src(o(1)?)?,
                res: self.resource(o(2)?)?,
                ret: match ins.controls() & 3 {
                    0 => ResInfoReturn::Float,
                    1 => ResInfoReturn::RcpFloat,
                    _ => ResInfoReturn::Uint,
                },
                swizzle: swizzle_of(o(2)?.sel),
            },
            190 => {
                let c = ins.controls();
                Inst::Sync {
                    group: c & 1 != 0,
                    tgsm: c & 2 != 0,
                    uav: c & 12 != 0,
                }
            }
            69 => return self.sample(ins, None, false),
            70 => return self.sample(ins, None, true),
            71 => return self.sample(ins, None, true),
            72 | 74 => return self.sample(ins, Some(4), false),
            73 => return self.sample(ins, Some(4), false),
            45 | 46 => return self.fetch(ins),
            31 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::If { cond, nz }
            }
            18 => Inst::Else,
            21 => Inst::EndIf,
            48 => Inst::Loop,
            22 => Inst::EndLoop,
            2 => Inst::Break,
            3 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::BreakC { cond, nz }
            }
            7 => Inst::Continue,
            8 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::ContinueC { cond, nz }
            }
            76 => Inst::Switch {
                sel: self.src(o(0)?)?,
            },
            6 => Inst::Case(
                o(0)?
                    .imm
                    .first()
                    .copied()
                    .ok_or_else(|| self.err("case needs a literal"))?,
            ),
            10 => Inst::Default,
            23 => Inst::EndSwitch,
            62 => Inst::Ret,
            63 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::RetC { cond, nz }
            }
            13 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::Discard { cond, nz }
            }
            4 => Inst::Call {
                label: self.label_of(o(0)?)?,
            },
            5 => {
                let (cond, nz) = self.cond(ins)?;
                Inst::CallC {
                    cond,
                    nz,
                    label: self.label_of(o(1)?)?,
                }
            }
            44 => return self.start_label(self.label_of(o(0)?)?),
            53 => return self.custom_data(ins),
            58 => return Ok(()),
            _ => return Err(self.err("instruction not supported by the lowering")),
        };
        self.emit(inst);
        Ok(())
    }

    pub(super) fn atomic_arm(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        use AtomicOp as T;
        let (op, returns) = match ins.info.code {
            169 => (T::And, false),
            170 => (T::Or, false),
            171 => (T::Xor, false),
            172 => (T::CompareExchange, false),
            173 => (T::IAdd, false),
            174 => (T::IMax, false),
            175 => (T::IMin, false),
            176 => (T::UMax, false),
            177 => (T::UMin, false),
            180 => (T::IAdd, true),
            181 => (T::And, true),
            182 => (T::Or, true),
            183 => (T::Xor, true),
            184 => (T::Exchange, true),
            185 => (T::CompareExchange, true),
            186 => (T::IMax, true),
            187 => (T::IMin, true),
            188 => (T::UMax, true),
            _ => (T::UMin, true),
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
        if ins.token >> 11 == 3 {
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
