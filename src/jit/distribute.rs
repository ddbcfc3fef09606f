//! Loop distribution: a loop whose iterations carry independent chains of
//! arithmetic becomes one loop per group of chains, each running the same
//! iterations, so that each loop's state fits in the vector registers.
//!
//! A loop qualifies when its body holds only `Alu` and `Dot` operations
//! on temps (no relative indexing, no outputs) and exits through
//! `breakc` or `if_(n)z c; break; endif`. Its **control** is every temp
//! component the exit tests read, closed over the operations that write
//! them: those operations must read and write control components only (or
//! values the loop leaves alone). Every other operation belongs to a
//! **chain**: operations are joined when one reads a component another
//! writes, or when they write the same one. With two chains or more,
//! each copy of the loop runs the control and its own chains, in their
//! order, so every component ends with the value it had before; control
//! components the loop writes are saved to fresh temps before the first
//! copy and restored before each later one.
//!
//! Chains are packed into as few loops as keep each loop's state within
//! [`STATE_VECTORS`] at the chosen lane count, or within
//! [`super::rotate::ROTATED_STATE_VECTORS`] when the loop rotates (its
//! copies are rotated after the split). [`lanes_for`] picks that
//! count: the one filling the registers best without spilling.

use crate::ir::{AluOp, Body, Components, Dst, File, Inst, Liveness, Program, Src};
use std::collections::HashMap;

/// Vectors of loop state a loop may hold in registers: the 16 xmm
/// registers less two for the constants and temporaries its operations
/// load.
pub const STATE_VECTORS: usize = 14;

/// A loop that may be split: where it is and what its body holds.
struct Candidate {
    /// Index of the `loop` in `main`.
    open: usize,
    /// Index of its `endloop`.
    close: usize,
    /// For each body instruction (from `open + 1`), its chain, or `None`
    /// for control.
    chain_of: Vec<Option<usize>>,
    /// Components each chain carries from one iteration to the next (at
    /// least one).
    sizes: Vec<usize>,
    /// Control components the loop writes.
    control_written: Vec<(u32, u8)>,
    /// The vectors of state each of its copies may hold: more once
    /// rotated ([`super::rotate`]).
    limit: usize,
}

/// Temp components, as (register, component).
type Comps = Vec<(u32, u8)>;

/// Adds to `out` the temp components `src` supplies to the destination
/// components `comps` (`None` when relative indexing makes them unknown).
pub(super) fn temp_reads(src: &Src, comps: &[usize], out: &mut Vec<(u32, u8)>) -> Option<()> {
    if src.index.rel.is_some() {
        return None;
    }
    if src.file == File::Temp {
        out.extend(comps.iter().map(|&c| (src.index.base, src.swizzle[c] & 3)));
    }
    Some(())
}

/// Temp components an instruction of a loop body reads and writes, when
/// it is an operation a distributed loop may hold (writing at least one).
pub(super) fn access(inst: &Inst) -> Option<(Comps, Comps)> {
    let mut reads = Vec::new();
    let (dst, srcs, comps): (&Dst, Vec<&Src>, Vec<usize>) = match inst {
        Inst::Alu { dst, src, .. } => {
            let comps = (0..4).filter(|c| dst.mask & (1 << c) != 0).collect();
            (dst, src.iter().collect(), comps)
        }
        Inst::Dot { n, dst, a, b, .. } => (dst, vec![a, b], (0..usize::from(*n).min(4)).collect()),
        _ => return None,
    };
    if dst.file != File::Temp || dst.index.rel.is_some() {
        return None;
    }
    for s in srcs {
        if matches!(s.file, File::Output | File::Indexable(_)) {
            return None;
        }
        temp_reads(s, &comps, &mut reads)?;
    }
    let writes: Comps = (0..4u8)
        .filter(|c| dst.mask & (1 << c) != 0)
        .map(|c| (dst.index.base, c))
        .collect();
    (!writes.is_empty()).then_some((reads, writes))
}

/// Union-find over temp components.
#[derive(Default)]
struct Sets {
    parent: HashMap<(u32, u8), (u32, u8)>,
}

impl Sets {
    fn find(&mut self, x: (u32, u8)) -> (u32, u8) {
        let p = *self.parent.entry(x).or_insert(x);
        if p == x {
            return x;
        }
        let root = self.find(p);
        self.parent.insert(x, root);
        root
    }

    fn join(&mut self, a: (u32, u8), b: (u32, u8)) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent.insert(a, b);
        }
    }
}

/// The components the exit tests of a loop body read, when the body holds
/// only operations a distributed loop may hold and `breakc` or `if_(n)z
/// c; break; endif` exits.
fn exit_reads(body: &[Inst]) -> Option<Components> {
    let mut control = Components::new();
    let mut i = 0;
    while i < body.len() {
        let cond = match &body[i] {
            Inst::BreakC { cond, .. } => cond,
            Inst::If { cond, .. } => {
                if !matches!(body.get(i + 1..i + 3), Some([Inst::Break, Inst::EndIf])) {
                    return None;
                }
                i += 2;
                cond
            }
            inst => {
                access(inst)?;
                i += 1;
                continue;
            }
        };
        let mut reads = Vec::new();
        temp_reads(cond, &[0], &mut reads)?;
        reads.into_iter().for_each(|r| control.insert(r));
        i += 1;
    }
    Some(control)
}

