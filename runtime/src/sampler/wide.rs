//! Sixteen lanes' inline lookups at once, in AVX2 code.
//!
//! Cranelift 0.135 makes only 128-bit vector code, so compiled code
//! filters an [`InlineSampler`] pair four lanes a vector. On a CPU with
//! AVX2 and FMA, compiled code hands a lookup's lanes (up to sixteen) to
//! [`dxjit_sample_wide`] instead: the same steps, taps, weights and sums
//! as the compiled filter (`src/jit/inline_sample`), made eight lanes a
//! vector, with the texel pairs gathered and the quotient by 255 made
//! without a division. Its results are the compiled filter's, and so the
//! runtime's, bit for bit.
//!
//! A row's pairs are gathered lanes 0, 1, 4, 5 into one vector and 2, 3,
//! 6, 7 into the other, so that each 128-bit half holds two lanes' pairs:
//! one shuffle of each vector by [`InlineSampler::channel_bytes`] puts two
//! channels of those lanes in 16-bit words, and an interleave of their
//! 64-bit halves gives each channel's words for lanes 0 to 7 in order.
//!
//! A lookup's u and v are given in its [`WideLookup`], or are varying
//! inputs of a draw row that the filter interpolates itself from the
//! row's table ([`WideBatch::varying`]), as the row loop would.
//!
//! AVX-512 adds nothing measurable: a build with mask registers and one
//! two-source byte permutation a channel (two instructions fewer a row)
//! ran K4 in the same time, and 512-bit vectors make Intel cores run
//! vector instructions on two ports instead of three while they are in
//! flight, the compiled code's around each call too.

use super::inline::InlineSampler;
use super::{SUBTEXEL_STEPS, UNORM8_SCALE};
use crate::abi::DrawRow;
use std::arch::x86_64::*;

/// The lanes one wide lookup takes at most.
pub const WIDE_LANES: usize = 16;

/// The lanes of one vector.
const HALF: usize = 8;

/// What the filter divides `S / 256` by (the compiled filter's
/// `ROW_SCALE`): the weighted sum `S` is in steps of 1/65536, then 255.
const ROW_SCALE: f32 = UNORM8_SCALE * SUBTEXEL_STEPS;

/// One wide lookup's coordinates and results, each lane at its index
/// (16-byte aligned: each quarter of a coordinate is one vector).
#[repr(C, align(16))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WideLookup {
    /// Each lane's u.
    pub u: [f32; WIDE_LANES],
    /// Each lane's v.
    pub v: [f32; WIDE_LANES],
    /// Red, green, blue and alpha, each lane's at its index.
    pub out: [[f32; WIDE_LANES]; 4],
}

/// Whether this CPU runs [`dxjit_sample_wide`] (AVX2 and FMA); compiled
/// code calls it only when this holds.
pub fn wide_sampling_available() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

/// Lookups one wide call takes at most: a shader's consecutive lookups
/// that do not read each other's results go in one call, for their work
/// to overlap.
pub const WIDE_BATCH: usize = 2;

/// One wide call's lookups, as compiled code lays them out in its
/// (16-byte aligned) argument area.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WideBatch {
    /// Each lookup's (texture, sampler) pair.
    pub samplers: [*const InlineSampler; WIDE_BATCH],
    /// The row of a draw whose table gives some lookup's u and v (read
    /// only then).
    pub row: *const DrawRow,
    /// The step's first quad column's entries in `row`'s table (read only
    /// then).
    pub entries: *const f32,
    /// Per lookup, where its u and v are: their positions among `row`'s
    /// varying components (entries `entries + 8 × position`, and a
    /// quad's four values `top + rise × place` as the row loop
    /// interpolates them), or `-1`: in its `u` and `v`.
    pub varying: [[i32; 2]; WIDE_BATCH],
    /// Each lookup's coordinates and results.
    pub lookups: [WideLookup; WIDE_BATCH],
}

/// Where one lookup's u and v come from.
#[derive(Clone, Copy)]
enum Coords<'a> {
    /// Its own `u` and `v`.
    Lanes(&'a WideLookup),
    /// The draw row's table.
    Table(Table),
}

/// A lookup's u and v in a draw row's table ([`DrawRow::table`]).
#[derive(Clone, Copy)]
struct Table {
    /// The entries of u and of v for the step's first quad.
    first: [*const f32; 2],
    /// Bytes from one quad's entries to the next quad's.
    stride: usize,
    /// The places of two quads' pixels: for each, the top row's twice,
    /// then the bottom row's twice.
    places: __m256,
    /// The quads of the step; the entries of the others are not read.
    quads: usize,
}

