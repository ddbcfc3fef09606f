//! Checks of a program before it is compiled: control flow nests, calls
//! are defined, not recursive and not nested too deep, every instruction's
//! operands are well formed (operation arity from the
//! [`AluOp`](super::AluOp) table, swizzles, write masks and component
//! counts in range), and every register and resource it names is in
//! bounds (`bounds.rs`).

mod bounds;

use super::{Body, Dst, File, Inst, Place, Program, Resource, Src};
use bounds::Bounds;

/// Why a program cannot be compiled; each error names the instruction's
/// [`Place`]: its IR index and, for lowered bytecode, its position there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IrError {
    /// Control-flow markers do not nest.
    #[error("{place}: {what}")]
    Flow {
        /// The instruction.
        place: Place,
        /// What is wrong.
        what: String,
    },
    /// A call names a label with no subroutine.
    #[error("{place}: call to undefined label l{label}")]
    MissingLabel {
        /// The label.
        label: u32,
        /// The call.
        place: Place,
    },
    /// Subroutines call each other in a cycle.
    #[error("{place}: recursive call through label l{label}")]
    Recursion {
        /// The label called again.
        label: u32,
        /// The call closing the cycle.
        place: Place,
    },
    /// An instruction's operands are malformed.
    #[error("{place}: {what}")]
    Operand {
        /// The instruction.
        place: Place,
        /// What is wrong.
        what: String,
    },
}

impl IrError {
    /// The instruction the error is about.
    pub fn place(&self) -> Place {
        match self {
            IrError::Flow { place, .. }
            | IrError::MissingLabel { place, .. }
            | IrError::Recursion { place, .. }
            | IrError::Operand { place, .. } => *place,
        }
    }
}

/// Calls a function body may nest (Direct3D's subroutine nesting limit).
pub const MAX_CALL_DEPTH: u32 = 32;

/// Checks that control flow nests, that calls are defined, not recursive
/// and nested at most [`MAX_CALL_DEPTH`] deep, that every instruction's
/// operands are well formed, and that every register, resource, sampler
/// and group-shared block it names is declared and inside the runtime's
/// slots.
pub fn validate(program: &Program) -> Result<(), IrError> {
    let bounds = Bounds::of(program);
    check_nesting(&program.main)?;
    check_operands(&program.main, &bounds)?;
    for (_, body) in &program.subroutines {
        check_nesting(body)?;
        check_operands(body, &bounds)?;
    }
    let mut stack = Vec::new();
    check_calls(program, &program.main, &mut stack)
}

fn check_nesting(body: &Body) -> Result<(), IrError> {
    #[derive(PartialEq)]
    enum Open {
        If { had_else: bool },
        Loop,
        Switch,
    }
    // Each open block, with the index of the instruction opening it.
    let mut open: Vec<(Open, usize)> = Vec::new();
    let err = |index: usize, what: &str| IrError::Flow {
        place: body.place(index),
        what: what.to_string(),
    };
    for (index, inst) in body.iter().enumerate() {
        let innermost = open.last().map(|(o, _)| o);
        match inst {
            Inst::If { .. } => open.push((Open::If { had_else: false }, index)),
            Inst::Else => match open.last_mut() {
                Some((Open::If { had_else }, _)) if !*had_else => *had_else = true,
                _ => return Err(err(index, "else without if")),
            },
            Inst::EndIf => match open.pop() {
                Some((Open::If { .. }, _)) => {}
                _ => return Err(err(index, "endif without if")),
            },
            Inst::Loop => open.push((Open::Loop, index)),
            Inst::EndLoop => match open.pop() {
                Some((Open::Loop, _)) => {}
                _ => return Err(err(index, "endloop without loop")),
            },
            Inst::Switch { .. } => open.push((Open::Switch, index)),
            Inst::Case(_) | Inst::Default if innermost != Some(&Open::Switch) => {
                return Err(err(index, "case outside switch"));
            }
            Inst::EndSwitch => match open.pop() {
                Some((Open::Switch, _)) => {}
                _ => return Err(err(index, "endswitch without switch")),
            },
            Inst::Break | Inst::BreakC { .. }
                if !open
                    .iter()
                    .any(|(o, _)| matches!(o, Open::Loop | Open::Switch)) =>
            {
                return Err(err(index, "break outside loop or switch"));
            }
            Inst::Continue | Inst::ContinueC { .. }
                if !open.iter().any(|(o, _)| *o == Open::Loop) =>
            {
                return Err(err(index, "continue outside loop"));
            }
            _ => {}
        }
    }
    match open.last() {
        None => Ok(()),
        Some((_, opener)) => Err(err(*opener, "block not closed by the end of the function")),
    }
}

