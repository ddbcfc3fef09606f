//! The process's stencils, by key: each is loaded from the cache folder
//! (`disk`) or compiled by Cranelift the first time any shader needs it,
//! and copied by every shader after.

use super::key::Key;
use super::Stencil;
use super::{build, disk};
use crate::jit::JitError;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Stencils compiled by this process.
static COMPILED: AtomicUsize = AtomicUsize::new(0);
/// Stencils loaded from the cache folder by this process.
static LOADED: AtomicUsize = AtomicUsize::new(0);

/// Every stencil compiled so far.
fn library() -> &'static Mutex<FxHashMap<Key, Arc<Stencil>>> {
    static LIBRARY: OnceLock<Mutex<FxHashMap<Key, Arc<Stencil>>>> = OnceLock::new();
    LIBRARY.get_or_init(Default::default)
}

/// The stencil of `key` if the process holds it already.
pub fn find(key: &Key) -> Option<Arc<Stencil>> {
    library()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(key)
        .cloned()
}

/// The stencil of `key`, loaded or compiled now if no shader has needed it
/// before (and a compiled one kept in the cache folder). Two threads that
/// miss the same key at once both make it; the first to finish is kept
/// (the two are the same code).
pub fn get(key: &Key) -> Result<Arc<Stencil>, JitError> {
    if let Some(s) = find(key) {
        return Ok(s);
    }
    let built = match disk::load(key) {
        Some(loaded) => {
            LOADED.fetch_add(1, Ordering::Relaxed);
            Arc::new(loaded)
        }
        None => {
            let compiled = Arc::new(build::build(key, false)?);
            COMPILED.fetch_add(1, Ordering::Relaxed);
            disk::save(&compiled);
            compiled
        }
    };
    let mut map = library().lock().unwrap_or_else(|e| e.into_inner());
    Ok(map.entry(key.clone()).or_insert(built).clone())
}

/// The stencil of `key` compiled afresh with its code as text (for
/// listings; not kept).
pub fn with_listing(key: &Key) -> Result<Stencil, JitError> {
    build::build(key, true)
}

/// How many stencils this process has compiled with Cranelift and how
/// many it has loaded from the cache folder.
pub fn made() -> (usize, usize) {
    (
        COMPILED.load(Ordering::Relaxed),
        LOADED.load(Ordering::Relaxed),
    )
}

/// How many stencils the process holds.
pub fn size() -> usize {
    library().lock().unwrap_or_else(|e| e.into_inner()).len()
}
