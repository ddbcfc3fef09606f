//! The persistent shader cache: stored code loads without compiling and
//! runs the same; damaged, foreign or stale entries and unusable
//! directories are recompiled (and replaced) with one warning, never run.

use dxjit::disk_cache::{self, entry, DiskCache};
use dxjit::{CompileOptions, Tier};
use dxjit_cli::case::{parse_case, Outcome};
use dxjit_cli::run::prepare;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// A compute case reading its immediate constant buffer by a register
/// index (a relocation to the buffer).
const ICB_CASE: &str = "tests/cases/sm4/bits/firstbit.toml";
/// A compute case calling runtime helpers (relocations to them).
const HELPER_CASE: &str = "tests/cases/sm4/convert/f16_conversions.toml";

/// Every warning logged, in order.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// The tests share the process-wide default cache and the log: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

struct Recorder;

impl log::Log for Recorder {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            WARNINGS.lock().unwrap().push(r.args().to_string());
        }
    }
    fn flush(&self) {}
}

/// Takes the test lock, with warnings recorded and cleared.
fn setup() -> MutexGuard<'static, ()> {
    static LOGGER: Recorder = Recorder;
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
    WARNINGS.lock().unwrap().clear();
    guard
}

/// Warnings logged since the last call.
fn warnings() -> Vec<String> {
    std::mem::take(&mut *WARNINGS.lock().unwrap())
}

/// Removes a cache directory once the stencil records compiles have
/// queued for it are written (a background thread writes them; removing
/// the directory under it would make it warn into another test's window).
fn remove(dir: &std::path::Path) {
    dxjit::flush_disk_cache();
    std::fs::remove_dir_all(dir).unwrap();
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxjit-disk-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&dir);
    dir
}

/// Runs `case` at `tier` through `cache`: its outcome and whether its
/// shader was loaded from the cache.
fn run(case: &str, tier: Tier, cache: &DiskCache) -> (Outcome, bool) {
    disk_cache::set_default(Some(cache.clone()));
    let case = parse_case(Path::new(case)).expect("case parses");
    let options = CompileOptions {
        tier,
        ..CompileOptions::default()
    };
    let mut prepared = prepare(&case, &options).expect("compiles");
    let hit = prepared
        .action_shader()
        .expect("an action")
        .shader
        .cache_hit();
    prepared.act();
    disk_cache::set_default(None);
    dxjit::flush_disk_cache();
    (prepared.outcome(), hit)
}

/// The entry files of `dir`.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxjc"))
        .collect();
    out.sort();
    out
}

#[test]
fn stored_code_loads_and_runs_the_same_at_each_tier() {
    let _guard = setup();
    for case in [ICB_CASE, HELPER_CASE] {
        for tier in [Tier::First, Tier::Top] {
            let dir = temp_dir("same");
            let cache = DiskCache::open(&dir);
            let (fresh, hit) = run(case, tier, &cache);
            assert!(!hit, "{case}: an empty cache hit");
            assert_eq!(entries(&dir).len(), 1);
            let (loaded, hit) = run(case, tier, &cache);
            assert!(hit, "{case} at {tier:?}: the stored code was not loaded");
            assert_eq!(fresh, loaded, "{case} at {tier:?}");
            remove(&dir);
        }
    }
    assert_eq!(warnings(), Vec::<String>::new());
}

#[test]
fn both_tiers_store_each_tier_and_load_the_top_one() {
    let _guard = setup();
    let dir = temp_dir("both");
    let cache = DiskCache::open(&dir);
    let case = parse_case(Path::new(ICB_CASE)).unwrap();
    let bytes = match case.cs.unwrap().code {
        dxjit_cli::case::ShaderCode::Asm(t) => dxjit::text::assemble(&t).unwrap(),
        dxjit_cli::case::ShaderCode::Bytes(b) => b,
    };
    let options = CompileOptions::default();
    let spawner = dxjit::Spawner::inline();
    let first = dxjit::compile_with(&bytes, &options, &spawner, Some(&cache)).unwrap();
    first.wait_for_top_tier().unwrap();
    dxjit::flush_disk_cache();
    assert!(!first.cache_hit());
    assert_eq!(entries(&dir).len(), 2, "one entry per tier");
    let again = dxjit::compile_with(&bytes, &options, &spawner, Some(&cache)).unwrap();
    assert!(again.cache_hit());
    assert_eq!(again.tier(), Tier::Top, "the stored top tier runs at once");
    remove(&dir);
    assert_eq!(warnings(), Vec::<String>::new());
}

