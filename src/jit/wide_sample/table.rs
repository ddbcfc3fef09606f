//! Wide lookups whose u and v are varying inputs that nothing else reads.
//!
//! In a step whose varying inputs come from the row's table in
//! straight-line code (the row's set of varying components is the one the
//! shader declares), the row loop leaves such inputs out, and the wide
//! filter interpolates them itself from the table entries the batch
//! names (`WideBatch::varying`), two quads to a 256-bit f32 FMA, as the
//! row loop computes them. Other steps (a row that
//! walks its varying list, a call without a row) give the lookup its u
//! and v as before; a flag the step sets chooses at run time. Such inputs
//! are never variables: the steps without the table leave them in the
//! input block, and only the lookup's branch for those steps reads them,
//! so no value of theirs is carried through a step that has the table.

use super::super::lanes::Lanes;
use super::super::state::Tr;
use super::super::typed::SampleOp;
use crate::ir::{File, Inst, Src};
use std::collections::BTreeSet;

impl Tr<'_, '_> {
    /// The input-block components (register × 4 + component) among the
    /// row loop's straight-line varying inputs that no instruction reads
    /// except as the u or v of one wide lookup, and none writes: the row
    /// loop need not interpolate them. None when the inputs are indexed by
    /// a register or written.
    pub(in crate::jit) fn table_only_inputs(&self, slots: &[u32]) -> Vec<u32> {
        let mut pairs = Vec::new();
        let mut other = BTreeSet::<u32>::new();
        for inst in self.prog.bodies().flatten() {
            let destinations = inst.destinations();
            if destinations.iter().any(|d| d.file == File::Input) {
                return Vec::new();
            }
            let coord = self.wide_coordinate(inst);
            let indices = destinations.iter().filter_map(|d| d.index.rel.as_deref());
            for src in inst.sources().into_iter().chain(indices) {
                for read in std::iter::once(src).chain(src.index.rel.as_deref()) {
                    if read.file != File::Input {
                        continue;
                    }
                    if read.index.rel.is_some() {
                        return Vec::new();
                    }
                    let base = 4 * read.index.base;
                    let component = |c: u8| base + u32::from(c);
                    let [u, v] = [0, 1].map(|c| read.swizzle[c]);
                    match coord {
                        // Components 2 and 3 that read u or v again are
                        // given u and v (`sample_call_reading`).
                        Some(c) if std::ptr::eq(c, read) => {
                            pairs.push([component(u), component(v)]);
                            let more = read.swizzle[2..].iter().filter(|c| ![u, v].contains(c));
                            other.extend(more.map(|c| component(*c)));
                        }
                        _ => other.extend(read.swizzle.map(component)),
                    }
                }
            }
        }
        // An input two lookups read is interpolated once in compiled code
        // rather than once per lookup in the filter (measured: four
        // lookups of two inputs were slower from the table).
        let mut seen = BTreeSet::new();
        for slot in pairs.iter().flatten() {
            if !seen.insert(*slot) {
                other.insert(*slot);
            }
        }
        // A lookup interpolates its u and v itself only when both are
        // table-only: drop the pairs with one that is not, until none.
        let mut table: BTreeSet<u32> = pairs
            .iter()
            .flatten()
            .copied()
            .filter(|s| slots.contains(s) && !other.contains(s) && self.input_var(*s).is_some())
            .collect();
        while let Some(pair) = pairs
            .iter()
            .find(|p| p.iter().any(|s| table.contains(s)) && !p.iter().all(|s| table.contains(s)))
        {
            let pair = *pair;
            pair.iter().for_each(|s| {
                table.remove(s);
            });
        }
        table.into_iter().collect()
    }

    /// The coordinate of `inst` when it is a lookup the wide filter takes
    /// ([`Tr::wide_pair`]) whose coordinate reads an input register as it
    /// is: no modifier, no relative index.
    fn wide_coordinate<'i>(&self, inst: &'i Inst) -> Option<&'i Src> {
        let op = SampleOp::of(inst).filter(|op| self.wide_pair(op).is_some())?;
        input_as_is(op.coord).then_some(op.coord)
    }

    /// Where `coord`'s u and v are among the row loop's straight-line
    /// varying inputs, when both are inputs only wide lookups read
    /// ([`Tr::table_only_inputs`]).
    pub(in crate::jit) fn table_positions(&self, coord: &Src) -> Option<[u32; 2]> {
        let row = self.func.row.as_ref()?;
        if !input_as_is(coord) {
            return None;
        }
        let slots = self.unrolled_slots();
        let base = 4 * coord.index.base;
        let position = |c: u8| {
            let slot = base + u32::from(c);
            row.table_only
                .contains(&slot)
                .then(|| slots.iter().position(|s| *s == slot))
                .flatten()
                .map(|p| p as u32)
        };
        Some([position(coord.swizzle[0])?, position(coord.swizzle[1])?])
    }
}

/// Whether `src` reads an input register as it is: no relative index, no
/// modifier.
fn input_as_is(src: &Src) -> bool {
    src.file == File::Input && src.index.rel.is_none() && !src.neg && !src.abs
}

/// A wide lookup's u and v.
pub enum WideCoords {
    /// Given, in every step.
    Lanes([Lanes; 2]),
    /// At these positions among the straight-line varying inputs: the
    /// filter interpolates them from the table in a step that has one;
    /// other steps read `coord`'s u and v (from the input block, where the
    /// row loop keeps inputs only wide lookups read), there and only there.
    Table {
        /// The positions of u and v.
        positions: [u32; 2],
        /// The lookup's coordinate operand.
        coord: Src,
    },
}
