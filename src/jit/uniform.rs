//! Uniformity analysis: which temp components hold the same value in every
//! active lane, and so which branches and loop exits every active lane takes
//! together. Uniform control flow needs no execution masks: it becomes
//! plain branches, and the writes inside it need no blending.
//!
//! Loads from shader resource views at uniform places are uniform (the
//! views are read-only), and so are loads from group-shared memory at
//! uniform places in main where nothing writes their variable between
//! the group barriers around them ([`quiet_shared_loads`]); other loads
//! from group-shared memory and UAVs, which other lanes may write, and
//! lookups are not.
//!
//! The analysis is flow-insensitive and optimistic: it starts with every
//! temp component uniform and removes a component when some write to it
//! reads a non-uniform value or happens under non-uniform control, until
//! nothing changes.

use super::shared_quiet::quiet_shared_loads;
use crate::ir::{File, Inst, Program, Resource, Src, SysVal};

/// How control enters a function body the analysis walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// With every lane that runs (the main function).
    Uniform,
    /// Under a mask (subroutines: any caller may call them divergently).
    Masked,
}

/// The uniform temp components of `main`.
#[derive(Debug, Clone, Default)]
pub struct Uniformity {
    /// Per temp, the components known to vary (bit `c`); temps past the
    /// end vary in none.
    varying: Vec<u8>,
    /// Components marked so far.
    marked: usize,
}

impl Uniformity {
    /// Analyses the main function (subroutines always run masked).
    pub fn of(prog: &Program) -> Uniformity {
        let mut u = Uniformity::default();
        let quiet = quiet_shared_loads(&prog.main);
        loop {
            let before = u.marked;
            u.pass(&prog.main, Entry::Uniform, &quiet);
            for (_, body) in &prog.subroutines {
                u.pass(body, Entry::Masked, &[]);
            }
            if u.marked == before {
                return u;
            }
        }
    }

    /// Whether component `comp` of temp `reg` is the same in every lane.
    pub fn temp(&self, reg: u32, comp: u8) -> bool {
        !self.varies(reg, comp)
    }

    /// Whether component `comp` (through the swizzle) of `src` is the same in every lane.
    pub fn src(&self, src: &Src, comp: usize) -> bool {
        if src.index.rel.as_ref().is_some_and(|r| !self.src(r, 0)) {
            return false;
        }
        let c = src.swizzle[comp] & 3;
        match src.file {
            File::Imm | File::Const(_) | File::ImmConst | File::SysVal(SysVal::GroupId) => true,
            File::Temp => src.index.rel.is_none() && !self.varies(src.index.base, c),
            _ => false,
        }
    }

    /// Whether the whole source (every component) is uniform.
    fn all(&self, src: &Src) -> bool {
        (0..4).all(|c| self.src(src, c))
    }

