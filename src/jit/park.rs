//! Parking: the temp components a loop neither reads nor writes, but which
//! are read after it, go to a stack slot before the loop and come back
//! after it, when the loop's state would not fit in the vector registers
//! otherwise.
//!
//! regalloc2 keeps such a value in a register through the loop (its
//! bundle has no use inside to split at) and spills the loop's own state
//! instead: every spilled loop-carried value then costs a store and a
//! reload on its dependency chain each iteration. A parked value costs
//! one store and one load per run of the loop. A loop that calls a
//! subroutine, indexes temps relatively or holds a barrier (whose resume
//! re-enters the loop from the call's start, with the stack gone) parks
//! nothing.

use super::lanes::{LaneVar, Lanes, MAX_K, VEC};
use super::state::{Flow, Tr};
use super::VECTOR_REGISTERS;
use crate::ir::{Components, File, Inst, Liveness, Program};
use cranelift_codegen::ir::{types, InstBuilder, StackSlot, StackSlotData, StackSlotKind, Value};

/// Parked components of one loop: each component, its variables and
/// where its vectors wait.
#[derive(Debug, Clone, Default)]
pub struct Parked {
    places: Vec<((u32, u8), LaneVar, Place)>,
}

/// A stack slot and the offset of a parked component's first vector in
/// it; the others follow, 16 bytes apart.
type Place = (StackSlot, i32);

/// Adds the temp components `inst` reads (through its swizzles and
/// relative indices) or writes to `touched`; `false` when it indexes temps
/// relatively, so that what it touches is unknown.
fn touch(inst: &Inst, touched: &mut Components) -> bool {
    let destinations = inst.destinations();
    let indices = destinations.iter().filter_map(|d| d.index.rel.as_deref());
    for s in inst.sources().into_iter().chain(indices) {
        for r in std::iter::once(s).chain(s.index.rel.as_deref()) {
            if r.file == File::Temp {
                if r.index.rel.is_some() {
                    return false;
                }
                for c in r.swizzle {
                    touched.insert((r.index.base, c & 3));
                }
            }
        }
    }
    for d in &destinations {
        if d.file == File::Temp {
            if d.index.rel.is_some() {
                return false;
            }
            for c in (0..4u8).filter(|c| d.mask & (1 << c) != 0) {
                touched.insert((d.index.base, c));
            }
        }
    }
    true
}

/// The temp components live across the loop opened at `main[pos]` that
/// nothing in it reads or writes; `None` when the loop calls, indexes
/// temps relatively or synchronises.
pub fn untouched_live(prog: &Program, liveness: &Liveness, pos: usize) -> Option<Vec<(u32, u8)>> {
    let close = liveness.close(pos);
    let body = prog.main.get(pos..=close)?;
    let mut touched = Components::new();
    for inst in body {
        let opaque = matches!(
            inst,
            Inst::Call { .. } | Inst::CallC { .. } | Inst::Sync { .. }
        );
        if opaque || !touch(inst, &mut touched) {
            return None;
        }
    }
    Some(
        liveness
            .before(pos)
            .iter()
            .filter(|key| !touched.contains(key))
            .collect(),
    )
}

impl Tr<'_, '_> {
    /// Parks what the loop opened at `main[pos]` leaves alone, when the
    /// components live in it hold more vectors than there are registers.
    /// A component still waiting from the loop before stays where it is.
    /// Everything else still waiting is brought back.
    pub(super) fn park_around_loop(&mut self, pos: Option<usize>) -> Option<Parked> {
        let parked = pos.and_then(|pos| self.park(pos));
        self.unpark_waiting();
        parked
    }

