//! Running a compute shader.

use crate::bindings::Bindings;
use crate::bound::Bound;
use crate::enums::Stage;
use crate::guard::{call, Message};
use crate::reflect::shader_ref;
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use std::ffi::c_char;

/// The most thread groups along each axis (D3D11's limit).
pub const MAX_GROUPS: u32 = 65535;

/// Fails with [`Status::WrongStage`] unless `shader` runs in `stage`.
pub(crate) fn require_stage(shader: &Shader, stage: Stage, call: &str) -> Outcome<()> {
    if shader.stage() != stage {
        return Err(Failure::new(
            Status::WrongStage,
            format!(
                "{call} needs a {stage:?} shader, this is a {:?} shader",
                shader.stage()
            ),
        ));
    }
    Ok(())
}

/// Runs a compute shader over `groups_x` × `groups_y` × `groups_z` thread
/// groups (each at most 65535; a 0 runs nothing), on every core, returning
/// when all have finished. UAV memory holds the results.
///
/// # Safety
/// `shader` is null or live; `bindings` is null or valid as
/// `dxjit_bindings` documents, for the whole call.
#[no_mangle]
pub unsafe extern "C" fn dxjit_dispatch(
    shader: *const Shader,
    bindings: *const Bindings,
    groups_x: u32,
    groups_y: u32,
    groups_z: u32,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        require_stage(s, Stage::Compute, "dxjit_dispatch")?;
        let groups = [groups_x, groups_y, groups_z];
        if groups.iter().any(|&g| g > MAX_GROUPS) {
            return Err(Failure::new(
                Status::OutOfRange,
                format!("{groups:?} groups: at most {MAX_GROUPS} along each axis"),
            ));
        }
        // SAFETY: forwarded contract.
        let bound = unsafe { Bound::new(s, bindings) }?;
        let per_group = s.shader.kernel().thread_group.map(u64::from);
        let invocations = groups.map(u64::from).iter().chain(&per_group).product();
        let kernel = s.shader.kernel_for(invocations);
        // SAFETY: the caller's contract keeps every bound view valid and
        // untouched for the call; `s` keeps its code alive.
        bound.run(&s.shader, |b| unsafe {
            dxjit_runtime::dispatch::dispatch(&kernel, b, groups)
        })
    })
}
