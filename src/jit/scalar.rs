//! Uniform integer temps in general-purpose registers, as GPUs keep their
//! uniform values in scalar registers. A temp component that is the same in
//! every lane and only ever written by integer operations on such values
//! (loop counters, their compares, offsets from constants) lives in one
//! `i32` variable instead of `k` vectors: its arithmetic is scalar, and a
//! branch on it is a compare and a jump, with no execution-mask test.
//! A vector read of it broadcasts the scalar where it is read.

use super::operand::Ty;
use super::state::Tr;
use super::uniform::Uniformity;
use super::JitError;
use crate::ir::{AluOp, File, Inst, Program, Src, Stage, SysVal};
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::ValueDef;
use cranelift_codegen::ir::{types, InstBuilder, InstructionData, MemFlagsData, Opcode, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use dxjit_runtime::abi::{Frame, CB_SLOTS};
use std::collections::{BTreeMap, BTreeSet};
use std::mem::offset_of;

/// The temp components kept in scalar registers, and their variables.
/// `resinfo` at a scalar level writes them too: a view's sizes are the
/// same in every lane.
#[derive(Debug, Clone, Default)]
pub struct ScalarTemps {
    vars: BTreeMap<(u32, u8), Variable>,
}

/// Whether `op` has a scalar form here: integer and bitwise operations,
/// whose results are the same bits in a scalar as in every lane.
fn scalar_op(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Mov | Movc
            | IAdd
            | IMul
            | IMad
            | IEq
            | INe
            | IGe
            | ILt
            | UGe
            | ULt
            | And
            | Or
            | Xor
            | Not
            | IShl
            | IShr
            | UShr
            | IMin
            | IMax
            | UMin
            | UMax
            | INeg
    )
}

/// Whether a pixel shader may leave lanes behind (discard, or return from
/// inside flow control): their frozen temps would then differ from the
/// others'. A `ret` outside every `if`, `loop` and `switch` ends all lanes
/// at once and leaves none behind.
fn may_kill(prog: &Program) -> bool {
    prog.bodies().any(|body| {
        let mut depth = 0usize;
        body.iter().any(|i| match i {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => {
                depth += 1;
                false
            }
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                depth = depth.saturating_sub(1);
                false
            }
            Inst::Ret => depth > 0,
            Inst::Discard { .. } | Inst::RetC { .. } => true,
            _ => false,
        })
    })
}

impl ScalarTemps {
    /// Finds the scalar components of `prog` and declares their variables.
    /// A component qualifies when it is uniform and every instruction that
    /// writes it is a scalar operation reading only scalar sources.
    pub fn new(prog: &Program, uniform: &Uniformity, b: &mut FunctionBuilder) -> ScalarTemps {
        let mut set = BTreeSet::new();
        if !(prog.stage == Stage::Pixel && may_kill(prog)) {
            for reg in 0..prog.temps {
                set.extend((0..4u8).filter(|&c| uniform.temp(reg, c)).map(|c| (reg, c)));
            }
        }
        let bodies: Vec<&[Inst]> = prog.bodies().map(|body| body.as_slice()).collect();
        loop {
            let before = set.len();
            for inst in bodies.iter().flat_map(|body| body.iter()) {
                for dst in inst.destinations() {
                    if dst.file != File::Temp {
                        continue;
                    }
                    for c in (0..4u8).filter(|c| dst.mask & (1 << c) != 0) {
                        let key = (dst.index.base, c);
                        if set.contains(&key) && !Self::writes_scalar(&set, inst, c as usize) {
                            set.remove(&key);
                        }
                    }
                }
            }
            if set.len() == before {
                break;
            }
        }
        let vars = set
            .into_iter()
            .map(|key| (key, b.declare_var(types::I32)))
            .collect();
        ScalarTemps { vars }
    }

