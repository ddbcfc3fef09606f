//! Loop rotation: a loop whose iteration feeds values it carries to the
//! next iteration into later work of the same iteration runs that later
//! work at the start of the next iteration instead, so that each carried
//! value has one reader, the back edge, where it is made.
//!
//! K1's loop is `a = a * 0.999 + 0.001; y = mad(y, a, -0.25)`: the new
//! `a` goes round the loop and into the `mad`. Rotated, an iteration runs
//! the `mad` of the iteration before (on the `a` it carried in), then the
//! new `a`: the `mad` and the next `a` are independent, and a loop of two
//! chains at 16 lanes (16 state vectors, which [`super::distribute`]
//! allows a loop that rotates: [`ROTATED_STATE_VECTORS`]) runs faster than
//! the loop it came from at 12 lanes, though the register allocator keeps
//! some of its `y`s on the stack.
//!
//! A loop qualifies when it is uniform and its body is control arithmetic
//! (what its exit test reads), the one exit test (`breakc`, or `if_(n)z
//! c; break; endif`), then arithmetic only (`Alu`, `Dot` on temps). The
//! deferred operations (**late**) are those that read a value the
//! iteration made and carries round, and every later operation that
//! depends on them or that they depend on not being changed yet; none may
//! touch what the exit test reads. The loop
//!
//! ```text
//! loop; P; exit; early and late in order; endloop
//! ```
//!
//! becomes a region run once around a loop whose iterations start with
//! the late work of the one before:
//!
//! ```text
//! loop
//!   P; exit (leaves the region: no iteration runs)
//!   early
//!   loop
//!     P; if exit { late; break }
//!     late; early
//!   endloop
//!   break
//! endloop
//! ```
//!
//! A late read of a value the iteration also copied into a carried
//! component reads that component instead, so the copy it was made into
//! need not go round the loop too.

use super::distribute::{access, close_control, temp_reads};
use super::uniform::Uniformity;
use crate::ir::{AluOp, Body, Components, File, Inst, Liveness, Program, Src};
use std::collections::HashMap;

/// Vectors of loop state a rotated loop may hold: all 16 xmm registers,
/// leaving none for its constants (each is loaded where a group of
/// operations uses it, and a value or two waits on the stack).
pub const ROTATED_STATE_VECTORS: usize = 16;

/// A temp component: register and component.
type Comp = (u32, u8);

/// Where a component's value at some point of an iteration came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Value {
    /// What the component held when the iteration began.
    Entry(Comp),
    /// Written by the body operation at this index (of the arithmetic
    /// after the exit), for this component.
    Made(usize, Comp),
}

/// How a qualifying loop is rotated.
#[derive(Debug)]
struct Plan {
    /// Index of the `loop` in `main`.
    open: usize,
    /// Index of its `endloop`.
    close: usize,
    /// The body instructions before the exit test (from `open + 1`).
    before: usize,
    /// The exit test's condition and sense (exit when nonzero if `nz`).
    exit: (Src, bool),
    /// Index in `main` of the first arithmetic after the exit.
    after: usize,
    /// For each arithmetic operation after the exit, whether it is late.
    late: Vec<bool>,
    /// The late operations, their reads redirected to carried copies.
    late_ops: Vec<Inst>,
}

/// The exit of a loop body whose arithmetic before it is `body[..at]`:
/// its condition, sense and length, when `body[at]` starts one.
fn exit_at(body: &[Inst], at: usize) -> Option<(Src, bool, usize)> {
    match body.get(at)? {
        Inst::BreakC { cond, nz } => Some((cond.clone(), *nz, 1)),
        Inst::If { cond, nz }
            if matches!(body.get(at + 1..at + 3), Some([Inst::Break, Inst::EndIf])) =>
        {
            Some((cond.clone(), *nz, 3))
        }
        _ => None,
    }
}

/// The destination components an operation writes, with the value each
/// then holds: a plain `mov` of a temp passes its source's value on.
fn made(inst: &Inst, index: usize, values: &HashMap<Comp, Value>) -> Vec<(Comp, Value)> {
    let value_of = |c: Comp| values.get(&c).copied().unwrap_or(Value::Entry(c));
    match inst {
        Inst::Alu {
            op: AluOp::Mov,
            dst,
            src,
        } if !dst.saturate && !src[0].neg && !src[0].abs && src[0].file == File::Temp => (0..4)
            .filter(|c| dst.mask & (1 << c) != 0)
            .map(|c| {
                let from = (src[0].index.base, src[0].swizzle[c] & 3);
                ((dst.index.base, c as u8), value_of(from))
            })
            .collect(),
        _ => match access(inst) {
            Some((_, writes)) => writes
                .into_iter()
                .map(|w| (w, Value::Made(index, w)))
                .collect(),
            None => Vec::new(),
        },
    }
}

