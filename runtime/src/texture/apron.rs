//! Copies of a small 2D texture's mip 0 with an apron: one more column on
//! the right and one more row at the bottom, holding the texels a
//! bilinear footprint on the last column or row reads as its second taps.
//!
//! A footprint's two texels along x are next to each other in memory
//! except on the last column, whose second tap wraps to column 0 or
//! clamps to the last column itself; the same holds for rows. With the
//! apron, those second taps are next to the first ones too, so the
//! filters read every footprint inside the texture as two 8-byte loads
//! (`sampler::inline`, `sampler::wide`) instead of leaving its lookup to
//! a path that loads each texel alone. A copy holds the apron of one
//! combination of addressing (wrap or clamp along each axis), made the
//! first time a lookup asks for it and kept with the texture until the
//! texture is next borrowed for writing.

use std::sync::OnceLock;

/// The most texels of mip 0 a texture may have to get an apron: copies
/// cost memory, and the larger a texture, the fewer of its footprints
/// lie on its last column or row.
pub const APRON_TEXELS: u32 = 512 * 512;

/// A texture's copies with aprons, by addressing: index bit 0 set when x
/// wraps (else clamps), bit 1 when y does. Equal to any other: the copies
/// are made from the texture's own bytes.
#[derive(Debug, Clone, Default)]
pub(super) struct Aprons([OnceLock<Box<[u8]>>; 4]);

impl PartialEq for Aprons {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Aprons {
    /// The copy of `level` (`width` × `height` texels of four bytes, rows
    /// tightly packed) for addressing `wrap` (per axis: wraps, else
    /// clamps), made now when it is the first ask.
    pub(super) fn get(&self, level: &[u8], width: u32, height: u32, wrap: [bool; 2]) -> &[u8] {
        let index = usize::from(wrap[0]) | usize::from(wrap[1]) << 1;
        self.0[index].get_or_init(|| with_apron(level, width as usize, height as usize, wrap))
    }
}

/// `level` with its apron for `wrap`: rows of `width + 1` texels, then
/// one row more.
fn with_apron(level: &[u8], width: usize, height: usize, wrap: [bool; 2]) -> Box<[u8]> {
    let row = 4 * width;
    let extra_column = 4 * if wrap[0] { 0 } else { width - 1 };
    let extra_row = if wrap[1] { 0 } else { height - 1 };
    let mut out = Vec::with_capacity((row + 4) * (height + 1));
    for y in (0..height).chain([extra_row]) {
        let source = &level[y * row..(y + 1) * row];
        out.extend_from_slice(source);
        out.extend_from_slice(&source[extra_column..extra_column + 4]);
    }
    out.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::with_apron;

    /// A 3 × 2 texture whose texel at (x, y) holds bytes `10y + x` then
    /// zeros: the apron's column repeats column 0 when x wraps and column
    /// 2 when it clamps, and its row repeats row 0 or row 1 likewise.
    #[test]
    fn aprons_repeat_the_first_or_last_texels() {
        let level: Vec<u8> = (0..2u8)
            .flat_map(|y| (0..3u8).flat_map(move |x| [10 * y + x, 0, 0, 0]))
            .collect();
        let first_bytes = |copy: &[u8]| -> Vec<u8> { copy.iter().step_by(4).copied().collect() };
        let wrap = with_apron(&level, 3, 2, [true, true]);
        assert_eq!(first_bytes(&wrap), [0, 1, 2, 0, 10, 11, 12, 10, 0, 1, 2, 0]);
        let clamp = with_apron(&level, 3, 2, [false, false]);
        assert_eq!(
            first_bytes(&clamp),
            [0, 1, 2, 2, 10, 11, 12, 12, 10, 11, 12, 12]
        );
        let mixed = with_apron(&level, 3, 2, [true, false]);
        assert_eq!(
            first_bytes(&mixed),
            [0, 1, 2, 0, 10, 11, 12, 10, 10, 11, 12, 10]
        );
    }
}