    fn park(&mut self, pos: usize) -> Option<Parked> {
        let untouched = untouched_live(self.prog, &self.facts.liveness, pos)?;
        let vector = |tr: &Self, &(reg, c): &(u32, u8)| tr.facts.scalars.var(reg, c).is_none();
        let state = self
            .facts
            .liveness
            .after(pos)
            .iter()
            .filter(|key| vector(self, key))
            .count();
        if state * self.k <= VECTOR_REGISTERS {
            return None;
        }
        // What an enclosing loop parked waits in its slot all the while.
        let enclosing: Vec<(u32, u8)> = self
            .ctl
            .flow
            .iter()
            .filter_map(|f| match f {
                Flow::Loop {
                    parked: Some(p), ..
                } => Some(p.places.iter().map(|place| place.0)),
                _ => None,
            })
            .flatten()
            .collect();
        let keys: Vec<(u32, u8)> = untouched
            .into_iter()
            .filter(|key| vector(self, key) && !enclosing.contains(key))
            .collect();
        let fresh = keys.len() * self.k * 16;
        let slot = (fresh > 0).then(|| {
            self.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                fresh as u32,
                4,
            ))
        });
        let mut parked = Parked::default();
        for (i, key) in keys.into_iter().enumerate() {
            let waiting = self.func.waiting.places.iter().position(|p| p.0 == key);
            if let Some(w) = waiting {
                parked.places.push(self.func.waiting.places.swap_remove(w));
                continue;
            }
            let (Some(slot), Some(&var)) = (
                slot,
                self.func.temps.get(key.0 as usize * 4 + key.1 as usize),
            ) else {
                continue;
            };
            let lanes = self.lb().use_var(var);
            let at = (i * self.k * 16) as i32;
            for (j, &v) in lanes.v[..self.k].iter().enumerate() {
                self.b
                    .ins()
                    .stack_store(types::I64, v, slot, at + 16 * j as i32);
            }
            parked.places.push((key, var, (slot, at)));
        }
        (!parked.places.is_empty()).then_some(parked)
    }

    /// Leaves a loop's parked components waiting, to come back when an
    /// instruction needs them ([`Tr::unpark_for`]) or stay parked for a
    /// next loop that leaves them alone too.
    pub(super) fn leave_parked(&mut self, parked: Parked) {
        self.unpark_waiting();
        self.func.waiting = parked;
    }

    /// Brings waiting components back before `inst`, unless it is a loop
    /// (which may keep them parked), or arithmetic or structured control
    /// (`if`, `else`, `endif`, `break`, `continue`) that does not touch
    /// them. A path that leaves them waiting still reads the right values
    /// (their variables keep them); it only keeps them out of registers.
    pub(super) fn unpark_for(&mut self, inst: &Inst) {
        // Code nothing reaches (after a `break`) needs nothing back.
        if self.func.waiting.places.is_empty()
            || matches!(inst, Inst::Loop)
            || self.b.is_unreachable()
        {
            return;
        }
        let simple = matches!(
            inst,
            Inst::Alu { .. }
                | Inst::Dot { .. }
                | Inst::If { .. }
                | Inst::Else
                | Inst::EndIf
                | Inst::Break
                | Inst::BreakC { .. }
                | Inst::Continue
                | Inst::ContinueC { .. }
        );
        let touches = || {
            let mut touched = Components::new();
            !touch(inst, &mut touched)
                || self
                    .func
                    .waiting
                    .places
                    .iter()
                    .any(|p| touched.contains(&p.0))
        };
        if !simple || touches() {
            self.unpark_waiting();
        }
    }

    /// Loads every waiting component back into its variables.
    pub(super) fn unpark_waiting(&mut self) {
        for (_, var, place) in std::mem::take(&mut self.func.waiting.places) {
            self.reload(var, place);
        }
    }

    /// Loads `var`'s vectors back from `place`.
    fn reload(&mut self, var: LaneVar, (slot, at): Place) {
        let mut lanes = Lanes {
            v: [Value::from_u32(0); MAX_K],
        };
        for (j, v) in lanes.v[..self.k].iter_mut().enumerate() {
            *v = self
                .b
                .ins()
                .stack_load(types::I64, VEC, slot, at + 16 * j as i32);
        }
        self.lb().def_var(var, lanes);
    }
}

#[cfg(test)]
mod tests;