/// A damage done to an entry.
type Damage = Box<dyn Fn(&[u8]) -> Vec<u8>>;

fn flip(at: usize) -> Damage {
    Box::new(move |b: &[u8]| {
        let mut b = b.to_vec();
        b[at] ^= 0x41;
        b
    })
}

/// Every kind of damage: a flipped byte in each part of the entry, cuts,
/// random bytes, another version's entry and another key's entry.
fn damages(entry: &[u8], foreign: Vec<u8>) -> Vec<(String, Damage)> {
    let s = entry::sections(entry).expect("a valid entry");
    assert!(!s.relocs.is_empty() && !s.code.is_empty() && !s.info.is_empty());
    let middle = |r: &std::ops::Range<usize>| r.start + r.len() / 2;
    vec![
        ("magic".into(), flip(0)),
        ("format".into(), flip(8)),
        ("key".into(), flip(14)),
        ("code length".into(), flip(28)),
        ("relocations length".into(), flip(32)),
        ("info length".into(), flip(36)),
        ("first code byte".into(), flip(s.code.start)),
        ("code".into(), flip(middle(&s.code))),
        ("last code byte".into(), flip(s.code.end - 1)),
        ("relocation offset".into(), flip(s.relocs.start)),
        ("relocations".into(), flip(middle(&s.relocs))),
        ("info".into(), flip(middle(&s.info))),
        ("last info byte".into(), flip(s.info.end - 1)),
        ("checksum".into(), flip(middle(&s.checksum))),
        ("last checksum byte".into(), flip(s.checksum.end - 1)),
        ("empty".into(), Box::new(|_: &[u8]| Vec::new())),
        (
            "header only".into(),
            Box::new(move |b: &[u8]| b[..40].to_vec()),
        ),
        (
            "half".into(),
            Box::new(|b: &[u8]| b[..b.len() / 2].to_vec()),
        ),
        (
            "one byte short".into(),
            Box::new(|b: &[u8]| b[..b.len() - 1].to_vec()),
        ),
        (
            "one byte long".into(),
            Box::new(|b: &[u8]| [b, &[0]].concat()),
        ),
        (
            "random bytes".into(),
            Box::new(|b: &[u8]| {
                let mut x = 0x2545_f491_4f6c_dd1du64;
                (0..b.len())
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect()
            }),
        ),
        (
            "another format version, checksum recomputed".into(),
            Box::new(|b: &[u8]| {
                let mut b = b.to_vec();
                b[8..12].copy_from_slice(&99u32.to_le_bytes());
                let end = b.len() - 16;
                let sum = xxhash_rust::xxh3::xxh3_128(&b[..end]).to_le_bytes();
                b[end..].copy_from_slice(&sum);
                b
            }),
        ),
        (
            "another key's entry".into(),
            Box::new(move |_: &[u8]| foreign.clone()),
        ),
    ]
}

#[test]
fn damaged_foreign_and_stale_entries_are_recompiled_and_replaced() {
    let _guard = setup();
    let other = temp_dir("other");
    run(HELPER_CASE, Tier::First, &DiskCache::open(&other));
    let foreign = std::fs::read(&entries(&other)[0]).unwrap();
    remove(&other);
    let dir = temp_dir("damage");
    let cache = DiskCache::open(&dir);
    let (reference, _) = run(ICB_CASE, Tier::First, &cache);
    let path = entries(&dir)[0].clone();
    let good = std::fs::read(&path).unwrap();
    for (what, damage) in damages(&good, foreign) {
        std::fs::write(&path, damage(&good)).unwrap();
        let (outcome, hit) = run(ICB_CASE, Tier::First, &cache);
        assert!(!hit, "{what}: the damaged entry was loaded");
        assert_eq!(outcome, reference, "{what}: the recompiled shader differs");
        let warned = warnings();
        assert_eq!(warned.len(), 1, "{what}: {warned:?}");
        assert_eq!(std::fs::read(&path).unwrap(), good, "{what}: not replaced");
        let (outcome, hit) = run(ICB_CASE, Tier::First, &cache);
        assert!(hit && outcome == reference, "{what}: the replacement");
    }
    assert_eq!(warnings(), Vec::<String>::new());
    remove(&dir);
}