/// The rotation of the loop at `main[open..=close]`, when it qualifies.
fn plan(
    prog: &Program,
    liveness: &Liveness,
    uniform: &Uniformity,
    open: usize,
    close: usize,
) -> Option<Plan> {
    let main = prog.main.as_slice();
    let body = &main[open + 1..close];
    if !uniform.loop_is_uniform(&main[open + 1..]) {
        return None;
    }
    let before = body.iter().take_while(|i| access(i).is_some()).count();
    let (cond, nz, exit_len) = exit_at(body, before)?;
    let ops = &body[before + exit_len..];
    let accesses: Vec<(Vec<Comp>, Vec<Comp>)> = ops.iter().map(access).collect::<Option<_>>()?;
    // Control: what the exit reads, closed over what writes it.
    let mut control = Components::new();
    for i in &body[..before] {
        let (reads, writes) = access(i)?;
        reads
            .into_iter()
            .chain(writes)
            .for_each(|c| control.insert(c));
    }
    let mut cond_reads = Vec::new();
    temp_reads(&cond, &[0], &mut cond_reads)?;
    cond_reads.into_iter().for_each(|c| control.insert(c));
    close_control(&mut control, accesses.iter().map(|(r, w)| (r, w)));
    let is_control =
        |(_, writes): &(Vec<Comp>, Vec<Comp>)| writes.iter().any(|w| control.contains(w));
    // The value each component holds after each operation.
    let mut values: HashMap<Comp, Value> = HashMap::new();
    let mut seen: Vec<HashMap<Comp, Value>> = Vec::with_capacity(ops.len());
    for (j, op) in ops.iter().enumerate() {
        seen.push(values.clone());
        for (c, v) in made(op, j, &values) {
            values.insert(c, v);
        }
    }
    // Values the iteration makes and carries round: each carried
    // component's final value, when made in this iteration.
    let carried_in = liveness.after(open);
    let mut carriers: HashMap<Value, Comp> = HashMap::new();
    for (&c, &v) in &values {
        if carried_in.contains(&c) && matches!(v, Value::Made(..)) && !control.contains(&c) {
            carriers.entry(v).or_insert(c);
        }
    }
    // Late: reads a carried value other than to copy it to its carrier;
    // then what conflicts with earlier late operations. Control stays
    // where it is: late work that would conflict with it touches what the
    // control reads or writes, which is refused below.
    let mut late = vec![false; ops.len()];
    for (j, op) in ops.iter().enumerate() {
        if is_control(&accesses[j]) {
            continue;
        }
        // A plain copy of a carried value into the component carrying it.
        let copy_home = made(op, j, &seen[j])
            .iter()
            .all(|(c, v)| !matches!(v, Value::Made(i, _) if *i == j) && carriers.get(v) == Some(c));
        let reads_carried = accesses[j]
            .0
            .iter()
            .any(|r| seen[j].get(r).is_some_and(|v| carriers.contains_key(v)));
        let conflicts = (0..j).filter(|&i| late[i]).any(|i| {
            let (ri, wi) = &accesses[i];
            let (rj, wj) = &accesses[j];
            rj.iter().any(|c| wi.contains(c)) || wj.iter().any(|c| ri.contains(c) || wi.contains(c))
        });
        if conflicts || (reads_carried && !copy_home) {
            late[j] = true;
        }
    }
    // Late work must not move across the control: it neither reads what
    // the control writes nor writes what the exit test reads.
    let control_written: Vec<Comp> = body[..before]
        .iter()
        .chain(ops.iter())
        .filter_map(access)
        .flat_map(|(_, w)| w)
        .filter(|c| control.contains(c))
        .collect();
    let touches_control = (0..ops.len()).filter(|&j| late[j]).any(|j| {
        let (reads, writes) = &accesses[j];
        reads.iter().any(|c| control_written.contains(c))
            || writes.iter().any(|c| control.contains(c))
    });
    let count = late.iter().filter(|&&l| l).count();
    if touches_control || count == 0 || count == ops.len() {
        return None;
    }
    let late_ops = redirect(ops, &late, carried_in);
    Some(Plan {
        open,
        close,
        before,
        exit: (cond, nz),
        after: open + 1 + before + exit_len,
        late,
        late_ops,
    })
}

