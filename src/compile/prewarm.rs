//! Prewarming the stencil tier: making the stencils real shaders need
//! before the first shader asks for them, on a thread the embedder
//! chooses.
//!
//! The stencil tier compiles each stencil with Cranelift the first time
//! any shader needs it (about 100 µs each); a process's first shaders pay
//! for most of them. A prewarm makes them ahead of time from a key list:
//! the one built into dxjit (made from game shaders) or the embedder's own
//! ([`stencil_prewarm_list`]). With a persistent cache, stencils a previous
//! process kept there are loaded rather than compiled, so a prewarm of a
//! warm cache takes milliseconds.

use super::Spawner;
use crate::disk_cache::DiskCache;
use crate::ir::Program;
use crate::jit::{self, Prewarmed};

/// Makes the stencils of the built-in list that the process does not hold
/// yet, on the calling thread (call it on a thread of your own, or use
/// [`prewarm_stencils_on`]). With `disk`, stencils are kept in (and loaded
/// from) that cache from now on, as [`compile_with`](crate::compile_with)
/// does. Never fails: a stencil that cannot be made is counted in
/// [`Prewarmed::failed`] and left to be made when a shader needs it.
/// Compiles running meanwhile share the stencils made so far.
pub fn prewarm_stencils(disk: Option<&DiskCache>) -> Prewarmed {
    prewarm_stencils_from(jit::BUILT_IN_PREWARM, disk)
}

/// [`prewarm_stencils`] with the list `list` (made by
/// [`stencil_prewarm_list`] in this build).
pub fn prewarm_stencils_from(list: &[u8], disk: Option<&DiskCache>) -> Prewarmed {
    if let Some(disk) = disk {
        jit::keep_stencils_in(disk);
    }
    jit::prewarm_stencil_list(list)
}

/// Hands a [`prewarm_stencils`] of the built-in list to `spawner` (on the
/// default spawner it occupies one of the background compile threads
/// until it ends: a few hundred milliseconds cold, a few from a warm
/// cache).
pub fn prewarm_stencils_on(spawner: &Spawner, disk: Option<DiskCache>) {
    spawner.spawn(Box::new(move || {
        prewarm_stencils(disk.as_ref());
    }));
}

/// Waits until the stencils compiled so far are written to the cache
/// (they are written by a background thread; a process that exits right
/// after compiling calls this first, or the next one compiles them again).
pub fn flush_stencil_cache() {
    jit::flush_stencil_writes();
}

/// A prewarm list of the stencils `programs` need at the stencil tier,
/// those more programs share first: for [`prewarm_stencils_from`] in this
/// build. Compiles each program's stencils (it is slow the first time).
pub fn stencil_prewarm_list<'a>(programs: impl IntoIterator<Item = &'a Program>) -> Vec<u8> {
    jit::prewarm_list(programs)
}
