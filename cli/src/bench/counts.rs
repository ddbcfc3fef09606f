//! Counts what one invocation executes (float operations, texture
//! lookups and group barriers) without running it: a walk of the program that follows the
//! values known from literals and bound constants, so a loop whose trip
//! count those values decide is counted once per iteration.
//!
//! What the walk cannot decide it bounds from above and marks the count as
//! not exact (a "static count"): a branch on an unknown value counts both
//! sides, a loop whose exit depends on unknown values counts its body once.

use super::flop_cost::flops;
use super::fold;
use super::structure::{structure, Arm, Node};
use dxjit::ir::{Dst, File, Inst, Program, Src};
use std::collections::{BTreeMap, HashMap};

/// Most iterations of one loop followed before it counts as unresolved.
const MAX_TRIPS: u64 = 1 << 20;
/// Most nodes visited in all; past this each loop body counts once.
const MAX_STEPS: u64 = 20_000_000;
/// Deepest nesting of calls followed.
const MAX_CALL_DEPTH: u32 = 32;

/// What one invocation executes, counted from the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StaticCounts {
    /// Single-precision float operations (see [`super::flop_cost`]).
    pub flops: u64,
    /// Texture lookups (`sample*`, `gather*`, `ld*` of a texture,
    /// `texld*`) executed.
    pub lookups: u64,
    /// Group barriers (`sync` with thread-group synchronisation) reached.
    pub barriers: u64,
    /// Whether every branch, loop exit and call was decided by known
    /// values; otherwise the counts are an upper bound ("static count").
    pub exact: bool,
}

/// The four components of each temporary whose value is known.
type Temps = HashMap<u32, [Option<u32>; 4]>;

/// How a block ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Next,
    Break,
    Continue,
    Return,
}

/// Counts one invocation of `prog` with constant buffer `slot` holding
/// `constants[slot]` (words from byte 0); the program's own constants
/// (D3D9 `def`) override them.
pub fn count(prog: &Program, constants: &BTreeMap<u32, Vec<u32>>) -> StaticCounts {
    let subroutines: HashMap<u32, Vec<Node>> = prog
        .subroutines
        .iter()
        .map(|(label, body)| (*label, structure(body)))
        .collect();
    let mut walk = Walk {
        prog,
        constants,
        subroutines: &subroutines,
        counts: StaticCounts {
            exact: true,
            ..StaticCounts::default()
        },
        steps: 0,
        depth: 0,
        uncertain_break: false,
    };
    walk.block(&structure(&prog.main), &mut Temps::new());
    walk.counts
}

/// The state of the walk.
struct Walk<'a, 's> {
    prog: &'a Program,
    constants: &'a BTreeMap<u32, Vec<u32>>,
    subroutines: &'s HashMap<u32, Vec<Node<'a>>>,
    counts: StaticCounts,
    steps: u64,
    depth: u32,
    /// A `breakc` on an unknown value was passed during the current pass
    /// of the innermost loop.
    uncertain_break: bool,
}

