//! Texture lookups filtered in compiled code.
//!
//! For each (texture, sampler) pair a program samples without comparison
//! from a 2D texture, the runtime describes the bound pair in an
//! [`InlineSampler`]. When that description has texels, the quad is
//! filtered here in vectors, in integers whose sum is exactly the
//! runtime's `plane::sample` sum, so the results are the runtime's bit for
//! bit:
//! - each lane's texel coordinate in steps of 1/256 texel, `n = floor(u ×
//!   scale − center)` as an integer, gives both axes' first taps
//!   (`n >> 8`, wrapped) and second-tap weights (`n & 255`);
//! - when every lane's first taps are inside the texture with their
//!   second taps next to them (no lane on the last column or row, or a
//!   small texture read from its copy with an apron, which holds those
//!   second taps: the common case), each lane's four texels are two
//!   8-byte loads, the bottom row's from the next row on (`taps.rs`);
//!   otherwise each tap is wrapped or clamped and loaded alone, out of
//!   line;
//! - the weighted sum and its quotient by 255 (`filter.rs`).
//!
//! Quads whose coordinates in steps do not convert to 32-bit integers (not
//! numbers, or too far out, where the runtime's 64-bit indices and these
//! 32-bit ones could differ), and pairs without texels, call the runtime's
//! `dxjit_sample_quad`, out of line.

use super::lanes::{Lanes, FVEC, MAX_K, VEC};
use super::state::Tr;
use super::wide_sample::WideCoords;
use super::JitError;
use crate::ir::{Dim, Inst, Program, ResourceKind};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, BlockArg, InstBuilder, MemFlagsData, Value};
use dxjit_runtime::abi::Frame;
use dxjit_runtime::sampler::{InlineSampler, INLINE_PAIRS};
use std::mem::{offset_of, size_of};

mod filter;
mod taps;

/// The (SRV slot, sampler slot) pairs of `prog`'s lookups that compiled
/// code may filter itself: lookups without comparison from a declared 2D
/// texture, in order of first use, at most [`INLINE_PAIRS`].
pub fn inline_pairs(prog: &Program) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for inst in prog.bodies().flatten() {
        let Inst::Sample {
            res,
            sampler,
            compare: None,
            slots: None,
            ..
        } = inst
        else {
            continue;
        };
        let two_d = prog
            .srvs
            .iter()
            .any(|d| d.slot == *res && d.kind == ResourceKind::Typed(Dim::Texture2D));
        let fits = *res <= u32::from(u8::MAX) && *sampler <= u32::from(u8::MAX);
        if two_d && fits && !pairs.contains(&(*res, *sampler)) && pairs.len() < INLINE_PAIRS {
            pairs.push((*res, *sampler));
        }
    }
    pairs
}

/// The values a vector brings to the filter from either path to its taps:
/// the top row's two pair vectors, the bottom row's, and its two weights
/// (block parameters, so that each path's loads fold into its
/// instructions: see [`Tr::weights`]).
const FETCHED: usize = 6;

/// One vector's taps (each row's two pair vectors) and weights, in the
/// order of the filter block's parameters.
fn filter_args(
    taps: impl IntoIterator<Item = [Value; 2]>,
    weights: impl IntoIterator<Item = Value>,
) -> impl Iterator<Item = BlockArg> {
    taps.into_iter()
        .flatten()
        .chain(weights)
        .map(BlockArg::from)
}

/// Per vector of a lookup's lanes, a value for each axis.
type Vectors = [[Value; 2]; MAX_K];

/// Where a lookup reads: the description's address and its texels.
#[derive(Clone, Copy)]
struct Desc {
    at: Value,
    texels: Value,
}

