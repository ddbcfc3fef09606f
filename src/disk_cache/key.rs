//! The key of a cache entry: everything the stored code depends on.

use crate::jit::{self, Codegen};
use std::sync::OnceLock;
use std::time::UNIX_EPOCH;
use xxhash_rust::xxh3::Xxh3;

/// The Cranelift release code is generated with (pinned in `Cargo.toml`).
const CRANELIFT_VERSION: &str = "0.135.8";

/// A 128-bit hash naming one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 16]);

impl Key {
    /// The entry's file name stem: the key in hex.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// What the code depends on besides the shader: dxjit's and Cranelift's
/// versions, the build (the running executable's size and modification
/// time: a rebuild with the same version number still changes the key),
/// and the target with its flags and CPU features for `codegen`. `None`
/// when the build or the target cannot be identified; nothing is cached
/// then.
fn environment(codegen: Codegen) -> Option<&'static str> {
    static QUICK: OnceLock<Option<String>> = OnceLock::new();
    static FULL: OnceLock<Option<String>> = OnceLock::new();
    let cell = match codegen {
        Codegen::Quick => &QUICK,
        Codegen::Full => &FULL,
    };
    cell.get_or_init(|| {
        let exe = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
        let modified = exe.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        let target = jit::target_fingerprint(codegen).ok()?;
        Some(format!(
            "dxjit {} cranelift {CRANELIFT_VERSION} build {}:{} target {target}",
            env!("CARGO_PKG_VERSION"),
            exe.len(),
            modified.as_nanos(),
        ))
    })
    .as_deref()
}

/// What a compile asked for besides the bytecode, the lanes and the
/// backend: the lowering's options and the lookups' path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lowering {
    /// D3D9's legacy multiply.
    pub legacy_mul: bool,
    /// Whether a DXBC container's checksum was checked. A hit skips the
    /// lowering, so code stored by a compile that did not check must not
    /// be found by one that does.
    pub verify_checksum: bool,
    /// Whether lookups may go to the runtime's AVX2 filter
    /// (`CompileOptions::wide_sampling`).
    pub wide_sampling: bool,
}

/// The key of the code for `bytecode` lowered as `lowering` says and
/// compiled at `k` (as asked for: `None` leaves it to the backend, which
/// chooses by the bytecode alone) with `codegen`, in this build on this
/// host.
pub fn key(bytecode: &[u8], lowering: Lowering, k: Option<usize>, codegen: Codegen) -> Option<Key> {
    let mut h = Xxh3::new();
    h.update(environment(codegen)?.as_bytes());
    h.update(&[
        u8::from(lowering.legacy_mul),
        u8::from(lowering.verify_checksum),
        u8::from(lowering.wide_sampling),
    ]);
    h.update(&k.map_or(0, |k| k as u64 + 1).to_le_bytes());
    h.update(&(bytecode.len() as u64).to_le_bytes());
    h.update(bytecode);
    Some(Key(h.digest128().to_le_bytes()))
}

/// The name of the stored stencil whose key digests to `digest`: its hash
/// with the environment stencils are compiled in (this build, the quick
/// code generator's target); `None` when the build or host cannot be
/// identified.
pub fn stencil_key(digest: &[u8; 16]) -> Option<Key> {
    let mut h = Xxh3::new();
    h.update(environment(Codegen::Quick)?.as_bytes());
    h.update(b" stencil ");
    h.update(digest);
    Some(Key(h.digest128().to_le_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowering(legacy_mul: bool, verify_checksum: bool) -> Lowering {
        Lowering {
            legacy_mul,
            verify_checksum,
            wide_sampling: true,
        }
    }

    #[test]
    fn every_input_changes_the_key() {
        let plain = lowering(false, true);
        let base = key(b"abcd", plain, Some(1), Codegen::Quick).unwrap();
        assert_eq!(base, key(b"abcd", plain, Some(1), Codegen::Quick).unwrap());
        for other in [
            key(b"abce", plain, Some(1), Codegen::Quick),
            key(b"abcd", lowering(true, true), Some(1), Codegen::Quick),
            key(b"abcd", lowering(false, false), Some(1), Codegen::Quick),
            key(
                b"abcd",
                Lowering {
                    wide_sampling: false,
                    ..plain
                },
                Some(1),
                Codegen::Quick,
            ),
            key(b"abcd", plain, Some(2), Codegen::Quick),
            key(b"abcd", plain, None, Codegen::Quick),
            key(b"abcd", plain, Some(1), Codegen::Full),
        ] {
            assert_ne!(Some(base), other);
        }
    }
}
