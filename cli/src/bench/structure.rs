//! The nesting of a linear IR instruction list as a tree, for walking it
//! block by block.

use dxjit::ir::{Inst, Src};

/// One element of a structured body.
#[derive(Debug)]
pub enum Node<'a> {
    /// An instruction that opens no block (including `Break`, `BreakC`,
    /// `Ret`, `Call` and the other jumps).
    Inst(&'a Inst),
    /// `If` ... `Else` ... `EndIf`.
    If {
        /// The tested operand (its first component).
        cond: &'a Src,
        /// Whether a nonzero value takes the `then` side.
        nz: bool,
        /// Run when the test holds.
        then: Vec<Node<'a>>,
        /// Run when it does not (empty without `Else`).
        otherwise: Vec<Node<'a>>,
    },
    /// `Loop` ... `EndLoop`.
    Loop(Vec<Node<'a>>),
    /// `Switch` ... `EndSwitch`.
    Switch {
        /// The selector (its first component).
        sel: &'a Src,
        /// The arms in program order.
        arms: Vec<Arm<'a>>,
    },
}

/// Case labels and the body they start; consecutive labels without a body
/// between them share one arm.
#[derive(Debug, Default)]
pub struct Arm<'a> {
    /// The labels; `None` is `default`.
    pub labels: Vec<Option<u32>>,
    /// The instructions up to the next label with a body before it.
    pub body: Vec<Node<'a>>,
}

/// A block being filled while the list is read.
enum Open<'a> {
    If {
        cond: &'a Src,
        nz: bool,
        then: Vec<Node<'a>>,
        in_else: bool,
        otherwise: Vec<Node<'a>>,
    },
    Loop(Vec<Node<'a>>),
    Switch {
        sel: &'a Src,
        arms: Vec<Arm<'a>>,
    },
}

impl<'a> Open<'a> {
    /// The body new nodes are appended to.
    fn body(&mut self) -> &mut Vec<Node<'a>> {
        match self {
            Open::If {
                then,
                in_else,
                otherwise,
                ..
            } => {
                if *in_else {
                    otherwise
                } else {
                    then
                }
            }
            Open::Loop(body) => body,
            Open::Switch { arms, .. } => {
                if arms.is_empty() {
                    arms.push(Arm::default());
                }
                let last = arms.len() - 1;
                &mut arms[last].body
            }
        }
    }

    fn close(self) -> Node<'a> {
        match self {
            Open::If {
                cond,
                nz,
                then,
                otherwise,
                ..
            } => Node::If {
                cond,
                nz,
                then,
                otherwise,
            },
            Open::Loop(body) => Node::Loop(body),
            Open::Switch { sel, arms } => Node::Switch { sel, arms },
        }
    }
}

/// Builds the tree of a body. Nesting is assumed valid (the backend
/// validates it); a stray closing marker is skipped and blocks left open at
/// the end are closed there.
pub fn structure(insts: &[Inst]) -> Vec<Node<'_>> {
    let mut top: Vec<Node> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    for inst in insts {
        let node = match inst {
            Inst::If { cond, nz } => {
                open.push(Open::If {
                    cond,
                    nz: *nz,
                    then: Vec::new(),
                    in_else: false,
                    otherwise: Vec::new(),
                });
                continue;
            }
            Inst::Loop => {
                open.push(Open::Loop(Vec::new()));
                continue;
            }
            Inst::Switch { sel } => {
                open.push(Open::Switch {
                    sel,
                    arms: Vec::new(),
                });
                continue;
            }
            Inst::Else => {
                if let Some(Open::If { in_else, .. }) = open.last_mut() {
                    *in_else = true;
                }
                continue;
            }
            Inst::Case(_) | Inst::Default => {
                if let Some(Open::Switch { arms, .. }) = open.last_mut() {
                    let label = match inst {
                        Inst::Case(v) => Some(*v),
                        _ => None,
                    };
                    match arms.last_mut() {
                        Some(arm) if arm.body.is_empty() => arm.labels.push(label),
                        _ => arms.push(Arm {
                            labels: vec![label],
                            body: Vec::new(),
                        }),
                    }
                }
                continue;
            }
            Inst::EndIf | Inst::EndLoop | Inst::EndSwitch => match open.pop() {
                Some(block) => block.close(),
                None => continue,
            },
            other => Node::Inst(other),
        };
        match open.last_mut() {
            Some(block) => block.body().push(node),
            None => top.push(node),
        }
    }
    while let Some(block) = open.pop() {
        let node = block.close();
        match open.last_mut() {
            Some(outer) => outer.body().push(node),
            None => top.push(node),
        }
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxjit::ir::{AluOp, Dst};

    fn mov() -> Inst {
        Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(0, 1),
            src: vec![Src::splat(0)],
        }
    }

    #[test]
    fn nests_if_else_inside_a_loop() {
        let cond = Src::temp(1);
        let insts = vec![
            mov(),
            Inst::Loop,
            Inst::If {
                cond: cond.clone(),
                nz: true,
            },
            Inst::Break,
            Inst::Else,
            mov(),
            mov(),
            Inst::EndIf,
            Inst::EndLoop,
        ];
        let tree = structure(&insts);
        assert_eq!(tree.len(), 2);
        let Node::Loop(body) = &tree[1] else {
            panic!("expected a loop, got {:?}", tree[1]);
        };
        let Node::If {
            then, otherwise, ..
        } = &body[0]
        else {
            panic!("expected an if");
        };
        assert_eq!((then.len(), otherwise.len()), (1, 2));
    }

    #[test]
    fn labels_without_a_body_share_an_arm() {
        let insts = vec![
            Inst::Switch { sel: Src::temp(0) },
            Inst::Case(1),
            Inst::Case(2),
            mov(),
            Inst::Break,
            Inst::Default,
            Inst::Break,
            Inst::EndSwitch,
        ];
        let tree = structure(&insts);
        let Node::Switch { arms, .. } = &tree[0] else {
            panic!("expected a switch");
        };
        assert_eq!(arms.len(), 2);
        assert_eq!(arms[0].labels, vec![Some(1), Some(2)]);
        assert_eq!(arms[0].body.len(), 2);
        assert_eq!(arms[1].labels, vec![None]);
    }
}
