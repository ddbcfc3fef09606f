//! The stencil tier's scratch memory: the helper-argument area the
//! translator uses, the execution masks, then the program's registers and
//! the slots its constructs save masks in.

use crate::ir::Program;
use crate::jit::state::ARGS_BYTES;
use std::collections::HashMap;

/// Byte offset of the mask block: `cond`, `brk`, `cont`, `sw`, `ret`,
/// `alive`, `exec`, one component's lanes each (every stencil knows it).
pub const MASKS: u32 = ARGS_BYTES;
/// Components in the mask block.
pub const MASK_COUNT: u32 = 7;

/// Bytes of one component's lanes at `k` vectors per component.
pub fn component_bytes(k: usize) -> u32 {
    16 * k as u32
}

/// Where one program's state lives in the scratch.
pub struct Layout {
    /// Vectors per component.
    pub k: usize,
    /// Byte offset of temp `r0`.
    pub temps: u32,
    /// Byte offset and register count of each indexable temp.
    pub indexables: HashMap<u32, (u32, u32)>,
    /// Bytes used so far (slots are added at the end).
    pub size: u32,
}

impl Layout {
    /// The layout of `prog`'s registers at `k` vectors per component;
    /// construct slots come later.
    pub fn of(prog: &Program, k: usize) -> Layout {
        let register = 4 * component_bytes(k);
        let temps = MASKS + MASK_COUNT * component_bytes(k);
        let mut size = temps + prog.temps * register;
        let mut indexables = HashMap::new();
        for x in &prog.indexables {
            indexables.insert(x.id, (size, x.count));
            size += x.count * register;
        }
        Layout {
            k,
            temps,
            indexables,
            size,
        }
    }

    /// A new slot of `components` components' lanes: its byte offset.
    pub fn slot(&mut self, components: u32) -> u32 {
        let at = self.size;
        self.size += components * component_bytes(self.k);
        at
    }

    /// Byte offset of component `c` of register `reg` of a block whose
    /// first register is at `base`.
    pub fn component(&self, base: u32, reg: u32, c: usize) -> u32 {
        base + (4 * reg + c as u32) * component_bytes(self.k)
    }

    /// Byte offset of component `c` of temp `reg`.
    pub fn temp(&self, reg: u32, c: usize) -> u32 {
        self.component(self.temps, reg, c)
    }
}
