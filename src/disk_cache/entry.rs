//! The bytes of one cache entry, and their verification.
//!
//! Layout (little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `DXJITPC\0` |
//! | 4 | format version |
//! | 16 | key |
//! | 4 × 3 | lengths of the code, relocation and kernel-info sections |
//! | … | code (before relocation) |
//! | … | relocations: offset u32, kind u8, target u8, addend i64, then a symbol name (length u8, bytes) |
//! | … | kernel info: lanes, scratch, inputs, outputs, group-shared bytes, barriers, direct outputs (u32 each), inline pairs (count, then pairs), constant-buffer rows (count, then rows), stage, thread-group size (3 × u32), defined constants (count, then slot, row and 4 words each) |
//! | 16 | XXH3-128 checksum of everything before it |

use super::key::Key;
use crate::ir::Stage;
use crate::jit::{Image, KernelInfo, RelocKind, RelocTarget, Relocation};
use std::ops::Range;
use xxhash_rust::xxh3::xxh3_128;

const MAGIC: &[u8; 8] = b"DXJITPC\0";
/// Bumped whenever the layout changes.
const FORMAT: u32 = 2;
/// Bytes before the code.
const HEADER: usize = 8 + 4 + 16 + 12;
/// Bytes of the checksum.
const CHECKSUM: usize = 16;

/// Where each part of an entry lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sections {
    /// Magic, format, key and section lengths.
    pub header: Range<usize>,
    /// The machine code.
    pub code: Range<usize>,
    /// The relocation table.
    pub relocs: Range<usize>,
    /// The kernel info.
    pub info: Range<usize>,
    /// The checksum.
    pub checksum: Range<usize>,
}

/// Where the sections of `bytes` lie, by its header; `None` when the
/// header is cut short or its lengths do not add up to the file's.
pub fn sections(bytes: &[u8]) -> Option<Sections> {
    let word = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let code_len = word(28)? as usize;
    let relocs_len = word(32)? as usize;
    let info_len = word(36)? as usize;
    let code = HEADER..HEADER.checked_add(code_len)?;
    let relocs = code.end..code.end.checked_add(relocs_len)?;
    let info = relocs.end..relocs.end.checked_add(info_len)?;
    let checksum = info.end..info.end.checked_add(CHECKSUM)?;
    (checksum.end == bytes.len()).then_some(Sections {
        header: 0..HEADER,
        code,
        relocs,
        info,
        checksum,
    })
}

/// Little-endian writes.
#[derive(Default)]
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    /// Appends a `u32`.
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
}

/// Little-endian reads that fail past the end.
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    /// The next byte.
    pub(crate) fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    /// The next `u32`.
    pub(crate) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    /// The next `i64`.
    pub(crate) fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A count of items of `size` bytes each, refused if they cannot fit.
    fn count(&mut self, size: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(size)? <= self.0.len()).then_some(n)
    }
}

fn relocations(relocs: &[Relocation]) -> Option<Vec<u8>> {
    let mut w = Writer::default();
    for r in relocs {
        w.u32(r.offset);
        w.0.push(match r.kind {
            RelocKind::Abs8 => 0,
            RelocKind::PcRel4 => 1,
        });
        match &r.target {
            RelocTarget::Icb => w.0.push(0),
            RelocTarget::Symbol(_) => w.0.push(1),
        }
        w.0.extend_from_slice(&r.addend.to_le_bytes());
        if let RelocTarget::Symbol(name) = &r.target {
            w.0.push(u8::try_from(name.len()).ok()?);
            w.0.extend_from_slice(name.as_bytes());
        }
    }
    Some(w.0)
}

fn read_relocations(bytes: &[u8]) -> Option<Vec<Relocation>> {
    let mut r = Reader(bytes);
    let mut out = Vec::new();
    while !r.0.is_empty() {
        let offset = r.u32()?;
        let kind = match r.u8()? {
            0 => RelocKind::Abs8,
            1 => RelocKind::PcRel4,
            _ => return None,
        };
        let symbol = match r.u8()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let addend = r.i64()?;
        let target = if symbol {
            let len = usize::from(r.u8()?);
            let name = std::str::from_utf8(r.take(len)?).ok()?;
            RelocTarget::Symbol(name.to_string())
        } else {
            RelocTarget::Icb
        };
        out.push(Relocation {
            offset,
            kind,
            target,
            addend,
        });
    }
    Some(out)
}

