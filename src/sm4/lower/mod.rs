//! Lowering decoded SM4/SM5 programs into the IR, one short arm per opcode.

mod alu;
mod class;
mod counter;
mod decls;
mod eval;
mod gather;
mod geometry;
mod hull;
mod memory;
mod msaa;
mod operands;
mod rel_index;
mod tess;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

use super::decode::{decode, Instruction, Operand, ProgramType};
use super::Sm4Error;
use crate::dxbc::Container;
use crate::ir::{AluOp, Body, DoubleOp, Inst, Interpolation, Pos, Program, Stage, SysVal};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType::{self, FunctionBody};

/// Scratch temporaries the lowering may use past the declared ones: two
/// for ALU destinations, then those of relative 2D indices.
const SCRATCH: u32 = rel_index::FIRST_SCRATCH + rel_index::SCRATCH_TEMPS;

/// The temps Direct3D lets a program have
/// (`D3D11_COMMONSHADER_TEMP_REGISTER_COUNT`).
const MAX_TEMPS: u64 = 4096;

/// Lowers a container's program into the IR.
pub fn lower(container: &Container) -> Result<Program, Sm4Error> {
    let tokens = container.program().ok_or(Sm4Error::NoProgram)?;
    let shader = decode(tokens)?;
    let stage = match shader.program_type {
        ProgramType::Pixel => Stage::Pixel,
        ProgramType::Vertex => Stage::Vertex,
        ProgramType::Compute => Stage::Compute,
        ProgramType::Hull => Stage::Hull,
        ProgramType::Domain => Stage::Domain,
        ProgramType::Geometry => Stage::Geometry,
    };
    let mut l = Lowerer::new(stage);
    l.named_temps = temps_named(&shader.instructions)?;
    for (index, ins) in shader.instructions.iter().enumerate() {
        l.at = (index, ins.offset * 4, ins.info.name);
        l.instruction(ins)?;
    }
    if stage == Stage::Hull {
        l.finish_hull()?;
    }
    l.finish_class()?;
    l.finish(container)
}

/// One past the highest `r#` any instruction of `instructions` names, in
/// an operand or a relative index (0 when none does); an error past
/// Direct3D's [`MAX_TEMPS`].
fn temps_named(instructions: &[Instruction]) -> Result<u32, Sm4Error> {
    fn highest(op: &Operand) -> u64 {
        let own = if op.is(OperandType::Temp) {
            op.indices
                .first()
                .map_or(0, |ix| ix.value.saturating_add(1))
        } else {
            0
        };
        op.indices
            .iter()
            .filter_map(|ix| ix.rel.as_deref())
            .map(highest)
            .fold(own, u64::max)
    }
    let mut named = 0;
    for (index, ins) in instructions.iter().enumerate() {
        let here = ins.operands.iter().map(highest).max().unwrap_or(0);
        if here > MAX_TEMPS {
            return Err(Sm4Error::Lower {
                index,
                offset: ins.offset * 4,
                opcode: ins.info.name.to_string(),
                what: format!("r{} past the {MAX_TEMPS} temps Direct3D allows", here - 1),
            });
        }
        named = named.max(here as u32);
    }
    Ok(named)
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
    /// One past the highest `r#` the program names ([`temps_named`]).
    named_temps: u32,
    scratch_used: u32,
    inputs: BTreeMap<u32, Io>,
    outputs: BTreeMap<u32, Io>,
    sysval_inputs: HashMap<u32, SysVal>,
    depth: bool,
    /// Whether `oStencilRef` is declared.
    stencil_ref: bool,
    /// Whether the shader declares `oMask`.
    mask: bool,
    samplers: Vec<u32>,
    body: Body,
    label: Option<u32>,
    main: Option<Body>,
    tess: Option<tess::Tess>,
    hull_temps: u32,
    gs: geometry::GsState,
    /// Instructions the operands of the instruction being lowered need
    /// first (relative 2D indices), moved into the body by `emit`.
    prelude: RefCell<Vec<Inst>>,
    /// Scratch temps that instruction's prelude takes.
    prelude_temps: Cell<u32>,
    class: class::ClassDecls,
}

