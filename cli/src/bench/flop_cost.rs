//! Single-precision float operations one IR instruction performs for one
//! invocation.
//!
//! Per written component: add, multiply, divide, min, max, comparisons,
//! square root, reciprocals, rounding, `frc`, derivatives and the
//! transcendentals (`exp`, `log`, `sin`, `cos`) count 1; `mad` counts 2
//! (a multiply and an add). A dot product of `n` components counts
//! `n` multiplies and `n - 1` adds (dp4 = 7), once whatever its write mask.
//! Moves, selects, conversions, integer and bitwise operations, doubles,
//! memory accesses and texture sampling count 0.

use dxjit::ir::{AluOp, Inst};

/// Flops per written component of an ALU operation.
pub fn per_component(op: AluOp) -> u64 {
    use AluOp::*;
    match op {
        Mad | MadLegacy => 2,
        Add | Mul | MulLegacy | Div | Min | Max | Sqrt | Rsq | Rcp | Exp | Log | Frc | RoundNe
        | RoundNi | RoundPi | RoundZ | Sin | Cos | Eq | Ge | Lt | Ne | DerivRtxCoarse
        | DerivRtyCoarse | DerivRtxFine | DerivRtyFine => 1,
        _ => 0,
    }
}

/// Flops `inst` performs for one invocation.
pub fn flops(inst: &Inst) -> u64 {
    match inst {
        Inst::Alu { op, dst, .. } => per_component(*op) * u64::from(dst.mask.count_ones()),
        Inst::Dot { n, .. } => (2 * u64::from(*n)).saturating_sub(1),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxjit::ir::{Dst, Src};

    fn alu(op: AluOp, mask: u8) -> Inst {
        Inst::Alu {
            op,
            dst: Dst::temp(0, mask),
            src: vec![Src::temp(1), Src::temp(2), Src::temp(3)],
        }
    }

    #[test]
    fn counts_per_written_component() {
        assert_eq!(flops(&alu(AluOp::Add, 0b1111)), 4);
        assert_eq!(flops(&alu(AluOp::Mul, 0b0011)), 2);
        assert_eq!(flops(&alu(AluOp::Mad, 0b0111)), 6);
        assert_eq!(flops(&alu(AluOp::IAdd, 0b1111)), 0);
        assert_eq!(flops(&alu(AluOp::Mov, 0b1111)), 0);
    }

    #[test]
    fn dot_products_count_once() {
        let dot = |n| Inst::Dot {
            n,
            legacy: false,
            dst: Dst::temp(0, 0b1111),
            a: Src::temp(1),
            b: Src::temp(2),
        };
        assert_eq!(flops(&dot(4)), 7);
        assert_eq!(flops(&dot(3)), 5);
        assert_eq!(flops(&dot(2)), 3);
    }
}