/// `control` closed over the operations that write it (their reads and
/// writes): each such operation's reads and writes are control too.
pub(super) fn close_control<'a>(
    control: &mut Components,
    ops: impl Iterator<Item = (&'a Comps, &'a Comps)> + Clone,
) {
    loop {
        let before = control.len();
        for (reads, writes) in ops.clone() {
            if writes.iter().any(|w| control.contains(w)) {
                writes.iter().chain(reads).for_each(|&c| control.insert(c));
            }
        }
        if control.len() == before {
            return;
        }
    }
}

/// The loop at `main[open..=close]`, if it qualifies and has two chains
/// or more.
fn candidate(main: &[Inst], live: &Components, open: usize, close: usize) -> Option<Candidate> {
    let body = &main[open + 1..close];
    let mut control = exit_reads(body)?;
    let ops: Vec<(usize, Comps, Comps)> = body
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| access(inst).map(|(r, w)| (i, r, w)))
        .collect();
    close_control(&mut control, ops.iter().map(|(_, r, w)| (r, w)));
    let written: Components = ops.iter().flat_map(|(_, _, w)| w.iter().copied()).collect();
    let mut sets = Sets::default();
    for (_, reads, writes) in &ops {
        if writes.iter().any(|w| control.contains(w)) {
            continue;
        }
        for &r in reads
            .iter()
            .filter(|r| written.contains(r) && !control.contains(r))
        {
            sets.join(r, writes[0]);
        }
        for &w in &writes[1..] {
            sets.join(w, writes[0]);
        }
    }
    let mut chains: HashMap<(u32, u8), usize> = HashMap::new();
    let mut sizes = Vec::new();
    let mut chain_of = vec![None; body.len()];
    for (i, _, writes) in &ops {
        if writes.iter().any(|w| control.contains(w)) {
            continue;
        }
        let root = sets.find(writes[0]);
        let next = chains.len();
        let chain = *chains.entry(root).or_insert(next);
        if chain == sizes.len() {
            sizes.push(0);
        }
        chain_of[*i] = Some(chain);
    }
    if sizes.len() < 2 {
        return None;
    }
    for c in written
        .iter()
        .filter(|c| !control.contains(c) && live.contains(c))
    {
        let root = sets.find(c);
        if let Some(&chain) = chains.get(&root) {
            sizes[chain] += 1;
        }
    }
    sizes.iter_mut().for_each(|s| *s = (*s).max(1));
    Some(Candidate {
        open,
        close,
        chain_of,
        sizes,
        control_written: written.iter().filter(|c| control.contains(c)).collect(),
        limit: STATE_VECTORS,
    })
}

/// Every loop of `prog`'s main function that may be split, `liveness`
/// being `prog`'s.
fn candidates(prog: &Program, liveness: &Liveness) -> Vec<Candidate> {
    let main = &prog.main;
    // Only a program with a candidate loop needs its uniformity.
    let uniform = std::cell::OnceCell::new();
    let mut out = Vec::new();
    let mut open = Vec::new();
    for (i, inst) in main.iter().enumerate() {
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => open.push((i, inst)),
            Inst::EndLoop => {
                if let Some((o, Inst::Loop)) = open.pop() {
                    out.extend(candidate(main, liveness.after(o), o, i).map(|mut c| {
                        let uniform = uniform.get_or_init(|| super::uniform::Uniformity::of(prog));
                        if super::rotate::rotates(prog, liveness, uniform, o, i) {
                            c.limit = super::rotate::ROTATED_STATE_VECTORS;
                        }
                        c
                    }));
                }
            }
            Inst::EndIf | Inst::EndSwitch => {
                open.pop();
            }
            _ => {}
        }
    }
    out
}

/// The chains of a loop packed into groups of at most `limit` vectors at
/// `k` vectors a component, as evenly as the count of groups
/// allows; `None` when one chain alone is larger.
fn groups(sizes: &[usize], k: usize, limit: usize) -> Option<Vec<Vec<usize>>> {
    let total: usize = sizes.iter().sum();
    if sizes.iter().any(|s| s * k > limit) {
        return None;
    }
    let mut count = (total * k).div_ceil(limit).max(1);
    loop {
        let share = total.div_ceil(count);
        let mut out: Vec<Vec<usize>> = vec![Vec::new()];
        let mut size = 0;
        for (chain, &s) in sizes.iter().enumerate() {
            if size + s > share && size > 0 {
                out.push(Vec::new());
                size = 0;
            }
            size += s;
            out.last_mut()?.push(chain);
        }
        let fits = out
            .iter()
            .all(|g| g.iter().map(|&c| sizes[c]).sum::<usize>() * k <= limit);
        if fits {
            return Some(out);
        }
        count += 1;
    }
}