    /// Marks the components an instruction writes as varying when its
    /// result is not uniform or divergent control surrounds it (always,
    /// in a body entered masked). `quiet` tells, per instruction of the
    /// body, whether it is a group-shared load that every thread reads
    /// alike at a uniform place (empty: none is).
    fn pass(&mut self, body: &[Inst], entry: Entry, quiet: &[bool]) {
        let mut stack: Vec<bool> = Vec::new();
        for (i, inst) in body.iter().enumerate() {
            let divergent = entry == Entry::Masked || stack.iter().any(|d| *d);
            match inst {
                Inst::If { cond, .. } => stack.push(!self.src(cond, 0)),
                Inst::Loop => stack.push(!self.loop_is_uniform(&body[i + 1..])),
                Inst::Switch { .. } => stack.push(true),
                Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                    stack.pop();
                }
                Inst::Alu { dst, src, .. } => {
                    for c in 0..4u8 {
                        if dst.mask & (1 << c) != 0
                            && (divergent || !src.iter().all(|s| self.src(s, c as usize)))
                        {
                            self.vary(dst, c);
                        }
                    }
                }
                Inst::Dot { dst, a, b, n, .. } => {
                    let ok = (0..*n as usize).all(|c| self.src(a, c) && self.src(b, c));
                    self.vary_all(dst, divergent || !ok);
                }
                Inst::Double { dst, src, .. } => {
                    let ok = src.iter().all(|s| self.all(s));
                    self.vary_all(dst, divergent || !ok);
                }
                Inst::Swapc { dst, cond, a, b } => {
                    let ok = self.all(cond) && self.all(a) && self.all(b);
                    self.vary_all(&dst[0], divergent || !ok);
                    self.vary_all(&dst[1], divergent || !ok);
                }
                Inst::BufInfo { dst, .. } => self.vary_all(dst, divergent),
                Inst::ResInfo { dst, mip, .. } => {
                    let level = self.src(mip, 0);
                    self.vary_all(dst, divergent || !level);
                }
                // A shader resource view does not change during a call: a
                // load from one at a uniform place reads the same value in
                // every lane (and in every batch of a group). Nor does a
                // group-shared variable while any thread runs a quiet
                // load's stretch between barriers.
                Inst::LoadRaw {
                    dst, res, offset, ..
                } if matches!(res, Resource::Srv(_)) || quiet.get(i) == Some(&true) => {
                    self.vary_all(dst, divergent || !self.src(offset, 0))
                }
                Inst::LoadStructured {
                    dst,
                    res,
                    index,
                    offset,
                    ..
                } if matches!(res, Resource::Srv(_)) || quiet.get(i) == Some(&true) => {
                    let place = self.src(index, 0) && self.src(offset, 0);
                    self.vary_all(dst, divergent || !place);
                }
                Inst::LoadTyped {
                    dst,
                    res: Resource::Srv(_),
                    coord,
                    ..
                }
                | Inst::Fetch {
                    dst,
                    coord,
                    slots: None,
                    ..
                } => self.vary_all(dst, divergent || !self.all(coord)),
                Inst::LoadRaw { dst, .. }
                | Inst::LoadStructured { dst, .. }
                | Inst::LoadTyped { dst, .. }
                | Inst::Sample { dst, .. }
                | Inst::Fetch { dst, .. }
                | Inst::Gather { dst, .. }
                | Inst::QueryLod { dst, .. }
                | Inst::LoadSample { dst, .. }
                | Inst::Eval { dst, .. } => self.vary_all(dst, true),
                Inst::SampleInfo { dst, .. } => self.vary_all(dst, divergent),
                Inst::SamplePos { dst, index, .. } => {
                    let uniform = self.src(index, 0);
                    self.vary_all(dst, divergent || !uniform);
                }
                Inst::Atomic { dst: Some(dst), .. } | Inst::UavCounter { dst, .. } => {
                    self.vary_all(dst, true)
                }
                _ => {}
            }
        }
    }

    /// Whether component `c` of temp `reg` is marked varying.
    fn varies(&self, reg: u32, c: u8) -> bool {
        self.varying
            .get(reg as usize)
            .is_some_and(|bits| bits & (1 << (c & 3)) != 0)
    }

    fn vary(&mut self, dst: &crate::ir::Dst, c: u8) {
        if dst.file != File::Temp {
            return;
        }
        let reg = dst.index.base as usize;
        if reg >= self.varying.len() {
            self.varying.resize(reg + 1, 0);
        }
        let bit = 1 << (c & 3);
        if self.varying[reg] & bit == 0 {
            self.varying[reg] |= bit;
            self.marked += 1;
        }
    }

    fn vary_all(&mut self, dst: &crate::ir::Dst, when: bool) {
        if when {
            for c in 0..4u8 {
                if dst.mask & (1 << c) != 0 {
                    self.vary(dst, c);
                }
            }
        }
    }

    /// Whether a loop (its body follows in `rest`) is left by every active
    /// lane together: every break or continue of its own is uniform and
    /// under uniform control, and nothing inside returns, discards or calls.
    pub fn loop_is_uniform(&self, rest: &[Inst]) -> bool {
        // Per open construct inside the loop: (is a loop, is divergent).
        let mut open: Vec<(bool, bool)> = Vec::new();
        for inst in rest {
            let own_level = !open.iter().any(|(is_loop, _)| *is_loop);
            let divergent = open.iter().any(|(_, d)| *d);
            match inst {
                Inst::If { cond, .. } => open.push((false, !self.src(cond, 0))),
                Inst::Switch { .. } => open.push((false, true)),
                Inst::Loop => open.push((true, false)),
                Inst::EndIf | Inst::EndSwitch => {
                    open.pop();
                }
                Inst::EndLoop if open.pop().is_none() => return true,
                Inst::Ret
                | Inst::RetC { .. }
                | Inst::Discard { .. }
                | Inst::Call { .. }
                | Inst::CallC { .. } => return false,
                Inst::Break | Inst::Continue if own_level && divergent => return false,
                Inst::BreakC { cond, .. } | Inst::ContinueC { cond, .. }
                    if own_level && (divergent || !self.src(cond, 0)) =>
                {
                    return false
                }
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