/// Where lookup `i` of `batch` finds its u and v, for `lanes` lanes.
///
/// # Safety
///
/// When `batch.varying[i]` holds positions, `batch.row` points to a live
/// [`DrawRow`] whose table holds, from `batch.entries`, the entries of
/// the step's `lanes / 4` quads (rounded up) at those positions.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn coords(batch: &WideBatch, i: usize, lanes: u32) -> Coords<'_> {
    let [u, v] = batch.varying[i];
    if u < 0 || v < 0 {
        return Coords::Lanes(&batch.lookups[i]);
    }
    // SAFETY: the caller guarantees the row.
    let row = unsafe { &*batch.row };
    let [top, bottom] = row.places;
    Coords::Table(Table {
        first: [u, v].map(|at| batch.entries.wrapping_add(8 * at as usize)),
        stride: 32 * row.varying_count as usize,
        places: _mm256_setr_ps(top, top, bottom, bottom, top, top, bottom, bottom),
        quads: lanes.div_ceil(4) as usize,
    })
}

/// The wide lookups compiled code calls: filters the first `lanes` lanes
/// of each of the first `count` lookups of `batch` into its results.
/// Returns a bit per lookup taken (bit `i` for lookup `i`). A lookup is
/// left alone, its results unwritten, when its pair has no texels or its
/// texture is too large for 32-bit offsets, or when some lane's
/// coordinates do not convert to steps (not numbers, or too far out):
/// compiled code then calls the runtime for it.
///
/// # Safety
///
/// [`wide_sampling_available`] holds; each of the first `count` samplers
/// points to a valid [`InlineSampler`] whose texels, if any, are its
/// texture's mip 0, still alive; `batch` is valid for reads and writes;
/// when one of the first `count` lookups has `varying` positions, `row`
/// points to a live [`DrawRow`] whose table holds, from `entries`, the
/// entries at those positions of `lanes / 4` quads (rounded up).
pub unsafe extern "C" fn dxjit_sample_wide(batch: *mut WideBatch, count: u32, lanes: u32) -> u32 {
    let count = (count as usize).min(WIDE_BATCH);
    // SAFETY: the caller guarantees the CPU, the samplers and `batch`.
    unsafe {
        match lanes as usize >= WIDE_LANES {
            true => lookups::<true>(&mut *batch, count, lanes),
            false => lookups::<false>(&mut *batch, count, lanes),
        }
    }
}

/// Whether the wide filter may read `s`'s texture: it has texels, at
/// byte offsets that fit the gathers' signed 32-bit offsets.
fn readable(s: &InlineSampler) -> bool {
    let height = u64::from(s.last[1][0]) + 1;
    !s.texels.is_null() && u64::from(s.row_pitch[0]) * height <= i32::MAX as u64
}

/// Half `half`'s coordinates from `coords` (u, v).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn half_coords(coords: Coords, half: usize) -> [__m256; 2] {
    match coords {
        Coords::Lanes(io) => {
            let at = HALF * half;
            // SAFETY: `io.u` and `io.v` hold sixteen floats each.
            unsafe {
                [
                    load_halves(io.u.as_ptr().add(at)),
                    load_halves(io.v.as_ptr().add(at)),
                ]
            }
        }
        Coords::Table(table) => [table.half(0, half), table.half(1, half)],
    }
}

impl Table {
    /// Half `half`'s values along `axis` (0 for u, 1 for v): each quad's
    /// `top + rise × place` as one f32 FMA, as the row loop's compiled code
    /// computes them (two quads to a vector); zeros for quads past the
    /// step.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn half(&self, axis: usize, half: usize) -> __m256 {
        // Part 0 of a quad's entry is its tops, part 1 its rises.
        let quad = |q: usize, part: usize| {
            if q >= self.quads {
                return _mm_setzero_ps();
            }
            let entry = self.first[axis].wrapping_byte_add(q * self.stride);
            // SAFETY: the step's quads' entries are in the table (the
            // guarantee of `coords`): eight f32s, tops then rises.
            unsafe { _mm_loadu_ps(entry.add(4 * part)) }
        };
        let both = |part: usize| _mm256_set_m128(quad(2 * half + 1, part), quad(2 * half, part));
        _mm256_fmadd_ps(both(1), self.places, both(0))
    }
}

