//! Loops whose trip count literals bound, which need no interrupt check at
//! their back edge.
//!
//! A loop qualifies when its body holds only arithmetic, raw and
//! structured memory accesses, `if`s and `break`s (no nested loop,
//! `switch`, `continue`, call or lookup that could run long), and a test at
//! its top level, before any write to a counter temp component, breaks
//! once the counter's value at the start of the iteration is no longer
//! below a literal (unsigned), while the top level adds a positive literal
//! to the counter as the only change the iteration makes to it. Such a
//! loop ends within `bound / step + 1` iterations whatever the counter
//! starts at. With at most [`MAX_TRIPS`] of them, and at most
//! [`MAX_WORK`] body instructions over all of them, it ends within a few
//! milliseconds, and the next unbounded loop or the end of the call sees
//! an interrupt. The walk follows `mov`s, as compilers copy the counter
//! through temps (`mov r6.y, r2.x; ult r6.z, r6.y, l(256); not r6.w,
//! r6.z; if_nz r6.w; break; endif; ...; iadd r12.y, r12.x, l(1); mov
//! r2.x, r12.y`).

use crate::ir::{AluOp, File, Inst, Src};
use std::collections::{HashMap, HashSet};

/// Most iterations a loop may run without an interrupt check.
pub const MAX_TRIPS: u64 = 4096;

/// Most body instructions, over all its iterations, a loop may run
/// without an interrupt check.
pub const MAX_WORK: u64 = 1 << 18;

/// A temp component: register and component.
type Key = (u32, u8);

/// What the top level knows of a temp component's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    /// The value `key` had when the iteration began, plus a literal.
    Plus(Key, u32),
    /// All ones when `key`'s start value is below the literal (unsigned).
    Below(Key, u32),
    /// All ones when `key`'s start value is not below the literal.
    NotBelow(Key, u32),
}

/// Whether the loop whose body starts at `rest[0]` (just after `loop`) is
/// bounded as the module documentation says.
pub fn is_bounded(rest: &[Inst]) -> bool {
    let Some(body) = body(rest) else {
        return false;
    };
    let mut known: HashMap<Key, Option<Known>> = HashMap::new();
    let mut nested_writes: HashSet<Key> = HashSet::new();
    let mut exits: Vec<(Key, u32)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < body.len() {
        let inst = &body[i];
        if inst
            .destinations()
            .iter()
            .any(|d| d.file == File::Temp && d.index.rel.is_some())
        {
            return false;
        }
        match inst {
            Inst::If { cond, nz } if depth == 0 => {
                if let Some(len) = exit_len(&body[i + 1..]) {
                    exits.extend(exit_of(&known, cond, *nz));
                    for inst in &body[i + 1..i + len] {
                        nested_writes.extend(temp_writes(inst));
                    }
                    i += len + 1;
                    continue;
                }
                depth += 1;
            }
            Inst::If { .. } => depth += 1,
            Inst::EndIf => depth = depth.saturating_sub(1),
            Inst::BreakC { cond, nz } if depth == 0 => exits.extend(exit_of(&known, cond, *nz)),
            Inst::Alu { op, dst, src } if depth == 0 && dst.file == File::Temp => {
                for c in (0..4u8).filter(|c| dst.mask & (1 << c) != 0) {
                    let value = compute(&known, *op, src, c as usize);
                    known.insert((dst.index.base, c), value);
                }
            }
            _ => {
                for key in temp_writes(inst) {
                    if depth == 0 {
                        known.insert(key, None);
                    } else {
                        nested_writes.insert(key);
                    }
                }
            }
        }
        i += 1;
    }
    exits.iter().any(|&(key, bound)| {
        !nested_writes.contains(&key)
            && matches!(known.get(&key), Some(Some(Known::Plus(k, step)))
            if *k == key && *step >= 1 && {
                let trips = u64::from(bound) / u64::from(*step) + 1;
                trips <= MAX_TRIPS && trips * body.len() as u64 <= MAX_WORK
            })
    })
}

/// The temp components `inst` writes.
fn temp_writes(inst: &Inst) -> Vec<Key> {
    inst.destinations()
        .iter()
        .filter(|d| d.file == File::Temp)
        .flat_map(|d| {
            (0..4u8)
                .filter(|c| d.mask & (1 << c) != 0)
                .map(|c| (d.index.base, c))
        })
        .collect()
}

