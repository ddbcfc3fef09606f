//! Relative indices into two-dimensional register files (geometry-shader
//! inputs `v[vertex][reg]`, hull and domain `vicp`/`vocp[point][reg]`),
//! whose rows are laid out flat as `reg * per_reg + vertex`.
//!
//! D3D leaves indexing past either axis undefined (the `dcl_indexRange`
//! documentation: "indexing a register outside of the max index
//! declaration produces undefined results"; the vertex axis is always
//! fully indexable). dxjit bounds each axis on its own, so that an
//! out-of-range vertex or register never reads another vertex's data: such
//! a read gives 0, as every other out-of-range relative read in dxjit does.
//! The flat row is computed before the instruction that reads it, into a
//! scratch temp that only these computations use.

use super::Lowerer;
use crate::ir::{AluOp, Dst, Index, Inst, Src};

/// The first scratch temp relative-index computations take (scratch 0
/// and 1 belong to the ALU lowering's destinations).
pub(super) const FIRST_SCRATCH: u32 = 2;

/// Scratch temps for relative 2D indices: one per source operand, and an
/// instruction has at most four sources.
pub(super) const SCRATCH_TEMPS: u32 = 4;

/// A relative row far past every register file, which the compiled code
/// bounds-checks to a read of 0.
const OUT_OF_RANGE: u32 = 0x7fff_0000;

/// One axis of a two-dimensional register index: the index and how many
/// entries the axis has.
pub(super) struct Axis<'a> {
    /// The operand's index on this axis.
    pub index: &'a Index,
    /// Entries along the axis.
    pub count: u32,
}

impl Lowerer {
    /// Scalar source of the flat row `reg * per_reg + vertex` of a 2D
    /// operand with at least one relative index, or of a row past every
    /// file when either index is out of its axis. Queues the instructions
    /// that compute it before the instruction being lowered.
    pub(super) fn flat_rel_row(&self, vertex: Axis<'_>, reg: Axis<'_>, per_reg: u32) -> Src {
        let n = self.prelude_temps.get().min(SCRATCH_TEMPS - 1);
        self.prelude_temps.set(n + 1);
        let t = self.temps() + FIRST_SCRATCH + n;
        let value = |ix: &Index| match &ix.rel {
            Some(rel) => {
                let first = rel.swizzle[0];
                ((**rel).clone().scalar(first), Src::splat(ix.base))
            }
            None => (Src::splat(ix.base), Src::splat(0)),
        };
        let tc = |c: u8| Src::temp(t).scalar(c);
        let alu = |op, mask, src| Inst::Alu {
            op,
            dst: Dst::temp(t, mask),
            src,
        };
        let (v, v_base) = value(vertex.index);
        let (r, r_base) = value(reg.index);
        let mut prelude = self.prelude.borrow_mut();
        prelude.extend([
            alu(AluOp::IAdd, 0b0001, vec![v, v_base]),
            alu(AluOp::IAdd, 0b0010, vec![r, r_base]),
            alu(AluOp::ULt, 0b0100, vec![tc(0), Src::splat(vertex.count)]),
            alu(AluOp::ULt, 0b1000, vec![tc(1), Src::splat(reg.count)]),
            alu(AluOp::And, 0b0100, vec![tc(2), tc(3)]),
            alu(AluOp::IMad, 0b0001, vec![tc(1), Src::splat(per_reg), tc(0)]),
            alu(
                AluOp::Movc,
                0b0001,
                vec![tc(2), tc(0), Src::splat(OUT_OF_RANGE)],
            ),
        ]);
        tc(0)
    }
}
