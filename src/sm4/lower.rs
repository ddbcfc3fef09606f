//! Lowering decoded SM4/SM5 programs into the IR, one short arm per opcode.

use std::collections::{BTreeMap, HashMap};

use super::decode::{decode, Instruction, OpIndex, Operand, ProgramType, Sel};
use super::Sm4Error;
use crate::dxbc::{Container, SignatureElement};
use crate::ir::{
    AluOp, AtomicOp, CbDecl, Dim, DoubleOp, Dst, File, Index, IndexableDecl, Inst, Interpolation,
    IoReg, Lod, Program, ResInfoReturn, Resource, ResourceDecl, ResourceKind, Src, Stage, SysVal,
    TgsmDecl, XYZW,
};

/// Scratch temporaries the lowering may use past the declared ones.
const SCRATCH: u32 = 2;

/// Lowers a container's program into the IR.
pub fn lower(container: &Container) -> Result<Program, Sm4Error> {
    let tokens = container.program().ok_or(Sm4Error::NoProgram)?;
    let shader = decode(tokens)?;
    let stage = match shader.program_type {
        ProgramType::Pixel => Stage::Pixel,
        ProgramType::Vertex => Stage::Vertex,
        ProgramType::Compute => Stage::Compute,
        other => {
            return Err(Sm4Error::Lower {
                index: 0,
                offset: 0,
                opcode: String::new(),
                what: format!("{} programs are not supported", other.prefix()),
            })
        }
    };
    let mut l = Lowerer::new(stage);
    for (index, ins) in shader.instructions.iter().enumerate() {
        l.at = (index, ins.offset * 4, ins.info.name);
        l.instruction(ins)?;
    }
    l.finish(container)
}

#[derive(Default)]
struct Io {
    mask: u8,
    interpolation: Interpolation,
}

