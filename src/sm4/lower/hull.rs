//! Hull-shader phases: `hs_decls`, the control-point phase, fork and join
//! phases with their instance counts, each with its own temporaries. The
//! lowered program is one function switching on the phase selector (see
//! [`crate::ir::TessInfo`]).

use super::{Lowerer, SCRATCH};
use crate::ir::{Body, HullPhase, Inst, PhaseKind, Pos, Src, TESS_CB_SLOT};
use crate::sm4::decode::Instruction;
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::Sm4Error;
use dxjit_runtime::dispatch::patch_rows::HEADER;

/// The phases of a hull program being lowered.
#[derive(Debug, Default)]
pub(super) struct Hull {
    /// Closed phases, with the position of the `hs_*_phase` opening each
    /// and their bodies.
    phases: Vec<(HullPhase, Pos, Body)>,
    /// The phase being lowered, once `hs_*_phase` opened it.
    current: Option<HullPhase>,
    /// The position of the `hs_*_phase` that opened the current phase.
    opened_at: Option<Pos>,
    /// Whether `hs_decls` was seen.
    decls: bool,
    /// Temporaries the largest phase needs, scratch included.
    temps: u32,
}

impl Hull {
    /// The kind of the phase being lowered.
    pub fn kind(&self) -> Option<PhaseKind> {
        self.current.map(|p| p.kind)
    }
}

/// Instance counts D3D11 allows a fork or join phase.
const MAX_INSTANCES: u32 = 32;

impl Lowerer {
    fn hull(&mut self) -> Result<&mut Hull, Sm4Error> {
        let e = self.err("not a hull program");
        self.tess.as_mut().and_then(|t| t.hull.as_mut()).ok_or(e)
    }

    /// The kind of the hull phase being lowered.
    pub(super) fn phase_kind(&mut self) -> Result<PhaseKind, Sm4Error> {
        let e = self.err("declaration outside a hull phase");
        self.hull()?.kind().ok_or(e)
    }

    /// `hs_decls`, `hs_*_phase` and the instance-count declarations.
    pub(super) fn phase_declaration(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let kind = match ins.opcode() {
            O::HsDecls => {
                let h = self.hull()?;
                if h.decls || h.current.is_some() || !h.phases.is_empty() {
                    return Err(self.err("hs_decls must come once, before every phase"));
                }
                h.decls = true;
                return Ok(());
            }
            O::HsControlPointPhase => PhaseKind::ControlPoint,
            O::HsForkPhase => PhaseKind::Fork,
            O::HsJoinPhase => PhaseKind::Join,
            op => return self.instance_count(op, ins),
        };
        self.close_phase()?;
        let h = self.hull()?;
        let last = h.phases.last().map(|(p, _, _)| p.kind);
        let order = |k: PhaseKind| match k {
            PhaseKind::ControlPoint => 0,
            PhaseKind::Fork => 1,
            PhaseKind::Join => 2,
        };
        if let Some(last) = last {
            if order(last) > order(kind)
                || (last, kind) == (PhaseKind::ControlPoint, PhaseKind::ControlPoint)
            {
                return Err(self.err(format!(
                    "a {kind:?} phase after a {last:?} phase: a hull has at most one control-point phase, then fork phases, then join phases"
                )));
            }
        }
        let pos = self.pos();
        let h = self.hull()?;
        h.current = Some(HullPhase { kind, instances: 1 });
        h.opened_at = Some(pos);
        Ok(())
    }

    fn instance_count(&mut self, op: O, ins: &Instruction) -> Result<(), Sm4Error> {
        let count = ins.words.first().copied().unwrap_or(0);
        let wanted = if op == O::DclHsForkPhaseInstanceCount {
            PhaseKind::Fork
        } else {
            PhaseKind::Join
        };
        if !(1..=MAX_INSTANCES).contains(&count) {
            return Err(self.err(format!(
                "{count} phase instances (1-{MAX_INSTANCES} allowed)"
            )));
        }
        let e = self.err(format!("{} outside a {wanted:?} phase", ins.info.name));
        match self.hull()?.current.as_mut() {
            Some(p) if p.kind == wanted => {
                p.instances = count;
                Ok(())
            }
            _ => Err(e),
        }
    }

    /// Checks that an instruction of a hull program is inside a phase.
    pub(super) fn require_phase(&mut self) -> Result<(), Sm4Error> {
        match self.tess.as_ref().and_then(|t| t.hull.as_ref()) {
            Some(h) if h.current.is_none() => {
                Err(self.err("a hull-shader instruction outside every phase"))
            }
            _ => Ok(()),
        }
    }

    /// Ends the phase being lowered (if any): its body, temporaries and
    /// declarations are its own.
    fn close_phase(&mut self) -> Result<(), Sm4Error> {
        if self.label.is_some() {
            return Err(self.err("a hull phase after a subroutine"));
        }
        let body = std::mem::take(&mut self.body);
        let temps = self.temps() + SCRATCH;
        self.declared_temps = None;
        self.scratch_used = 0;
        let pos = self.pos();
        let h = self.hull()?;
        h.temps = h.temps.max(temps);
        let opened_at = h.opened_at.take().unwrap_or(pos);
        match h.current.take() {
            Some(phase) => h.phases.push((phase, opened_at, body)),
            None if body.is_empty() => {}
            None => return Err(self.err("a hull-shader instruction outside every phase")),
        }
        Ok(())
    }

    /// Closes the last phase and makes the main function: a switch on the
    /// phase selector with one case per phase. Each case label and break
    /// carries the position of its phase's `hs_*_phase`; the switch that of
    /// the first phase, its end that of the last.
    pub(super) fn finish_hull(&mut self) -> Result<(), Sm4Error> {
        let subroutine = self.label.is_some();
        if subroutine {
            // The last phase's body was taken as the main function when the
            // first subroutine started.
            let body = self.main.take().unwrap_or_default();
            let pos = self.pos();
            let h = self.hull()?;
            let opened_at = h.opened_at.take().unwrap_or(pos);
            if let Some(phase) = h.current.take() {
                h.phases.push((phase, opened_at, body));
            }
        } else {
            self.close_phase()?;
        }
        let temps = self.hull()?.temps;
        let phases = std::mem::take(&mut self.hull()?.phases);
        let first = phases.first().map_or(self.pos(), |(_, at, _)| *at);
        let last = phases.last().map_or(self.pos(), |(_, at, _)| *at);
        let mut main = Body::new();
        let sel = Src {
            swizzle: [0; 4],
            ..Src::reg(crate::ir::File::Const(TESS_CB_SLOT), HEADER)
        };
        main.push(Inst::Switch { sel }, Some(first));
        let mut info = Vec::with_capacity(phases.len());
        for (i, (phase, at, mut body)) in phases.into_iter().enumerate() {
            main.push(Inst::Case(i as u32), Some(at));
            main.append(&mut body);
            main.push(Inst::Break, Some(at));
            info.push(phase);
        }
        main.push(Inst::EndSwitch, Some(last));
        let t = self.tess.as_mut().map(|t| &mut t.info);
        if let Some(t) = t {
            t.phases = info;
        }
        self.hull_temps = temps;
        if subroutine {
            self.main = Some(main);
        } else {
            self.body = main;
        }
        Ok(())
    }
}
