//! Hull and domain programs: the tessellator declarations, and the
//! registers only they have (`vicp`, `vocp`, `vpc`, `vDomain`, the phase
//! instance ids, `vOutputControlPointID`), read from the patch rows as
//! [`crate::ir::TessInfo`] describes.

use super::hull::Hull;
use super::operands::swizzle_of;
use super::rel_index::Axis;
use super::Lowerer;
use crate::ir::{File, Index, Src, Stage, TessInfo, TESS_CB_SLOT};
use crate::sm4::decode::{Instruction, Operand};
use crate::sm4::fields::DECLARATION_VALUE;
use crate::sm4::names::{
    SystemValue, TessellatorDomain, TessellatorOutputPrimitive, TessellatorPartitioning,
};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType as T;
use crate::sm4::Sm4Error;
use dxjit_runtime::dispatch::patch_rows::{
    point_row, HEADER, INPUT_POINTS, MAX_CONTROL_POINTS, MAX_REGS, OUTPUT_POINTS, PATCH_CONSTANTS,
};
use dxjit_runtime::dispatch::HullPhaseKind;
use dxjit_runtime::tessellator::{Domain, OutputPrimitive, Partitioning};

/// The state a hull or domain lowering keeps besides the IR.
#[derive(Debug, Default)]
pub(super) struct Tess {
    /// What the program declares.
    pub info: TessInfo,
    /// Hull programs: the phases being collected.
    pub hull: Option<Hull>,
}

impl Tess {
    /// The state for a program of `stage`, if it is a hull or domain program.
    pub fn for_stage(stage: Stage) -> Option<Tess> {
        match stage {
            Stage::Hull => Some(Tess {
                info: TessInfo::default(),
                hull: Some(Hull::default()),
            }),
            Stage::Domain => Some(Tess::default()),
            _ => None,
        }
    }
}

/// A read of row `row` of the patch rows.
fn row(row: u32, rel: Option<Box<Src>>, swizzle: [u8; 4]) -> Src {
    Src {
        file: File::Const(TESS_CB_SLOT),
        index: Index { base: row, rel },
        swizzle,
        neg: false,
        abs: false,
        imm: [0; 4],
    }
}

impl Lowerer {
    fn tess_info(&mut self) -> Option<&mut TessInfo> {
        self.tess.as_mut().map(|t| &mut t.info)
    }