impl Tr<'_, '_> {
    /// Runs a lookup through pair `pair` of the program's inline pairs: in
    /// the runtime's wide filter when the function may call it (see
    /// `wide_sample.rs`), else in compiled code when the runtime's
    /// description of the pair allows it, otherwise through `runtime`
    /// (given u and v when it is to read them so, not from their
    /// registers). `coords` are the lookup's u and v. Returns the
    /// components `needed` asks for (the others are zeros).
    pub fn sample_inline(
        &mut self,
        pair: usize,
        coords: WideCoords,
        offset: [i8; 3],
        needed: [bool; 4],
        mut runtime: impl FnMut(&mut Self, Option<[Lanes; 2]>) -> Result<[Lanes; 4], JitError>,
    ) -> Result<[Lanes; 4], JitError> {
        if offset == [0; 3] && self.func.wide_sampling {
            let lookup = super::wide_sample::WideArgs {
                pair,
                coords,
                needed,
            };
            let mut results = self.wide_lookups(&[lookup], |tr, _, uv| runtime(tr, Some(uv)))?;
            return Ok(results.remove(0));
        }
        // Only lookups the wide filter takes read inputs from the table.
        let WideCoords::Lanes(coords) = coords else {
            return Err(JitError::Invalid(
                "a table lookup outside the wide filter".into(),
            ));
        };
        let vars: Vec<_> = (0..4)
            .filter(|c| needed[*c])
            .map(|c| (c, self.lb().declare()))
            .collect();
        let at = self.inline_sampler(pair);
        let texels = self.b.ins().load(
            types::I64,
            MemFlagsData::trusted(),
            at,
            offset_of!(InlineSampler, texels) as i32,
        );
        let d = Desc { at, texels };
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let filter = self.b.create_block();
        self.b.ins().brif(texels, filter, &[], slow, &[]);
        self.b.switch_to_block(filter);
        let results = self.filter_here(d, coords, offset, needed, slow);
        for (c, var) in &vars {
            self.lb().def_var(*var, results[*c]);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let called = runtime(self, None)?;
        for (c, var) in &vars {
            self.lb().def_var(*var, called[*c]);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(join);
        let mut out = [self.lb().splat(0); 4];
        for (c, var) in &vars {
            out[*c] = self.lb().use_var(*var);
        }
        Ok(out)
    }

    /// The lookup filtered here, four lanes a vector: from the block
    /// after the description's `texels` test to the block that has the
    /// results (the components `needed` asks for, the others zeros), going
    /// on to `slow` for quads it cannot do.
    fn filter_here(
        &mut self,
        d: Desc,
        coords: [Lanes; 2],
        offset: [i8; 3],
        needed: [bool; 4],
        slow: Block,
    ) -> [Lanes; 4] {
        let pairs = self.b.create_block();
        let edges = self.b.create_block();
        let singles = self.b.create_block();
        let fetched = self.b.create_block();
        for _ in 0..FETCHED * self.k {
            self.b.append_block_param(fetched, VEC);
        }
        let steps = self.lookup_steps(d, coords);
        let first = self.first_taps(d, &steps, offset);
        let bad = self.out_of_range(&steps);
        let off_pairs = self.off_pairs(d, &first, offset);
        let any = self.b.ins().bor(bad, off_pairs);
        let any = self.b.ins().vany_true(any);
        self.b.ins().brif(any, edges, &[], pairs, &[]);

        self.b.switch_to_block(pairs);
        let rows = self.pair_rows(d);
        let mask = self.field(VEC, d, offset_of!(InlineSampler, step_mask));
        let mut found = Vec::new();
        for (first, steps) in first.iter().zip(&steps).take(self.k) {
            let taps = self.fetch_pairs(d, rows, *first);
            let weights = self.weights(mask, *steps);
            found.extend(filter_args(taps, weights));
        }
        self.b.ins().jump(fetched, &found);

        self.b.switch_to_block(edges);
        self.b.set_cold_block(edges);
        let bad = self.out_of_range(&steps);
        let any = self.b.ins().vany_true(bad);
        self.b.ins().brif(any, slow, &[], singles, &[]);

        self.b.switch_to_block(singles);
        self.b.set_cold_block(singles);
        let mask = self.field(VEC, d, offset_of!(InlineSampler, step_mask));
        let mut found = Vec::new();
        for vector in steps.iter().take(self.k) {
            let taps = self.fetch_singles(d, *vector, offset);
            let weights = self.weights(mask, *vector);
            found.extend(filter_args(taps, weights));
        }
        self.b.ins().jump(fetched, &found);

        self.b.switch_to_block(fetched);
        let params: Vec<Value> = self.b.block_params(fetched).to_vec();
        let selects = self.channel_selects(d, needed);
        let mut results = [self.lb().splat(0); 4];
        for (j, p) in params.chunks(FETCHED).enumerate() {
            let rows = [[p[0], p[1]], [p[2], p[3]]];
            let values = self.filter_vector(selects, [p[4], p[5]], rows, needed);
            for (c, v) in values.into_iter().enumerate() {
                if let Some(v) = v {
                    results[c].v[j] = v;
                }
            }
        }
        results
    }

    /// The index among the program's inline pairs of texture `res` read
    /// through sampler `sampler`, if they are one.
    pub(super) fn inline_pair(&self, res: u32, sampler: u32) -> Option<usize> {
        self.facts
            .inline_pairs
            .iter()
            .position(|p| *p == (res, sampler))
    }

    /// The address of the frame's description of inline pair `pair`.
    pub(super) fn inline_sampler(&mut self, pair: usize) -> Value {
        let table = self.frame_ptr(offset_of!(Frame, inline_samplers));
        self.b
            .ins()
            .iadd_imm_s(table, (pair * size_of::<InlineSampler>()) as i64)
    }

    /// Each lane's coordinates in steps, `floor(u × scale − center)` as
    /// integers (`i32::MIN` where that is not a number or does not fit).
    fn lookup_steps(&mut self, d: Desc, coords: [Lanes; 2]) -> Vectors {
        let center = self.field(FVEC, d, offset_of!(InlineSampler, center));
        let scale =
            [0, 1].map(|axis| self.field(FVEC, d, offset_of!(InlineSampler, scale) + 16 * axis));
        let mut steps = [[center; 2]; MAX_K];
        for (j, vector) in steps.iter_mut().enumerate().take(self.k) {
            for (axis, coord) in coords.iter().enumerate() {
                let u = self.b.ins().bitcast(FVEC, super::lanes::le(), coord.v[j]);
                let scaled = self.b.ins().fmul(u, scale[axis]);
                let x = self.b.ins().fsub(scaled, center);
                let low = self.b.ins().floor(x);
                vector[axis] = self.b.ins().x86_cvtt2dq(VEC, low);
            }
        }
        steps
    }

    /// Each lane's first taps for the pair loads: the steps' texel (`n >>
    /// 8`, a logical shift, so that a negative one lies past every
    /// texture) moved by the offset and wrapped.
    fn first_taps(&mut self, d: Desc, steps: &Vectors, offset: [i8; 3]) -> Vectors {
        let wrap =
            [0, 1].map(|axis| self.field(VEC, d, offset_of!(InlineSampler, wrap_mask) + 16 * axis));
        let mut first = *steps;
        for vector in first.iter_mut().take(self.k) {
            for (axis, v) in vector.iter_mut().enumerate() {
                let texel = if offset[axis] == 0 {
                    self.b.ins().ushr_imm_u(*v, 8)
                } else {
                    let texel = self.b.ins().sshr_imm_u(*v, 8);
                    let moved = self.lb().splat(i32::from(offset[axis]) as u32).v[0];
                    self.b.ins().iadd(texel, moved)
                };
                *v = self.b.ins().band(texel, wrap[axis]);
            }
        }
        first
    }

    /// The lanes whose coordinates in steps did not convert in some
    /// vector (either axis is `i32::MIN`): the least of every vector's
    /// steps, compared once (a compare and an OR a vector fewer; only
    /// whether any lane is such is used).
    fn out_of_range(&mut self, steps: &Vectors) -> Value {
        let mut least: Option<Value> = None;
        for v in steps.iter().take(self.k).flatten() {
            least = Some(match least {
                Some(l) => self.b.ins().smin(l, *v),
                None => *v,
            });
        }
        let least = least.expect("at least one vector");
        let invalid = self.lb().splat(i32::MIN as u32).v[0];
        self.b.ins().icmp(IntCC::Equal, least, invalid)
    }

    /// The lanes whose first tap along an axis is past its pair limit in
    /// some vector (so that its second tap wraps or clamps): each axis's
    /// greatest first tap over the vectors, compared once. Without an
    /// offset a first tap is never negative, and a signed maximum and
    /// compare with the limit find them; with one, an unsigned maximum
    /// and compare with the last texel.
    fn off_pairs(&mut self, d: Desc, first: &Vectors, offset: [i8; 3]) -> Value {
        let [x, y] = [0, 1].map(|axis| {
            let signed = offset[axis] == 0;
            let mut most: Option<Value> = None;
            for vector in first.iter().take(self.k) {
                let tap = vector[axis];
                most = Some(match most {
                    Some(m) if signed => self.b.ins().smax(m, tap),
                    Some(m) => self.b.ins().umax(m, tap),
                    None => tap,
                });
            }
            let most = most.expect("at least one vector");
            if signed {
                let limit = offset_of!(InlineSampler, pair_limit) + 16 * axis;
                let limit = self.field(VEC, d, limit);
                self.b.ins().icmp(IntCC::SignedGreaterThan, most, limit)
            } else {
                let last = self.field(VEC, d, offset_of!(InlineSampler, last) + 16 * axis);
                self.b
                    .ins()
                    .icmp(IntCC::UnsignedGreaterThanOrEqual, most, last)
            }
        });
        self.b.ins().bor(x, y)
    }

    /// The description's field of type `ty` at byte `offset` (each lane
    /// holds the value), loaded here. A field that every vector of a
    /// lookup reads is loaded once for all of them: the backend folds a
    /// load into the instruction that reads it only when nothing computed
    /// from that instruction is used twice, which a lookup's steps, taps
    /// and weights all are, so a load per use would be an instruction per
    /// use.
    fn field(&mut self, ty: types::Type, d: Desc, offset: usize) -> Value {
        self.b
            .ins()
            .load(ty, MemFlagsData::trusted(), d.at, offset as i32)
    }
}