impl Lowerer {
    fn new(stage: Stage) -> Self {
        Lowerer {
            prog: Program::new(stage),
            at: (0, 0, ""),
            declared_temps: None,
            named_temps: 0,
            scratch_used: 0,
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
            sysval_inputs: HashMap::new(),
            depth: false,
            stencil_ref: false,
            mask: false,
            samplers: Vec::new(),
            body: Body::new(),
            label: None,
            main: None,
            tess: tess::Tess::for_stage(stage),
            hull_temps: 0,
            gs: geometry::GsState::default(),
            prelude: RefCell::default(),
            prelude_temps: Cell::new(0),
            class: class::ClassDecls::default(),
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

    /// The position of the instruction being lowered, which every IR
    /// instruction made for it carries.
    fn pos(&self) -> Pos {
        Pos {
            index: self.at.0 as u32,
            offset: self.at.1 as u32,
            opcode: self.at.2,
        }
    }

    /// The temps of the program (or hull phase) being lowered: those
    /// `dcl_temps` declares, or more when the program names a register
    /// past them. Direct3D calls that invalid, but drivers run such
    /// shaders (3DMigoto fixes ship them), as DXVK's front end does, which
    /// makes each temp it meets.
    fn temps(&self) -> u32 {
        self.declared_temps.unwrap_or(0).max(self.named_temps)
    }

    fn scratch(&mut self, n: u32) -> u32 {
        self.scratch_used = self.scratch_used.max(n + 1);
        self.temps().saturating_add(n)
    }

    /// The output register oDepth lands in: the first one past the declared outputs.
    fn depth_reg(&self) -> u32 {
        self.outputs.keys().next_back().map_or(0, |r| r + 1)
    }

    /// The output register oStencilRef lands in: the one after oDepth's
    /// place, taken only when the shader declares oDepth.
    fn stencil_ref_reg(&self) -> u32 {
        self.depth_reg() + u32::from(self.depth)
    }

    /// The output register oMask lands in: the one after oStencilRef's
    /// place, taken only when the shader declares oStencilRef.
    fn mask_reg(&self) -> u32 {
        self.stencil_ref_reg() + u32::from(self.stencil_ref)
    }

    fn emit(&mut self, inst: Inst) {
        let taken = self.prelude_temps.get();
        if taken > 0 {
            self.scratch(rel_index::FIRST_SCRATCH + taken - 1);
        }
        let pos = Some(self.pos());
        for first in self.prelude.get_mut().drain(..) {
            self.body.push(first, pos);
        }
        self.body.push(inst, pos);
    }

    fn instruction(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        use alu::FirstReads::{AsWritten, SecondNegated};
        use AluOp as A;
        self.prelude_temps.set(0);
        if ins.info.decl {
            return self.declaration(ins);
        }
        if ins.opcode() != O::DclImmediateConstantBuffer {
            self.require_phase()?;
        }
        if self.dynamic_slot(ins)? {
            return Ok(());
        }
        match ins.opcode() {
            O::Abort | O::DebugBreak => {
                let kind = match ins.opcode() {
                    O::Abort => crate::ir::HaltKind::Abort,
                    _ => crate::ir::HaltKind::DebugBreak,
                };
                let offset = self.pos().offset;
                self.emit(Inst::Halt { kind, offset });
            }
            O::Add => self.alu(A::Add, ins)?,
            O::And => self.alu(A::And, ins)?,
            O::DerivRtx | O::DerivRtxCoarse => self.alu(A::DerivRtxCoarse, ins)?,
            O::DerivRty | O::DerivRtyCoarse => self.alu(A::DerivRtyCoarse, ins)?,
            O::DerivRtxFine => self.alu(A::DerivRtxFine, ins)?,
            O::DerivRtyFine => self.alu(A::DerivRtyFine, ins)?,
            O::Div => self.alu(A::Div, ins)?,
            O::Eq => self.alu(A::Eq, ins)?,
            O::Exp => self.alu(A::Exp, ins)?,
            O::Frc => self.alu(A::Frc, ins)?,
            O::Ftoi => self.alu(A::FToI, ins)?,
            O::Ftou => self.alu(A::FToU, ins)?,
            O::Ge => self.alu(A::Ge, ins)?,
            O::Iadd => self.alu(A::IAdd, ins)?,
            O::Ieq => self.alu(A::IEq, ins)?,
            O::Ige => self.alu(A::IGe, ins)?,
            O::Ilt => self.alu(A::ILt, ins)?,
            O::Imad | O::Umad => self.alu(A::IMad, ins)?,
            O::Imax => self.alu(A::IMax, ins)?,
            O::Imin => self.alu(A::IMin, ins)?,
            O::Ine => self.alu(A::INe, ins)?,
            O::Ineg => self.alu(A::INeg, ins)?,
            O::Ishl => self.alu(A::IShl, ins)?,
            O::Ishr => self.alu(A::IShr, ins)?,
            O::Itof => self.alu(A::IToF, ins)?,
            O::Log => self.alu(A::Log, ins)?,
            O::Lt => self.alu(A::Lt, ins)?,
            O::Mad => self.alu(A::Mad, ins)?,
            O::Min => self.alu(A::Min, ins)?,
            O::Max => self.alu(A::Max, ins)?,
            O::Mov => self.alu(A::Mov, ins)?,
            O::Movc => self.alu(A::Movc, ins)?,
            O::Mul => self.alu(A::Mul, ins)?,
            O::Ne => self.alu(A::Ne, ins)?,
            O::Not => self.alu(A::Not, ins)?,
            O::Or => self.alu(A::Or, ins)?,
            O::RoundNe => self.alu(A::RoundNe, ins)?,
            O::RoundNi => self.alu(A::RoundNi, ins)?,
            O::RoundPi => self.alu(A::RoundPi, ins)?,
            O::RoundZ => self.alu(A::RoundZ, ins)?,
            O::Rsq => self.alu(A::Rsq, ins)?,
            O::Sqrt => self.alu(A::Sqrt, ins)?,
            O::Ult => self.alu(A::ULt, ins)?,
            O::Uge => self.alu(A::UGe, ins)?,
            O::Umax => self.alu(A::UMax, ins)?,
            O::Umin => self.alu(A::UMin, ins)?,
            O::Ushr => self.alu(A::UShr, ins)?,
            O::Utof => self.alu(A::UToF, ins)?,
            O::Xor => self.alu(A::Xor, ins)?,
            O::Rcp => self.alu(A::Rcp, ins)?,
            O::F32tof16 => self.alu(A::F32ToF16, ins)?,
            O::F16tof32 => self.alu(A::F16ToF32, ins)?,
            O::Countbits => self.alu(A::CountBits, ins)?,
            O::FirstbitHi => self.alu(A::FirstBitHi, ins)?,
            O::FirstbitLo => self.alu(A::FirstBitLo, ins)?,
            O::FirstbitShi => self.alu(A::FirstBitShi, ins)?,
            O::Ubfe => self.alu(A::Ubfe, ins)?,
            O::Ibfe => self.alu(A::Ibfe, ins)?,
            O::Bfi => self.alu(A::Bfi, ins)?,
            O::Bfrev => self.alu(A::Bfrev, ins)?,
            O::Msad => self.alu(A::Msad, ins)?,
            O::Dp2 => self.dot(2, ins)?,
            O::Dp3 => self.dot(3, ins)?,
            O::Dp4 => self.dot(4, ins)?,
            O::Imul => self.two(ins, [A::IMulHi, A::IMul], AsWritten)?,
            O::Umul => self.two(ins, [A::UMulHi, A::IMul], AsWritten)?,
            O::Udiv => self.two(ins, [A::UDiv, A::URem], AsWritten)?,
            O::Uaddc => self.two(ins, [A::IAdd, A::UAddCarry], AsWritten)?,
            O::Usubb => self.two(ins, [A::IAdd, A::USubBorrow], SecondNegated)?,
            O::Sincos => self.two(ins, [A::Sin, A::Cos], AsWritten)?,
            O::Swapc => self.swapc(ins)?,
            O::Dadd => self.double(DoubleOp::Add, ins)?,
            O::Dmax => self.double(DoubleOp::Max, ins)?,
            O::Dmin => self.double(DoubleOp::Min, ins)?,
            O::Dmul => self.double(DoubleOp::Mul, ins)?,
            O::Deq => self.double(DoubleOp::Eq, ins)?,
            O::Dge => self.double(DoubleOp::Ge, ins)?,
            O::Dlt => self.double(DoubleOp::Lt, ins)?,
            O::Dne => self.double(DoubleOp::Ne, ins)?,
            O::Dmov => self.double(DoubleOp::Mov, ins)?,
            O::Dmovc => self.double(DoubleOp::Movc, ins)?,
            O::Dtof => self.double(DoubleOp::ToF32, ins)?,
            O::Ftod => self.double(DoubleOp::FromF32, ins)?,
            O::Ddiv => self.double(DoubleOp::Div, ins)?,
            O::Dfma => self.double(DoubleOp::Fma, ins)?,
            O::Drcp => self.double(DoubleOp::Rcp, ins)?,
            O::Dtoi => self.double(DoubleOp::ToI32, ins)?,
            O::Dtou => self.double(DoubleOp::ToU32, ins)?,
            O::Itod => self.double(DoubleOp::FromI32, ins)?,
            O::Utod => self.double(DoubleOp::FromU32, ins)?,
            O::Emit
            | O::Cut
            | O::EmitThenCut
            | O::EmitStream
            | O::CutStream
            | O::EmitThenCutStream => self.gs_emit(ins)?,
            O::ImmAtomicAlloc | O::ImmAtomicConsume => self.uav_counter(ins)?,
            O::Fcall => self.fcall(ins)?,
            O::Label if ins.operands.first().is_some_and(|o| o.is(FunctionBody)) => {
                self.body_start(ins)?
            }
            _ => self.memory_or_flow(ins)?,
        }
        Ok(())
    }
}