/// The loops of a program that [`split_loops`] may split.
pub struct Splittable(Vec<Candidate>);

impl Splittable {
    /// The splittable loops of `prog`, whose liveness is `liveness`.
    pub fn of(prog: &Program, liveness: &Liveness) -> Splittable {
        Splittable(candidates(prog, liveness))
    }

    /// Whether the loop opened at `main[pos]` is one of them.
    pub fn contains(&self, pos: usize) -> bool {
        self.0.iter().any(|l| l.open == pos)
    }
}

/// The share of a compute shader's lanes that hold threads at `k`
/// vectors a component (a group's threads run in calls of `4k` lanes);
/// one for other stages.
fn occupancy(prog: &Program, k: usize) -> f64 {
    if prog.stage != crate::ir::Stage::Compute {
        return 1.0;
    }
    let threads = prog.thread_group.iter().product::<u32>().max(1) as usize;
    let lanes = 4 * k;
    threads as f64 / threads.next_multiple_of(lanes) as f64
}

/// The vector count per component, at most `max_k`, that fills the
/// registers best, times the share of lanes holding threads, when every
/// loop of `loops` (`prog`'s) is split (larger counts first among equals);
/// `None` when none of them needs splitting at `max_k`.
pub fn lanes_for(prog: &Program, loops: &Splittable, max_k: usize) -> Option<usize> {
    let loops = &loops.0;
    let needs = |k: usize| {
        loops
            .iter()
            .any(|l| l.sizes.iter().sum::<usize>() * k > l.limit)
    };
    if !needs(max_k) {
        return None;
    }
    let score = |k: usize| {
        let fill = loops
            .iter()
            .map(|l| {
                let g = groups(&l.sizes, k, l.limit)?;
                g.iter()
                    .map(|g| g.iter().map(|&c| l.sizes[c]).sum::<usize>() * k)
                    .max()
            })
            .try_fold(usize::MAX, |acc, f| f.map(|f| acc.min(f)))?;
        Some(fill as f64 * occupancy(prog, k))
    };
    (1..=max_k)
        .rev()
        .filter_map(|k| score(k).map(|s| (s, k)))
        .fold(None, |best: Option<(f64, usize)>, (s, k)| match best {
            Some((b, _)) if b >= s => best,
            _ => Some((s, k)),
        })
        .map(|(_, k)| k)
}

/// `prog` with each splittable loop whose state exceeds the registers at
/// `k` split into loops that fit; `None` when nothing is split.
pub fn split_loops(prog: &Program, k: usize) -> Option<Program> {
    let loops: Vec<(Candidate, Vec<Vec<usize>>)> = candidates(prog, &Liveness::of(prog))
        .into_iter()
        .filter(|l| l.sizes.iter().sum::<usize>() * k > l.limit)
        .filter_map(|l| {
            let g = groups(&l.sizes, k, l.limit)?;
            (g.len() > 1).then_some((l, g))
        })
        .collect();
    if loops.is_empty() {
        return None;
    }
    let mut out = prog.clone();
    let mut main = Body::new();
    let mut next_temp = prog.temps;
    let mut at = 0;
    for (l, groups) in &loops {
        for i in at..l.open {
            main.push(prog.main[i].clone(), prog.main.pos(i));
        }
        let saved: Vec<((u32, u8), (u32, u8))> = l
            .control_written
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, (next_temp + i as u32 / 4, (i % 4) as u8)))
            .collect();
        next_temp += (saved.len() as u32).div_ceil(4);
        let copy = |from: (u32, u8), to: (u32, u8)| {
            let mut src = Src::temp(from.0);
            src.swizzle = [from.1; 4];
            Inst::Alu {
                op: AluOp::Mov,
                dst: Dst::temp(to.0, 1 << to.1),
                src: vec![src],
            }
        };
        for &(c, s) in &saved {
            main.push(copy(c, s), None);
        }
        for (n, group) in groups.iter().enumerate() {
            if n > 0 {
                for &(c, s) in &saved {
                    main.push(copy(s, c), None);
                }
            }
            main.push(Inst::Loop, prog.main.pos(l.open));
            for (j, chain) in l.chain_of.iter().enumerate() {
                if chain.is_none_or(|c| group.contains(&c)) {
                    let i = l.open + 1 + j;
                    main.push(prog.main[i].clone(), prog.main.pos(i));
                }
            }
            main.push(Inst::EndLoop, prog.main.pos(l.close));
        }
        at = l.close + 1;
    }
    for i in at..prog.main.len() {
        main.push(prog.main[i].clone(), prog.main.pos(i));
    }
    // The saved control components take fresh temps, within the limit.
    let indexable: u64 = prog.indexables.iter().map(|x| u64::from(x.count)).sum();
    if u64::from(next_temp) + indexable > super::MAX_TEMPS {
        return None;
    }
    out.main = main;
    out.temps = next_temp;
    Some(out)
}

#[cfg(test)]
mod tests;
