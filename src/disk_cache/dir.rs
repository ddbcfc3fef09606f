//! The cache directory's files: reading an entry (and marking it used),
//! writing one atomically, evicting the least recently used past a cap,
//! and the `stats` and `clear` of the `dxjit cache` command.

use std::fs::{self, File, FileTimes};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

/// The extension of entry files.
pub const ENTRY_EXTENSION: &str = "dxjc";
/// The folder of stencil records (`jit::stencil::disk`).
pub const STENCIL_FOLDER: &str = "stencils";
/// The extension of stencil records.
pub const STENCIL_EXTENSION: &str = "dxjs";
/// The extension of entries being written.
const TEMP_EXTENSION: &str = "tmp";

/// The path of the entry named `stem` in `dir`.
pub fn entry_path(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}.{ENTRY_EXTENSION}"))
}

/// The bytes of the entry at `path`, `None` when there is none; marks it
/// as used now (its modification time is its last use, for eviction).
pub fn read(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    // Best effort: an entry whose time cannot be set is evicted earlier.
    let _ = file.set_times(FileTimes::new().set_modified(SystemTime::now()));
    Ok(Some(bytes))
}

/// Writes `bytes` as the entry at `path`: into a temporary file of the
/// same directory first, then renamed over it, so that no reader (in this
/// process or another) ever sees part of an entry.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let temp = path.with_extension(format!(
        "{}.{}.{TEMP_EXTENSION}",
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    ));
    let written = File::create(&temp).and_then(|mut f| f.write_all(bytes));
    let renamed = written.and_then(|()| fs::rename(&temp, path));
    if renamed.is_err() {
        let _ = fs::remove_file(&temp);
    }
    renamed
}

/// One entry file: where, how large, when last used.
struct EntryFile {
    path: PathBuf,
    bytes: u64,
    used: SystemTime,
}