/// The weights of a half whose lanes lie at `steps`: the columns', `256 −
/// kx` and `kx` as 16-bit halves of each lane, and the bottom row's, `ky /
/// 256`.
#[inline]
#[target_feature(enable = "avx2")]
fn weights(s: &InlineSampler, steps: &[__m256i; 2]) -> (__m256i, __m256) {
    let mask = _mm256_set1_epi32(s.step_mask[0] as i32);
    let kx = _mm256_and_si256(steps[0], mask);
    let ky = _mm256_and_si256(steps[1], mask);
    let spread = _mm256_sub_epi32(_mm256_slli_epi32::<16>(kx), kx);
    let columns = _mm256_add_epi32(spread, _mm256_set1_epi32(SUBTEXEL_STEPS as i32));
    let row = _mm256_mul_ps(_mm256_cvtepi32_ps(ky), _mm256_set1_ps(1.0 / SUBTEXEL_STEPS));
    (columns, row)
}

/// Eight floats from `p`, loaded as two 128-bit halves: compiled code
/// has just stored them so, and a wider load would wait for the stores
/// to finish instead of taking their values.
///
/// # Safety
///
/// `p` is valid for reading eight floats and 16-byte aligned.
#[inline]
#[target_feature(enable = "avx")]
unsafe fn load_halves(p: *const f32) -> __m256 {
    // SAFETY: the caller guarantees eight floats at `p`, 16-byte aligned.
    // (Volatile, so that the two loads stay two.)
    let (low, high) = unsafe {
        (
            p.cast::<__m128>().read_volatile(),
            p.add(4).cast::<__m128>().read_volatile(),
        )
    };
    _mm256_insertf128_ps::<1>(_mm256_castps128_ps256(low), high)
}

/// Both halves' coordinates `uv[half][axis]` in steps of `s`'s texture,
/// not yet floored: `x × scale − center` rounded as compiled code rounds
/// it, a product and then a difference. Where both scales are powers of
/// two of at least 1 ([`exact_product`]), each product is exact, so one
/// FMA rounds the difference alone and gives the same float (an infinite
/// product stays infinite after the difference).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn scaled(s: &InlineSampler, uv: [[__m256; 2]; 2]) -> [[__m256; 2]; 2] {
    let [[u0, v0], [u1, v1]] = uv;
    let center = _mm256_set1_ps(s.center[0]);
    let [su, sv] = [0, 1].map(|axis| s.scale[axis][0]);
    let (by_u, by_v) = (_mm256_set1_ps(su), _mm256_set1_ps(sv));
    if exact_product(su) && exact_product(sv) {
        [
            [
                _mm256_fmsub_ps(u0, by_u, center),
                _mm256_fmsub_ps(v0, by_v, center),
            ],
            [
                _mm256_fmsub_ps(u1, by_u, center),
                _mm256_fmsub_ps(v1, by_v, center),
            ],
        ]
    } else {
        [
            [
                _mm256_sub_ps(_mm256_mul_ps(u0, by_u), center),
                _mm256_sub_ps(_mm256_mul_ps(v0, by_v), center),
            ],
            [
                _mm256_sub_ps(_mm256_mul_ps(u1, by_u), center),
                _mm256_sub_ps(_mm256_mul_ps(v1, by_v), center),
            ],
        ]
    }
}

/// Whether every float's product by `scale` is exact but for overflow:
/// `scale` is a power of two, at least 1 (a texture's texels along an
/// axis times 256, a power of two when the texture's size is). Tested on
/// the bits, with integer instructions: positive, an exponent from 1.0's
/// up to the largest finite one, and no fraction bits.
fn exact_product(scale: f32) -> bool {
    let bits = scale.to_bits();
    (1.0f32.to_bits()..f32::INFINITY.to_bits()).contains(&bits) && bits & 0x007f_ffff == 0
}

/// Both halves' scaled coordinates (`scaled[half][axis]`) as steps,
/// `floor(x)` as an integer (`i32::MIN` where that is not a number or
/// does not fit). The floor takes two µops a vector and changes no value
/// whose sign bit is clear (a truncation is then the floor, and a
/// positive NaN or +∞ converts to `i32::MIN` either way), so it is taken
/// only when some lane's sign bit is set (one test for the four vectors;
/// lanes past a step's end count too).
#[inline]
#[target_feature(enable = "avx2")]
fn floored(scaled: [[__m256; 2]; 2]) -> [[__m256i; 2]; 2] {
    let signs = _mm256_or_ps(
        _mm256_or_ps(scaled[0][0], scaled[0][1]),
        _mm256_or_ps(scaled[1][0], scaled[1][1]),
    );
    let [[a, b], [c, d]] = scaled;
    if _mm256_movemask_ps(signs) == 0 {
        [
            [_mm256_cvttps_epi32(a), _mm256_cvttps_epi32(b)],
            [_mm256_cvttps_epi32(c), _mm256_cvttps_epi32(d)],
        ]
    } else {
        [
            [
                _mm256_cvttps_epi32(_mm256_floor_ps(a)),
                _mm256_cvttps_epi32(_mm256_floor_ps(b)),
            ],
            [
                _mm256_cvttps_epi32(_mm256_floor_ps(c)),
                _mm256_cvttps_epi32(_mm256_floor_ps(d)),
            ],
        ]
    }
}

