//! Operand checks of `validate` on one-instruction programs.

use super::{validate, IrError};
use crate::ir::{AluOp, Dst, Inst, Place, Program, Src, Stage};

fn one(inst: Inst) -> Result<(), IrError> {
    let mut p = Program::new(Stage::Compute);
    p.temps = 1;
    p.main = vec![inst].into();
    validate(&p)
}

fn add(src: Vec<Src>, mask: u8) -> Inst {
    Inst::Alu {
        op: AluOp::Add,
        dst: Dst::temp(0, mask),
        src,
    }
}

#[test]
fn an_operation_takes_its_arity_of_sources() {
    assert!(one(add(vec![Src::temp(0), Src::temp(0)], 0b1111)).is_ok());
    for n in [0, 1, 3] {
        let err = one(add(vec![Src::temp(0); n], 0b1111));
        assert!(
            matches!(
                err,
                Err(IrError::Operand {
                    place: Place {
                        index: 0,
                        pos: None
                    },
                    ..
                })
            ),
            "{n} sources"
        );
    }
}

#[test]
fn swizzles_and_masks_stay_inside_four_components() {
    let bad = Src::temp(0).swizzled([0, 1, 2, 3]);
    let mut bad_swizzle = bad.clone();
    bad_swizzle.swizzle[2] = 4;
    assert!(one(add(vec![bad.clone(), bad_swizzle], 0b1111)).is_err());
    assert!(one(add(vec![bad.clone(), bad], 0b1_0000)).is_err());
}
