//! The shaders the built-in stencil prewarm stitches: that each still
//! compiles at the first tier from the stencils the prewarm made, and
//! (ignored) their choice from the game shaders in `tests/shaders`.

use dxjit::jit::stencil_library_made;
use dxjit::shader::{compile_with, lower, CompileOptions};
use dxjit::{Spawner, Tier};
use dxjit_cli::smoke::{dialect, load, shader_files, Dialect};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Every built-in shader is stitched by the prewarm, and compiles at the
/// first tier afterwards without making a stencil.
#[test]
fn the_built_in_shaders_compile_at_the_first_tier() {
    let done = dxjit::prewarm_stencils(None);
    assert!(done.programs > 5, "{done:?}");
    assert_eq!(done.failed, 0, "regenerate the shaders: {done:?}");
    assert!(done.stencils > 300, "{done:?}");
    let made = stencil_library_made();
    let options = CompileOptions {
        tier: Tier::First,
        ..CompileOptions::default()
    };
    for bytes in dxjit::prewarm_shaders() {
        compile_with(&bytes.unwrap(), &options, &Spawner::inline(), None).unwrap();
    }
    assert_eq!(stencil_library_made(), made, "every stencil was prewarmed");
    let again = dxjit::prewarm_stencils(None);
    assert_eq!(again.made, 0, "a second prewarm makes nothing: {again:?}");
    assert_eq!(again.stencils, done.stencils);
}

/// Share of the game shaders' stencil uses the chosen shaders cover.
const SHARE: f64 = 0.95;
/// Most bytes the chosen shaders take in the binary.
const BUDGET: usize = 150_000;

/// The `Source` expression that embeds the shader file `path` from
/// `src/compile`.
fn source(root: &Path, path: &Path) -> String {
    let from_src = Path::new("../..").join(path.strip_prefix(root).unwrap());
    let text = std::fs::read_to_string(path).ok();
    let kind = match text.as_deref().map(dialect) {
        Some(Ok(Dialect::D3d9)) => "D3d9Text(include_str!",
        Some(Ok(Dialect::Sm4)) => "Sm4Text(include_str!",
        _ => "Bytecode(include_bytes!",
    };
    format!("Source::{kind}({:?}))", from_src.display().to_string())
}

/// Writes `src/compile/prewarm_shaders.rs` from the shaders in
/// `tests/shaders`: `cargo test -p dxjit --test prewarm_shaders --
/// --ignored`, then `cargo fmt`.
#[test]
#[ignore = "regenerates the built-in prewarm shaders"]
fn regenerate_prewarm_shaders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read: Vec<(PathBuf, dxjit::ir::Program, usize)> =
        shader_files(&[root.join("tests/shaders")])
            .into_iter()
            .filter_map(|f| {
                let bytes = load(&f).ok()?;
                let (_, prog) = lower(&bytes, &CompileOptions::default()).ok()?;
                let size = std::fs::metadata(&f).ok()?.len() as usize;
                Some((f, prog, size))
            })
            .collect();
    let programs: Vec<_> = read.iter().map(|(_, p, size)| (p, *size)).collect();
    let choice = dxjit::choose_prewarm_shaders(&programs, SHARE, BUDGET);
    let mut out = String::from(
        "//! The shaders the built-in stencil prewarm stitches. Written by the\n\
         //! ignored test `regenerate_prewarm_shaders` (`tests/prewarm_shaders.rs`).\n\n\
         use super::prewarm::Source;\n\n",
    );
    writeln!(
        out,
        "/// The shaders, in the order chosen: {} of {} game shaders, {} bytes,\n\
         /// needing {} of their {} stencils and {} of their {} stencil uses.\n\
         pub const SHADERS: &[Source] = &[",
        choice.chosen.len(),
        read.len(),
        choice.bytes,
        choice.stencils.1,
        choice.stencils.0,
        choice.uses.1,
        choice.uses.0
    )
    .unwrap();
    for &i in &choice.chosen {
        writeln!(out, "    {},", source(root, &read[i].0)).unwrap();
    }
    out.push_str("];\n");
    std::fs::write(root.join("src/compile/prewarm_shaders.rs"), out).unwrap();
    println!("{choice:?}");
}