/// Each lane's first taps (column, row) from its `steps`, wrapped: its steps' whole part
/// masked by the texture's size, exact for wrap addressing; clamp
/// addressing's in-range taps are unchanged by the mask.
#[inline]
#[target_feature(enable = "avx2")]
fn first_taps(s: &InlineSampler, steps: &[__m256i; 2]) -> [__m256i; 2] {
    let wrap = |axis: usize| _mm256_set1_epi32(s.wrap_mask[axis][0] as i32);
    let whole = |axis: usize| _mm256_srli_epi32::<8>(steps[axis]);
    [
        _mm256_and_si256(whole(0), wrap(0)),
        _mm256_and_si256(whole(1), wrap(1)),
    ]
}

/// How a texture's rows are reached from a row index: `row × stride`
/// with `stride` the texels from one row to the next (`pitch / 4`).
/// Worked out once per lookup, for both halves (each half had tested the
/// pitch again and broadcast its shift).
#[derive(Clone, Copy)]
enum RowStride {
    /// A power of two: a shift by the count in every lane.
    Shift(__m256i),
    /// One more than a power of two (the rows of a copy with an apron): a
    /// shift by the count in every lane, plus the row.
    ShiftAdd(__m256i),
    /// Anything else: a multiply by the stride in every lane (a multiply
    /// of 32-bit lanes takes ten cycles to its result, on the path to the
    /// gathers).
    Multiply(__m256i),
}

impl RowStride {
    /// The stride of rows `pitch` bytes apart.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(pitch: u32) -> RowStride {
        let stride = pitch / 4;
        let count = |by: u32| _mm256_set1_epi32(by.trailing_zeros() as i32);
        if stride.is_power_of_two() {
            RowStride::Shift(count(stride))
        } else if (stride - 1).is_power_of_two() {
            RowStride::ShiftAdd(count(stride - 1))
        } else {
            RowStride::Multiply(_mm256_set1_epi32(stride as i32))
        }
    }

    /// Each lane's row's first texel, `row × stride`. Gathers scale it by
    /// the texel's four bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn starts(self, row: __m256i) -> __m256i {
        match self {
            RowStride::Shift(count) => _mm256_sllv_epi32(row, count),
            RowStride::ShiftAdd(count) => _mm256_add_epi32(_mm256_sllv_epi32(row, count), row),
            RowStride::Multiply(stride) => _mm256_mullo_epi32(row, stride),
        }
    }
}

/// Along `axis`, each lane's first and second taps from its steps, each
/// wrapped and clamped to the texture.
#[inline]
#[target_feature(enable = "avx2")]
fn axis_taps(s: &InlineSampler, steps: [__m256i; 2], axis: usize) -> [__m256i; 2] {
    let first = _mm256_srai_epi32::<8>(steps[axis]);
    let second = _mm256_add_epi32(first, _mm256_set1_epi32(1));
    let wrap = _mm256_set1_epi32(s.wrap_mask[axis][0] as i32);
    let last = _mm256_set1_epi32(s.last[axis][0] as i32);
    let zero = _mm256_setzero_si256();
    let place = |i| _mm256_min_epi32(_mm256_max_epi32(_mm256_and_si256(i, wrap), zero), last);
    [place(first), place(second)]
}

/// Half `half`'s results from its rows' weighted sums `top` and `bottom`
/// (red, green, blue, alpha) and the bottom row's weight `row`: each
/// channel's `S / 256 = top + row × (bottom − top)` as one exact FMA, then
/// divided by 255 × 256 ([`quotient`]), written to `io.out`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn finish(top: [__m256i; 4], bottom: [__m256i; 4], row: __m256, io: &mut WideLookup, half: usize) {
    for (c, out) in io.out.iter_mut().enumerate() {
        let rise = _mm256_cvtepi32_ps(_mm256_sub_epi32(bottom[c], top[c]));
        let sum = _mm256_fmadd_ps(rise, row, _mm256_cvtepi32_ps(top[c]));
        // SAFETY: `out` holds sixteen floats.
        unsafe { _mm256_storeu_ps(out.as_mut_ptr().add(HALF * half), quotient(sum)) };
    }
}