/// When `after_if` (what follows an `if`) is arithmetic, then `break;
/// endif`: an exit whose side runs the arithmetic once on its way out
/// (a rotated loop's, `rotate`); the count of instructions up to the
/// `endif`, past the `if`.
fn exit_len(after_if: &[Inst]) -> Option<usize> {
    let ops = after_if
        .iter()
        .take_while(|i| matches!(i, Inst::Alu { .. } | Inst::Dot { .. }))
        .count();
    matches!(after_if.get(ops..ops + 2), Some([Inst::Break, Inst::EndIf])).then_some(ops + 2)
}

/// The loop body up to its `endloop`, when it holds only instructions that
/// take a short, bounded time: arithmetic, raw and structured memory
/// accesses, `if`s and `break`s.
fn body(rest: &[Inst]) -> Option<&[Inst]> {
    let end = rest.iter().position(|i| matches!(i, Inst::EndLoop))?;
    let body = &rest[..end];
    let plain = body.iter().all(|i| {
        matches!(
            i,
            Inst::Alu { .. }
                | Inst::Dot { .. }
                | Inst::LoadRaw { .. }
                | Inst::StoreRaw { .. }
                | Inst::LoadStructured { .. }
                | Inst::StoreStructured { .. }
                | Inst::If { .. }
                | Inst::Else
                | Inst::EndIf
                | Inst::Break
                | Inst::BreakC { .. }
        )
    });
    plain.then_some(body)
}

/// The value component `c` of `src` reads: a literal, or what is known of
/// a temp (its start value when the iteration has not written it).
fn read(known: &HashMap<Key, Option<Known>>, src: &Src, c: usize) -> Option<Read> {
    if src.neg || src.abs || src.index.rel.is_some() {
        return None;
    }
    let comp = src.swizzle[c] & 3;
    match src.file {
        File::Imm => Some(Read::Literal(src.imm[comp as usize])),
        File::Temp => {
            let key = (src.index.base, comp);
            match known.get(&key) {
                None => Some(Read::Value(Known::Plus(key, 0))),
                Some(value) => value.map(Read::Value),
            }
        }
        _ => None,
    }
}

/// A source's value: a literal or a known temp value.
#[derive(Clone, Copy)]
enum Read {
    Literal(u32),
    Value(Known),
}

/// What component `c` of an ALU result is known to be.
fn compute(known: &HashMap<Key, Option<Known>>, op: AluOp, src: &[Src], c: usize) -> Option<Known> {
    let arg = |n: usize| src.get(n).and_then(|s| read(known, s, c));
    match (op, arg(0), arg(1)) {
        (AluOp::Mov, Some(Read::Value(v)), _) => Some(v),
        (AluOp::IAdd, Some(Read::Value(Known::Plus(k, a))), Some(Read::Literal(b)))
        | (AluOp::IAdd, Some(Read::Literal(b)), Some(Read::Value(Known::Plus(k, a)))) => {
            (b <= 1 << 16).then(|| Known::Plus(k, a.wrapping_add(b)))
        }
        (AluOp::ULt, Some(Read::Value(Known::Plus(k, 0))), Some(Read::Literal(l))) => {
            Some(Known::Below(k, l))
        }
        (AluOp::UGe, Some(Read::Value(Known::Plus(k, 0))), Some(Read::Literal(l))) => {
            Some(Known::NotBelow(k, l))
        }
        (AluOp::Not, Some(Read::Value(Known::Below(k, l))), _) => Some(Known::NotBelow(k, l)),
        (AluOp::Not, Some(Read::Value(Known::NotBelow(k, l))), _) => Some(Known::Below(k, l)),
        _ => None,
    }
}

/// The (counter, bound) a break on `cond` (taken when it is nonzero, or
/// zero when not `nz`) ends the loop at, when it tests a counter's start
/// value against a literal.
fn exit_of(known: &HashMap<Key, Option<Known>>, cond: &Src, nz: bool) -> Option<(Key, u32)> {
    match (read(known, cond, 0)?, nz) {
        (Read::Value(Known::NotBelow(k, l)), true) | (Read::Value(Known::Below(k, l)), false) => {
            Some((k, l))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