impl<'a> Walk<'a, '_> {
    fn block(&mut self, nodes: &[Node<'a>], temps: &mut Temps) -> Flow {
        for node in nodes {
            let flow = self.node(node, temps);
            if flow != Flow::Next {
                return flow;
            }
        }
        Flow::Next
    }

    fn node(&mut self, node: &Node<'a>, temps: &mut Temps) -> Flow {
        self.steps += 1;
        match node {
            Node::Inst(inst) => self.inst(inst, temps),
            Node::If {
                cond,
                nz,
                then,
                otherwise,
            } => match self.test(cond, *nz, temps) {
                Some(true) => self.block(then, temps),
                Some(false) => self.block(otherwise, temps),
                None => self.both(then, otherwise, temps),
            },
            Node::Loop(body) => self.repeat(body, temps),
            Node::Switch { sel, arms } => {
                let outer = std::mem::take(&mut self.uncertain_break);
                let flow = self.switch(sel, arms, temps);
                if self.uncertain_break {
                    self.counts.exact = false;
                }
                self.uncertain_break = outer;
                flow
            }
        }
    }

    /// Both sides of a branch on an unknown value.
    fn both(&mut self, then: &[Node<'a>], otherwise: &[Node<'a>], temps: &mut Temps) -> Flow {
        self.counts.exact = false;
        let mut other = temps.clone();
        let a = self.block(then, temps);
        let b = self.block(otherwise, &mut other);
        join(temps, &other);
        if a == b {
            return a;
        }
        if a == Flow::Break || b == Flow::Break {
            self.uncertain_break = true;
        }
        Flow::Next
    }

    /// A loop: its body again until a known exit, or once more than it can decide.
    fn repeat(&mut self, body: &[Node<'a>], temps: &mut Temps) -> Flow {
        let outer = std::mem::take(&mut self.uncertain_break);
        let mut trips = 0;
        let flow = loop {
            if trips == MAX_TRIPS || (trips > 0 && self.steps > MAX_STEPS) {
                self.unresolved(body, temps);
                break Flow::Next;
            }
            self.uncertain_break = false;
            let flow = self.block(body, temps);
            trips += 1;
            match flow {
                Flow::Break => break Flow::Next,
                Flow::Return => break Flow::Return,
                Flow::Next | Flow::Continue => {}
            }
            if self.uncertain_break {
                self.unresolved(body, temps);
                break Flow::Next;
            }
        };
        self.uncertain_break = outer;
        flow
    }

    /// Gives up on a loop: its registers are no longer known.
    fn unresolved(&mut self, body: &[Node<'a>], temps: &mut Temps) {
        self.counts.exact = false;
        forget_written(body, temps);
    }

    fn switch(&mut self, sel: &Src, arms: &[Arm<'a>], temps: &mut Temps) -> Flow {
        let Some(value) = self.read(sel, 0, temps) else {
            return self.every_arm(arms, temps);
        };
        let taken = arms
            .iter()
            .position(|a| a.labels.contains(&Some(value)))
            .or_else(|| arms.iter().position(|a| a.labels.contains(&None)));
        let Some(start) = taken else {
            return Flow::Next;
        };
        for arm in &arms[start..] {
            match self.block(&arm.body, temps) {
                Flow::Next => {}
                Flow::Break => return Flow::Next,
                other => return other,
            }
        }
        Flow::Next
    }

    /// Every arm of a switch on an unknown value, each from the state before it.
    fn every_arm(&mut self, arms: &[Arm<'a>], temps: &mut Temps) -> Flow {
        self.counts.exact = false;
        let before = temps.clone();
        let mut flows = Vec::new();
        let mut after: Option<Temps> = None;
        for arm in arms {
            let mut t = before.clone();
            let flow = self.block(&arm.body, &mut t);
            flows.push(if flow == Flow::Break {
                Flow::Next
            } else {
                flow
            });
            match &mut after {
                Some(a) => join(a, &t),
                None => after = Some(t),
            }
        }
        let has_default = arms.iter().any(|a| a.labels.contains(&None));
        let mut after = after.unwrap_or_else(|| before.clone());
        if !has_default {
            join(&mut after, &before);
            flows.push(Flow::Next);
        }
        *temps = after;
        match flows.first() {
            Some(f) if flows.iter().all(|g| g == f) => *f,
            _ => Flow::Next,
        }
    }

    fn inst(&mut self, inst: &Inst, temps: &mut Temps) -> Flow {
        self.counts.flops += flops(inst);
        match inst {
            Inst::Alu { op, dst, src } => {
                let mut out = [None; 4];
                for (c, o) in out.iter_mut().enumerate() {
                    if dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let args: Option<Vec<u32>> = src
                        .iter()
                        .map(|s| {
                            self.read(s, c, temps)
                                .and_then(|w| fold::modified(*op, s, w))
                        })
                        .collect();
                    *o = args.and_then(|a| fold::eval(*op, &a, dst.saturate));
                }
                write(dst, out, temps);
            }
            Inst::Sample { .. }
            | Inst::Gather { .. }
            | Inst::Fetch { .. }
            | Inst::LoadSample { .. } => self.counts.lookups += 1,
            Inst::Sync { group: true, .. } => self.counts.barriers += 1,
            Inst::Break => return Flow::Break,
            Inst::Continue => return Flow::Continue,
            Inst::Ret => return Flow::Return,
            Inst::BreakC { cond, nz } => match self.test(cond, *nz, temps) {
                Some(true) => return Flow::Break,
                Some(false) => {}
                None => self.uncertain_break = true,
            },
            Inst::ContinueC { cond, nz } => match self.test(cond, *nz, temps) {
                Some(true) => return Flow::Continue,
                Some(false) => {}
                None => self.counts.exact = false,
            },
            Inst::RetC { cond, nz } | Inst::Discard { cond, nz } => {
                match self.test(cond, *nz, temps) {
                    Some(true) => return Flow::Return,
                    Some(false) => {}
                    None => self.counts.exact = false,
                }
            }
            Inst::Call { label } => return self.call(*label, temps),
            Inst::CallC { cond, nz, label } => match self.test(cond, *nz, temps) {
                Some(true) => return self.call(*label, temps),
                Some(false) => {}
                None => {
                    self.counts.exact = false;
                    return self.call(*label, temps);
                }
            },
            other => {
                for dst in other.destinations() {
                    write(dst, [None; 4], temps);
                }
            }
        }
        Flow::Next
    }

    fn call(&mut self, label: u32, temps: &mut Temps) -> Flow {
        let Some(body) = self.subroutines.get(&label) else {
            return Flow::Next;
        };
        if self.depth >= MAX_CALL_DEPTH {
            self.counts.exact = false;
            temps.clear();
            return Flow::Next;
        }
        self.depth += 1;
        let outer = std::mem::take(&mut self.uncertain_break);
        self.block(body, temps);
        self.uncertain_break = outer;
        self.depth -= 1;
        Flow::Next
    }

    /// Whether a branch on `cond` is taken, when known.
    fn test(&self, cond: &Src, nz: bool, temps: &Temps) -> Option<bool> {
        self.read(cond, 0, temps).map(|v| (v != 0) == nz)
    }

    /// The register word `src` reads for destination component `c`, when known.
    fn read(&self, src: &Src, c: usize, temps: &Temps) -> Option<u32> {
        if src.index.rel.is_some() {
            return None;
        }
        let comp = usize::from(src.swizzle[c] & 3);
        let row = src.index.base;
        match src.file {
            File::Imm => Some(src.imm[comp]),
            File::Temp => temps.get(&row)?[comp],
            File::Const(slot) => self.constant(slot, row, comp),
            File::ImmConst => self.prog.icb.get(row as usize).map(|r| r[comp]),
            _ => None,
        }
    }

    fn constant(&self, slot: u32, row: u32, comp: usize) -> Option<u32> {
        let own = self
            .prog
            .const_overrides
            .iter()
            .rev()
            .find(|(s, r, _)| *s == slot && *r == row);
        if let Some((_, _, words)) = own {
            return Some(words[comp]);
        }
        let at = row as usize * 4 + comp;
        self.constants.get(&slot)?.get(at).copied()
    }
}

/// Stores what an instruction writes to a temporary; other files are not followed.
fn write(dst: &Dst, values: [Option<u32>; 4], temps: &mut Temps) {
    if dst.file != File::Temp {
        return;
    }
    if dst.index.rel.is_some() {
        temps.clear();
        return;
    }
    let reg = temps.entry(dst.index.base).or_insert([None; 4]);
    for (c, v) in values.into_iter().enumerate() {
        if dst.mask & (1 << c) != 0 {
            reg[c] = v;
        }
    }
}

/// Keeps in `a` only the values `b` agrees on.
fn join(a: &mut Temps, b: &Temps) {
    for (reg, comps) in a.iter_mut() {
        let other = b.get(reg).copied().unwrap_or([None; 4]);
        for (x, y) in comps.iter_mut().zip(other) {
            if *x != y {
                *x = None;
            }
        }
    }
}

/// Forgets every temporary a body writes (everything when it calls).
fn forget_written(nodes: &[Node], temps: &mut Temps) {
    for node in nodes {
        match node {
            Node::Inst(Inst::Call { .. } | Inst::CallC { .. }) => temps.clear(),
            Node::Inst(inst) => {
                for dst in inst.destinations() {
                    write(dst, [None; 4], temps);
                }
            }
            Node::If {
                then, otherwise, ..
            } => {
                forget_written(then, temps);
                forget_written(otherwise, temps);
            }
            Node::Loop(body) => forget_written(body, temps),
            Node::Switch { arms, .. } => {
                for arm in arms {
                    forget_written(&arm.body, temps);
                }
            }
        }
    }
}
