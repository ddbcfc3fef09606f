//! `eval_centroid`, `eval_sample_index` and `eval_snapped`: an input
//! evaluated somewhere else in its pixel.
//!
//! Each lowers to one [`Inst::Eval`] naming the input register and the
//! operand; the backend calls the runtime, which evaluates the input the
//! way the call's draw path interpolated it (`dxjit_runtime::eval`): the
//! corner values of `draw` (bilinear, cross term included), the plane
//! equations of `shade_quads` (perspective-correct ones divided by their
//! 1/w plane at the new point), at the point the instruction names: the
//! pixel centre plus the snapped offset, a sample of the rasterizer's
//! pattern, or the centroid of the pixel's covered samples under the
//! sample mask (D3D11.3, 3.5.5). The result is exactly what the path's
//! interpolation gives there; at the pixel centre it is the register's
//! bits. `centroid` and `sample` declarations do not move the point (16.5).
//! The one estimate left is `shade_quads` given per-pixel values, which
//! carry no interpolation: the runtime then extrapolates from the quad's
//! values with coarse differences.
//!
//! Inputs declared `constant` are returned unchanged (HLSL's
//! `EvaluateAttribute*` allow them and ignore where).

use super::Lowerer;
use crate::ir::{AluOp, EvalAt, File, Inst, Interpolation};
use crate::sm4::decode::Instruction;
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::Sm4Error;

impl Lowerer {
    /// The `eval_*` instructions; others are not handled here.
    pub(super) fn eval(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let dst = self.dst(self.operand(ins, 0)?, ins.saturate())?;
        let src = self.src(self.operand(ins, 1)?)?;
        let interpolation = match (&src.file, &src.index.rel) {
            (File::Input, None) => self
                .inputs
                .get(&src.index.base)
                .map_or(Interpolation::Linear, |io| io.interpolation),
            _ => return Err(self.err("evaluates only a declared input register v#")),
        };
        if interpolation == Interpolation::Constant {
            self.emit(Inst::Alu {
                op: AluOp::Mov,
                dst,
                src: vec![src],
            });
            return Ok(());
        }
        let at = match ins.opcode() {
            O::EvalSnapped => EvalAt::Snapped(self.src(self.operand(ins, 2)?)?),
            O::EvalSampleIndex => EvalAt::Sample(self.src(self.operand(ins, 2)?)?),
            O::EvalCentroid => EvalAt::Centroid,
            _ => return Err(self.err("not an eval instruction")),
        };
        self.emit(Inst::Eval { dst, src, at });
        Ok(())
    }
}