fn check_calls(program: &Program, body: &Body, stack: &mut Vec<u32>) -> Result<(), IrError> {
    for (index, inst) in body.iter().enumerate() {
        let label = match inst {
            Inst::Call { label } | Inst::CallC { label, .. } => *label,
            _ => continue,
        };
        let place = body.place(index);
        if stack.contains(&label) {
            return Err(IrError::Recursion { label, place });
        }
        if stack.len() >= MAX_CALL_DEPTH as usize {
            return Err(IrError::Operand {
                place,
                what: format!("calls nested deeper than {MAX_CALL_DEPTH}"),
            });
        }
        let callee = program
            .subroutine(label)
            .ok_or(IrError::MissingLabel { label, place })?;
        stack.push(label);
        check_calls(program, callee, stack)?;
        stack.pop();
    }
    Ok(())
}

fn check_operands(body: &Body, bounds: &Bounds) -> Result<(), IrError> {
    for (index, inst) in body.iter().enumerate() {
        check_inst(inst)
            .and_then(|()| bounds.check(inst))
            .map_err(|what| IrError::Operand {
                place: body.place(index),
                what,
            })?;
    }
    Ok(())
}
/// What is wrong with one instruction's operands, if anything.
fn check_inst(inst: &Inst) -> Result<(), String> {
    for src in inst.sources() {
        check_src(src)?;
    }
    for dst in inst.destinations() {
        check_dst(dst)?;
    }
    let in_range = |swizzle: &[u8; 4]| swizzle.iter().all(|c| *c < 4);
    match inst {
        Inst::Alu { op, src, .. } if src.len() != usize::from(op.info().arity) => Err(format!(
            "{op:?} takes {} sources, has {}",
            op.info().arity,
            src.len()
        )),
        Inst::Double { op, src, .. } if src.len() != usize::from(op.arity()) => Err(format!(
            "{op:?} takes {} sources, has {}",
            op.arity(),
            src.len()
        )),
        Inst::Double { op, dst, .. } if op.narrows() && dst.mask.count_ones() > 2 => Err(format!(
            "{op:?} writes {} components; a register holds two doubles",
            dst.mask.count_ones()
        )),
        Inst::Dot { n, .. } if !(1..=4).contains(n) => {
            Err(format!("dot product of {n} components"))
        }
        Inst::StoreRaw { count, .. } | Inst::StoreStructured { count, .. } if *count > 4 => {
            Err(format!("store of {count} components"))
        }
        Inst::LoadRaw { swizzle, .. }
        | Inst::LoadStructured { swizzle, .. }
        | Inst::LoadTyped { swizzle, .. }
        | Inst::BufInfo { swizzle, .. }
        | Inst::ResInfo { swizzle, .. }
        | Inst::Sample { swizzle, .. }
        | Inst::Fetch { swizzle, .. }
        | Inst::Gather { swizzle, .. }
        | Inst::QueryLod { swizzle, .. }
        | Inst::LoadSample { swizzle, .. }
        | Inst::SampleInfo { swizzle, .. }
        | Inst::SamplePos { swizzle, .. }
            if !in_range(swizzle) =>
        {
            Err(format!("resource swizzle {swizzle:?} out of range"))
        }
        Inst::Eval { src, .. } if src.file != File::Input || src.index.rel.is_some() => {
            Err("eval_* evaluates only an input register with a static index".into())
        }
        Inst::UavCounter { res, .. } if !matches!(res, Resource::Uav(_)) => {
            Err(format!("UAV counter of {res:?}"))
        }
        Inst::Gather { channel, .. } if *channel >= 4 => {
            Err(format!("gather of component {channel}"))
        }
        Inst::Emit { stream } | Inst::Cut { stream } if *stream >= 4 => Err(format!(
            "stream {stream}: geometry shaders have streams 0 to 3"
        )),
        _ => Ok(()),
    }
}

/// A source's swizzle, and those of its relative index, name components 0..4.
fn check_src(src: &Src) -> Result<(), String> {
    if src.swizzle.iter().any(|c| *c >= 4) {
        return Err(format!("source swizzle {:?} out of range", src.swizzle));
    }
    match &src.index.rel {
        Some(rel) => check_src(rel),
        None => Ok(()),
    }
}

/// A destination's mask has only bits 0..4; its relative index is well formed.
fn check_dst(dst: &Dst) -> Result<(), String> {
    if dst.mask > 0xf {
        return Err(format!("write mask {:#x} out of range", dst.mask));
    }
    match &dst.index.rel {
        Some(rel) => check_src(rel),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
