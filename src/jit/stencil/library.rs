//! The process's stencils, by key: each is compiled by Cranelift the first
//! time any shader needs it and copied by every shader after.

use super::build;
use super::key::Key;
use super::Stencil;
use crate::jit::JitError;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Every stencil compiled so far.
fn library() -> &'static Mutex<FxHashMap<Key, Arc<Stencil>>> {
    static LIBRARY: OnceLock<Mutex<FxHashMap<Key, Arc<Stencil>>>> = OnceLock::new();
    LIBRARY.get_or_init(Default::default)
}

/// The stencil of `key`, compiled now if no shader has needed it before.
/// Two threads that miss the same key at once both compile it; the first
/// to finish is kept (the two are the same code).
pub fn get(key: &Key) -> Result<Arc<Stencil>, JitError> {
    let found = library()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(key)
        .cloned();
    if let Some(s) = found {
        return Ok(s);
    }
    let built = Arc::new(build::build(key, false)?);
    let mut map = library().lock().unwrap_or_else(|e| e.into_inner());
    Ok(map.entry(key.clone()).or_insert(built).clone())
}

/// The stencil of `key` compiled afresh with its code as text (for
/// listings; not kept).
pub fn with_listing(key: &Key) -> Result<Stencil, JitError> {
    build::build(key, true)
}

/// How many stencils the process has compiled.
pub fn size() -> usize {
    library().lock().unwrap_or_else(|e| e.into_inner()).len()
}
