//! Stencils kept on disk: a `stencils` folder in the persistent cache the
//! embedder names, one record per key (`record` has the layout), so that a
//! later process loads what an earlier one compiled instead of running
//! Cranelift. A record that is missing, damaged or for another build is
//! passed over (a bad one with a `log::warn!`) and the stencil compiled
//! and written again. Records are written by the cache's writer thread (a
//! write costs about as much as compiling the stencil), each through a
//! temporary file and a rename, so processes can share the folder, and
//! count against the cache's cap.

use super::key::Key;
use super::{record, Stencil};
use crate::disk_cache::{dir, key::stencil_key, writer, DiskCache};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use dir::{STENCIL_EXTENSION as EXTENSION, STENCIL_FOLDER as FOLDER};

/// The cache last named, its stencil folder, and whether it can be used.
static STORE: RwLock<Option<(DiskCache, PathBuf, bool)>> = RwLock::new(None);

/// Keeps stencils in `cache` from now on (in the whole process; the last
/// cache named wins). Cheap when it is the cache already in use; a folder
/// that cannot be made is reported once (nothing more when the cache's own
/// directory is unusable: the cache reported that).
pub fn keep_in(cache: &DiskCache) {
    let folder = cache.dir().join(FOLDER);
    let current = STORE.read().unwrap_or_else(|e| e.into_inner());
    if current.as_ref().is_some_and(|(_, f, _)| *f == folder) {
        return;
    }
    drop(current);
    let usable = cache.usable()
        && std::fs::create_dir_all(&folder)
            .inspect_err(|e| {
                log::warn!(
                    "stencil cache {}: cannot use the folder ({e}); stencils are not kept",
                    folder.display()
                )
            })
            .is_ok();
    *STORE.write().unwrap_or_else(|e| e.into_inner()) = Some((cache.clone(), folder, usable));
}

/// The cache and folder stencils are kept in, if any.
fn store() -> Option<(DiskCache, PathBuf)> {
    let current = STORE.read().unwrap_or_else(|e| e.into_inner());
    current
        .as_ref()
        .and_then(|(cache, folder, usable)| usable.then(|| (cache.clone(), folder.clone())))
}

/// The record of the stencil whose key digests to `digest` in `folder`,
/// and its name.
fn path(folder: &Path, digest: &[u8; 16]) -> Option<(PathBuf, crate::disk_cache::Key)> {
    let name = stencil_key(digest)?;
    Some((folder.join(format!("{}.{EXTENSION}", name.hex())), name))
}

/// The stencil of `key` kept in the process's folder, if a valid record is
/// there.
pub fn load(key: &Key) -> Option<Stencil> {
    load_from(&store()?.1, key)
}

/// Keeps `stencil` in the process's folder, if there is one (written by
/// the cache's writer thread, and counted against the cache's cap).
pub fn save(stencil: &Arc<Stencil>) {
    let Some((cache, folder)) = store() else {
        return;
    };
    let stencil = Arc::clone(stencil);
    writer::later(move || {
        if let Some(bytes) = save_to(&folder, &stencil) {
            cache.account(bytes);
        }
    });
}

/// The stencil of `key` recorded in `folder`, if a valid record is there;
/// a bad record is reported and passed over.
pub fn load_from(folder: &Path, key: &Key) -> Option<Stencil> {
    let digest = key.digest();
    let (path, name) = path(folder, &digest)?;
    let loaded = match std::fs::read(&path) {
        Ok(bytes) => record::decode(&bytes, &name, key, &digest).map_err(str::to_string),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => Err(e.to_string()),
    };
    loaded
        .inspect_err(|why| {
            log::warn!(
                "stencil cache record {}: {why}; compiling the stencil again",
                path.display()
            )
        })
        .ok()
}

