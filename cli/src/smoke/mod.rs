//! `dxjit smoke`: runs shaders once with bindings made from their own
//! declarations, to find out whether they compile and run at all.
//!
//! The flow is [`shader_files`] → [`load`] (bytecode as is, assembly text
//! through the assembler its version line names) → [`Declared::of`] and the
//! IR program → [`smoke_case`] (a case with patterned constants, 64 KiB
//! buffers, 16×16 textures with mip chains, default samplers, inputs and
//! render targets; geometry and domain shaders get the stages they need
//! made for them)
//! → [`crate::run::execute`]. [`smoke_files`] runs each
//! shader in its own thread with panics caught and a watchdog for hangs.

mod case;
mod feed;
mod io;
mod load;
mod pattern;
mod reflect;
mod report;
mod resources;
mod runner;

#[cfg(test)]
mod tests;

pub use case::smoke_case;
pub use load::{assemble, dialect, load, shader_files, Dialect};
pub use reflect::{Declared, ElementType};
pub use report::{json, summary, SmokeResult};
pub use runner::{smoke_bytes, smoke_file, smoke_files, SmokeRun, DEFAULT_TIMEOUT};

use std::path::PathBuf;
use std::time::Duration;

/// The `smoke` command: runs every shader below `paths`, printing a line
/// each and the counts (or, with `json`, one JSON report). True when all
/// passed.
pub fn command(paths: &[PathBuf], json_report: bool, timeout: Duration) -> Result<bool, String> {
    let files = shader_files(paths);
    if files.is_empty() {
        return Err("no shader files found".into());
    }
    let run = smoke_files(&files, timeout, |r| {
        if !json_report {
            println!("{}", r.line());
        }
    });
    if json_report {
        println!("{}", json(&run.results));
    } else {
        println!("{}", summary(&run.results));
    }
    Ok(run.results.iter().all(SmokeResult::passed))
}
