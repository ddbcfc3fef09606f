//! What each component-wise operation is: how many sources it reads, how
//! it reads them, what it produces and whether it needs the quad's lanes.
//! The backend and [`validate`](super::validate) look these facts up here.

use super::{AluOp, DoubleOp};

/// How an operation reads a source's 32-bit components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrcTy {
    /// As floats: `abs`/`neg` act on the sign bit.
    Float,
    /// As integers: `neg` is two's complement.
    Int,
}

/// What an operation's result components are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultKind {
    /// Floats: the destination's saturate applies.
    Float,
    /// Integers or masks: saturate is ignored.
    Int,
}

/// The facts about one [`AluOp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AluInfo {
    /// Sources read.
    pub arity: u8,
    /// How source `i` is read, for `i < arity`.
    pub sources: [SrcTy; 4],
    /// What the result is.
    pub result: ResultKind,
    /// Whether lanes read their quad neighbours' values (derivatives).
    pub needs_derivatives: bool,
}

impl AluInfo {
    /// `arity` sources all read as `src`.
    const fn uniform(arity: u8, src: SrcTy, result: ResultKind) -> Self {
        AluInfo {
            arity,
            sources: [src; 4],
            result,
            needs_derivatives: false,
        }
    }

    /// How source `i` is read (sources past the arity read as the last one).
    pub fn source(&self, i: usize) -> SrcTy {
        self.sources[i.min(3)]
    }
}

impl AluOp {
    /// The operation's entry in the table.
    pub const fn info(self) -> AluInfo {
        use AluOp::*;
        use ResultKind::{Float as RF, Int as RI};
        use SrcTy::{Float as F, Int as I};
        let u = AluInfo::uniform;
        match self {
            Mov | Sqrt | Rsq | Rcp | Exp | Log | Frc | RoundNe | RoundNi | RoundPi | RoundZ
            | Sin | Cos => u(1, F, RF),
            Add | Mul | MulLegacy | Div | Min | Max => u(2, F, RF),
            Mad | MadLegacy => u(3, F, RF),
            Movc => AluInfo {
                arity: 3,
                sources: [I, F, F, F],
                result: RF,
                needs_derivatives: false,
            },
            Eq | Ge | Lt | Ne => u(2, F, RI),
            DerivRtxCoarse | DerivRtyCoarse | DerivRtxFine | DerivRtyFine => AluInfo {
                needs_derivatives: true,
                ..u(1, F, RF)
            },
            FToI | FToU | F32ToF16 => u(1, F, RI),
            IToF | UToF | F16ToF32 => u(1, I, RF),
            Not | INeg | Bfrev | CountBits | FirstBitHi | FirstBitLo | FirstBitShi => u(1, I, RI),
            IAdd | IMul | IEq | INe | IGe | ILt | UGe | ULt | And | Or | Xor | IShl | IShr
            | UShr | IMin | IMax | UMin | UMax | UDiv | URem | IMulHi | UMulHi | UAddCarry
            | USubBorrow => u(2, I, RI),
            IMad | Ubfe | Ibfe | Msad => u(3, I, RI),
            Bfi => u(4, I, RI),
        }
    }
}

impl DoubleOp {
    /// Sources read.
    pub fn arity(self) -> u8 {
        use DoubleOp::*;
        match self {
            Fma | Movc => 3,
            Add | Mul | Div | Min | Max | Eq | Ge | Lt | Ne => 2,
            Rcp | Mov | ToF32 | FromF32 | ToI32 | ToU32 | FromI32 | FromU32 => 1,
        }
    }

    /// Whether each double read gives one 32-bit result (comparisons and
    /// conversions from double), so a destination takes at most two.
    pub fn narrows(self) -> bool {
        use DoubleOp::*;
        matches!(self, Eq | Ge | Lt | Ne | ToF32 | ToI32 | ToU32)
    }
}

#[cfg(test)]
mod tests {
    use super::{ResultKind, SrcTy};
    use crate::ir::AluOp;

    #[test]
    fn derivatives_are_float_unary_operations() {
        for op in [
            AluOp::DerivRtxCoarse,
            AluOp::DerivRtyCoarse,
            AluOp::DerivRtxFine,
            AluOp::DerivRtyFine,
        ] {
            let info = op.info();
            assert!(info.needs_derivatives);
            assert_eq!(info.arity, 1);
            assert_eq!(info.source(0), SrcTy::Float);
            assert_eq!(info.result, ResultKind::Float);
        }
        assert!(!AluOp::Add.info().needs_derivatives);
    }

    #[test]
    fn movc_reads_its_condition_as_integer() {
        let info = AluOp::Movc.info();
        assert_eq!(info.arity, 3);
        assert_eq!(info.source(0), SrcTy::Int);
        assert_eq!(info.source(1), SrcTy::Float);
        assert_eq!(info.source(2), SrcTy::Float);
    }

    #[test]
    fn conversions_read_one_kind_and_produce_the_other() {
        assert_eq!(AluOp::IToF.info().source(0), SrcTy::Int);
        assert_eq!(AluOp::IToF.info().result, ResultKind::Float);
        assert_eq!(AluOp::FToU.info().source(0), SrcTy::Float);
        assert_eq!(AluOp::FToU.info().result, ResultKind::Int);
    }
}
