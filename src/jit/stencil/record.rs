//! The bytes of one stored stencil, and their verification.
//!
//! Layout (little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `DXJITST\0` |
//! | 4 | format version |
//! | 16 | entry name (`disk_cache::key::stencil_key` of the key digest) |
//! | 4 × 6 | lengths of the key digest, code, hole, exit, data-reference and symbol sections |
//! | 16 | the stencil's key digest ([`Key::digest`]) |
//! | … | code |
//! | … | holes: offset u32, number u32 |
//! | … | exits: offset u32, number u32, addend i64 |
//! | … | references to the shader's data: offset u32, addend i64 |
//! | … | symbol relocations: offset u32, kind u8, addend i64, name (length u8, bytes) |
//! | 16 | XXH3-128 checksum of everything before it |

use super::key::Key;
use super::{Stencil, SymbolReloc};
use crate::disk_cache::entry::{Reader, Writer};
use crate::disk_cache::Key as EntryName;
use cranelift_codegen::binemit::Reloc;
use std::ops::Range;
use xxhash_rust::xxh3::xxh3_128;

const MAGIC: &[u8; 8] = b"DXJITST\0";
/// Bumped whenever the layout changes.
const FORMAT: u32 = 2;
/// Sections after the header.
const SECTIONS: usize = 6;
/// Bytes before the key digest.
const HEADER: usize = 8 + 4 + 16 + 4 * SECTIONS;
/// Bytes of the checksum.
const CHECKSUM: usize = 16;

/// Where each part of a record lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sections {
    /// Magic, format, entry name and section lengths.
    pub header: Range<usize>,
    /// The key digest, code, holes, exits, data references and symbols, in order.
    pub parts: [Range<usize>; SECTIONS],
    /// The checksum.
    pub checksum: Range<usize>,
}

/// Where the sections of `bytes` lie, by its header; `None` when the header
/// is cut short or its lengths do not add up to the record's.
pub fn sections(bytes: &[u8]) -> Option<Sections> {
    let mut at = HEADER;
    let mut parts: [Range<usize>; SECTIONS] = Default::default();
    for (i, part) in parts.iter_mut().enumerate() {
        let len_at = HEADER - 4 * (SECTIONS - i);
        let len = u32::from_le_bytes(bytes.get(len_at..len_at + 4)?.try_into().ok()?);
        *part = at..at.checked_add(len as usize)?;
        at = part.end;
    }
    let checksum = at..at.checked_add(CHECKSUM)?;
    (checksum.end == bytes.len()).then_some(Sections {
        header: 0..HEADER,
        parts,
        checksum,
    })
}

/// The number a record stores for a symbol relocation's kind.
fn kind_code(kind: Reloc) -> Option<u8> {
    match kind {
        Reloc::Abs8 => Some(0),
        Reloc::X86PCRel4 => Some(1),
        Reloc::X86CallPCRel4 => Some(2),
        _ => None,
    }
}

/// The kind stored as `code`, with the bytes it patches.
fn kind_of(code: u8) -> Option<(Reloc, usize)> {
    match code {
        0 => Some((Reloc::Abs8, 8)),
        1 => Some((Reloc::X86PCRel4, 4)),
        2 => Some((Reloc::X86CallPCRel4, 4)),
        _ => None,
    }
}

/// The record of `stencil`, whose key digests to `digest`, named `name`;
/// `None` if a relocation cannot be stored.
pub fn encode(name: &EntryName, digest: &[u8; 16], stencil: &Stencil) -> Option<Vec<u8>> {
    let mut holes = Writer::default();
    for &(offset, number) in &stencil.holes {
        holes.u32(offset);
        holes.u32(number);
    }
    let mut exits = Writer::default();
    for &(offset, number, addend) in &stencil.exits {
        exits.u32(offset);
        exits.u32(number);
        exits.0.extend_from_slice(&addend.to_le_bytes());
    }
    let mut icb = Writer::default();
    for &(offset, addend) in &stencil.icb {
        icb.u32(offset);
        icb.0.extend_from_slice(&addend.to_le_bytes());
    }
    let mut symbols = Writer::default();
    for r in &stencil.symbols {
        symbols.u32(r.offset);
        symbols.0.push(kind_code(r.kind)?);
        symbols.0.extend_from_slice(&r.addend.to_le_bytes());
        symbols.0.push(u8::try_from(r.symbol.len()).ok()?);
        symbols.0.extend_from_slice(r.symbol.as_bytes());
    }
    let parts = [
        digest.as_slice(),
        &stencil.code,
        &holes.0,
        &exits.0,
        &icb.0,
        &symbols.0,
    ];
    let mut w = Writer::default();
    w.0.extend_from_slice(MAGIC);
    w.u32(FORMAT);
    w.0.extend_from_slice(&name.0);
    for part in parts {
        w.u32(u32::try_from(part.len()).ok()?);
    }
    parts.iter().for_each(|part| w.0.extend_from_slice(part));
    let sum = xxh3_128(&w.0);
    w.0.extend_from_slice(&sum.to_le_bytes());
    Some(w.0)
}

/// The entries `item` reads one after another until `bytes` ends.
fn table<T>(
    bytes: &[u8],
    mut item: impl FnMut(&mut Reader) -> Option<T>,
) -> Result<Vec<T>, &'static str> {
    let mut r = Reader(bytes);
    let mut out = Vec::new();
    while !r.0.is_empty() {
        out.push(item(&mut r).ok_or("malformed relocation table")?);
    }
    Ok(out)
}

