//! `eval_centroid`, `eval_sample_index` and `eval_snapped`: an input's
//! plane evaluated somewhere else in the pixel.
//!
//! The plane's slopes are the quad's coarse derivatives of the input, so
//! an input `v` evaluated at offset `o` (in pixels) from where its register
//! was evaluated is `v + ddx(v) · o.x + ddy(v) · o.y`. The register holds
//! the pixel centre's value, or, for inputs interpolated per sample, the
//! shaded sample's, whose position is taken off the offset first. Inputs
//! declared `constant` are returned unchanged (HLSL's `EvaluateAttribute*`
//! allow them and ignore where); `centroid` and `sample` declarations do
//! not move the evaluation point.
//!
//! The result is the plane's value, up to the rounding of that sum in f32,
//! when the input is affine in screen space across the quad: what `draw`
//! gives an input whose corner values are affine (a bilinear blend with a
//! cross term is not: its slope differs between the quad's rows), and what
//! `shade_quads` gives for planes without `one_over_w`. It is a first-order
//! approximation otherwise: perspective-correct inputs (planes divided by
//! `1/w`), per-pixel inputs that are not affine, and helper pixels whose
//! inputs the embedder did not fill with the plane's values. The centroid
//! is the pixel centre: right for every pixel `draw` shades (its rectangle
//! covers whole pixels), but for a `shade_quads` pixel whose sample
//! coverage is partial D3D would use a point inside the covered samples.

use super::Lowerer;
use crate::ir::{AluOp, Dst, File, Index, Inst, Interpolation, Src, SysVal};
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
        let offsets = Dst::temp(self.scratch(0), 0b11);
        let offsets_src = Src::temp(self.scratch(0));
        match ins.opcode() {
            O::EvalSnapped => {
                let at = self.src(self.operand(ins, 2)?)?;
                self.emit_alu(
                    AluOp::Ibfe,
                    offsets.clone(),
                    vec![Src::splat(4), Src::splat(0), at],
                );
                let ints = offsets_src.clone();
                self.emit_alu(AluOp::IToF, offsets.clone(), vec![ints]);
                let sixteenths = vec![offsets_src.clone(), Src::splat_f32(1.0 / 16.0)];
                self.emit_alu(AluOp::Mul, offsets.clone(), sixteenths);
            }
            O::EvalSampleIndex => {
                let index = self.src(self.operand(ins, 2)?)?;
                self.emit(Inst::SamplePos {
                    dst: offsets.clone(),
                    res: None,
                    index,
                    swizzle: [0, 1, 2, 3],
                });
            }
            O::EvalCentroid => {
                self.emit_alu(AluOp::Mov, offsets.clone(), vec![Src::splat(0)]);
            }
            _ => return Err(self.err("not an eval instruction")),
        }
        let acc = Dst::temp(self.scratch(1), dst.mask);
        let acc_src = Src::temp(self.scratch(1));
        if interpolation == Interpolation::Sample {
            let here = Src {
                swizzle: [0; 4],
                ..Src::reg(File::SysVal(SysVal::SampleIndex), 0)
            };
            let position = Dst::temp(self.scratch(1), 0b11);
            self.emit(Inst::SamplePos {
                dst: position,
                res: None,
                index: here,
                swizzle: [0, 1, 2, 3],
            });
            let moved = vec![offsets_src.clone(), acc_src.clone().negated()];
            self.emit_alu(AluOp::Add, offsets.clone(), moved);
        }
        // acc = v + ddx(v) · o.x; dst = ddy(v); dst = dst · o.y + acc. The
        // source is an input, which no destination can alias.
        self.emit_alu(AluOp::DerivRtxCoarse, acc.clone(), vec![src.clone()]);
        let ox = offsets_src.clone().scalar(0);
        self.emit_alu(AluOp::Mad, acc, vec![acc_src.clone(), ox, src.clone()]);
        let unsaturated = Dst {
            saturate: false,
            ..dst.clone()
        };
        self.emit_alu(AluOp::DerivRtyCoarse, unsaturated, vec![src]);
        let slope = Src {
            file: dst.file,
            index: Index {
                base: dst.index.base,
                rel: dst.index.rel.clone(),
            },
            ..Src::temp(0)
        };
        let oy = offsets_src.scalar(1);
        self.emit_alu(AluOp::Mad, dst, vec![slope, oy, acc_src]);
        Ok(())
    }

    /// Emits one component-wise operation.
    fn emit_alu(&mut self, op: AluOp, dst: Dst, src: Vec<Src>) {
        self.emit(Inst::Alu { op, dst, src });
    }
}
