//! Formats packing unorm or uint fields of a few bits into one 16- or
//! 32-bit word.

use super::{snorm, unorm, FormatKind};

/// (shift, width) of each of r, g, b, a; a width of 0 marks a component the
/// format lacks.
pub(super) type Fields = [(u32, u32); 4];

/// D3D9 R5G6B5: b in the low 5 bits, then 6 of g, then 5 of r.
pub(super) const R5G6B5: Fields = [(11, 5), (5, 6), (0, 5), (0, 0)];
/// D3D9 A1R5G5B5: b, g, r 5 bits each from the bottom, alpha on top.
pub(super) const A1R5G5B5: Fields = [(10, 5), (5, 5), (0, 5), (15, 1)];
/// D3D9 A4R4G4B4: b, g, r 4 bits each from the bottom, alpha on top.
pub(super) const A4R4G4B4: Fields = [(8, 4), (4, 4), (0, 4), (12, 4)];
/// 10:10:10:2, r in the low bits.
pub(super) const RGB10A2: Fields = [(0, 10), (10, 10), (20, 10), (30, 2)];

/// The words a shader reads from the fields of `packed`, lacking
/// components reading `missing`.
pub(super) fn load(packed: u32, fields: Fields, kind: FormatKind, missing: [u32; 4]) -> [u32; 4] {
    let mut out = missing;
    for (word, (shift, bits)) in out.iter_mut().zip(fields) {
        if bits != 0 {
            *word = decode_field((packed >> shift) & mask(bits), bits, kind);
        }
    }
    out
}

/// `value` packed into `fields` (lacking components are left 0).
pub(super) fn store(value: [u32; 4], fields: Fields, kind: FormatKind) -> u32 {
    value
        .iter()
        .zip(fields)
        .filter(|(_, (_, bits))| *bits != 0)
        .fold(0, |acc, (&word, (shift, bits))| {
            acc | (encode_field(word, bits, kind) << shift)
        })
}

/// The word a shader reads for the `bits`-wide field `n`. No float format
/// has integer fields, so `Float` is never asked for.
pub(super) fn decode_field(n: u32, bits: u32, kind: FormatKind) -> u32 {
    match kind {
        FormatKind::Uint => n,
        FormatKind::Sint => snorm::sign_extend(n, bits) as u32,
        FormatKind::Snorm => snorm::decode(n, bits).to_bits(),
        FormatKind::Unorm | FormatKind::Float => unorm::decode(n, bits).to_bits(),
    }
}

/// The `bits`-wide field a shader's `word` stores: normalized formats
/// convert the float, integers saturate to the field's range.
pub(super) fn encode_field(word: u32, bits: u32, kind: FormatKind) -> u32 {
    match kind {
        FormatKind::Uint => word.min(mask(bits)),
        FormatKind::Sint => {
            let max = (1i32 << (bits - 1)) - 1;
            ((word as i32).clamp(-max - 1, max) as u32) & mask(bits)
        }
        FormatKind::Snorm => snorm::encode(f32::from_bits(word), bits),
        FormatKind::Unorm | FormatKind::Float => unorm::encode(f32::from_bits(word), bits),
    }
}

fn mask(bits: u32) -> u32 {
    ((1u64 << bits) - 1) as u32
}