/// The late operations of `ops`, each temp read redirected, where it can
/// be, to a component the loop carries round (live where its body
/// begins, `carried`) that holds the same value when the late operation
/// runs: after every early operation and the late ones before it. Every
/// component a source reads must move to the same register, or the
/// source stays as it is (it reads the right value either way: early
/// operations after it in the body do not touch what it reads).
fn redirect(ops: &[Inst], late: &[bool], carried: &Components) -> Vec<Inst> {
    let mut state: HashMap<Comp, Value> = HashMap::new();
    for (j, op) in ops.iter().enumerate().filter(|(j, _)| !late[*j]) {
        for (c, v) in made(op, j, &state) {
            state.insert(c, v);
        }
    }
    let mut out = Vec::new();
    for (j, op) in ops.iter().enumerate().filter(|(j, _)| late[*j]) {
        let mut op = op.clone();
        let home = |from: Comp| -> Comp {
            let value = state.get(&from).copied().unwrap_or(Value::Entry(from));
            if carried.contains(&from) {
                return from;
            }
            carried
                .iter()
                .find(|c| state.get(c).copied().unwrap_or(Value::Entry(*c)) == value)
                .unwrap_or(from)
        };
        let target = |src: &Src, comps: &[usize]| -> Option<Src> {
            if src.file != File::Temp || src.index.rel.is_some() {
                return None;
            }
            let mut to = src.clone();
            let mut reg = None;
            for &c in comps {
                let h = home((src.index.base, src.swizzle[c] & 3));
                if reg.is_some_and(|r| r != h.0) {
                    return None;
                }
                reg = Some(h.0);
                to.swizzle[c] = h.1;
            }
            to.index.base = reg?;
            Some(to)
        };
        match &mut op {
            Inst::Alu { dst, src, .. } => {
                let comps: Vec<usize> = (0..4).filter(|c| dst.mask & (1 << c) != 0).collect();
                for s in src.iter_mut() {
                    if let Some(t) = target(s, &comps) {
                        *s = t;
                    }
                }
            }
            Inst::Dot { n, a, b, .. } => {
                let comps: Vec<usize> = (0..usize::from(*n).min(4)).collect();
                for s in [a, b] {
                    if let Some(t) = target(s, &comps) {
                        *s = t;
                    }
                }
            }
            _ => {}
        }
        for (c, v) in made(&op, j, &state) {
            state.insert(c, v);
        }
        out.push(op);
    }
    out
}

/// The innermost loops of `main`, as (open, close) pairs.
fn innermost_loops(main: &[Inst]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Vec<(usize, bool)> = Vec::new();
    for (i, inst) in main.iter().enumerate() {
        match inst {
            Inst::Loop => {
                if let Some(last) = open.last_mut() {
                    last.1 = false;
                }
                open.push((i, true));
            }
            Inst::EndLoop => {
                if let Some((o, innermost)) = open.pop() {
                    if innermost {
                        out.push((o, i));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the loop at `main[open..=close]` of `prog` (whose liveness
/// and uniformity these are) would be rotated.
pub fn rotates(
    prog: &Program,
    liveness: &Liveness,
    uniform: &Uniformity,
    open: usize,
    close: usize,
) -> bool {
    let main = prog.main.as_slice();
    let innermost = !main[open + 1..close]
        .iter()
        .any(|i| matches!(i, Inst::Loop));
    innermost && plan(prog, liveness, uniform, open, close).is_some()
}

/// `prog` with every qualifying loop rotated; `None` when none qualifies.
pub fn rotate_loops(prog: &Program) -> Option<Program> {
    let liveness = Liveness::of(prog);
    let uniform = Uniformity::of(prog);
    let main = prog.main.as_slice();
    let plans: Vec<Plan> = innermost_loops(main)
        .into_iter()
        .filter_map(|(o, c)| plan(prog, &liveness, &uniform, o, c))
        .collect();
    if plans.is_empty() {
        return None;
    }
    log::debug!("loop rotation: {} loop(s) rotated", plans.len());
    let mut out = Body::new();
    let mut at = 0;
    let copy = |out: &mut Body, range: std::ops::Range<usize>| {
        for i in range {
            out.push(main[i].clone(), prog.main.pos(i));
        }
    };
    for p in &plans {
        copy(&mut out, at..p.open);
        let pos = |i: usize| prog.main.pos(i);
        let (cond, nz) = &p.exit;
        let early = |out: &mut Body| {
            for (j, late) in p.late.iter().enumerate() {
                if !late {
                    out.push(main[p.after + j].clone(), pos(p.after + j));
                }
            }
        };
        let late = |out: &mut Body| {
            for op in &p.late_ops {
                out.push(op.clone(), None);
            }
        };
        // A loop's start: `loop`, the control before the exit test, then
        // the test as `exit` makes it.
        let head = |out: &mut Body, exit: fn(Src, bool) -> Inst| {
            out.push(Inst::Loop, pos(p.open));
            copy(out, p.open + 1..p.open + 1 + p.before);
            out.push(exit(cond.clone(), *nz), None);
        };
        head(&mut out, |cond, nz| Inst::BreakC { cond, nz });
        early(&mut out);
        head(&mut out, |cond, nz| Inst::If { cond, nz });
        late(&mut out);
        out.push(Inst::Break, None);
        out.push(Inst::EndIf, None);
        late(&mut out);
        early(&mut out);
        out.push(Inst::EndLoop, pos(p.close));
        out.push(Inst::Break, None);
        out.push(Inst::EndLoop, pos(p.close));
        at = p.close + 1;
    }
    copy(&mut out, at..main.len());
    let mut rotated = prog.clone();
    rotated.main = out;
    Some(rotated)
}

#[cfg(test)]
mod tests;
