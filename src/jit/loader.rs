//! Places an [`Image`] in executable memory without Cranelift: copies the
//! code and the immediate constant buffer into a fresh mapping, patches the
//! relocations against this process's helper addresses, and makes the
//! mapping read + execute.

use super::image::{Image, RelocKind, RelocTarget, Relocation};
use super::JitError;
use memmap2::{Mmap, MmapOptions};
use std::borrow::Cow;

/// The address of the helper or libcall `name` in this process. The one
/// place the loader reads the backend's helper table.
pub(crate) fn symbol_address(name: &str) -> Option<usize> {
    let helper = super::helpers::HelperId::ALL
        .iter()
        .find(|h| h.name() == name)
        .map(|h| h.addr());
    helper
        .or_else(|| {
            super::helpers::libcalls()
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, addr)| addr)
        })
        .map(|addr| addr as usize)
}

/// Where the immediate constant buffer goes after `code_len` bytes of code.
fn icb_offset(code_len: usize) -> usize {
    code_len.next_multiple_of(16)
}

/// Copies `image` into read + execute memory (the code at its start, the
/// constant buffer after it) and relocates the code. Every relocation is
/// bounds-checked and every target must be known; an image that fails
/// either is refused before anything is made executable.
pub fn load(image: &Image) -> Result<Mmap, JitError> {
    load_written(image.code.len(), &image.icb, |code| {
        code.copy_from_slice(&image.code);
        Ok(Cow::Borrowed(&image.relocs))
    })
}

/// [`load`] for code of `code_len` bytes that `write` writes straight into
/// the mapping (returning its relocations), with the constant buffer `icb`
/// after it: one copy fewer than making an [`Image`] first.
pub fn load_written<'r>(
    code_len: usize,
    icb: &[[u32; 4]],
    write: impl FnOnce(&mut [u8]) -> Result<Cow<'r, [Relocation]>, JitError>,
) -> Result<Mmap, JitError> {
    let bad = |what: String| JitError::Backend(format!("cannot load code: {what}"));
    let icb_at = icb_offset(code_len);
    let len = icb_at + icb.len() * 16;
    // Populated at once: one call instead of a page fault per page as the
    // code is written (a stitched shader's code runs to hundreds of KB).
    let mut map = MmapOptions::new()
        .len(len.max(1))
        .populate()
        .map_anon()
        .map_err(|e| bad(e.to_string()))?;
    let relocs = write(&mut map[..code_len])?;
    for (i, row) in icb.iter().enumerate() {
        for (j, word) in row.iter().enumerate() {
            let at = icb_at + i * 16 + j * 4;
            map[at..at + 4].copy_from_slice(&word.to_le_bytes());
        }
    }
    let base = map.as_ptr() as usize;
    for r in relocs.iter() {
        let target = match &r.target {
            RelocTarget::Icb => base + icb_at,
            RelocTarget::Symbol(name) => symbol_address(name.as_str())
                .ok_or_else(|| bad(format!("unknown symbol `{name}`")))?,
        };
        let value = (target as i64).wrapping_add(r.addend);
        let at = r.offset as usize;
        let width = match r.kind {
            RelocKind::Abs8 => 8,
            RelocKind::PcRel4 => 4,
        };
        if at.checked_add(width).is_none_or(|end| end > code_len) {
            return Err(bad(format!("relocation at {at} is outside the code")));
        }
        match r.kind {
            RelocKind::Abs8 => map[at..at + 8].copy_from_slice(&value.to_le_bytes()),
            RelocKind::PcRel4 => {
                let rel = i32::try_from(value.wrapping_sub((base + at) as i64)).map_err(|_| {
                    bad(format!(
                        "`{:?}` is out of reach of a 4-byte offset",
                        r.target
                    ))
                })?;
                map[at..at + 4].copy_from_slice(&rel.to_le_bytes());
            }
        }
    }
    map.make_exec().map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relocations_outside_the_code_are_refused() {
        let image = Image {
            code: vec![0xc3; 8],
            relocs: vec![Relocation {
                offset: 4,
                kind: RelocKind::Abs8,
                target: RelocTarget::Icb,
                addend: 0,
            }],
            icb: Vec::new(),
        };
        assert!(load(&image).is_err());
    }

    #[test]
    fn unknown_symbols_are_refused() {
        let image = Image {
            code: vec![0; 16],
            relocs: vec![Relocation {
                offset: 0,
                kind: RelocKind::Abs8,
                target: RelocTarget::Symbol("system".into()),
                addend: 0,
            }],
            icb: Vec::new(),
        };
        assert!(load(&image).is_err());
    }

    #[test]
    fn absolute_relocations_hold_the_target_address() {
        let image = Image {
            code: vec![0; 8],
            relocs: vec![Relocation {
                offset: 0,
                kind: RelocKind::Abs8,
                target: RelocTarget::Icb,
                addend: 4,
            }],
            icb: vec![[1, 2, 3, 4]],
        };
        let map = load(&image).unwrap();
        let base = map.as_ptr() as u64;
        let patched = u64::from_le_bytes(map[..8].try_into().unwrap());
        assert_eq!(patched, base + 16 + 4);
        assert_eq!(&map[16..20], &1u32.to_le_bytes());
    }
}
