//! Temps split into their live ranges: each set of writes whose values
//! meet at some read (a web) gets a register of its own, so that a temp a
//! shader reuses for unrelated values (fxc reuses its registers freely)
//! becomes several. The analyses that judge a register as a whole
//! (uniformity, scalar temps, strides) then judge each use apart: a
//! register that holds a per-group value at the top of a shader and a
//! per-thread one later is uniform where it holds the first.
//!
//! Per thread the program computes the same values: every read names the
//! register that every write reaching it names. Writes that reach a read
//! together, the components one operand reads or writes together, and
//! the values a temp holds before any write (left in the register they
//! had) are kept in one register.
//!
//! Main alone is split, and only in compute shaders with group barriers
//! (where a register's uniformity decides whether a group runs phase by
//! phase: three of Mass Effect Andromeda's tile shaders do once split)
//! that have no subroutines (their writes and reads would be main's too)
//! and index no temp. Elsewhere the split left the backend a worse
//! allocation: K1's loop made 32 more vector loads and ran 5 % slower.

use super::main_flow::successors;
use crate::ir::{Body, Dst, File, Inst, Program, Src};

/// The most temps a split program may have (Direct3D's limit).
const MAX_TEMPS: u32 = 4096;

/// `prog` with main's temps split into webs, or `None` when it does not
/// apply or nothing splits.
pub fn split_live_ranges(prog: &Program) -> Option<Program> {
    let main = prog.main.as_slice();
    if !super::group_loop::runs_group(prog)
        || !prog.subroutines.is_empty()
        || main.iter().any(indexes_a_temp)
    {
        return None;
    }
    let succ = successors(main)?;
    let slots = prog.temps as usize * 4;
    let defs = Defs::of(main, slots);
    let reaching = reaching(main, &succ, &defs);
    let mut webs = UnionFind::new(defs.count());
    for (i, inst) in main.iter().enumerate() {
        for src in reads(inst) {
            let mut first: Option<usize> = None;
            for c in src.swizzle {
                let slot = src.index.base as usize * 4 + usize::from(c & 3);
                for d in defs.of_slot(slot).filter(|d| reaching[i].has(*d)) {
                    match first {
                        Some(f) => webs.union(f, d),
                        None => first = Some(d),
                    }
                }
            }
        }
        for dst in temp_dsts(inst) {
            let mut written = defs.at(i, dst);
            if let Some(first) = written.next() {
                written.for_each(|d| webs.union(first, d));
            }
        }
    }
    rename(prog, &defs, &reaching, &mut webs)
}

/// Whether `inst` reads or writes a temp at a relative index.
fn indexes_a_temp(inst: &Inst) -> bool {
    let dsts = inst.destinations();
    reads(inst).iter().any(|s| s.index.rel.is_some())
        || dsts
            .iter()
            .any(|d| d.file == File::Temp && d.index.rel.is_some())
}

/// Every temp operand `inst` reads, relative indices (of any operand)
/// included.
fn reads(inst: &Inst) -> Vec<&Src> {
    fn add<'a>(src: &'a Src, out: &mut Vec<&'a Src>) {
        if src.file == File::Temp {
            out.push(src);
        }
        if let Some(rel) = &src.index.rel {
            add(rel, out);
        }
    }
    let mut out = Vec::new();
    for src in inst.sources() {
        add(src, &mut out);
    }
    for dst in inst.destinations() {
        if let Some(rel) = &dst.index.rel {
            add(rel, &mut out);
        }
    }
    out
}

/// The temp destinations of `inst`.
fn temp_dsts(inst: &Inst) -> Vec<&Dst> {
    inst.destinations()
        .into_iter()
        .filter(|d| d.file == File::Temp)
        .collect()
}

/// The writes of main's temp components: one per slot (`r × 4 + c`) for
/// its value before any write, then one per component an instruction
/// writes.
struct Defs {
    slots: usize,
    /// (instruction, slot) of each write past the first `slots`.
    writes: Vec<(usize, usize)>,
    /// The writes of each slot.
    by_slot: Vec<Vec<usize>>,
}

impl Defs {
    fn of(main: &[Inst], slots: usize) -> Defs {
        let mut by_slot: Vec<Vec<usize>> = (0..slots).map(|s| vec![s]).collect();
        let mut writes = Vec::new();
        for (i, inst) in main.iter().enumerate() {
            for dst in temp_dsts(inst) {
                for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                    let slot = dst.index.base as usize * 4 + c;
                    if slot < slots {
                        by_slot[slot].push(slots + writes.len());
                        writes.push((i, slot));
                    }
                }
            }
        }
        Defs {
            slots,
            writes,
            by_slot,
        }
    }

    fn count(&self) -> usize {
        self.slots + self.writes.len()
    }

    /// The register write (or first value) `d` is of.
    fn register(&self, d: usize) -> u32 {
        let slot = match d.checked_sub(self.slots) {
            Some(w) => self.writes[w].1,
            None => d,
        };
        slot as u32 / 4
    }

    fn of_slot(&self, slot: usize) -> impl Iterator<Item = usize> + '_ {
        self.by_slot.get(slot).into_iter().flatten().copied()
    }

    /// The writes instruction `i` makes through `dst`.
    fn at<'a>(&'a self, i: usize, dst: &'a Dst) -> impl Iterator<Item = usize> + 'a {
        (0..4)
            .filter(move |c| dst.mask & (1 << c) != 0)
            .filter_map(move |c| {
                let slot = dst.index.base as usize * 4 + c;
                self.of_slot(slot)
                    .find(|d| *d >= self.slots && self.writes[*d - self.slots].0 == i)
            })
    }
}

