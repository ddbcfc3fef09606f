//! Which temp components may still be read after a point of the main
//! function: the state a barrier has to keep.
//!
//! The analysis is structured and conservative. Scanning forward from the
//! point, a component is live when some later instruction reads it before a
//! write that certainly happens first for every lane standing at the point.
//! Writes count as certain only outside constructs opened after the point,
//! outside the `else` or later `case`s of a construct around it, and, when
//! the point is inside a loop, only after that loop ends (the next iteration
//! may read what this one wrote later).

use super::{File, Inst, Program, Src};
use std::collections::BTreeSet;

/// Temp components, as (register, component).
pub type Components = BTreeSet<(u32, u8)>;

/// The temp components of `prog` that may be read after `main[pos]`.
pub fn live_after(prog: &Program, pos: usize) -> Components {
    let main = &prog.main;
    let start = outermost_loop_around(main, pos).unwrap_or(pos + 1);
    let mut live = Components::new();
    let mut dead = Components::new();
    // Nesting relative to the scan's start, and the outermost level reached
    // so far: writes are certain at that level once `certain_from` is
    // reached and no sibling branch is being skipped.
    let mut depth: i32 = 0;
    let mut floor: i32 = 0;
    let certain_from = if start <= pos {
        loop_end(main, start)
    } else {
        start
    };
    let mut sibling_depth: Option<i32> = None;
    for (i, inst) in main.iter().enumerate().skip(start) {
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => depth += 1,
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                if sibling_depth == Some(depth) {
                    sibling_depth = None;
                }
                depth -= 1;
                floor = floor.min(depth);
            }
            Inst::Else | Inst::Case(_) | Inst::Default
                if depth == floor && sibling_depth.is_none() =>
            {
                sibling_depth = Some(depth);
            }
            Inst::Call { .. } | Inst::CallC { .. } => {
                for (_, body) in &prog.subroutines {
                    for s in body.iter().flat_map(Inst::sources) {
                        read(s, &dead, &mut live, prog);
                    }
                }
            }
            _ => {}
        }
        for s in inst.sources() {
            read(s, &dead, &mut live, prog);
        }
        let certain = i >= certain_from && depth == floor && sibling_depth.is_none();
        if certain {
            for d in inst.destinations() {
                if d.file == File::Temp && d.index.rel.is_none() {
                    for c in 0..4u8 {
                        if d.mask & (1 << c) != 0 {
                            dead.insert((d.index.base, c));
                        }
                    }
                }
            }
        }
    }
    live
}

/// Marks what `src` reads (through its swizzle and relative index) as live
/// unless already overwritten; a relatively indexed temp makes every temp live.
fn read(src: &Src, dead: &Components, live: &mut Components, prog: &Program) {
    if let Some(rel) = &src.index.rel {
        read(rel, dead, live, prog);
    }
    if src.file != File::Temp {
        return;
    }
    if src.index.rel.is_some() {
        for r in 0..prog.temps {
            live.extend((0..4).map(|c| (r, c)));
        }
        return;
    }
    for c in src.swizzle {
        let key = (src.index.base, c & 3);
        if !dead.contains(&key) {
            live.insert(key);
        }
    }
}

/// The index of the outermost `loop` that encloses `main[pos]`.
fn outermost_loop_around(main: &[Inst], pos: usize) -> Option<usize> {
    let mut open: Vec<(usize, bool)> = Vec::new();
    for (i, inst) in main.iter().enumerate().take(pos) {
        match inst {
            Inst::If { .. } | Inst::Switch { .. } => open.push((i, false)),
            Inst::Loop => open.push((i, true)),
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                open.pop();
            }
            _ => {}
        }
    }
    open.into_iter()
        .find(|(_, is_loop)| *is_loop)
        .map(|(i, _)| i)
}

/// The index just past the `endloop` matching the `loop` at `start`.
fn loop_end(main: &[Inst], start: usize) -> usize {
    let mut depth = 0i32;
    for (i, inst) in main.iter().enumerate().skip(start) {
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => depth += 1,
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    main.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader::{lower, CompileOptions};

    /// The live set at the first `sync_g_t` of a cs_5_0 body.
    fn live_at_sync(body: &str) -> Vec<(u32, u8)> {
        let text = format!("cs_5_0\ndcl_temps 4\ndcl_thread_group 4, 1, 1\n{body}\nret\n");
        let bytes = crate::text::assemble(&text).expect("assembles");
        let (_, prog) = lower(&bytes, &CompileOptions::default()).expect("lowers");
        let pos = prog
            .main
            .iter()
            .position(|i| matches!(i, Inst::Sync { .. }))
            .expect("a barrier");
        live_after(&prog, pos).into_iter().collect()
    }

    #[test]
    fn a_certain_write_after_the_barrier_kills() {
        let live = live_at_sync(
            "mov r0.xy, l(1, 2, 0, 0)\nmov r1.x, l(3)\nsync_g_t\nmov r0.x, l(5)\n\
             iadd r2.x, r0.x, r0.y\niadd r2.y, r1.x, l(1)",
        );
        assert_eq!(live, vec![(0, 1), (1, 0)]);
    }

    #[test]
    fn inside_a_loop_later_writes_do_not_kill() {
        let live = live_at_sync(
            "mov r1.x, l(0)\nloop\niadd r2.x, r1.x, l(1)\nsync_g_t\nmov r1.x, l(7)\n\
             breakp_nz r2.x\nendloop",
        );
        assert_eq!(live, vec![(1, 0), (2, 0)]);
    }

    #[test]
    fn writes_in_a_sibling_branch_or_nested_if_do_not_kill() {
        let live = live_at_sync(
            "if_nz r0.x\nsync_g_t\nelse\nmov r1.x, l(0)\nendif\nif_nz r0.y\nmov r1.y, l(0)\nendif\n\
             iadd r2.x, r1.x, r1.y",
        );
        assert_eq!(live, vec![(0, 1), (1, 0), (1, 1)]);
    }
}
