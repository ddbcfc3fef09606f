//! Which temp components may still be read after a point of the main
//! function: the state a barrier has to keep.
//!
//! A backward dataflow analysis over the structured program, per thread: a
//! component is live at a point when some path from the point reads it
//! before writing it. `if`/`else` join both branches, loops iterate to a
//! fixed point with `break` and `continue` reaching the loop's exit and
//! header, `switch` cases fall through into the next case, `ret` ends the
//! thread, and a call reads everything any subroutine reads. A relatively
//! indexed temp read makes every temp live; a malformed nesting makes every
//! referenced temp live.

pub use super::components::Components;
use super::{File, Inst, Program, Src};

/// The live temp components at every point of a program's main function.
#[derive(Debug, Clone)]
pub struct Liveness {
    /// The live set before each instruction, and at the end; one set of
    /// every temp when the nesting is malformed (then everything is live
    /// everywhere).
    before: Vec<Components>,
    /// For each construct opener, the index of its closer.
    close: Vec<usize>,
    /// For each `if`, the index of its `else` (other indices, and an `if`
    /// without one, map to themselves).
    split: Vec<usize>,
}

impl Liveness {
    /// Analyses `prog`'s main function.
    pub fn of(prog: &Program) -> Liveness {
        let main = &prog.main;
        let Some(close) = matching(main) else {
            return Liveness {
                before: vec![every_temp(prog)],
                close: (0..main.len()).collect(),
                split: (0..main.len()).collect(),
            };
        };
        let mut open: Vec<usize> = (0..main.len()).collect();
        for (o, &c) in close.iter().enumerate() {
            open[c] = open[c].min(o);
        }
        let mut a = Analysis {
            prog,
            main,
            close,
            open,
            before: vec![Components::new(); main.len() + 1],
            calls: subroutine_reads(prog),
            split: (0..main.len()).collect(),
        };
        a.seq(0, main.len(), Components::new(), &Exits::default());
        Liveness {
            before: a.before,
            close: a.close,
            split: a.split,
        }
    }

    /// The components that may be read after `main[pos]` runs.
    pub fn after(&self, pos: usize) -> &Components {
        self.before(pos + 1)
    }

    /// The components that may be read from just before `main[pos]` on
    /// (`pos` may be the length of `main`: the end).
    pub fn before(&self, pos: usize) -> &Components {
        let last = self.before.len() - 1;
        &self.before[pos.min(last)]
    }

    /// The index of the `endif`/`endloop`/`endswitch` closing the construct
    /// opened at `open`.
    pub fn close(&self, open: usize) -> usize {
        self.close.get(open).copied().unwrap_or(open)
    }

    /// The index of the `else` of the `if` at `open`, if it has one.
    pub fn else_of(&self, open: usize) -> Option<usize> {
        self.split.get(open).copied().filter(|&e| e != open)
    }
}

/// Where `break` and `continue` lead, as the live sets there.
#[derive(Default, Clone)]
struct Exits {
    brk: Option<Components>,
    cont: Option<Components>,
}

struct Analysis<'p> {
    prog: &'p Program,
    main: &'p [Inst],
    /// For each construct opener, the index of its closer.
    close: Vec<usize>,
    /// For each construct closer, the index of its opener (other indices
    /// map to themselves).
    open: Vec<usize>,
    /// The live set before each instruction (and at the end).
    before: Vec<Components>,
    /// What a call may read.
    calls: Components,
    /// For each `if`, the index of its `else` (else itself).
    split: Vec<usize>,
}

