//! Choosing a few programs whose stencils cover most of those a larger
//! set of programs needs, for a prewarm: a greedy set cover weighted by
//! how many programs use each stencil, per byte of program.

use super::prewarm::keys_of;
use crate::ir::Program;
use rustc_hash::FxHashMap;

/// The programs chosen, and how much of the set's stencils they cover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrewarmChoice {
    /// Indices of the programs chosen, in the order chosen.
    pub chosen: Vec<usize>,
    /// Bytes of the programs chosen.
    pub bytes: usize,
    /// Distinct stencils the set needs, and those the chosen need.
    pub stencils: (usize, usize),
    /// Uses of stencils by the set's programs (each program's distinct
    /// stencils, once per program), and those of stencils the chosen need.
    pub uses: (usize, usize),
}

/// The programs of `programs` (each with its size in bytes) to prewarm
/// with: repeatedly the one whose stencils not covered yet have the most
/// uses by the set's programs per byte, until the chosen cover `share`
/// (0..=1) of the set's stencil uses or no program left adds any and fits
/// in `budget` bytes. Programs the stencil tier does not stitch are never chosen.
/// Makes the stencils of every program (slow the first time).
pub fn choose(programs: &[(&Program, usize)], share: f64, budget: usize) -> PrewarmChoice {
    let mut ids = FxHashMap::default();
    let sets: Vec<Vec<usize>> = programs
        .iter()
        .map(|(prog, _)| {
            let keys = keys_of(prog).unwrap_or_default();
            keys.into_iter()
                .map(|k| {
                    let next = ids.len();
                    *ids.entry(k).or_insert(next)
                })
                .collect()
        })
        .collect();
    let mut uses = vec![0usize; ids.len()];
    sets.iter().flatten().for_each(|&k| uses[k] += 1);
    let total: usize = uses.iter().sum();
    let mut covered = vec![false; ids.len()];
    let mut choice = PrewarmChoice {
        stencils: (ids.len(), 0),
        uses: (total, 0),
        ..PrewarmChoice::default()
    };
    while (choice.uses.1 as f64) < share * total as f64 {
        let gain = |i: usize| -> usize {
            sets[i]
                .iter()
                .filter(|&&k| !covered[k])
                .map(|&k| uses[k])
                .sum()
        };
        let best = (0..programs.len())
            .filter(|&i| choice.bytes + programs[i].1 <= budget)
            .map(|i| (gain(i), i))
            .filter(|&(g, _)| g > 0)
            .max_by(|&(g, i), &(h, j)| {
                let per_byte = |g: usize, i: usize| g as f64 / programs[i].1.max(1) as f64;
                per_byte(g, i).total_cmp(&per_byte(h, j)).then(j.cmp(&i))
            });
        let Some((g, i)) = best else { break };
        for &k in &sets[i] {
            if !covered[k] {
                covered[k] = true;
                choice.stencils.1 += 1;
            }
        }
        choice.uses.1 += g;
        choice.bytes += programs[i].1;
        choice.chosen.push(i);
    }
    choice
}