/// `sum / ROW_SCALE` correctly rounded, for every `sum` a filter makes
/// (`S / 256`, `S` an integer to 255 × 65536), without a division (the
/// divider takes several cycles a vector): the product by the reciprocal
/// split in two floats, `sum × high + sum × low`, with one rounding of
/// the small product and one of the FMA. The test
/// `quotients_by_reciprocal_are_correctly_rounded` checks every such sum.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn quotient(sum: __m256) -> __m256 {
    let high = _mm256_set1_ps(RECIPROCAL_HIGH);
    let low = _mm256_set1_ps(RECIPROCAL_LOW);
    _mm256_fmadd_ps(sum, high, _mm256_mul_ps(sum, low))
}

/// `1 / ROW_SCALE` rounded to f32.
const RECIPROCAL_HIGH: f32 = (1.0 / ROW_SCALE as f64) as f32;

/// What `RECIPROCAL_HIGH` leaves of `1 / ROW_SCALE`, rounded to f32.
const RECIPROCAL_LOW: f32 = (1.0 / ROW_SCALE as f64 - RECIPROCAL_HIGH as f64) as f32;

/// Where one half's lanes fall: their coordinates in steps.
struct Placed {
    /// All ones in each lane looked up.
    active: __m256i,
    /// Each lane's coordinates in steps (column, row).
    steps: [__m256i; 2],
}

/// [`dxjit_sample_wide`]'s work. The common case is straight-line code:
/// every lookup's halves placed, one test that every lane's coordinates
/// converted and its texel pairs lie inside the texture, then every
/// lookup's pairs gathered before any is filtered, so that one lookup's
/// loads are under way while another computes. When some lookup's
/// coordinates do not convert, or its taps wrap or clamp, the lookups go
/// through [`placed_alone`] as they were placed (placing them again there
/// cost a quarter of that path's time); when some pair has no texels,
/// through [`each_alone`]. (A loop over the lookups, or arrays indexed by
/// lookup, kept their vectors in memory; a cold path's results merged
/// into the hot one's were kept on the stack.)
///
/// # Safety
///
/// As [`dxjit_sample_wide`]'s.
#[target_feature(enable = "avx2,fma")]
unsafe fn lookups<const FULL: bool>(batch: &mut WideBatch, count: usize, lanes: u32) -> u32 {
    // Every lane looked up: the masks and the table's quad count are
    // constants, and the gathers' and tests' mask arithmetic and the
    // table's tests of each quad fold away.
    let (lanes, halves) = match FULL {
        true => (WIDE_LANES as u32, [_mm256_set1_epi32(-1); 2]),
        false => (lanes, active_halves(lanes)),
    };
    if count == 0 {
        return 0;
    }
    // SAFETY: the caller guarantees the first `count` samplers.
    let s0 = unsafe { &*batch.samplers[0] };
    // SAFETY: the caller guarantees the row and table a lookup names.
    let a = readable(s0).then(|| place_both(s0, unsafe { coords(batch, 0, lanes) }, halves));
    if count < 2 {
        let Some(a) = a else { return 0 };
        if unusable(s0, &a) {
            // SAFETY: `s0` is readable.
            return unsafe { placed_alone([(s0, a)], batch) };
        }
        // SAFETY: every lane's pair is inside the texture (tested above).
        let rows = unsafe { gather_both(s0, &a) };
        filter_both(s0, &a, rows, &mut batch.lookups[0]);
        return 1;
    }
    // SAFETY: as above.
    let s1 = unsafe { &*batch.samplers[1] };
    // SAFETY: as above.
    let b = readable(s1).then(|| place_both(s1, unsafe { coords(batch, 1, lanes) }, halves));
    let (Some(a), Some(b)) = (a, b) else {
        // SAFETY: forwarded from the caller.
        return unsafe { each_alone(batch, 2, lanes) };
    };
    if unusable(s0, &a) || unusable(s1, &b) {
        // SAFETY: both samplers are readable.
        return unsafe { placed_alone([(s0, a), (s1, b)], batch) };
    }
    // SAFETY: both lookups' pairs are inside their textures (tested above).
    let (rows_a, rows_b) = unsafe { (gather_both(s0, &a), gather_both(s1, &b)) };
    let [io0, io1] = &mut batch.lookups;
    filter_both(s0, &a, rows_a, io0);
    filter_both(s1, &b, rows_b, io1);
    3
}