impl Analysis<'_> {
    /// Live-in of `main[start..end]` given its live-out.
    fn seq(&mut self, start: usize, end: usize, out: Components, exits: &Exits) -> Components {
        let mut live = out;
        self.before[end] = live.clone();
        let mut i = end;
        while i > start {
            i -= 1;
            let open = match self.main[i] {
                Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => self.opener(i),
                _ => i,
            };
            live = if open == i {
                self.simple(i, live, exits)
            } else {
                self.construct(open, i, live, exits)
            };
            i = open;
            self.before[i] = live.clone();
        }
        live
    }

    /// The opener whose closer is `close`.
    fn opener(&self, close: usize) -> usize {
        self.open[close]
    }

    /// Live-in of the construct `main[open..=close]`.
    fn construct(
        &mut self,
        open: usize,
        close: usize,
        out: Components,
        exits: &Exits,
    ) -> Components {
        self.before[close] = out.clone();
        match &self.main[open] {
            Inst::If { cond, .. } => {
                let cond = cond.clone();
                let split = self.labels(open, close).first().copied();
                let mut live = match split {
                    Some(e) => {
                        self.split[open] = e;
                        self.before[e] = out.clone();
                        let a = self.seq(open + 1, e, out.clone(), exits);
                        let b = self.seq(e + 1, close, out, exits);
                        a.union(&b)
                    }
                    None => {
                        let a = self.seq(open + 1, close, out.clone(), exits);
                        a.union(&out)
                    }
                };
                read(&cond, &mut live, self.prog);
                live
            }
            Inst::Loop => {
                let mut header = Components::new();
                loop {
                    let inner = Exits {
                        brk: Some(out.clone()),
                        cont: Some(header.clone()),
                    };
                    let body = self.seq(open + 1, close, header.clone(), &inner);
                    self.before[close] = header.clone();
                    if body.same(&header) {
                        return header;
                    }
                    header.union_with(&body);
                }
            }
            Inst::Switch { sel } => {
                let sel = sel.clone();
                let labels = self.labels(open, close);
                let inner = Exits {
                    brk: Some(out.clone()),
                    cont: exits.cont.clone(),
                };
                let has_default = labels
                    .iter()
                    .any(|l| matches!(self.main[*l], Inst::Default));
                let mut live = if has_default {
                    Components::new()
                } else {
                    out.clone()
                };
                let mut next = out;
                let mut end = close;
                for &l in labels.iter().rev() {
                    next = self.seq(l + 1, end, next, &inner);
                    self.before[l] = next.clone();
                    live.union_with(&next);
                    end = l;
                }
                read(&sel, &mut live, self.prog);
                live
            }
            _ => out,
        }
    }

    /// The `else`, `case` and `default` labels directly inside a construct.
    fn labels(&self, open: usize, close: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut i = open + 1;
        while i < close {
            match self.main[i] {
                Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => i = self.close[i],
                Inst::Else | Inst::Case(_) | Inst::Default => out.push(i),
                _ => {}
            }
            i += 1;
        }
        out
    }

    /// Live-in of one instruction that opens no construct.
    fn simple(&mut self, i: usize, out: Components, exits: &Exits) -> Components {
        let inst = &self.main[i];
        let target = |t: &Option<Components>| t.clone().unwrap_or_else(|| out.clone());
        let mut live = match inst {
            Inst::Ret => Components::new(),
            Inst::Break => target(&exits.brk),
            Inst::Continue => target(&exits.cont),
            Inst::BreakC { .. } => target(&exits.brk).union(&out),
            Inst::ContinueC { .. } => target(&exits.cont).union(&out),
            Inst::Call { .. } | Inst::CallC { .. } => out.union(&self.calls),
            _ => {
                let mut live = out;
                for d in inst.destinations() {
                    if d.file == File::Temp && d.index.rel.is_none() {
                        for c in 0..4u8 {
                            if d.mask & (1 << c) != 0 {
                                live.remove(&(d.index.base, c));
                            }
                        }
                    }
                }
                live
            }
        };
        for s in inst.sources() {
            read(s, &mut live, self.prog);
        }
        for d in inst.destinations() {
            if let Some(rel) = &d.index.rel {
                read(rel, &mut live, self.prog);
            }
        }
        live
    }
}

/// For each construct opener, the index of its closer (other indices map to
/// themselves); `None` when the nesting is malformed.
fn matching(main: &[Inst]) -> Option<Vec<usize>> {
    let mut close: Vec<usize> = (0..main.len()).collect();
    let mut open: Vec<usize> = Vec::new();
    for (i, inst) in main.iter().enumerate() {
        match inst {
            Inst::If { .. } | Inst::Loop | Inst::Switch { .. } => open.push(i),
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                let o = open.pop()?;
                let ok = matches!(
                    (&main[o], inst),
                    (Inst::If { .. }, Inst::EndIf)
                        | (Inst::Loop, Inst::EndLoop)
                        | (Inst::Switch { .. }, Inst::EndSwitch)
                );
                if !ok {
                    return None;
                }
                close[o] = i;
            }
            _ => {}
        }
    }
    open.is_empty().then_some(close)
}