#[test]
fn a_file_where_the_directory_should_be_warns_once_and_compiles() {
    let _guard = setup();
    let path = temp_dir("file");
    std::fs::write(&path, b"not a directory").unwrap();
    let cache = DiskCache::open(&path);
    assert_eq!(warnings().len(), 1);
    let (reference, hit) = run(ICB_CASE, Tier::First, &cache);
    assert!(!hit);
    let (outcome, hit) = run(ICB_CASE, Tier::First, &cache);
    assert!(!hit && outcome == reference);
    assert_eq!(warnings(), Vec::<String>::new(), "one warning in all");
    assert_eq!(std::fs::read(&path).unwrap(), b"not a directory");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_cap_evicts_the_least_recently_used() {
    let _guard = setup();
    let dir = temp_dir("cap");
    let cache = DiskCache::with_cap(&dir, 1);
    run(ICB_CASE, Tier::First, &cache);
    let first = entries(&dir);
    run(HELPER_CASE, Tier::First, &cache);
    let second = entries(&dir);
    assert_eq!(second.len(), 1, "the cap holds");
    assert_ne!(first, second, "the newest entry is kept");
    let stats = disk_cache::stats(&dir).unwrap();
    assert_eq!(stats.entries, 1);
    assert_eq!(disk_cache::clear(&dir).unwrap(), 1);
    assert_eq!(disk_cache::stats(&dir).unwrap().entries, 0);
    remove(&dir);
    assert_eq!(warnings(), Vec::<String>::new());
}

/// A D3D9 pixel shader defining a constant: a hit must apply `def` without
/// lowering the bytecode.
const DEFINES: &str = "ps_2_0\ndef c3, 1.0, 2.0, 3.0, 4.0\nmov oC0, c3\n";

#[test]
fn a_hit_does_not_lower_yet_knows_the_stage_definitions_and_program() {
    let _guard = setup();
    let dir = temp_dir("lazy");
    let cache = DiskCache::open(&dir);
    let bytes = dxjit::text::assemble(DEFINES).unwrap();
    let options = CompileOptions {
        tier: Tier::Top,
        ..CompileOptions::default()
    };
    let inline = dxjit::Spawner::inline();
    let fresh = dxjit::compile_with(&bytes, &options, &inline, Some(&cache)).unwrap();
    dxjit::flush_disk_cache();
    let hit = dxjit::compile_with(&bytes, &options, &inline, Some(&cache)).unwrap();
    assert!(!fresh.cache_hit() && hit.cache_hit());
    assert_eq!(hit.stage(), dxjit::ir::Stage::Pixel);
    assert_eq!(hit.family(), dxjit::shader::Family::D3d9);
    // 1.0, 2.0, 3.0, 4.0 as float bits, in row 3 of c# (constant buffer 0).
    let row = [0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000];
    assert_eq!(hit.defined_constants(), &[(0, 3, row)]);
    assert_eq!(hit.defined_constants(), fresh.defined_constants());
    assert_eq!(
        format!("{:?}", hit.program()),
        format!("{:?}", fresh.program()),
        "the program lowered on demand is the one compiled"
    );
    remove(&dir);
    assert_eq!(warnings(), Vec::<String>::new());
}

#[test]
fn code_stored_without_checking_the_checksum_is_not_found_by_a_compile_that_checks() {
    let _guard = setup();
    let dir = temp_dir("checksum");
    let cache = DiskCache::open(&dir);
    let mut bytes = dxjit::text::assemble("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n").unwrap();
    bytes[4] ^= 1;
    let inline = dxjit::Spawner::inline();
    let unchecked = CompileOptions {
        tier: Tier::Top,
        verify_checksum: false,
        ..CompileOptions::default()
    };
    let stored = dxjit::compile_with(&bytes, &unchecked, &inline, Some(&cache)).unwrap();
    dxjit::flush_disk_cache();
    assert!(!stored.cache_hit());
    assert!(
        dxjit::compile_with(&bytes, &unchecked, &inline, Some(&cache))
            .unwrap()
            .cache_hit()
    );
    let checked = CompileOptions {
        verify_checksum: true,
        ..unchecked
    };
    let refused = dxjit::compile_with(&bytes, &checked, &inline, Some(&cache));
    assert!(
        refused.is_err(),
        "a bad checksum was accepted through the cache"
    );
    remove(&dir);
    assert_eq!(warnings(), Vec::<String>::new());
}