/// The first `count` lookups of `batch` one after the other, each placed
/// and filtered by [`alone`], or left alone when its sampler has no
/// texels. Returns a bit per lookup taken.
///
/// # Safety
///
/// As [`lookups`].
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn each_alone(batch: &mut WideBatch, count: usize, lanes: u32) -> u32 {
    let halves = active_halves(lanes);
    let mut taken = 0;
    for i in 0..count {
        // SAFETY: the caller guarantees the first `count` samplers.
        let s = unsafe { &*batch.samplers[i] };
        if !readable(s) {
            continue;
        }
        // SAFETY: the caller guarantees the row and table a lookup names.
        let placed = place_both(s, unsafe { coords(batch, i, lanes) }, halves);
        // SAFETY: `s` is readable.
        if unsafe { alone(s, &placed, &mut batch.lookups[i]) } {
            taken |= 1 << i;
        }
    }
    taken
}

/// The lookups `placed` (each a readable sampler and where its lanes
/// fall), the first ones of `batch`, through [`alone`], where some pair
/// leaves its texture or some coordinates did not convert: the hot path's
/// placing is kept. Returns a bit per lookup taken.
///
/// # Safety
///
/// As [`alone`]'s, for each lookup.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn placed_alone<const N: usize>(
    placed: [(&InlineSampler, [Placed; 2]); N],
    batch: &mut WideBatch,
) -> u32 {
    let mut taken = 0;
    for (i, (s, found)) in placed.into_iter().enumerate() {
        // SAFETY: forwarded from the caller.
        if unsafe { alone(s, &found, &mut batch.lookups[i]) } {
            taken |= 1 << i;
        }
    }
    taken
}

/// One lookup placed as `placed` in `s`'s texture, filtered into `io`
/// with its taps wrapped or clamped where its pairs leave the texture;
/// false, and `io` left alone, when some active lane's coordinates did
/// not convert.
///
/// # Safety
///
/// `s` is readable ([`readable`]) and describes a live mip 0.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn alone(s: &InlineSampler, placed: &[Placed; 2], io: &mut WideLookup) -> bool {
    if placed.iter().any(|found| !converted(found)) {
        return false;
    }
    // SAFETY: `s` has texels (it is readable).
    let rows = unsafe { [taps(s, &placed[0]), taps(s, &placed[1])] };
    filter_both(s, placed, rows, io);
    true
}

/// The lanes below `lanes` of each half, as vector masks.
#[inline]
#[target_feature(enable = "avx2")]
fn active_halves(lanes: u32) -> [__m256i; 2] {
    let lanes = lanes.min(2 * HALF as u32) as i32;
    let index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    [
        _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes), index),
        _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes - HALF as i32), index),
    ]
}

/// Both halves of a lookup's lanes `halves`, at `coords`, placed in
/// `s`'s texture.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn place_both(s: &InlineSampler, coords: Coords, halves: [__m256i; 2]) -> [Placed; 2] {
    let uv = [half_coords(coords, 0), half_coords(coords, 1)];
    let [first, second] = floored(scaled(s, uv));
    [
        Placed {
            active: halves[0],
            steps: first,
        },
        Placed {
            active: halves[1],
            steps: second,
        },
    ]
}

/// Whether some active lane of either half cannot be gathered as pairs:
/// its coordinates did not convert to steps (`i32::MIN`, below every
/// converted step), or its pairs leave the texture. Each is one
/// comparison of the halves' least (or greatest) values; an axis along
/// which every first tap's pair is inside ([`pairs_fit`]) is not tested.
#[inline]
#[target_feature(enable = "avx2")]
fn unusable(s: &InlineSampler, placed: &[Placed; 2]) -> bool {
    let least = |found: &Placed| {
        let lowest = _mm256_min_epi32(found.steps[0], found.steps[1]);
        _mm256_and_si256(lowest, found.active)
    };
    let lowest = _mm256_min_epi32(least(&placed[0]), least(&placed[1]));
    let bad = _mm256_cmpeq_epi32(lowest, _mm256_set1_epi32(i32::MIN));
    // Each axis written out and tested apart: as a loop, the axis indexed
    // the first taps through the stack, and with one test of all three,
    // LLVM selected the axes' masks through packed booleans.
    _mm256_testz_si256(bad, bad) == 0 || pairs_leave(s, placed, 0) || pairs_leave(s, placed, 1)
}

/// Whether some active lane's pair along `axis` leaves the texture,
/// tested through the halves' greatest active first tap; false without a
/// test where [`pairs_fit`].
#[inline]
#[target_feature(enable = "avx2")]
fn pairs_leave(s: &InlineSampler, placed: &[Placed; 2], axis: usize) -> bool {
    if pairs_fit(s, axis) {
        return false;
    }
    let first = |found: &Placed| _mm256_and_si256(first_taps(s, &found.steps)[axis], found.active);
    let highest = _mm256_max_epi32(first(&placed[0]), first(&placed[1]));
    let out = _mm256_cmpgt_epi32(highest, _mm256_set1_epi32(s.pair_limit[axis][0]));
    _mm256_testz_si256(out, out) == 0
}