    /// Handles a hull or domain declaration; `Ok(false)` leaves it to the
    /// common declarations (which it may also have noted).
    pub(super) fn tess_declaration(&mut self, ins: &Instruction) -> Result<bool, Sm4Error> {
        if self.tess.is_none() {
            return Ok(false);
        }
        let value = ins.field(DECLARATION_VALUE);
        let hull = self.prog.stage == Stage::Hull;
        match ins.opcode() {
            O::HsDecls
            | O::HsControlPointPhase
            | O::HsForkPhase
            | O::HsJoinPhase
            | O::DclHsForkPhaseInstanceCount
            | O::DclHsJoinPhaseInstanceCount => {
                self.phase_declaration(ins)?;
            }
            O::DclInputControlPointCount => {
                if !(1..=MAX_CONTROL_POINTS).contains(&value) {
                    return Err(self.err(format!("{value} input control points (1-32 allowed)")));
                }
                self.info_mut()?.input_control_points = value;
            }
            O::DclOutputControlPointCount if hull => {
                if value > MAX_CONTROL_POINTS {
                    return Err(self.err(format!("{value} output control points (0-32 allowed)")));
                }
                self.info_mut()?.output_control_points = value;
            }
            O::DclTessellatorDomain => {
                let domain = match TessellatorDomain::from_code(value) {
                    Some(TessellatorDomain::Isoline) => Domain::Isoline,
                    Some(TessellatorDomain::Triangle) => Domain::Tri,
                    Some(TessellatorDomain::Quad) => Domain::Quad,
                    None => return Err(self.err(format!("tessellator domain {value}"))),
                };
                self.info_mut()?.domain = Some(domain);
            }
            O::DclTessellatorPartitioning if hull => {
                use TessellatorPartitioning as P;
                let p = match P::from_code(value) {
                    Some(P::Integer) => Partitioning::Integer,
                    Some(P::Pow2) => Partitioning::Pow2,
                    Some(P::FractionalOdd) => Partitioning::FractionalOdd,
                    Some(P::FractionalEven) => Partitioning::FractionalEven,
                    None => return Err(self.err(format!("tessellator partitioning {value}"))),
                };
                self.info_mut()?.partitioning = Some(p);
            }
            O::DclTessellatorOutputPrimitive if hull => {
                use TessellatorOutputPrimitive as P;
                let p = match P::from_code(value) {
                    Some(P::Point) => OutputPrimitive::Point,
                    Some(P::Line) => OutputPrimitive::Line,
                    Some(P::TriangleCw) => OutputPrimitive::TriangleCw,
                    Some(P::TriangleCcw) => OutputPrimitive::TriangleCcw,
                    None => return Err(self.err(format!("tessellator output primitive {value}"))),
                };
                self.info_mut()?.output_primitive = Some(p);
            }
            O::DclHsMaxTessfactor if hull => {
                let max = f32::from_bits(ins.words.first().copied().unwrap_or(0));
                if !(1.0..=64.0).contains(&max) {
                    return Err(self.err(format!("dcl_hs_max_tessfactor {max} (1-64 allowed)")));
                }
                self.info_mut()?.max_tess_factor = max;
            }
            O::DclConstantBuffer
                if ins.operands.first().and_then(|o| o.index(0))
                    == Some(u64::from(TESS_CB_SLOT)) =>
            {
                return Err(self.err(format!(
                    "cb{TESS_CB_SLOT} is reserved for the patch in hull and domain shaders"
                )));
            }
            O::DclInput | O::DclInputSgv | O::DclInputSiv => {
                self.note_input(ins)?;
                return Ok(false);
            }
            O::DclOutput | O::DclOutputSgv | O::DclOutputSiv if hull => {
                self.note_output(ins)?;
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn info_mut(&mut self) -> Result<&mut TessInfo, Sm4Error> {
        let e = self.err("not a hull or domain program");
        self.tess_info().ok_or(e)
    }

    /// Notes the `vicp` / `vpc` registers an input declaration names.
    fn note_input(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        let (ty, last) = (op.register(), op.indices.last().map(|i| i.value));
        let reg = u32::try_from(last.unwrap_or(0)).unwrap_or(u32::MAX);
        if matches!(
            ty,
            Some(T::InputControlPoint | T::OutputControlPoint | T::InputPatchConstant)
        ) && reg >= MAX_REGS
        {
            return Err(self.err(format!("register {reg} is past the {MAX_REGS} a patch has")));
        }
        // A domain program's declared factors: where the hull's must be.
        let factor = (ins.opcode() == O::DclInputSiv && self.prog.stage == Stage::Domain)
            .then(|| ins.words.first().copied().and_then(SystemValue::from_code))
            .flatten()
            .map(|name| {
                let component = self.dst_mask(op).trailing_zeros().min(3) as u8;
                (name, crate::ir::FactorSlot { reg, component })
            });
        let info = self.info_mut()?;
        match ty {
            Some(T::InputControlPoint) => info.input_regs = info.input_regs.max(reg + 1),
            Some(T::InputPatchConstant) => {
                info.patch_constant_regs = info.patch_constant_regs.max(reg + 1);
                if let Some((name, slot)) = factor {
                    note_factor(info, Some(name), slot);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Notes an output declaration of a hull phase: a control-point
    /// register, or a patch constant and the tessellation factor it holds.
    fn note_output(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let op = self.operand(ins, 0)?;
        if !op.is(T::Output) {
            return Ok(());
        }
        let reg = self.index(op.indices.first())?.base;
        if reg >= MAX_REGS {
            return Err(self.err(format!("o{reg} is past the {MAX_REGS} a patch has")));
        }
        let mask = self.dst_mask(op);
        let name = (ins.opcode() == O::DclOutputSiv)
            .then(|| ins.words.first().copied().and_then(SystemValue::from_code))
            .flatten();
        let kind = self.phase_kind()?;
        let component = mask.trailing_zeros().min(3) as u8;
        let factor = crate::ir::FactorSlot { reg, component };
        let info = self.info_mut()?;
        if kind == HullPhaseKind::ControlPoint {
            info.control_point_regs = info.control_point_regs.max(reg + 1);
            return Ok(());
        }
        info.patch_constant_regs = info.patch_constant_regs.max(reg + 1);
        note_factor(info, name, factor);
        Ok(())
    }

    /// A source operand of a register only hull and domain programs have;
    /// `None` for any other operand.
    pub(super) fn tess_src(&self, op: &Operand) -> Result<Option<Src>, Sm4Error> {
        if self.tess.is_none() {
            return Ok(None);
        }
        let swizzle = swizzle_of(op.sel);
        let hull = self.prog.stage == Stage::Hull;
        let kind = self
            .tess
            .as_ref()
            .and_then(|t| t.hull.as_ref())
            .and_then(Hull::kind);
        let header = |c: u8| row(HEADER, None, [c; 4]);
        let s = match op.register() {
            Some(T::InputControlPoint) => self.point(op, INPUT_POINTS)?,
            Some(T::OutputControlPoint) => {
                if !hull || kind == Some(HullPhaseKind::ControlPoint) {
                    return Err(self.err("vocp is readable only in fork and join phases"));
                }
                self.point(op, OUTPUT_POINTS)?
            }
            Some(T::InputPatchConstant) => {
                if hull && kind != Some(HullPhaseKind::Join) {
                    return Err(self.err("vpc is readable only in join phases"));
                }
                let ix = self.index(op.indices.first())?;
                row(PATCH_CONSTANTS + ix.base, ix.rel, swizzle)
            }
            Some(T::InputDomainPoint) if !hull => Src {
                swizzle,
                ..Src::reg(File::Input, 0)
            },
            Some(T::OutputControlPointId) if kind == Some(HullPhaseKind::ControlPoint) => Src {
                swizzle: [0; 4],
                ..Src::reg(File::Input, 0)
            },
            Some(T::InputForkInstanceId) if kind == Some(HullPhaseKind::Fork) => header(1),
            Some(T::InputJoinInstanceId) if kind == Some(HullPhaseKind::Join) => header(1),
            Some(T::InputPrimitiveId) => header(2),
            Some(
                t @ (T::InputDomainPoint
                | T::OutputControlPointId
                | T::InputForkInstanceId
                | T::InputJoinInstanceId),
            ) => {
                return Err(self.err(format!("{} is not readable here", t.name())));
            }
            _ => return Ok(None),
        };
        Ok(Some(s))
    }

    /// `vicp[i][r]` or `vocp[i][r]`: row `first + r * 32 + i`. Relative
    /// indices on either axis are bounded per axis (see `rel_index`): the
    /// point by the declared control-point count, the register by a
    /// point's 32.
    fn point(&self, op: &Operand, first: u32) -> Result<Src, Sm4Error> {
        let point = self.index(op.indices.first())?;
        let reg = self.index(op.indices.get(1))?;
        if point.rel.is_some() || reg.rel.is_some() {
            let declared = self.tess.as_ref().map_or(0, |t| {
                if first == OUTPUT_POINTS {
                    t.info.output_control_points
                } else {
                    t.info.input_control_points
                }
            });
            let points = Axis {
                index: &point,
                count: if declared == 0 {
                    MAX_CONTROL_POINTS
                } else {
                    declared
                },
            };
            let regs = Axis {
                index: &reg,
                count: MAX_REGS,
            };
            let flat = self.flat_rel_row(points, regs, MAX_CONTROL_POINTS);
            return Ok(row(first, Some(Box::new(flat)), swizzle_of(op.sel)));
        }
        if point.base >= MAX_CONTROL_POINTS || reg.base >= MAX_REGS {
            return Err(self.err(format!(
                "control point {}, register {} is past a patch",
                point.base, reg.base
            )));
        }
        Ok(row(
            point_row(first, point.base, reg.base),
            None,
            swizzle_of(op.sel),
        ))
    }
}

/// Notes that patch-constant slot `factor` holds the tessellation factor
/// `name` names (nothing for any other name).
fn note_factor(info: &mut TessInfo, name: Option<SystemValue>, factor: crate::ir::FactorSlot) {
    use SystemValue as S;
    match name {
        Some(S::FinalQuadUEq0EdgeTessFactor | S::FinalTriUEq0EdgeTessFactor) => {
            info.edge_factors[0] = Some(factor)
        }
        Some(S::FinalQuadVEq0EdgeTessFactor | S::FinalTriVEq0EdgeTessFactor) => {
            info.edge_factors[1] = Some(factor)
        }
        Some(S::FinalQuadUEq1EdgeTessFactor | S::FinalTriWEq0EdgeTessFactor) => {
            info.edge_factors[2] = Some(factor)
        }
        Some(S::FinalQuadVEq1EdgeTessFactor) => info.edge_factors[3] = Some(factor),
        Some(S::FinalQuadUInsideTessFactor | S::FinalTriInsideTessFactor) => {
            info.inside_factors[0] = Some(factor)
        }
        Some(S::FinalQuadVInsideTessFactor) => info.inside_factors[1] = Some(factor),
        Some(S::FinalLineDensityTessFactor) => info.edge_factors[0] = Some(factor),
        Some(S::FinalLineDetailTessFactor) => info.edge_factors[1] = Some(factor),
        _ => {}
    }
}
