//! `eval_*` ([`crate::ir::Inst::Eval`]): one `dxjit_eval` call for the
//! whole call's lanes. The operand's words (the sample index, or the
//! snapped offset's x and y) go to the helper argument block lane by
//! lane; the runtime evaluates the input register at each lane's point as
//! the call's draw path interpolated it (`dxjit_runtime::eval`) and leaves
//! its four components there, which are written to the destination
//! through the source's swizzle and modifiers.

use super::helpers::HelperId;
use super::operand::Ty;
use super::state::Tr;
use super::JitError;
use crate::ir::{Dst, EvalAt, Src};
use cranelift_codegen::ir::{types, InstBuilder};
use dxjit_runtime::abi::EvalMode;

impl Tr<'_, '_> {
    /// `eval_*` of input `src` at `at` into `dst`.
    pub fn emit_eval(&mut self, dst: &Dst, src: &Src, at: &EvalAt) -> Result<(), JitError> {
        let (mode, words) = match at {
            EvalAt::Centroid => (EvalMode::Centroid, 0),
            EvalAt::Sample(_) => (EvalMode::SampleIndex, 1),
            EvalAt::Snapped(_) => (EvalMode::Snapped, 2),
        };
        let block = (self.lanes() * 4) as i32;
        let operand = at.operand().map(|op| {
            (0..words)
                .map(|c| self.read(op, c, Ty::I))
                .collect::<Result<Vec<_>, _>>()
        });
        let operand = operand.transpose()?.unwrap_or_default();
        let args = self.args_ptr();
        for (c, v) in operand.into_iter().enumerate() {
            self.store_lanes(v, args, c as i32 * block);
        }
        let f = self.helper(HelperId::Eval);
        let [reg, mode, lanes] = [src.index.base, mode as u32, self.lanes()]
            .map(|word| self.b.ins().iconst(types::I32, i64::from(word)));
        self.b.ins().call(f, &[self.frame, reg, mode, lanes, args]);
        let mut values = Vec::new();
        for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
            let component = i32::from(src.swizzle[c] & 3);
            let raw = self.load_lanes(args, component * block);
            values.push((c, self.modify(raw, src.abs, src.neg, Ty::F)));
        }
        for (c, v) in values {
            self.write(dst, c, v)?;
        }
        Ok(())
    }
}
