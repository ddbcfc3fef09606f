//! Prewarming the stencil tier: making the stencils real shaders need
//! before the first shader asks for them, on a thread the embedder
//! chooses.
//!
//! The stencil tier compiles each stencil with Cranelift the first time
//! any shader needs it (about 100 µs each); a process's first shaders pay
//! for most of them. A prewarm stitches a few shaders ahead of time and
//! drops the code, which makes their stencils: the shaders built into
//! dxjit (game shaders chosen to cover most stencils of the game shaders
//! in `tests/shaders`) or the embedder's own. With a persistent cache,
//! stencils a previous process kept there are loaded rather than
//! compiled, so a prewarm of a warm cache takes milliseconds.

use super::prewarm_shaders::SHADERS;
use super::Spawner;
use crate::disk_cache::DiskCache;
use crate::ir::Program;
use crate::jit::{self, PrewarmChoice, Prewarmed};
use crate::shader::{lower, CompileOptions};

/// A shader built into dxjit for the prewarm, as embedded.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// Bytecode (a D3D9 token stream or a DXBC container).
    Bytecode(&'static [u8]),
    /// D3D9 assembly text.
    D3d9Text(&'static str),
    /// SM4/5 assembly text.
    Sm4Text(&'static str),
}

impl Source {
    /// The shader's bytecode, assembled if it is text.
    pub fn bytecode(self) -> Result<Vec<u8>, String> {
        match self {
            Source::Bytecode(bytes) => Ok(bytes.to_vec()),
            Source::D3d9Text(text) => crate::d3d9::assemble(text)
                .map(|tokens| tokens.iter().flat_map(|w| w.to_le_bytes()).collect())
                .map_err(|e| e.to_string()),
            Source::Sm4Text(text) => crate::sm4::assemble(text).map_err(|e| e.to_string()),
        }
    }
}

/// The bytecode of each shader the built-in prewarm stitches (text ones
/// assembled), or why it could not be had.
pub fn prewarm_shaders() -> impl Iterator<Item = Result<Vec<u8>, String>> {
    SHADERS.iter().map(|s| s.bytecode())
}

/// Makes the stencils of the shaders built into dxjit that the process
/// does not hold yet, on the calling thread (call it on a thread of your
/// own, or use [`prewarm_stencils_on`]). With `disk`, stencils are kept in
/// (and loaded from) that cache from now on, as
/// [`compile_with`](crate::compile_with) does. Never fails: a shader that
/// cannot be stitched is counted in [`Prewarmed::failed`] and its
/// stencils are made when a shader needs them. Compiles running meanwhile
/// share the stencils made so far.
pub fn prewarm_stencils(disk: Option<&DiskCache>) -> Prewarmed {
    if let Some(disk) = disk {
        jit::keep_stencils_in(disk);
    }
    jit::prewarm_programs(prewarm_shaders().map(|b| program(&b?)))
}

/// [`prewarm_stencils`] with the embedder's own shaders (bytecode, lowered
/// with the default [`CompileOptions`]).
pub fn prewarm_stencils_from<'a>(
    shaders: impl IntoIterator<Item = &'a [u8]>,
    disk: Option<&DiskCache>,
) -> Prewarmed {
    if let Some(disk) = disk {
        jit::keep_stencils_in(disk);
    }
    jit::prewarm_programs(shaders.into_iter().map(program))
}

/// The IR of `bytes`, lowered with the default options.
fn program(bytes: &[u8]) -> Result<Program, String> {
    lower(bytes, &CompileOptions::default())
        .map(|(_, prog)| prog)
        .map_err(|e| e.to_string())
}

/// Hands a [`prewarm_stencils`] to `spawner` (on the default spawner it
/// occupies one of the background compile threads until it ends: a few
/// hundred milliseconds cold, a few from a warm cache).
pub fn prewarm_stencils_on(spawner: &Spawner, disk: Option<DiskCache>) {
    spawner.spawn(Box::new(move || {
        prewarm_stencils(disk.as_ref());
    }));
}

/// Waits until the shader entries and stencils compiled so far are
/// written to the persistent cache (they are written by a background
/// thread; a process that exits right after compiling calls this first,
/// or the next one compiles them again).
pub fn flush_disk_cache() {
    crate::disk_cache::writer::flush();
}

/// Which of `programs` (each with its size in bytes) to prewarm with, for
/// [`prewarm_stencils_from`]: chosen one by one, each time the one whose
/// stencils not covered yet have the most uses by the set's programs per
/// byte, until the chosen cover `share` (0..=1) of the set's stencil uses or
/// nothing more fits in `budget` bytes. Stitches every program (slow the
/// first time). The built-in shaders are chosen so from the game shaders
/// in `tests/shaders`.
pub fn choose_prewarm_shaders(
    programs: &[(&Program, usize)],
    share: f64,
    budget: usize,
) -> PrewarmChoice {
    jit::choose_prewarm(programs, share, budget)
}
