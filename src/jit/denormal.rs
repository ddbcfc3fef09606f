//! Flushing float32 denormals before runtime helpers that would see them.
//!
//! Shaders run with MXCSR DAZ and FTZ set, so every SSE float instruction
//! reads a denormal as a zero of the same sign and writes zeros for
//! denormal results, which is the Direct3D 10+ rule. The helpers for `log`
//! and `sin` (`dxjit_log2`, `dxjit_sin`) are library code that inspects
//! the float's bits with integer operations: `log2(2^-149)` gives -149 and
//! `sin(x)` returns a tiny `x` unchanged. Their inputs are flushed here.
//! `exp` and `cos` of a denormal are 1 either way, and `exp`'s denormal
//! results are flushed by its own final multiply, so they need nothing.

use super::lanes::Lanes;
use super::state::Tr;
use cranelift_codegen::ir::InstBuilder;

impl Tr<'_, '_> {
    /// `a` with every denormal lane replaced by a zero of its sign: one
    /// multiply by 1.0, which under DAZ reads a denormal as that zero and
    /// leaves every other value (NaN and infinities too) as it is.
    pub fn flush_denormals(&mut self, a: Lanes) -> Lanes {
        let one = self.lb().splat(1.0f32.to_bits());
        let a = self.lb().as_float(a);
        let one = self.lb().as_float(one);
        let r = self.lb().map2(a, one, |b, x, y| b.ins().fmul(x, y));
        self.lb().as_int(r)
    }
}