/// Whether along `axis` every first tap of `s` has its pair inside the
/// texture: the axis wraps, so a first tap is at most the wrap mask, and
/// the texels have an apron past it.
fn pairs_fit(s: &InlineSampler, axis: usize) -> bool {
    let wrap = s.wrap_mask[axis][0];
    wrap != u32::MAX && i64::from(wrap) <= i64::from(s.pair_limit[axis][0])
}

/// Whether every active lane of `found` converted to steps.
#[inline]
#[target_feature(enable = "avx2")]
fn converted(found: &Placed) -> bool {
    let invalid = _mm256_set1_epi32(i32::MIN);
    let bad = _mm256_or_si256(
        _mm256_cmpeq_epi32(found.steps[0], invalid),
        _mm256_cmpeq_epi32(found.steps[1], invalid),
    );
    _mm256_testz_si256(bad, found.active) != 0
}

/// Both halves' taps as texel pairs, in [`taps`]' order.
///
/// # Safety
///
/// `s` describes a live mip 0 with `texels`, and [`unusable`] is false
/// for `placed`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gather_both(s: &InlineSampler, placed: &[Placed; 2]) -> [[[__m256i; 2]; 2]; 2] {
    let stride = RowStride::new(s.row_pitch[0]);
    // SAFETY: forwarded from the caller.
    unsafe {
        [
            gather_half(s, &placed[0], stride),
            gather_half(s, &placed[1], stride),
        ]
    }
}

/// One half's taps as texel pairs, two 8-byte loads a lane, in [`taps`]'
/// order.
///
/// # Safety
///
/// `s` describes a live mip 0 with `texels`, and every active lane of
/// `found` has its pairs inside it.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gather_half(s: &InlineSampler, found: &Placed, stride: RowStride) -> [[__m256i; 2]; 2] {
    let pitch = s.row_pitch[0];
    let [column, row] = first_taps(s, &found.steps);
    let at = _mm256_add_epi32(stride.starts(row), column);
    // Lanes 0, 1, 4, 5 in the low half, 2, 3, 6, 7 in the high one.
    let at = _mm256_permute4x64_epi64::<0b11_01_10_00>(at);
    let active = _mm256_permute4x64_epi64::<0b11_01_10_00>(found.active);
    let offsets = [
        _mm256_castsi256_si128(at),
        _mm256_extracti128_si256::<1>(at),
    ];
    let masks = [
        _mm256_cvtepi32_epi64(_mm256_castsi256_si128(active)),
        _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(active)),
    ];
    let zero = _mm256_setzero_si256();
    let top = s.texels.cast::<i64>();
    let bottom = s.texels.wrapping_add(pitch as usize).cast::<i64>();
    // SAFETY: every active lane's pair is inside mip 0, as is each row's
    // pair below (the caller's guarantee); inactive lanes load nothing.
    unsafe {
        [
            [
                _mm256_mask_i32gather_epi64::<4>(zero, top, offsets[0], masks[0]),
                _mm256_mask_i32gather_epi64::<4>(zero, top, offsets[1], masks[1]),
            ],
            [
                _mm256_mask_i32gather_epi64::<4>(zero, bottom, offsets[0], masks[0]),
                _mm256_mask_i32gather_epi64::<4>(zero, bottom, offsets[1], masks[1]),
            ],
        ]
    }
}

/// Each lane's taps, per row as two pair vectors (lanes 0, 1, 4, 5 and
/// then 2, 3, 6, 7; each lane's left texel and then its right one): two
/// 8-byte loads a lane when every lane's pairs are inside the texture;
/// otherwise each tap wrapped or clamped and loaded alone.
///
/// # Safety
///
/// `s` describes a live mip 0 with `texels`, and `found`'s steps
/// converted.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn taps(s: &InlineSampler, found: &Placed) -> [[__m256i; 2]; 2] {
    let first = first_taps(s, &found.steps);
    let limit = |axis: usize| _mm256_set1_epi32(s.pair_limit[axis][0]);
    let out = _mm256_or_si256(
        _mm256_cmpgt_epi32(first[0], limit(0)),
        _mm256_cmpgt_epi32(first[1], limit(1)),
    );
    if _mm256_testz_si256(out, found.active) != 0 {
        // SAFETY: every active lane's pairs are inside (tested above).
        return unsafe { gather_half(s, found, RowStride::new(s.row_pitch[0])) };
    }
    // SAFETY: the caller guarantees `s`.
    unsafe { gather_singles(s, found) }
}

