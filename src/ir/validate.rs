//! Structural checks of a program before it is compiled.

use super::{Inst, Program};

/// Why a program cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IrError {
    /// Control-flow markers do not nest.
    #[error("instruction {index}: {what}")]
    Flow {
        /// Instruction index in its function.
        index: usize,
        /// What is wrong.
        what: String,
    },
    /// A call names a label with no subroutine.
    #[error("call to undefined label l{0}")]
    MissingLabel(u32),
    /// Subroutines call each other in a cycle.
    #[error("recursive call through label l{0}")]
    Recursion(u32),
}

/// Checks that control flow nests and that calls are defined and not recursive.
pub fn validate(program: &Program) -> Result<(), IrError> {
    check_nesting(&program.main)?;
    for (_, body) in &program.subroutines {
        check_nesting(body)?;
    }
    let mut stack = Vec::new();
    check_calls(program, &program.main, &mut stack)
}

fn check_nesting(body: &[Inst]) -> Result<(), IrError> {
    #[derive(PartialEq)]
    enum Open {
        If { had_else: bool },
        Loop,
        Switch,
    }
    let mut open: Vec<Open> = Vec::new();
    let err = |index: usize, what: &str| IrError::Flow {
        index,
        what: what.to_string(),
    };
    for (index, inst) in body.iter().enumerate() {
        match inst {
            Inst::If { .. } => open.push(Open::If { had_else: false }),
            Inst::Else => match open.last_mut() {
                Some(Open::If { had_else }) if !*had_else => *had_else = true,
                _ => return Err(err(index, "else without if")),
            },
            Inst::EndIf => match open.pop() {
                Some(Open::If { .. }) => {}
                _ => return Err(err(index, "endif without if")),
            },
            Inst::Loop => open.push(Open::Loop),
            Inst::EndLoop => match open.pop() {
                Some(Open::Loop) => {}
                _ => return Err(err(index, "endloop without loop")),
            },
            Inst::Switch { .. } => open.push(Open::Switch),
            Inst::Case(_) | Inst::Default => {
                if open.last() != Some(&Open::Switch) {
                    return Err(err(index, "case outside switch"));
                }
            }
            Inst::EndSwitch => match open.pop() {
                Some(Open::Switch) => {}
                _ => return Err(err(index, "endswitch without switch")),
            },
            Inst::Break | Inst::BreakC { .. } => {
                if !open.iter().any(|o| matches!(o, Open::Loop | Open::Switch)) {
                    return Err(err(index, "break outside loop or switch"));
                }
            }
            Inst::Continue | Inst::ContinueC { .. } => {
                if !open.contains(&Open::Loop) {
                    return Err(err(index, "continue outside loop"));
                }
            }
            _ => {}
        }
    }
    if open.is_empty() {
        Ok(())
    } else {
        Err(err(body.len(), "unclosed block at end of function"))
    }
}

fn check_calls(program: &Program, body: &[Inst], stack: &mut Vec<u32>) -> Result<(), IrError> {
    for inst in body {
        let label = match inst {
            Inst::Call { label } | Inst::CallC { label, .. } => *label,
            _ => continue,
        };
        if stack.contains(&label) {
            return Err(IrError::Recursion(label));
        }
        let callee = program
            .subroutine(label)
            .ok_or(IrError::MissingLabel(label))?;
        stack.push(label);
        check_calls(program, callee, stack)?;
        stack.pop();
    }
    Ok(())
}
