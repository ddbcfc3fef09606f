//! Class instances a caller binds (SM5 class linkage): checked against the
//! interfaces the shader declares and handed to compiled code as the
//! class-instance constant buffer (`dxjit::ir::class`).

use crate::bindings::Bindings;
use crate::bound::claim;
use crate::checks::{in_range, versioned_slice};
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use dxjit::ir::class::{self, CLASS_CB_SLOT, ROWS};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::Bindings as RuntimeBindings;

/// What each interface slot holds: its function table and `this` data
/// (constant buffer, row offset, texture, sampler).
pub(crate) type Instances = Vec<Option<(u32, [u32; 4])>>;

/// The class instances `g` binds, by interface slot; `None` when it binds
/// none.
///
/// # Safety
/// `g.class_instances` holds `g.class_instance_count` readable entries.
pub(crate) unsafe fn class_instances(g: &Bindings) -> Outcome<Option<Instances>> {
    // SAFETY: the array holds its count of entries (contract).
    let items =
        unsafe { versioned_slice(g.class_instances, g.class_instance_count, "class_instances") }?;
    if items.is_empty() {
        return Ok(None);
    }
    let slots = class::MAX_SLOTS as usize;
    let mut bound = vec![false; slots];
    let mut instances: Instances = vec![None; slots];
    for c in items {
        let slot = in_range(c.slot, slots, "interface slot")?;
        claim(&mut bound, slot, "interface")?;
        instances[slot] = Some((c.table, [c.cb, c.cb_offset, c.texture, c.sampler]));
    }
    Ok(Some(instances))
}

/// The class-instance rows compiled code reads, owned for the call.
pub(crate) struct ClassRows {
    /// The memory `bindings.cbs[CLASS_CB_SLOT]` points to.
    _rows: Vec<[u32; 4]>,
}

impl ClassRows {
    /// Checks `instances` against the interfaces `shader` declares (every
    /// declared slot bound, to a table its interface lists) and, when any
    /// are bound, binds their rows in `bindings`.
    pub(crate) fn bind(
        shader: &Shader,
        instances: Option<Instances>,
        bindings: &mut RuntimeBindings,
    ) -> Outcome<Option<ClassRows>> {
        let instances = instances.unwrap_or_default();
        let interfaces = &shader.shader.program().interfaces;
        if !interfaces.is_empty() {
            class::check(interfaces, &instances).map_err(|m| Failure::new(Status::Unlinked, m))?;
        }
        if instances.is_empty() {
            return Ok(None);
        }
        let mut rows = class::rows(&instances);
        bindings.cbs[CLASS_CB_SLOT as usize] = View {
            ptr: rows.as_mut_ptr().cast(),
            size: ROWS * 16,
            ..View::EMPTY
        };
        Ok(Some(ClassRows { _rows: rows }))
    }
}
