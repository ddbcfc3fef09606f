//! Laying the pieces out as one function: each stencil's code copied at a
//! 16-byte boundary (its constant pool keeps its alignment), holes and
//! exits patched, helper and data addresses left as relocations for the
//! loader, the data placed after the code.

use super::key::HoleValue;
use super::stitch::{Stitcher, Target};
use crate::jit::image::{Image, RelocKind, RelocTarget, Relocation};
use crate::jit::JitError;
use cranelift_codegen::binemit::Reloc;

/// The byte at which each piece starts, and the code's length.
fn offsets(s: &Stitcher) -> (Vec<usize>, usize) {
    let mut at = 0usize;
    let starts = s
        .pieces
        .iter()
        .map(|p| {
            let start = at.next_multiple_of(16);
            at = start + p.stencil.code.len();
            start
        })
        .collect();
    (starts, at)
}

/// The stitched function as an image: code, relocations, data.
pub fn image(s: &Stitcher) -> Result<Image, JitError> {
    let (starts, len) = offsets(s);
    let mut code = vec![0_u8; len];
    let relocs = write(s, &starts, &mut code)?;
    Ok(Image {
        code,
        relocs,
        icb: icb(s),
    })
}

/// The stitched function placed in executable memory, written there
/// directly (no image kept), and its code's length.
pub fn load(s: &Stitcher) -> Result<(memmap2::Mmap, usize), JitError> {
    let (starts, len) = offsets(s);
    let map = crate::jit::loader::load_written(len, &icb(s), |code| {
        write(s, &starts, code).map(std::borrow::Cow::Owned)
    })?;
    Ok((map, len))
}

/// The shader's data as constant-buffer rows.
fn icb(s: &Stitcher) -> Vec<[u32; 4]> {
    s.data
        .words
        .chunks(4)
        .map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0)))
        .collect()
}

/// Writes every piece into `code` (its length the layout's) at `starts`,
/// the gaps filled with `int3`, holes and exits patched; returns the
/// relocations left for the loader.
fn write(s: &Stitcher, starts: &[usize], code: &mut [u8]) -> Result<Vec<Relocation>, JitError> {
    let bad = |what: String| JitError::Backend(format!("stencil tier: {what}"));
    let mut relocs = Vec::new();
    let mut end = 0;
    for (i, (piece, &start)) in s.pieces.iter().zip(starts).enumerate() {
        let stencil = &piece.stencil;
        code[end..start].fill(0xcc);
        end = start + stencil.code.len();
        code[start..end].copy_from_slice(&stencil.code);
        for &(offset, hole) in &stencil.holes {
            let at = start + offset as usize;
            match piece.holes.get(hole as usize) {
                Some(HoleValue::Const(v)) => code[at..at + 8].copy_from_slice(&v.to_le_bytes()),
                Some(HoleValue::Data(d)) => relocs.push(Relocation {
                    offset: at as u32,
                    kind: RelocKind::Abs8,
                    target: RelocTarget::Icb,
                    addend: i64::from(*d),
                }),
                None => return Err(bad(format!("piece {i} has no value for hole {hole}"))),
            }
        }
        for &(offset, exit, addend) in &stencil.exits {
            let target = match piece.exits.get(exit as usize) {
                Some(Target::Next) => i + 1,
                Some(Target::Label(l)) => s.labels[l.0]
                    .ok_or_else(|| bad(format!("piece {i} jumps to an unbound label")))?,
                None => return Err(bad(format!("piece {i} has no target for exit {exit}"))),
            };
            let to = *starts
                .get(target)
                .ok_or_else(|| bad(format!("piece {i} jumps past the end")))?;
            let at = start + offset as usize;
            let distance = to as i64 + addend - at as i64;
            let distance =
                i32::try_from(distance).map_err(|_| bad("a jump out of reach".into()))?;
            code[at..at + 4].copy_from_slice(&distance.to_le_bytes());
        }
        for &(offset, addend) in &stencil.icb {
            relocs.push(Relocation {
                offset: (start + offset as usize) as u32,
                kind: RelocKind::Abs8,
                target: RelocTarget::Icb,
                addend,
            });
        }
        for r in &stencil.symbols {
            let kind = match r.kind {
                Reloc::Abs8 => RelocKind::Abs8,
                Reloc::X86PCRel4 | Reloc::X86CallPCRel4 => RelocKind::PcRel4,
                other => return Err(bad(format!("relocation kind {other:?}"))),
            };
            relocs.push(Relocation {
                offset: (start + r.offset as usize) as u32,
                kind,
                target: RelocTarget::Symbol(r.symbol.clone()),
                addend: r.addend,
            });
        }
    }
    code[end..].fill(0xcc);
    Ok(relocs)
}

/// The stitched code as text: each piece's stencil listing (compiled
/// again, with its text) under a line naming the piece.
pub fn listing(s: &Stitcher) -> Result<String, JitError> {
    let (starts, _) = offsets(s);
    let mut out = String::new();
    for (i, (piece, start)) in s.pieces.iter().zip(starts).enumerate() {
        out.push_str(&format!(
            "; piece {i} at {start:#x}: holes {:?}, exits {:?}\n",
            piece.holes, piece.exits
        ));
        let text = super::library::with_listing(&piece.stencil.key)?.listing;
        out.push_str(&text.unwrap_or_default());
    }
    Ok(out)
}