/// A set of writes.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// Adds `other`'s members; whether any was new.
    fn add(&mut self, other: &Bits) -> bool {
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let joined = *a | b;
            grew |= joined != *a;
            *a = joined;
        }
        grew
    }
}

/// The writes that reach each instruction of `main` (before it runs).
fn reaching(main: &[Inst], succ: &[Vec<usize>], defs: &Defs) -> Vec<Bits> {
    let n = defs.count();
    let mut into = vec![Bits::new(n); main.len() + 1];
    if let Some(first) = into.first_mut() {
        (0..defs.slots).for_each(|s| first.set(s));
    }
    let mut work: Vec<usize> = (0..main.len()).rev().collect();
    let mut queued = vec![true; main.len()];
    while let Some(i) = work.pop() {
        queued[i] = false;
        let mut out = into[i].clone();
        for dst in temp_dsts(&main[i]) {
            for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                let slot = dst.index.base as usize * 4 + c;
                defs.of_slot(slot).for_each(|d| out.clear(d));
            }
            defs.at(i, dst).for_each(|d| out.set(d));
        }
        for &s in &succ[i] {
            if into[s].add(&out) && s < main.len() && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    into
}

/// Disjoint sets of writes.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind((0..n).collect())
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
}

/// `prog` with each web's reads and writes renamed: the first web of a
/// temp met in main, and every web holding its first value, keep its
/// register (which held them all); the others get new ones.
fn rename(prog: &Program, defs: &Defs, reaching: &[Bits], webs: &mut UnionFind) -> Option<Program> {
    let temps = prog.temps;
    let mut register: Vec<Option<u32>> = vec![None; defs.count()];
    let mut kept = vec![false; temps as usize];
    let mut next = temps;
    let mut name = |d: usize, webs: &mut UnionFind| -> u32 {
        // A web's root is its least write: a first value when it holds one.
        let root = webs.find(d);
        let own = defs.register(root);
        *register[root].get_or_insert_with(|| {
            if root < defs.slots || !std::mem::replace(&mut kept[own as usize], true) {
                kept[own as usize] = true;
                own
            } else {
                next += 1;
                next - 1
            }
        })
    };
    let main = prog.main.as_slice();
    let mut out = Body::new();
    for (i, inst) in main.iter().enumerate() {
        let mut inst = inst.clone();
        let named: Vec<Option<u32>> = reads(&inst)
            .iter()
            .map(|src| {
                src.swizzle.iter().find_map(|c| {
                    let slot = src.index.base as usize * 4 + usize::from(c & 3);
                    defs.of_slot(slot).find(|d| reaching[i].has(*d))
                })
            })
            .map(|d| d.map(|d| name(d, webs)))
            .collect();
        let written: Vec<Option<u32>> = temp_dsts(&inst)
            .iter()
            .map(|dst| defs.at(i, dst).next().map(|d| name(d, webs)))
            .collect();
        let mut reads_left = named.into_iter();
        for_each_read_mut(&mut inst, &mut |src| {
            if let Some(Some(reg)) = reads_left.next() {
                src.index.base = reg;
            }
        });
        let mut writes_left = written.into_iter();
        for dst in inst.destinations_mut() {
            if dst.file == File::Temp {
                if let Some(Some(reg)) = writes_left.next() {
                    dst.index.base = reg;
                }
            }
        }
        out.push(inst, prog.main.pos(i));
    }
    if next == temps || next > MAX_TEMPS {
        return None;
    }
    log::debug!("live ranges: {} temps split into {next}", temps);
    let mut split = prog.clone();
    split.main = out;
    split.temps = next;
    Some(split)
}

/// Calls `f` on every temp operand `inst` reads, in the order of
/// [`reads`].
fn for_each_read_mut(inst: &mut Inst, f: &mut impl FnMut(&mut Src)) {
    fn visit(src: &mut Src, f: &mut impl FnMut(&mut Src)) {
        if src.file == File::Temp {
            f(src);
        }
        if let Some(rel) = &mut src.index.rel {
            visit(rel, f);
        }
    }
    for src in inst.sources_mut() {
        visit(src, f);
    }
    for dst in inst.destinations_mut() {
        if let Some(rel) = &mut dst.index.rel {
            visit(rel, f);
        }
    }
}

#[cfg(test)]
mod tests;