/// The stencil of `key` (whose digest is `digest`) a record named `name`
/// holds, if the record is whole, its checksum matches, it was written by
/// this format for this key, and every patch lies inside the code and names
/// a known symbol; otherwise why it is refused.
pub fn decode(
    bytes: &[u8],
    name: &EntryName,
    key: &Key,
    digest: &[u8; 16],
) -> Result<Stencil, &'static str> {
    let s = sections(bytes).ok_or("truncated or malformed")?;
    let (body, sum) = bytes.split_at(s.checksum.start);
    if xxh3_128(body).to_le_bytes() != sum {
        return Err("checksum mismatch");
    }
    if &bytes[..8] != MAGIC {
        return Err("not a dxjit stencil");
    }
    if bytes[8..12] != FORMAT.to_le_bytes() {
        return Err("written by another format version");
    }
    if bytes[12..28] != name.0 || bytes[s.parts[0].clone()] != digest[..] {
        return Err("written for another key (foreign or stale)");
    }
    let code = bytes[s.parts[1].clone()].to_vec();
    let inside = |offset: u32, len: usize| {
        (offset as usize)
            .checked_add(len)
            .is_some_and(|end| end <= code.len())
            .then_some(offset)
    };
    let holes = table(&bytes[s.parts[2].clone()], |r| {
        Some((inside(r.u32()?, 8)?, r.u32()?))
    })?;
    let exits = table(&bytes[s.parts[3].clone()], |r| {
        Some((inside(r.u32()?, 4)?, r.u32()?, r.i64()?))
    })?;
    let icb = table(&bytes[s.parts[4].clone()], |r| {
        Some((inside(r.u32()?, 8)?, r.i64()?))
    })?;
    let symbols = table(&bytes[s.parts[5].clone()], |r| {
        let offset = r.u32()?;
        let (kind, len) = kind_of(r.u8()?)?;
        let addend = r.i64()?;
        let name_len = usize::from(r.u8()?);
        let symbol = std::str::from_utf8(r.take(name_len)?).ok()?;
        crate::jit::loader::symbol_address(symbol)?;
        Some(SymbolReloc {
            offset: inside(offset, len)?,
            kind,
            symbol: symbol.to_string(),
            addend,
        })
    })?;
    Ok(Stencil {
        key: key.clone(),
        code,
        holes,
        exits,
        icb,
        symbols,
        listing: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::key::Body;
    use super::*;
    use crate::jit::helpers::HelperId;

    fn key() -> Key {
        Key {
            k: 2,
            body: Body::Entry,
            loads: Default::default(),
            stores: Default::default(),
            divergent: false,
            masks: true,
        }
    }

    fn stencil(hole_at: u32, symbol: &str) -> Stencil {
        Stencil {
            key: key(),
            code: (0..64).collect(),
            holes: vec![(hole_at, 0), (16, 1)],
            exits: vec![(30, 0, -4)],
            icb: vec![(40, 32)],
            symbols: vec![SymbolReloc {
                offset: 50,
                kind: Reloc::X86CallPCRel4,
                symbol: symbol.into(),
                addend: -4,
            }],
            listing: None,
        }
    }

    /// Every part of a stencil, comparable.
    type Parts = (
        Vec<u8>,
        Vec<(u32, u32)>,
        Vec<(u32, u32, i64)>,
        Vec<(u32, i64)>,
        Vec<(u32, Reloc, String, i64)>,
    );

    fn parts(s: &Stencil) -> Parts {
        let symbols = s.symbols.iter();
        (
            s.code.clone(),
            s.holes.clone(),
            s.exits.clone(),
            s.icb.clone(),
            symbols
                .map(|r| (r.offset, r.kind, r.symbol.clone(), r.addend))
                .collect(),
        )
    }

    fn record() -> (EntryName, [u8; 16], Vec<u8>) {
        let digest = key().digest();
        let name = EntryName([3; 16]);
        let bytes = encode(&name, &digest, &stencil(8, HelperId::ALL[0].name())).unwrap();
        (name, digest, bytes)
    }

    #[test]
    fn records_round_trip() {
        let (name, digest, bytes) = record();
        let back = decode(&bytes, &name, &key(), &digest).unwrap();
        assert_eq!(back.key, key());
        assert_eq!(parts(&back), parts(&stencil(8, HelperId::ALL[0].name())));
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        let (name, digest, bytes) = record();
        let s = sections(&bytes).unwrap();
        assert_eq!(s.header.end, s.parts[0].start);
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(
                decode(&bad, &name, &key(), &digest).is_err(),
                "flipped byte {at} accepted"
            );
        }
    }

    #[test]
    fn every_truncation_is_refused() {
        let (name, digest, bytes) = record();
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], &name, &key(), &digest).is_err());
        }
    }

    #[test]
    fn another_key_or_name_is_refused() {
        let (name, digest, bytes) = record();
        let other = Key { k: 1, ..key() };
        assert!(decode(&bytes, &name, &other, &other.digest()).is_err());
        assert!(decode(&bytes, &EntryName([4; 16]), &key(), &digest).is_err());
    }

    #[test]
    fn patches_outside_the_code_and_unknown_symbols_are_refused() {
        let digest = key().digest();
        let name = EntryName([3; 16]);
        for bad in [stencil(60, HelperId::ALL[0].name()), stencil(8, "no_such")] {
            let bytes = encode(&name, &digest, &bad).unwrap();
            assert!(decode(&bytes, &name, &key(), &digest).is_err());
        }
    }

    #[test]
    fn equal_keys_digest_alike_and_others_not() {
        assert_eq!(key().digest(), key().clone().digest());
        let others = [
            Key { k: 1, ..key() },
            Key {
                divergent: true,
                ..key()
            },
            Key {
                masks: false,
                ..key()
            },
        ];
        for other in others {
            assert_ne!(other.digest(), key().digest(), "{other:?}");
        }
    }
}