fn info_bytes(info: &KernelInfo, icb: &[[u32; 4]]) -> Vec<u8> {
    let mut w = Writer::default();
    for v in [
        info.lanes,
        info.scratch_size,
        info.input_regs,
        info.output_regs,
        info.tgsm_size,
        u32::from(info.has_barriers) | u32::from(info.runs_vertices) << 1,
        info.direct_outputs,
        info.inline_pairs.len() as u32,
    ] {
        w.u32(v);
    }
    for &(srv, sampler) in &info.inline_pairs {
        w.u32(srv);
        w.u32(sampler);
    }
    w.u32(icb.len() as u32);
    icb.iter().flatten().for_each(|&v| w.u32(v));
    w.u32(stage_code(info.stage));
    info.thread_group.iter().for_each(|&v| w.u32(v));
    w.u32(info.const_overrides.len() as u32);
    for (slot, row, words) in &info.const_overrides {
        [*slot, *row].iter().chain(words).for_each(|&v| w.u32(v));
    }
    info.cb_static_bytes.iter().for_each(|&v| w.u32(v));
    w.0
}

/// The number an entry stores for a stage.
fn stage_code(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => 0,
        Stage::Pixel => 1,
        Stage::Compute => 2,
        Stage::Hull => 3,
        Stage::Domain => 4,
        Stage::Geometry => 5,
    }
}

/// The stage stored as `code`.
fn stage_of(code: u32) -> Option<Stage> {
    Some(match code {
        0 => Stage::Vertex,
        1 => Stage::Pixel,
        2 => Stage::Compute,
        3 => Stage::Hull,
        4 => Stage::Domain,
        5 => Stage::Geometry,
        _ => return None,
    })
}

fn read_info(bytes: &[u8]) -> Option<(KernelInfo, Vec<[u32; 4]>)> {
    let mut r = Reader(bytes);
    let lanes = r.u32()?;
    let scratch_size = r.u32()?;
    let input_regs = r.u32()?;
    let output_regs = r.u32()?;
    let tgsm_size = r.u32()?;
    // Bit 0: barriers; bit 1: runs vertex ranges (entries written before
    // the bit existed hold 0 or 1 and run vertices a batch a call).
    let flags = r.u32()?;
    if flags > 3 {
        return None;
    }
    let (has_barriers, runs_vertices) = (flags & 1 != 0, flags & 2 != 0);
    let direct_outputs = r.u32()?;
    let pairs = r.count(8)?;
    let inline_pairs = (0..pairs)
        .map(|_| Some((r.u32()?, r.u32()?)))
        .collect::<Option<Vec<_>>>()?;
    let rows = r.count(16)?;
    let icb = (0..rows)
        .map(|_| Some([r.u32()?, r.u32()?, r.u32()?, r.u32()?]))
        .collect::<Option<Vec<_>>>()?;
    let stage = stage_of(r.u32()?)?;
    let thread_group = [r.u32()?, r.u32()?, r.u32()?];
    let defined = r.count(24)?;
    let const_overrides = (0..defined)
        .map(|_| Some((r.u32()?, r.u32()?, [r.u32()?, r.u32()?, r.u32()?, r.u32()?])))
        .collect::<Option<Vec<_>>>()?;
    let mut cb_static_bytes = [0; dxjit_runtime::abi::CB_SLOTS];
    for bytes in &mut cb_static_bytes {
        *bytes = r.u32()?;
    }
    let info = KernelInfo {
        lanes,
        scratch_size,
        input_regs,
        output_regs,
        tgsm_size,
        has_barriers,
        runs_vertices,
        inline_pairs,
        direct_outputs,
        stage,
        thread_group,
        const_overrides,
        cb_static_bytes,
    };
    r.0.is_empty().then_some((info, icb))
}

/// The entry for `image` and `info` under `key`; `None` if a symbol name
/// is too long to store.
pub fn encode(key: &Key, image: &Image, info: &KernelInfo) -> Option<Vec<u8>> {
    let relocs = relocations(&image.relocs)?;
    let info = info_bytes(info, &image.icb);
    let mut w = Writer::default();
    w.0.extend_from_slice(MAGIC);
    w.u32(FORMAT);
    w.0.extend_from_slice(&key.0);
    for len in [image.code.len(), relocs.len(), info.len()] {
        w.u32(u32::try_from(len).ok()?);
    }
    w.0.extend_from_slice(&image.code);
    w.0.extend_from_slice(&relocs);
    w.0.extend_from_slice(&info);
    let sum = xxh3_128(&w.0);
    w.0.extend_from_slice(&sum.to_le_bytes());
    Some(w.0)
}