    /// Whether `inst` computes its component `c` as a scalar from scalar sources.
    fn writes_scalar(set: &BTreeSet<(u32, u8)>, inst: &Inst, c: usize) -> bool {
        if let Inst::ResInfo { dst, mip, .. } = inst {
            return dst.index.rel.is_none() && readable(set, mip, 0);
        }
        let Inst::Alu { op, dst, src } = inst else {
            return false;
        };
        scalar_op(*op)
            && dst.index.rel.is_none()
            && !(dst.saturate && matches!(op, AluOp::Mov | AluOp::Movc))
            && src.iter().all(|s| readable(set, s, c))
    }

    /// The variable of a scalar component.
    pub fn var(&self, reg: u32, comp: u8) -> Option<Variable> {
        self.vars.get(&(reg, comp)).copied()
    }

    /// Every scalar variable (kept whole at a barrier inside a call).
    pub fn all(&self) -> impl Iterator<Item = Variable> + '_ {
        self.vars.values().copied()
    }

    /// Whether component `comp` (through the swizzle) of `src` reads as a scalar.
    pub fn readable(&self, src: &Src, comp: usize) -> bool {
        src.index.rel.is_none()
            && match src.file {
                File::Temp => self
                    .vars
                    .contains_key(&(src.index.base, src.swizzle[comp] & 3)),
                _ => readable(&BTreeSet::new(), src, comp),
            }
    }
}

/// Whether component `comp` of `src` reads as a scalar when the
/// components in `set` are scalar.
fn readable(set: &BTreeSet<(u32, u8)>, src: &Src, comp: usize) -> bool {
    if src.index.rel.is_some() {
        return false;
    }
    match src.file {
        File::Imm | File::ImmConst | File::SysVal(SysVal::GroupId) => true,
        File::Const(slot) => (slot as usize) < CB_SLOTS,
        File::Temp => set.contains(&(src.index.base, src.swizzle[comp] & 3)),
        _ => false,
    }
}

/// `-1` where the `i8` condition `t` holds, else `0`.
fn mask_of(b: &mut FunctionBuilder, t: Value) -> Value {
    b.ins().bmask(types::I32, t)
}

impl Tr<'_, '_> {
    /// Component `comp` of `src` as a scalar, modifiers applied, when it
    /// reads as one.
    pub fn read_scalar(&mut self, src: &Src, comp: usize, ty: Ty) -> Option<Value> {
        if !self.facts.scalars.readable(src, comp) {
            return None;
        }
        let c = src.swizzle[comp] as usize & 3;
        let raw = match src.file {
            File::Imm => self.b.ins().iconst(types::I32, i64::from(src.imm[c])),
            File::ImmConst => {
                let w = self
                    .prog
                    .icb
                    .get(src.index.base as usize)
                    .map_or(0, |r| r[c]);
                self.b.ins().iconst(types::I32, i64::from(w))
            }
            File::SysVal(_) => self.b.ins().load(
                types::I32,
                MemFlagsData::trusted(),
                self.frame,
                (offset_of!(Frame, group_id) + 4 * c.min(2)) as i32,
            ),
            File::Const(slot) => self.cb_word(slot, src.index.base, c),
            _ => {
                let var = self.facts.scalars.var(src.index.base, c as u8)?;
                self.b.use_var(var)
            }
        };
        let b = &mut self.b;
        Some(match ty {
            Ty::F => {
                let v = if src.abs {
                    b.ins().band_imm_u(raw, 0x7fff_ffff)
                } else {
                    raw
                };
                if src.neg {
                    b.ins().bxor_imm_u(v, 0x8000_0000)
                } else {
                    v
                }
            }
            Ty::I => {
                let v = if src.abs { b.ins().iabs(raw) } else { raw };
                if src.neg {
                    b.ins().ineg(v)
                } else {
                    v
                }
            }
        })
    }

