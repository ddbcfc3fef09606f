//! The control flow of a main function as successor lists: where each
//! instruction may go next, through its ifs, loops, switches (with
//! fall-through), breaks, continues and returns. The analyses over main's
//! paths (temps' webs, quiet group-shared loads) walk it.

use crate::ir::Inst;

/// Where control goes after each instruction of `main` (`main.len()` is
/// the end); `None` when the constructs do not nest.
pub(super) fn successors(main: &[Inst]) -> Option<Vec<Vec<usize>>> {
    let end = main.len();
    let mut succ = vec![Vec::new(); end];
    // Open constructs: (kind, position of its opening instruction).
    let mut open: Vec<(Open, usize)> = Vec::new();
    // Per opening instruction, its closing one; per `if`, its `else`.
    let mut close = vec![end; end];
    let mut else_of = vec![None; end];
    let mut cases: Vec<Vec<usize>> = vec![Vec::new(); end];
    for (i, inst) in main.iter().enumerate() {
        match inst {
            Inst::If { .. } => open.push((Open::If, i)),
            Inst::Loop => open.push((Open::Loop, i)),
            Inst::Switch { .. } => open.push((Open::Switch, i)),
            Inst::Else => match open.last() {
                Some((Open::If, at)) => else_of[*at] = Some(i),
                _ => return None,
            },
            Inst::Case(_) | Inst::Default => match open.last() {
                Some((Open::Switch, at)) => cases[*at].push(i),
                _ => return None,
            },
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => {
                let want = match inst {
                    Inst::EndIf => Open::If,
                    Inst::EndLoop => Open::Loop,
                    _ => Open::Switch,
                };
                match open.pop() {
                    Some((kind, at)) if kind == want => close[at] = i,
                    _ => return None,
                }
            }
            _ => {}
        }
    }
    if !open.is_empty() {
        return None;
    }
    for (i, inst) in main.iter().enumerate() {
        // The construct this instruction closes, if it closes one.
        let mut closed = None;
        match inst {
            Inst::If { .. } => open.push((Open::If, i)),
            Inst::Loop => open.push((Open::Loop, i)),
            Inst::Switch { .. } => open.push((Open::Switch, i)),
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => closed = open.pop(),
            _ => {}
        }
        let next = i + 1;
        // Where `break` goes: past the innermost loop or switch.
        let broken = open
            .iter()
            .rev()
            .find(|(k, _)| *k != Open::If)
            .map(|(_, at)| close[*at] + 1);
        // Where `continue` goes: the innermost loop's first instruction.
        let continued = open
            .iter()
            .rev()
            .find(|(k, _)| *k == Open::Loop)
            .map(|(_, at)| at + 1);
        succ[i] = match inst {
            Inst::If { .. } => {
                let skip = else_of[i].map_or(close[i], |e| e + 1);
                vec![next, skip]
            }
            Inst::Else => {
                let at = open.last()?.1;
                vec![close[at]]
            }
            // Back to the first instruction of the loop it closes.
            Inst::EndLoop => vec![closed?.1 + 1],
            Inst::Switch { .. } => {
                let mut to = cases[i].clone();
                if !cases[i].iter().any(|c| matches!(main[*c], Inst::Default)) {
                    to.push(close[i]);
                }
                to
            }
            Inst::Break => vec![broken?],
            Inst::BreakC { .. } => vec![next, broken?],
            Inst::Continue => vec![continued?],
            Inst::ContinueC { .. } => vec![next, continued?],
            Inst::Ret | Inst::Halt { .. } => vec![end],
            Inst::RetC { .. } | Inst::Discard { .. } => vec![next, end],
            Inst::Call { .. } | Inst::CallC { .. } => return None,
            _ => vec![next],
        };
    }
    Some(succ)
}

/// A construct that `successors` tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    If,
    Loop,
    Switch,
}
