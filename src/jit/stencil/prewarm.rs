//! Prewarming: making the stencils of a key list before any shader needs
//! them, and making such a list from programs.
//!
//! A list is a sequence of keys ([`Key::to_bytes`]), each after its length
//! as a little-endian `u32`, the keys most programs share first. The list
//! built into dxjit ([`BUILT_IN`]) is made from the game shaders in
//! `tests/shaders` by the ignored test `regenerate_prewarm_list`
//! (`tests/prewarm_list.rs`); it is tied to the IR's shape, and a normal
//! test checks that every key in it still reads and builds.

use super::key::Key;
use super::layout::Layout;
use super::stitch::Stitcher;
use super::{library, takes, STENCIL_K};
use crate::ir::Program;
use rustc_hash::{FxHashMap, FxHashSet};

/// The list built into dxjit: the stencils of the game shaders in
/// `tests/shaders`.
pub const BUILT_IN: &[u8] = include_bytes!("prewarm.keys");

/// What a prewarm did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Prewarmed {
    /// Keys in the list.
    pub listed: usize,
    /// Stencils the process held already.
    pub held: usize,
    /// Stencils made now (loaded from the cache folder or compiled).
    pub made: usize,
    /// Keys that did not read (a list from another build) or whose stencil
    /// failed to build.
    pub failed: usize,
}

/// The keys of `list`, in order; a key that does not read is `None`.
/// `None` when the list itself is cut short.
pub fn keys(list: &[u8]) -> Option<Vec<Option<Key>>> {
    let mut rest = list;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let len = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let bytes = rest.get(4..4 + len)?;
        out.push(Key::from_bytes(bytes));
        rest = &rest[4 + len..];
    }
    Some(out)
}

/// Makes the stencils of `list` that the process does not hold, in the
/// list's order, on the calling thread.
pub fn prewarm(list: &[u8]) -> Prewarmed {
    let Some(keys) = keys(list) else {
        log::warn!("stencil prewarm list is cut short; nothing prewarmed");
        return Prewarmed::default();
    };
    let mut done = Prewarmed {
        listed: keys.len(),
        ..Prewarmed::default()
    };
    for key in keys {
        match key {
            Some(key) if library::holds(&key) => done.held += 1,
            Some(key) => match library::get(&key) {
                Ok(_) => done.made += 1,
                Err(e) => {
                    log::debug!("stencil prewarm: {e}");
                    done.failed += 1;
                }
            },
            None => done.failed += 1,
        }
    }
    if done.failed > 0 {
        log::warn!(
            "stencil prewarm: {} of {} listed stencils could not be made (a list from another build?)",
            done.failed,
            done.listed
        );
    }
    done
}

/// The list of the stencils `programs` need at the stencil tier's lane
/// count, those more programs share first (ties in the order first met).
/// Makes every stencil it lists; programs the tier does not take are
/// passed over.
pub fn list_for<'a>(programs: impl IntoIterator<Item = &'a Program>) -> Vec<u8> {
    let mut uses: FxHashMap<Key, (usize, usize)> = FxHashMap::default();
    for prog in programs.into_iter().filter(|p| takes(p)) {
        let mut s = Stitcher::new(prog, Layout::of(prog, STENCIL_K));
        if s.program().is_err() {
            continue;
        }
        let mut seen = FxHashSet::default();
        for key in s.pieces.iter().map(|p| &p.stencil.key) {
            if seen.insert(key) {
                let first = uses.len();
                uses.entry(key.clone()).or_insert((0, first)).0 += 1;
            }
        }
    }
    let mut ranked: Vec<(Key, (usize, usize))> = uses.into_iter().collect();
    ranked.sort_by_key(|(_, (count, first))| (std::cmp::Reverse(*count), *first));
    let mut list = Vec::new();
    for bytes in ranked.iter().filter_map(|(key, _)| key.to_bytes()) {
        list.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        list.extend_from_slice(&bytes);
    }
    list
}