/// Temps the analysis tracks at most: Direct3D's 4096 plus front ends'
/// scratch registers. Programs with more are rejected by the backend; the
/// analysis must still not allocate for the count such a program declares.
const TRACKED_TEMPS: u32 = 4096 + 256;

/// Every component of every temp the program has.
fn every_temp(prog: &Program) -> Components {
    (0..prog.temps.min(TRACKED_TEMPS))
        .flat_map(|r| (0..4).map(move |c| (r, c)))
        .collect()
}

/// Every temp component any subroutine reads.
fn subroutine_reads(prog: &Program) -> Components {
    let mut live = Components::new();
    for (_, body) in &prog.subroutines {
        for inst in body {
            for s in inst.sources() {
                read(s, &mut live, prog);
            }
        }
    }
    live
}

/// Marks what `src` reads (through its swizzle and relative index) as live;
/// a relatively indexed temp makes every temp live.
fn read(src: &Src, live: &mut Components, prog: &Program) {
    if let Some(rel) = &src.index.rel {
        read(rel, live, prog);
    }
    if src.file != File::Temp {
        return;
    }
    if src.index.rel.is_some() {
        live.union_with(&every_temp(prog));
        return;
    }
    for c in src.swizzle {
        live.insert((src.index.base, c & 3));
    }
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
        Liveness::of(&prog).after(pos).iter().collect()
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
    fn inside_a_loop_the_next_iteration_reads() {
        let live = live_at_sync(
            "mov r1.x, l(0)\nloop\niadd r2.x, r1.x, l(1)\nmov r1.x, r2.x\nsync_g_t\n\
             breakp_nz r2.x\nendloop\nmov r3.x, r1.y",
        );
        assert_eq!(live, vec![(1, 0), (1, 1), (2, 0)]);
    }

    #[test]
    fn inside_a_loop_a_write_before_the_next_read_kills() {
        let live = live_at_sync(
            "mov r1.x, l(0)\nloop\niadd r2.x, r1.x, l(1)\nsync_g_t\nmov r1.x, l(7)\n\
             breakp_nz r2.x\nendloop",
        );
        assert_eq!(live, vec![(2, 0)]);
    }

    #[test]
    fn switch_cases_fall_through_and_break_leaves() {
        let live = live_at_sync(
            "switch r0.x\ncase l(0)\nsync_g_t\ncase l(1)\nmov r2.x, r1.x\nbreak\n\
             default\nmov r2.y, r1.y\nbreak\nendswitch\nmov r3.x, r2.z",
        );
        assert_eq!(live, vec![(1, 0), (2, 2)]);
    }

    #[test]
    fn writes_in_a_sibling_branch_or_nested_if_do_not_kill() {
        let live = live_at_sync(
            "if_nz r0.x\nsync_g_t\nelse\nmov r1.x, l(0)\nendif\nif_nz r0.y\nmov r1.y, l(0)\nendif\n\
             iadd r2.x, r1.x, r1.y",
        );
        assert_eq!(live, vec![(0, 1), (1, 0), (1, 1)]);
    }

    #[test]
    fn an_if_knows_its_else_and_what_is_live_there() {
        let text = "cs_5_0\ndcl_temps 4\ndcl_thread_group 4, 1, 1\nmov r1.x, l(1)\n\
                    if_nz r0.x\nmov r1.x, l(2)\nelse\nmov r2.x, r1.x\nendif\nmov r1.x, l(0)\n\
                    if_nz r0.y\nmov r3.x, l(0)\nendif\nret\n";
        let bytes = crate::text::assemble(text).expect("assembles");
        let (_, prog) = lower(&bytes, &CompileOptions::default()).expect("lowers");
        let at = |f: &dyn Fn(&Inst) -> bool| prog.main.iter().position(f).expect("present");
        let first_if = at(&|i| matches!(i, Inst::If { .. }));
        let second_if = first_if
            + 1
            + prog.main[first_if + 1..]
                .iter()
                .position(|i| matches!(i, Inst::If { .. }))
                .expect("a second if");
        let live = Liveness::of(&prog);
        let e = live.else_of(first_if).expect("an else");
        assert!(matches!(prog.main[e], Inst::Else));
        assert_eq!(live.else_of(second_if), None);
        // The else side reads r1.x; after the endif nothing does.
        assert!(live.before(e + 1).contains(&(1, 0)));
        assert!(!live.before(live.close(first_if)).contains(&(1, 0)));
    }
}
