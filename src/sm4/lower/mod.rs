//! Lowering decoded SM4/SM5 programs into the IR, one short arm per opcode.

mod alu;
mod decls;
mod memory;
mod operands;

use std::collections::{BTreeMap, HashMap};

use super::decode::{decode, Instruction, ProgramType};
use super::Sm4Error;
use crate::dxbc::Container;
use crate::ir::{AluOp, DoubleOp, Inst, Interpolation, Program, Stage, SysVal};

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
        self.declared_temps.unwrap_or(0).saturating_add(n)
    }

    /// The output register oDepth lands in: the first one past the declared outputs.
    fn depth_reg(&self) -> u32 {
        self.outputs.keys().next_back().map_or(0, |r| r + 1)
    }

    fn emit(&mut self, inst: Inst) {
        self.body.push(inst);
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
}
