//! The stencil prewarm list built into dxjit: that it still reads and
//! builds in this build, and (ignored) its regeneration from the game
//! shaders in `tests/shaders`.

use dxjit::shader::{lower, CompileOptions};
use dxjit_cli::smoke::{load, shader_files};
use std::path::Path;

/// Every key of the built-in list reads and its stencil builds.
#[test]
fn the_built_in_list_reads_and_builds() {
    let done = dxjit::prewarm_stencils(None);
    assert!(done.listed > 1000, "{done:?}");
    assert_eq!(done.failed, 0, "regenerate the list: {done:?}");
    assert_eq!(done.held + done.made, done.listed);
    let again = dxjit::prewarm_stencils(None);
    assert_eq!(again.held, done.listed, "a second prewarm makes nothing");
}

/// Writes `src/jit/stencil/prewarm.keys` from the shaders in
/// `tests/shaders`: `cargo test -p dxjit --test prewarm_list -- --ignored`.
#[test]
#[ignore = "regenerates the built-in prewarm list"]
fn regenerate_prewarm_list() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let programs: Vec<_> = shader_files(&[root.join("tests/shaders")])
        .iter()
        .filter_map(|f| load(f).ok())
        .filter_map(|bytes| lower(&bytes, &CompileOptions::default()).ok())
        .map(|(_, program)| program)
        .collect();
    let list = dxjit::stencil_prewarm_list(&programs);
    std::fs::write(root.join("src/jit/stencil/prewarm.keys"), &list).unwrap();
    println!("{} programs, {} bytes", programs.len(), list.len());
}
