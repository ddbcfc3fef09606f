//! Group-shared loads that every thread of a group reads alike: a load
//! from `g#` whose stretch of main between group barriers holds no write
//! to `g#` (no store, no atomic) on any path, before the load or after it.
//!
//! Every thread of a group runs such a stretch between the same two
//! barriers (or the start and the end), and nothing changes the variable
//! while any of them is in it: a load at a place that is the same for
//! every thread reads the same value in every thread, whichever batch
//! runs first. DOA6's sort loop tests a flag in group-shared memory this
//! way, with barriers inside the loop.

use super::main_flow::successors;
use crate::ir::{Inst, Resource};

/// How many group-shared variables the analysis follows, one bit each
/// (`g0` to `g63`): a load from a later one is never quiet, and a write to
/// one counts as a write to every variable.
const TRACKED: u32 = 64;

/// Per instruction of `main`, whether it is a load from group-shared
/// memory whose stretch between group barriers writes nothing to its
/// variable. All false when main's constructs do not nest or it calls
/// subroutines.
pub fn quiet_shared_loads(main: &[Inst]) -> Vec<bool> {
    let mut quiet = vec![false; main.len()];
    // Most shaders load nothing from group-shared memory: they pay no
    // flow graph at compile time.
    if !main.iter().any(|inst| shared_load(inst).is_some()) {
        return quiet;
    }
    let Some(succ) = successors(main) else {
        return quiet;
    };
    let end = main.len();
    let mut preds = vec![Vec::new(); end];
    for (i, next) in succ.iter().enumerate() {
        for &s in next.iter().filter(|s| **s < end) {
            preds[s].push(i);
        }
    }
    let writes: Vec<u64> = main.iter().map(written).collect();
    let barrier: Vec<bool> = main
        .iter()
        .map(|inst| matches!(inst, Inst::Sync { group: true, .. }))
        .collect();
    // What leaves an instruction written since the last barrier (forward)
    // or to be written before the next one (backward).
    let through = |i: usize, before: u64| match barrier[i] {
        true => 0,
        false => before | writes[i],
    };
    let mut since = vec![0u64; end];
    let mut ahead = vec![0u64; end];
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..end {
            let entering = preds[i]
                .iter()
                .fold(0, |all, &p| all | through(p, since[p]));
            let leaving = succ[i]
                .iter()
                .filter(|s| **s < end)
                .fold(0, |all, &s| all | through(s, ahead[s]));
            if entering != since[i] || leaving != ahead[i] {
                since[i] = entering;
                ahead[i] = leaving;
                changed = true;
            }
        }
    }
    for (i, inst) in main.iter().enumerate() {
        if let Some(g) = shared_load(inst) {
            quiet[i] = g < TRACKED && (since[i] | ahead[i]) & (1 << g) == 0;
        }
    }
    quiet
}

/// The group-shared variable `inst` loads from, if it is such a load.
fn shared_load(inst: &Inst) -> Option<u32> {
    match inst {
        Inst::LoadRaw {
            res: Resource::Tgsm(g),
            ..
        }
        | Inst::LoadStructured {
            res: Resource::Tgsm(g),
            ..
        } => Some(*g),
        _ => None,
    }
}

/// The group-shared variables `inst` writes, as bits (all of them past
/// the tracked ones).
fn written(inst: &Inst) -> u64 {
    match inst {
        Inst::StoreRaw {
            res: Resource::Tgsm(g),
            ..
        }
        | Inst::StoreStructured {
            res: Resource::Tgsm(g),
            ..
        }
        | Inst::Atomic {
            res: Resource::Tgsm(g),
            ..
        } => match *g < TRACKED {
            true => 1 << g,
            false => u64::MAX,
        },
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