/// The image and kernel info an entry holds, if it is whole, its checksum
/// matches, and it was written by this format under `key`; otherwise why
/// it is refused.
pub fn decode<'a>(bytes: &'a [u8], key: &Key) -> Result<Entry<'a>, &'static str> {
    let s = sections(bytes).ok_or("truncated or malformed")?;
    let (body, sum) = bytes.split_at(s.checksum.start);
    if xxh3_128(body).to_le_bytes() != sum {
        return Err("checksum mismatch");
    }
    if &bytes[..8] != MAGIC {
        return Err("not a dxjit cache entry");
    }
    if bytes[8..12] != FORMAT.to_le_bytes() {
        return Err("written by another format version");
    }
    if bytes[12..28] != key.0 {
        return Err("written for another key (foreign or stale)");
    }
    let relocs = read_relocations(&bytes[s.relocs]).ok_or("malformed relocations")?;
    let (info, icb) = read_info(&bytes[s.info]).ok_or("malformed kernel info")?;
    Ok(Entry {
        code: &bytes[s.code],
        relocs,
        icb,
        info,
    })
}

/// A verified entry: its code (in the entry's bytes, copied once, into
/// executable memory), relocations, immediate constant buffer and kernel
/// info.
#[derive(Debug, PartialEq)]
pub struct Entry<'a> {
    /// The machine code before relocation.
    pub code: &'a [u8],
    /// Its relocations.
    pub relocs: Vec<Relocation>,
    /// The immediate constant buffer placed after the code.
    pub icb: Vec<[u32; 4]>,
    /// What the runtime needs to run it.
    pub info: KernelInfo,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Key, Image, KernelInfo) {
        let image = Image {
            code: (0..40).collect(),
            relocs: vec![
                Relocation {
                    offset: 2,
                    kind: RelocKind::Abs8,
                    target: RelocTarget::Symbol("dxjit_exp2".into()),
                    addend: 0,
                },
                Relocation {
                    offset: 20,
                    kind: RelocKind::Abs8,
                    target: RelocTarget::Icb,
                    addend: 16,
                },
            ],
            icb: vec![[1, 2, 3, 4], [5, 6, 7, 8]],
        };
        let info = KernelInfo {
            lanes: 8,
            scratch_size: 256,
            input_regs: 3,
            output_regs: 2,
            tgsm_size: 0,
            has_barriers: true,
            runs_vertices: true,
            inline_pairs: vec![(1, 2)],
            direct_outputs: 1,
            stage: Stage::Pixel,
            thread_group: [1, 1, 1],
            const_overrides: vec![(0, 3, [1, 2, 3, 4]), (2, 0, [0, 0, 1, 0])],
            cb_static_bytes: std::array::from_fn(|i| 16 * i as u32),
        };
        (Key([7; 16]), image, info)
    }

    #[test]
    fn entries_round_trip() {
        let (key, image, info) = sample();
        let bytes = encode(&key, &image, &info).unwrap();
        let entry = Entry {
            code: &image.code,
            relocs: image.relocs.clone(),
            icb: image.icb.clone(),
            info,
        };
        assert_eq!(decode(&bytes, &key), Ok(entry));
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        let (key, image, info) = sample();
        let bytes = encode(&key, &image, &info).unwrap();
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(decode(&bad, &key).is_err(), "flipped byte {at} accepted");
        }
    }

    #[test]
    fn every_truncation_is_refused() {
        let (key, image, info) = sample();
        let bytes = encode(&key, &image, &info).unwrap();
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], &key).is_err(), "{len} bytes accepted");
        }
    }

    #[test]
    fn another_key_is_refused() {
        let (key, image, info) = sample();
        let bytes = encode(&key, &image, &info).unwrap();
        assert!(decode(&bytes, &Key([8; 16])).is_err());
    }

    #[test]
    fn sections_cover_the_entry() {
        let (key, image, info) = sample();
        let bytes = encode(&key, &image, &info).unwrap();
        let s = sections(&bytes).unwrap();
        assert_eq!(s.code.len(), 40);
        assert_eq!(s.header.end, s.code.start);
        assert_eq!(s.checksum.end, bytes.len());
    }
}
