//! Geometry-shader `emit` and `cut`: the execution mask goes to the helper
//! argument block and one runtime call records (or ends the strip of)
//! every active lane. Output registers already live in the frame's SoA
//! output block, which the helper copies from.

use super::helpers::HelperId;
use super::state::Tr;
use super::JitError;
use cranelift_codegen::ir::{types, InstBuilder};

impl Tr<'_, '_> {
    /// Calls `helper` (`GsEmit` or `GsCut`) for `stream` with the lanes of
    /// the current execution mask.
    pub fn emit_gs(&mut self, helper: HelperId, stream: u8) -> Result<(), JitError> {
        let args = self.args_ptr();
        let exec = self.exec();
        self.store_lanes(exec, args, 0);
        let f = self.helper(helper);
        let s = self.b.ins().iconst(types::I32, i64::from(stream));
        let frame = self.frame;
        self.b.ins().call(f, &[frame, s, args]);
        Ok(())
    }
}
