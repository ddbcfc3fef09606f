//! The stencil tier's scratch memory: the helper-argument area the
//! translator uses, the execution masks, then the program's registers and
//! the slots its constructs save masks in.

use crate::ir::Program;
use crate::jit::state::ARGS_BYTES;
use std::collections::HashMap;

/// Byte offset of the mask block: `cond`, `brk`, `cont`, `sw`, `ret`,
/// `alive`, `exec`, a lane vector each (every stencil knows it).
pub const MASKS: u32 = ARGS_BYTES;
/// Vectors in the mask block.
pub const MASK_COUNT: u32 = 7;
/// Bytes of one register (four components of four lanes).
pub const REGISTER_BYTES: u32 = 64;

/// Where one program's state lives in the scratch.
pub struct Layout {
    /// Byte offset of temp `r0`.
    pub temps: u32,
    /// Byte offset and register count of each indexable temp.
    pub indexables: HashMap<u32, (u32, u32)>,
    /// Bytes used so far (slots are added at the end).
    pub size: u32,
}

impl Layout {
    /// The layout of `prog`'s registers; construct slots come later.
    pub fn of(prog: &Program) -> Layout {
        let temps = MASKS + MASK_COUNT * 16;
        let mut size = temps + prog.temps * REGISTER_BYTES;
        let mut indexables = HashMap::new();
        for x in &prog.indexables {
            indexables.insert(x.id, (size, x.count));
            size += x.count * REGISTER_BYTES;
        }
        Layout {
            temps,
            indexables,
            size,
        }
    }

    /// A new slot of `vectors` lane vectors: its byte offset.
    pub fn slot(&mut self, vectors: u32) -> u32 {
        let at = self.size;
        self.size += 16 * vectors;
        at
    }

    /// Byte offset of component `c` of temp `reg`.
    pub fn temp(&self, reg: u32, c: usize) -> u32 {
        self.temps + reg * REGISTER_BYTES + 16 * c as u32
    }
}