struct Lowerer {
    prog: Program,
    at: (usize, usize, &'static str),
    declared_temps: Option<u32>,
    scratch_used: u32,
    inputs: BTreeMap<u32, Io>,
    outputs: BTreeMap<u32, Io>,
    sysval_inputs: HashMap<u32, SysVal>,
    depth: bool,
    samplers: Vec<u32>,
    body: Vec<Inst>,
    label: Option<u32>,
    main: Option<Vec<Inst>>,
}

fn modifiers(mut s: Src, op: &Operand) -> Src {
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

fn swizzle_of(sel: Sel) -> [u8; 4] {
    match sel {
        Sel::Swizzle(s) => s,
        Sel::Select(c) => [c; 4],
        Sel::One => [0; 4],
        Sel::None | Sel::Mask(_) => XYZW,
    }
}

fn reads(s: &Src, d: &Dst) -> bool {
    let same = s.file == d.file
        && (s.index.base == d.index.base || s.index.rel.is_some() || d.index.rel.is_some());
    same || s.index.rel.as_deref().is_some_and(|r| reads(r, d))
}

fn alias(d: &Dst, srcs: &[&Src]) -> bool {
    d.file != File::Null && srcs.iter().any(|s| reads(s, d))
}

impl Lowerer {
    fn new(stage: Stage) -> Self {
        Lowerer {
            prog: Program::new(stage),
            at: (0, 0, ""),
            declared_temps: None,
            scratch_used: 0,
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
            sysval_inputs: HashMap::new(),
            depth: false,
            samplers: Vec::new(),
            body: Vec::new(),
            label: None,
            main: None,
        }
    }

    fn err(&self, what: impl Into<String>) -> Sm4Error {
        Sm4Error::Lower {
            index: self.at.0,
            offset: self.at.1,
            opcode: self.at.2.to_string(),
            what: what.into(),
        }
    }

    fn scratch(&mut self, n: u32) -> u32 {
        self.scratch_used = self.scratch_used.max(n + 1);
        self.declared_temps.unwrap_or(0) + n
    }

    /// The output register oDepth lands in: the first one past the declared outputs.
    fn depth_reg(&self) -> u32 {
        self.outputs.keys().next_back().map_or(0, |r| r + 1)
    }

    fn emit(&mut self, inst: Inst) {
        self.body.push(inst);
    }

    fn index(&self, ix: Option<&OpIndex>) -> Result<Index, Sm4Error> {
        let ix = ix.ok_or_else(|| self.err("operand lacks an index"))?;
        let base = u32::try_from(ix.value).map_err(|_| self.err("64-bit register index"))?;
        let rel = match &ix.rel {
            Some(r) => Some(Box::new(self.src(r)?)),
            None => None,
        };
        Ok(Index { base, rel })
    }

    fn temp_index(&self, op: &Operand) -> Result<Index, Sm4Error> {
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

    fn indexable(&self, op: &Operand) -> Result<(File, Index), Sm4Error> {
        let id = self.index(op.indices.first())?.base;
        if !self.prog.indexables.iter().any(|d| d.id == id) {
            return Err(self.err(format!("x{id} is not declared")));
        }
        Ok((File::Indexable(id), self.index(op.indices.get(1))?))
    }

    /// A source operand. Scalar system values (vertex, instance and primitive
    /// ids, front face) read component x of their IR register, whatever
    /// component of `v#` they were declared in.
    fn src(&self, op: &Operand) -> Result<Src, Sm4Error> {
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

    fn dst(&self, op: &Operand, saturate: bool) -> Result<Dst, Sm4Error> {
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

    fn resource(&self, op: &Operand) -> Result<Resource, Sm4Error> {
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

    fn srv(&self, op: &Operand) -> Result<(u32, Option<ResourceKind>), Sm4Error> {
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

    fn sampler(&self, op: &Operand) -> Result<u32, Sm4Error> {
        let slot = self.index(op.indices.first())?.base;
        if op.ty != 6 || !self.samplers.contains(&slot) {
            return Err(self.err(format!("s{slot} is not a declared sampler")));
        }
        Ok(slot)
    }

    fn operand<'a>(&self, ins: &'a Instruction, i: usize) -> Result<&'a Operand, Sm4Error> {
        ins.operands
            .get(i)
            .ok_or_else(|| self.err(format!("missing operand {i}")))
    }

    fn srcs(&self, ins: &Instruction, from: usize) -> Result<Vec<Src>, Sm4Error> {
        ins.operands
            .iter()
            .skip(from)
            .map(|o| self.src(o))
            .collect()
    }

    fn alu(&mut self, op: AluOp, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let src = self.srcs(ins, 1)?;
        self.emit(Inst::Alu { op, dst, src });
        Ok(())
    }

    fn double(&mut self, op: DoubleOp, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let src = self.srcs(ins, 1)?;
        self.emit(Inst::Double { op, dst, src });
        Ok(())
    }

    /// Two results from the same sources: the first goes through a scratch
    /// temporary when its destination is read by the second computation.
    fn pair(&mut self, ops: [(AluOp, Vec<Src>); 2], dsts: [Dst; 2]) {
        let [(op0, src0), (op1, src1)] = ops;
        let [d0, d1] = dsts;
        let refs: Vec<&Src> = src1.iter().collect();
        let staged = alias(&d0, &refs);
        if d0.file != File::Null {
            let target = if staged {
                Dst::temp(self.scratch(0), d0.mask)
            } else {
                d0.clone()
            };
            self.emit(Inst::Alu {
                op: op0,
                dst: Dst {
                    saturate: d0.saturate && !staged,
                    ..target.clone()
                },
                src: src0,
            });
        }
        if d1.file != File::Null {
            self.emit(Inst::Alu {
                op: op1,
                dst: d1,
                src: src1,
            });
        }
        if staged {
            let s = Src::temp(self.scratch(0));
            self.emit(Inst::Alu {
                op: AluOp::Mov,
                dst: d0,
                src: vec![s],
            });
        }
    }

    fn two(
        &mut self,
        ins: &Instruction,
        ops: [AluOp; 2],
        second_neg: bool,
    ) -> Result<(), Sm4Error> {
        let d0 = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let d1 = self.dst(self.operand(ins, 1)?, ins.saturate())?;
        let src = self.srcs(ins, 2)?;
        let mut adjusted = src.clone();
        if second_neg {
            if let Some(b) = adjusted.get_mut(1) {
                *b = b.clone().negated();
            }
        }
        let (first, second) = if second_neg {
            (adjusted, src)
        } else {
            (src.clone(), src)
        };
        self.pair([(ops[0], first), (ops[1], second)], [d0, d1]);
        Ok(())
    }

    fn swapc(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let d0 = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let d1 = self.dst(self.operand(ins, 1)?, ins.saturate())?;
        let s = self.srcs(ins, 2)?;
        let [cond, a, b] =
            <[Src; 3]>::try_from(s).map_err(|_| self.err("swapc needs three sources"))?;
        let refs = [&cond, &a, &b];
        if alias(&d0, &refs) || alias(&d1, &refs) {
            let (t0, t1) = (self.scratch(0), self.scratch(1));
            self.emit(Inst::Swapc {
                dst: [Dst::temp(t0, d0.mask), Dst::temp(t1, d1.mask)],
                cond,
                a,
                b,
            });
            for (d, t) in [(d0, t0), (d1, t1)] {
                if d.file != File::Null {
                    self.emit(Inst::Alu {
                        op: AluOp::Mov,
                        dst: d,
                        src: vec![Src::temp(t)],
                    });
                }
            }
        } else {
            self.emit(Inst::Swapc {
                dst: [d0, d1],
                cond,
                a,
                b,
            });
        }
        Ok(())
    }

    fn dot(&mut self, n: u8, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let a = self.src(self.operand(ins, 1)?)?;
        let b = self.src(self.operand(ins, 2)?)?;
        self.emit(Inst::Dot {
            n,
            legacy: false,
            dst,
            a,
            b,
        });
        Ok(())
    }

    fn cond(&self, ins: &Instruction) -> Result<(Src, bool), Sm4Error> {
        Ok((self.src(self.operand(ins, 0)?)?, ins.test_nz()))
    }

    fn label_of(&self, op: &Operand) -> Result<u32, Sm4Error> {
        Ok(self.index(op.indices.first())?.base)
    }

    fn count(mask: u8) -> u8 {
        (8 - mask.leading_zeros()) as u8
    }

    fn atomic(&mut self, op: AtomicOp, ins: &Instruction, returns: bool) -> Result<(), Sm4Error> {
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

    fn sample(
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

    fn fetch(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn declaration(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn dim(&self, code: u32) -> Result<Dim, Sm4Error> {
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

    fn input(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn output(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn instruction(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        use AluOp as A;
        if ins.info.decl {
            return self.declaration(ins);
        }
        match ins.info.code {
            0 => self.alu(A::Add, ins)?,
            1 => self.alu(A::And, ins)?,
            11 | 122 => self.alu(A::DerivRtxCoarse, ins)?,
            12 | 124 => self.alu(A::DerivRtyCoarse, ins)?,
            123 => self.alu(A::DerivRtxFine, ins)?,
            125 => self.alu(A::DerivRtyFine, ins)?,
            14 => self.alu(A::Div, ins)?,
            24 => self.alu(A::Eq, ins)?,
            25 => self.alu(A::Exp, ins)?,
            26 => self.alu(A::Frc, ins)?,
            27 => self.alu(A::FToI, ins)?,
            28 => self.alu(A::FToU, ins)?,
            29 => self.alu(A::Ge, ins)?,
            30 => self.alu(A::IAdd, ins)?,
            32 => self.alu(A::IEq, ins)?,
            33 => self.alu(A::IGe, ins)?,
            34 => self.alu(A::ILt, ins)?,
            35 | 82 => self.alu(A::IMad, ins)?,
            36 => self.alu(A::IMax, ins)?,
            37 => self.alu(A::IMin, ins)?,
            39 => self.alu(A::INe, ins)?,
            40 => self.alu(A::INeg, ins)?,
            41 => self.alu(A::IShl, ins)?,
            42 => self.alu(A::IShr, ins)?,
            43 => self.alu(A::IToF, ins)?,
            47 => self.alu(A::Log, ins)?,
            49 => self.alu(A::Lt, ins)?,
            50 => self.alu(A::Mad, ins)?,
            51 => self.alu(A::Min, ins)?,
            52 => self.alu(A::Max, ins)?,
            54 => self.alu(A::Mov, ins)?,
            55 => self.alu(A::Movc, ins)?,
            56 => self.alu(A::Mul, ins)?,
            57 => self.alu(A::Ne, ins)?,
            59 => self.alu(A::Not, ins)?,
            60 => self.alu(A::Or, ins)?,
            64 => self.alu(A::RoundNe, ins)?,
            65 => self.alu(A::RoundNi, ins)?,
            66 => self.alu(A::RoundPi, ins)?,
            67 => self.alu(A::RoundZ, ins)?,
            68 => self.alu(A::Rsq, ins)?,
            75 => self.alu(A::Sqrt, ins)?,
            79 => self.alu(A::ULt, ins)?,
            80 => self.alu(A::UGe, ins)?,
            83 => self.alu(A::UMax, ins)?,
            84 => self.alu(A::UMin, ins)?,
            85 => self.alu(A::UShr, ins)?,
            86 => self.alu(A::UToF, ins)?,
            87 => self.alu(A::Xor, ins)?,
            129 => self.alu(A::Rcp, ins)?,
            130 => self.alu(A::F32ToF16, ins)?,
            131 => self.alu(A::F16ToF32, ins)?,
            134 => self.alu(A::CountBits, ins)?,
            135 => self.alu(A::FirstBitHi, ins)?,
            136 => self.alu(A::FirstBitLo, ins)?,
            137 => self.alu(A::FirstBitShi, ins)?,
            138 => self.alu(A::Ubfe, ins)?,
            139 => self.alu(A::Ibfe, ins)?,
            140 => self.alu(A::Bfi, ins)?,
            141 => self.alu(A::Bfrev, ins)?,
            213 => self.alu(A::Msad, ins)?,
            15 => self.dot(2, ins)?,
            16 => self.dot(3, ins)?,
            17 => self.dot(4, ins)?,
            38 => self.two(ins, [A::IMulHi, A::IMul], false)?,
            81 => self.two(ins, [A::UMulHi, A::IMul], false)?,
            78 => self.two(ins, [A::UDiv, A::URem], false)?,
            132 => self.two(ins, [A::IAdd, A::UAddCarry], false)?,
            133 => self.two(ins, [A::IAdd, A::USubBorrow], true)?,
            77 => self.two(ins, [A::Sin, A::Cos], false)?,
            142 => self.swapc(ins)?,
            191 => self.double(DoubleOp::Add, ins)?,
            192 => self.double(DoubleOp::Max, ins)?,
            193 => self.double(DoubleOp::Min, ins)?,
            194 => self.double(DoubleOp::Mul, ins)?,
            195 => self.double(DoubleOp::Eq, ins)?,
            196 => self.double(DoubleOp::Ge, ins)?,
            197 => self.double(DoubleOp::Lt, ins)?,
            198 => self.double(DoubleOp::Ne, ins)?,
            199 => self.double(DoubleOp::Mov, ins)?,
            200 => self.double(DoubleOp::Movc, ins)?,
            201 => self.double(DoubleOp::ToF32, ins)?,
            202 => self.double(DoubleOp::FromF32, ins)?,
            210 => self.double(DoubleOp::Div, ins)?,
            211 => self.double(DoubleOp::Fma, ins)?,
            212 => self.double(DoubleOp::Rcp, ins)?,
            214 => self.double(DoubleOp::ToI32, ins)?,
            215 => self.double(DoubleOp::ToU32, ins)?,
            216 => self.double(DoubleOp::FromI32, ins)?,
            217 => self.double(DoubleOp::FromU32, ins)?,
            _ => self.memory_or_flow(ins)?,
        }
        Ok(())
    }

    fn memory_or_flow(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn dst_mask(&self, op: &Operand) -> u8 {
        match op.sel {
            Sel::Mask(m) => m,
            _ => 0xf,
        }
    }

    fn atomic_arm(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn start_label(&mut self, label: u32) -> Result<(), Sm4Error> {
        let body = std::mem::take(&mut self.body);
        match self.label.replace(label) {
            Some(prev) => self.prog.subroutines.push((prev, body)),
            None => self.main = Some(body),
        }
        Ok(())
    }

    fn custom_data(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
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

    fn finish(mut self, container: &Container) -> Result<Program, Sm4Error> {
        let body = std::mem::take(&mut self.body);
        match self.label {
            Some(l) => self.prog.subroutines.push((l, body)),
            None => self.main = Some(body),
        }
        self.prog.main = self.main.take().unwrap_or_default();
        self.prog.temps = self.declared_temps.unwrap_or(0) + self.scratch_used.min(SCRATCH);
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