    /// One component of a scalar operation (see [`scalar_op`]).
    pub fn scalar_alu(&mut self, op: AluOp, s: &[Value]) -> Result<Value, JitError> {
        use AluOp::*;
        let b = &mut self.b;
        let cmp = |b: &mut FunctionBuilder, cc: IntCC| {
            let t = b.ins().icmp(cc, s[0], s[1]);
            mask_of(b, t)
        };
        Ok(match op {
            Mov => s[0],
            Movc => {
                let t = b.ins().icmp_imm_u(IntCC::NotEqual, s[0], 0);
                b.ins().select(t, s[1], s[2])
            }
            IAdd => b.ins().iadd(s[0], s[1]),
            IMul => b.ins().imul(s[0], s[1]),
            IMad => {
                let p = b.ins().imul(s[0], s[1]);
                b.ins().iadd(p, s[2])
            }
            IEq => cmp(b, IntCC::Equal),
            INe => cmp(b, IntCC::NotEqual),
            IGe => cmp(b, IntCC::SignedGreaterThanOrEqual),
            ILt => cmp(b, IntCC::SignedLessThan),
            UGe => cmp(b, IntCC::UnsignedGreaterThanOrEqual),
            ULt => cmp(b, IntCC::UnsignedLessThan),
            And => b.ins().band(s[0], s[1]),
            Or => b.ins().bor(s[0], s[1]),
            Xor => b.ins().bxor(s[0], s[1]),
            Not => b.ins().bnot(s[0]),
            // Scalar shifts take the count modulo 32, as D3D's low 5 bits.
            IShl => b.ins().ishl(s[0], s[1]),
            IShr => b.ins().sshr(s[0], s[1]),
            UShr => b.ins().ushr(s[0], s[1]),
            IMin => b.ins().smin(s[0], s[1]),
            IMax => b.ins().smax(s[0], s[1]),
            UMin => b.ins().umin(s[0], s[1]),
            UMax => b.ins().umax(s[0], s[1]),
            INeg => b.ins().ineg(s[0]),
            other => return Err(JitError::Invalid(format!("{other:?} has no scalar form"))),
        })
    }

    /// The scalar condition "`cond.x` is nonzero (`nz`) or zero", when
    /// `cond.x` reads as a scalar. A compare's mask (or its negation) is
    /// tested directly, so the branch is the compare and a jump.
    pub fn scalar_test(&mut self, cond: &Src, nz: bool) -> Option<Value> {
        let mut v = self.read_scalar(cond, 0, Ty::I)?;
        let mut nz = nz;
        while let ValueDef::Result(inst, _) = self.b.func.dfg.value_def(v) {
            match self.b.func.dfg.insts[inst] {
                InstructionData::Unary {
                    opcode: Opcode::Bnot,
                    arg,
                } => {
                    v = arg;
                    nz = !nz;
                }
                InstructionData::Unary {
                    opcode: Opcode::Bmask,
                    arg,
                } => {
                    let ValueDef::Result(cmp, _) = self.b.func.dfg.value_def(arg) else {
                        break;
                    };
                    let InstructionData::IntCompare { cond: cc, args, .. } =
                        self.b.func.dfg.insts[cmp]
                    else {
                        break;
                    };
                    let cc = if nz { cc } else { cc.complement() };
                    return Some(self.b.ins().icmp(cc, args[0], args[1]));
                }
                _ => break,
            }
        }
        let cc = if nz { IntCC::NotEqual } else { IntCC::Equal };
        Some(self.b.ins().icmp_imm_u(cc, v, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::may_kill;
    use crate::ir::{Inst, Program, Src, Stage};

    fn pixel(main: Vec<Inst>) -> Program {
        let mut p = Program::new(Stage::Pixel);
        p.temps = 1;
        p.main = main.into();
        p
    }

    #[test]
    fn only_a_ret_inside_flow_control_or_a_discard_leaves_lanes_behind() {
        let cond = || Src::temp(0).scalar(0);
        assert!(!may_kill(&pixel(vec![
            Inst::Loop,
            Inst::Break,
            Inst::EndLoop,
            Inst::Ret
        ])));
        assert!(may_kill(&pixel(vec![
            Inst::If {
                cond: cond(),
                nz: true
            },
            Inst::Ret,
            Inst::EndIf,
            Inst::Ret,
        ])));
        assert!(may_kill(&pixel(vec![Inst::Discard {
            cond: cond(),
            nz: true
        }])));
        assert!(may_kill(&pixel(vec![Inst::RetC {
            cond: cond(),
            nz: true
        }])));
    }
}