/// Records `stencil` in `folder`, returning the bytes written; a failure
/// is reported once per process. A folder removed since it was made (the
/// cache emptied, or its directory removed and made again under the same
/// name, which [`keep_in`] takes for the folder in use) is made again.
pub fn save_to(folder: &Path, stencil: &Stencil) -> Option<u64> {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let digest = stencil.key.digest();
    let (path, name) = path(folder, &digest)?;
    let bytes = record::encode(&name, &digest, stencil)?;
    let written = dir::write(&path, &bytes).or_else(|e| {
        if e.kind() != std::io::ErrorKind::NotFound {
            return Err(e);
        }
        std::fs::create_dir_all(folder)?;
        dir::write(&path, &bytes)
    });
    match written {
        Ok(()) => Some(bytes.len() as u64),
        Err(e) => {
            if !WARNED.swap(true, Ordering::Relaxed) {
                log::warn!(
                    "stencil cache {}: cannot write records ({e}); stencils are not kept",
                    folder.display()
                );
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::Layout;
    use super::super::stitch::Stitcher;
    use super::super::{emit, STENCIL_K};
    use super::*;
    use crate::ir::{AluOp, Dst, Inst, Program, Src, Stage};

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dxjit-stencils-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn program() -> Program {
        let mut p = Program::new(Stage::Vertex);
        p.temps = 2;
        p.main = vec![
            Inst::Alu {
                op: AluOp::Add,
                dst: Dst::temp(0, 0b0011),
                src: vec![Src::splat(1), Src::temp(1)],
            },
            Inst::If {
                cond: Src::temp(0).scalar(0),
                nz: true,
            },
            Inst::Alu {
                op: AluOp::Exp,
                dst: Dst::temp(1, 0b0001),
                src: vec![Src::temp(0).scalar(1)],
            },
            Inst::EndIf,
        ]
        .into();
        p
    }

    /// The stencils of [`program`]'s pieces, in order.
    fn stencils() -> Vec<Arc<Stencil>> {
        let prog = program();
        let mut s = Stitcher::new(&prog, Layout::of(&prog, STENCIL_K));
        s.program().unwrap();
        s.pieces.iter().map(|p| Arc::clone(&p.stencil)).collect()
    }

    /// The only record in `folder`.
    fn the_record(folder: &Path) -> PathBuf {
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files.pop().unwrap()
    }

    #[test]
    fn loaded_stencils_stitch_the_same_bytes() {
        let dir = folder("stitch");
        let prog = program();
        let mut s = Stitcher::new(&prog, Layout::of(&prog, STENCIL_K));
        s.program().unwrap();
        let fresh = emit::image(&s).unwrap();
        for piece in &mut s.pieces {
            save_to(&dir, &piece.stencil);
            let loaded = load_from(&dir, &piece.stencil.key).expect("recorded");
            assert_eq!(loaded.code, piece.stencil.code);
            piece.stencil = Arc::new(loaded);
        }
        assert_eq!(emit::image(&s).unwrap(), fresh);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder removed after it was made (as when a test or the user
    /// empties the cache while the process keeps its stencil store) is
    /// made again by the next record.
    #[test]
    fn a_removed_folder_is_made_again() {
        let dir = folder("removed");
        let stencil = &stencils()[1];
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(save_to(&dir, stencil).is_some(), "written");
        let loaded = load_from(&dir, &stencil.key).expect("recorded");
        assert_eq!(loaded.code, stencil.code);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_records_are_passed_over() {
        let dir = folder("damaged");
        let stencils = stencils();
        let stencil = &stencils[1];
        assert!(
            load_from(&dir, &stencil.key).is_none(),
            "nothing recorded yet"
        );
        save_to(&dir, stencil);
        let path = the_record(&dir);
        let whole = std::fs::read(&path).unwrap();
        let parts = record::sections(&whole).unwrap();
        let mut damaged: Vec<Vec<u8>> = [
            parts.header.start + 9,
            parts.parts[1].start,
            parts.parts[2].start,
            parts.checksum.start,
        ]
        .iter()
        .map(|&at| {
            let mut bad = whole.clone();
            bad[at] ^= 1;
            bad
        })
        .collect();
        damaged.push(whole[..whole.len() / 2].to_vec());
        damaged.push(Vec::new());
        for bad in damaged {
            std::fs::write(&path, &bad).unwrap();
            assert!(load_from(&dir, &stencil.key).is_none());
        }
        save_to(&dir, stencil);
        assert_eq!(std::fs::read(&path).unwrap(), whole, "rewritten whole");
        let other = &stencils[2];
        save_to(&dir, other);
        let other_path = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| *p != path && p.extension().is_some_and(|x| x == EXTENSION))
            .unwrap();
        std::fs::copy(&path, &other_path).unwrap();
        assert!(load_from(&dir, &other.key).is_none(), "a foreign record");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