/// The entry files of `dir` (and, with `temps`, unfinished temporary
/// files).
fn files(dir: &Path, temps: bool) -> io::Result<Vec<EntryFile>> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir)? {
        let e = e?;
        let path = e.path();
        let ext = path.extension().and_then(|x| x.to_str());
        let wanted = ext == Some(ENTRY_EXTENSION) || (temps && ext == Some(TEMP_EXTENSION));
        let Ok(meta) = e.metadata() else { continue };
        if wanted && meta.is_file() {
            out.push(EntryFile {
                path,
                bytes: meta.len(),
                used: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
    }
    Ok(out)
}

/// The stencil records of `dir`'s stencil folder (none when it has none).
fn records_of(dir: &Path) -> io::Result<Vec<EntryFile>> {
    match stencil_records(&dir.join(STENCIL_FOLDER)) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        listed => listed,
    }
}

/// The bytes the cap counts in `dir`: its entries and its stencil records.
pub fn held(dir: &Path) -> io::Result<u64> {
    let entries: u64 = files(dir, false)?.iter().map(|e| e.bytes).sum();
    let records: u64 = records_of(dir)?.iter().map(|e| e.bytes).sum();
    Ok(entries + records)
}

/// Removes the least recently used entries of `dir`, then (when entries
/// alone cannot bring it under) the oldest stencil records, until entries
/// and records hold at most `cap` bytes; the most recently used entry is
/// always kept. Returns how many files it removed and the bytes left.
pub fn evict(dir: &Path, cap: u64) -> io::Result<(usize, u64)> {
    let mut entries = files(dir, false)?;
    let mut records = records_of(dir)?;
    let mut total: u64 = entries.iter().chain(&records).map(|e| e.bytes).sum();
    entries.sort_by_key(|e| e.used);
    records.sort_by_key(|e| e.used);
    let older = entries.len().saturating_sub(1);
    let mut removed = 0;
    for e in entries[..older].iter().chain(&records) {
        if total <= cap {
            break;
        }
        // Another process may have removed or replaced it meanwhile.
        if fs::remove_file(&e.path).is_ok() {
            removed += 1;
        }
        total -= e.bytes;
    }
    Ok((removed, total))
}

/// The stencil records (and unfinished temporary files) of `folder`.
fn stencil_records(folder: &Path) -> io::Result<Vec<EntryFile>> {
    let mut out = Vec::new();
    for e in fs::read_dir(folder)? {
        let path = e?.path();
        let ext = path.extension().and_then(|x| x.to_str());
        if matches!(ext, Some(STENCIL_EXTENSION | TEMP_EXTENSION)) && path.is_file() {
            let meta = fs::metadata(&path).ok();
            out.push(EntryFile {
                path,
                bytes: meta.as_ref().map_or(0, |m| m.len()),
                used: meta
                    .and_then(|m| m.modified().ok())
                    .unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
    }
    Ok(out)
}

/// What a cache directory holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DirStats {
    /// Entry files.
    pub entries: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Unfinished temporary files (left by a process that stopped while
    /// writing).
    pub temps: usize,
    /// When the least recently used entry was last used.
    pub oldest: Option<SystemTime>,
    /// When the most recently used entry was last used.
    pub newest: Option<SystemTime>,
    /// Stencil records (the stencil tier's pieces, in `stencils/`, counted
    /// against the cap with the entries).
    pub stencils: usize,
    /// Their bytes.
    pub stencil_bytes: u64,
}

/// Counts the entries of the cache directory `dir`.
pub fn stats(dir: &Path) -> io::Result<DirStats> {
    let all = files(dir, true)?;
    let (entries, temps): (Vec<_>, Vec<_>) = all
        .iter()
        .partition(|e| e.path.extension().and_then(|x| x.to_str()) == Some(ENTRY_EXTENSION));
    let records: Vec<EntryFile> = match stencil_records(&dir.join(STENCIL_FOLDER)) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        listed => listed?,
    }
    .into_iter()
    .filter(|e| e.path.extension().and_then(|x| x.to_str()) == Some(STENCIL_EXTENSION))
    .collect();
    Ok(DirStats {
        stencils: records.len(),
        stencil_bytes: records.iter().map(|e| e.bytes).sum(),
        entries: entries.len(),
        bytes: entries.iter().map(|e| e.bytes).sum(),
        temps: temps.len(),
        oldest: entries.iter().map(|e| e.used).min(),
        newest: entries.iter().map(|e| e.used).max(),
    })
}

/// Removes every entry and temporary file of the cache directory `dir`
/// and every stencil record of its `stencils` folder (nothing else);
/// returns how many files it removed.
pub fn clear(dir: &Path) -> io::Result<usize> {
    let mut removed = 0;
    let stencils = dir.join(STENCIL_FOLDER);
    let records = match stencil_records(&stencils) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        listed => listed?,
    };
    for e in files(dir, true)?.into_iter().chain(records) {
        match fs::remove_file(&e.path) {
            Ok(()) => removed += 1,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => return Err(err),
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dxjit-dir-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn age(path: &Path, secs: u64) {
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        let f = File::options().write(true).open(path).unwrap();
        f.set_times(FileTimes::new().set_modified(t)).unwrap();
    }

    #[test]
    fn eviction_removes_the_least_recently_used_first() {
        let dir = temp_dir("evict");
        for (i, name) in ["a", "b", "c"].iter().enumerate() {
            let p = entry_path(&dir, name);
            write(&p, &[0; 100]).unwrap();
            age(&p, 1_000_000 + [3, 1, 2][i]);
        }
        fs::write(dir.join("notes.txt"), [0; 1000]).unwrap();
        assert_eq!(evict(&dir, 250).unwrap(), (1, 200));
        assert!(!entry_path(&dir, "b").exists());
        assert!(entry_path(&dir, "a").exists() && entry_path(&dir, "c").exists());
        assert_eq!(evict(&dir, 0).unwrap(), (1, 100));
        assert!(entry_path(&dir, "a").exists(), "the newest entry is kept");
        assert!(dir.join("notes.txt").exists(), "other files are left alone");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stencil_records_count_against_the_cap_and_go_after_the_entries() {
        let dir = temp_dir("evict-records");
        let folder = dir.join(STENCIL_FOLDER);
        fs::create_dir_all(&folder).unwrap();
        for (i, name) in ["a", "b"].iter().enumerate() {
            let p = entry_path(&dir, name);
            write(&p, &[0; 100]).unwrap();
            age(&p, 1_000_000 + i as u64);
        }
        for (i, name) in ["r1", "r2", "r3"].iter().enumerate() {
            let p = folder.join(format!("{name}.{STENCIL_EXTENSION}"));
            fs::write(&p, [0; 50]).unwrap();
            age(&p, 2_000_000 + i as u64);
        }
        assert_eq!(held(&dir).unwrap(), 350);
        assert_eq!(evict(&dir, 300).unwrap(), (1, 250), "the older entry first");
        assert!(!entry_path(&dir, "a").exists());
        assert_eq!(
            evict(&dir, 160).unwrap(),
            (2, 150),
            "then the oldest records"
        );
        assert!(entry_path(&dir, "b").exists(), "the newest entry is kept");
        assert!(folder.join(format!("r3.{STENCIL_EXTENSION}")).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stats_count_stencil_records_apart_and_clear_removes_them() {
        let dir = temp_dir("stencils");
        write(&entry_path(&dir, "a"), &[0; 10]).unwrap();
        let folder = dir.join(STENCIL_FOLDER);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join(format!("x.{STENCIL_EXTENSION}")), [0; 7]).unwrap();
        fs::write(folder.join(format!("y.{STENCIL_EXTENSION}")), [0; 5]).unwrap();
        fs::write(folder.join("notes.txt"), [0; 3]).unwrap();
        let s = stats(&dir).unwrap();
        assert_eq!((s.entries, s.bytes), (1, 10));
        assert_eq!((s.stencils, s.stencil_bytes), (2, 12));
        assert_eq!(clear(&dir).unwrap(), 3);
        let s = stats(&dir).unwrap();
        assert_eq!((s.entries, s.stencils), (0, 0));
        assert!(
            folder.join("notes.txt").exists(),
            "other files are left alone"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reading_marks_an_entry_used() {
        let dir = temp_dir("touch");
        let p = entry_path(&dir, "a");
        write(&p, b"x").unwrap();
        age(&p, 1_000_000);
        assert_eq!(read(&p).unwrap(), Some(b"x".to_vec()));
        let used = fs::metadata(&p).unwrap().modified().unwrap();
        assert!(used > SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000));
        assert_eq!(read(&entry_path(&dir, "none")).unwrap(), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stats_and_clear_see_entries_and_temps_only() {
        let dir = temp_dir("clear");
        write(&entry_path(&dir, "a"), &[0; 10]).unwrap();
        write(&entry_path(&dir, "b"), &[0; 20]).unwrap();
        fs::write(dir.join("a.1.2.tmp"), [0; 5]).unwrap();
        fs::write(dir.join("keep.me"), [0; 5]).unwrap();
        fs::create_dir(dir.join("stencils")).unwrap();
        fs::write(dir.join("stencils/ab.dxjs"), [0; 5]).unwrap();
        let s = stats(&dir).unwrap();
        assert_eq!((s.entries, s.bytes, s.temps), (2, 30, 1));
        assert_eq!(clear(&dir).unwrap(), 4);
        assert_eq!(stats(&dir).unwrap(), DirStats::default());
        assert!(dir.join("keep.me").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