/// The taps of each active lane's footprint, each wrapped or clamped as
/// `s` says and loaded alone, in [`taps`]' order.
///
/// # Safety
///
/// `s` describes a live mip 0 with `texels`.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn gather_singles(s: &InlineSampler, found: &Placed) -> [[__m256i; 2]; 2] {
    let [left, right] = axis_taps(s, found.steps, 0);
    let [top, bottom] = axis_taps(s, found.steps, 1);
    // SAFETY: the caller guarantees `s`.
    unsafe {
        [
            singles_row(s, top, [left, right], found.active),
            singles_row(s, bottom, [left, right], found.active),
        ]
    }
}

/// One row's taps (row `y`, columns `columns`: left, right) as two pair
/// vectors, in [`taps`]' order: interleaving the left
/// and right texels' words gives lanes 0, 1, 4, 5 from the low words of
/// each 128-bit half and 2, 3, 6, 7 from the high ones.
///
/// # Safety
///
/// `s` describes a live mip 0 with `texels`, and every active lane's
/// taps are inside it.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn singles_row(
    s: &InlineSampler,
    y: __m256i,
    columns: [__m256i; 2],
    active: __m256i,
) -> [__m256i; 2] {
    let row = RowStride::new(s.row_pitch[0]).starts(y);
    let zero = _mm256_setzero_si256();
    let base = s.texels.cast::<i32>();
    // SAFETY: the caller guarantees each active lane's texel; inactive
    // lanes load nothing.
    let (l, r) = unsafe {
        (
            _mm256_mask_i32gather_epi32::<4>(zero, base, _mm256_add_epi32(row, columns[0]), active),
            _mm256_mask_i32gather_epi32::<4>(zero, base, _mm256_add_epi32(row, columns[1]), active),
        )
    };
    [_mm256_unpacklo_epi32(l, r), _mm256_unpackhi_epi32(l, r)]
}

/// Both halves filtered from their taps `rows` into `io`'s results (the
/// second only when it has lanes).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn filter_both(
    s: &InlineSampler,
    placed: &[Placed; 2],
    rows: [[[__m256i; 2]; 2]; 2],
    io: &mut WideLookup,
) {
    filter(s, &placed[0], rows[0], io, 0);
    if _mm256_testz_si256(placed[1].active, placed[1].active) == 0 {
        filter(s, &placed[1], rows[1], io, 1);
    }
}

/// The filtered channels of half `half`, placed as `found`, from its taps
/// `rows` (top, bottom), written to `io.out`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn filter(
    s: &InlineSampler,
    found: &Placed,
    rows: [[__m256i; 2]; 2],
    io: &mut WideLookup,
    half: usize,
) {
    let shuffle = |h: usize| {
        // SAFETY: each selection is 16 bytes.
        let mask = unsafe { _mm_loadu_si128(s.channel_bytes[h].as_ptr().cast()) };
        _mm256_broadcastsi128_si256(mask)
    };
    let shuffles = [shuffle(0), shuffle(1)];
    let (columns, row) = weights(s, &found.steps);
    let top = weigh_row(rows[0], shuffles, columns);
    let bottom = weigh_row(rows[1], shuffles, columns);
    finish(top, bottom, row, io, half);
}

/// One row's weighted sums, `left × (256 − k) + right × k` per lane, for
/// red, green, blue and alpha: each pair of channels picked from both
/// pair vectors by one shuffle each ([`InlineSampler::channel_bytes`]),
/// the two channels' lanes put in order by interleaving the shuffles'
/// 64-bit halves, then one multiply-add of each channel by the column
/// weights.
#[inline]
#[target_feature(enable = "avx2")]
fn weigh_row(row: [__m256i; 2], shuffles: [__m256i; 2], columns: __m256i) -> [__m256i; 4] {
    let first = [
        _mm256_shuffle_epi8(row[0], shuffles[0]),
        _mm256_shuffle_epi8(row[1], shuffles[0]),
    ];
    let second = [
        _mm256_shuffle_epi8(row[0], shuffles[1]),
        _mm256_shuffle_epi8(row[1], shuffles[1]),
    ];
    [
        _mm256_madd_epi16(_mm256_unpacklo_epi64(first[0], first[1]), columns),
        _mm256_madd_epi16(_mm256_unpackhi_epi64(first[0], first[1]), columns),
        _mm256_madd_epi16(_mm256_unpacklo_epi64(second[0], second[1]), columns),
        _mm256_madd_epi16(_mm256_unpackhi_epi64(second[0], second[1]), columns),
    ]
}

#[cfg(test)]
mod tests;
