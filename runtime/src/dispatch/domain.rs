//! Running a domain shader over tessellated patches: the domain points of
//! one patch per call (input register 0 holds `vDomain`), the patch's
//! control points and constants in the patch rows ([`super::patch_rows`]).

use super::patch_rows::{self as rows, HEADER, INPUT_POINTS, PATCH_CONSTANTS};
use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use crate::abi::View;
use rayon::prelude::*;

/// What the runtime needs to run a domain shader's patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomainDesc {
    /// Control points per patch.
    pub points: u32,
    /// Registers per control point.
    pub point_regs: u32,
    /// Patch-constant registers.
    pub patch_constant_regs: u32,
    /// Tri domain: `vDomain.z` is `1 - u - v` (0 otherwise).
    pub tri: bool,
}

/// One tessellated patch.
#[derive(Debug, Clone, Copy)]
pub struct DomainPatch<'a> {
    /// SV_PrimitiveID: the patch's index in the draw.
    pub id: u32,
    /// `points * point_regs` registers, vertex-major.
    pub control_points: &'a [[u32; 4]],
    /// `patch_constant_regs` registers.
    pub patch_constants: &'a [[u32; 4]],
    /// The tessellator's domain points (u, v).
    pub domain: &'a [[f32; 2]],
}

/// Runs a domain shader over `patches`; returns, per patch, the output
/// registers (`k.output_regs` each) of each of its domain points.
///
/// # Safety
/// As for [`super::run_vertices`]: `k` is live code compiled from a domain
/// program and every view in `b` is valid for the call.
pub unsafe fn run_domain(
    k: &Kernel,
    b: &Bindings,
    d: &DomainDesc,
    patches: &[DomainPatch<'_>],
) -> Vec<Vec<[u32; 4]>> {
    let w = k.lanes as usize;
    let no = k.output_regs as usize;
    patches
        .par_iter()
        .map_init(
            || {
                let mut rows = rows::new_rows();
                let mut cbs: Vec<View> = b.cbs.clone();
                cbs[rows::SLOT as usize] = rows::view(&mut rows);
                let mut call = Call::new(k, b);
                let mut inputs = Block::new(k.input_regs.max(1) as usize * 16 * w);
                let mut outputs = Block::new(no.max(1) * 16 * w);
                // SAFETY: the bindings' views are valid for the call; the
                // rows view points into `rows`, kept with the call.
                unsafe { call.bind_cbs(k, &cbs) };
                call.frame.inputs = inputs.ptr() as *const u32;
                call.frame.outputs = outputs.ptr() as *mut u32;
                (call, rows, inputs, outputs)
            },
            |(call, rows, inputs, outputs), patch| {
                if b.interrupted() {
                    return Vec::new();
                }
                rows[HEADER as usize] = [0, 0, patch.id, 0];
                let cps = patch.control_points;
                rows::put_points(rows, INPUT_POINTS, cps, d.points, d.point_regs);
                for r in 0..d.patch_constant_regs.min(rows::MAX_REGS) {
                    rows[(PATCH_CONSTANTS + r) as usize] = patch
                        .patch_constants
                        .get(r as usize)
                        .copied()
                        .unwrap_or([0; 4]);
                }
                let mut out = vec![[0u32; 4]; patch.domain.len() * no];
                for (batch, points) in patch.domain.chunks(w.max(1)).enumerate() {
                    let words = inputs.words();
                    for l in 0..w {
                        let [u, v] = points.get(l).copied().unwrap_or([0.0; 2]);
                        let third = if d.tri { 1.0 - u - v } else { 0.0 };
                        words[l] = u.to_bits();
                        words[w + l] = v.to_bits();
                        words[2 * w + l] = third.to_bits();
                        words[3 * w + l] = 0;
                        call.lane_mask.words()[l] = if l < points.len() { u32::MAX } else { 0 };
                    }
                    call.frame.resume = 0;
                    with_flushed_denormals(|| call.run(k.func));
                    let o = outputs.words();
                    for l in 0..points.len() {
                        for r in 0..no {
                            out[(batch * w + l) * no + r] =
                                [0, 1, 2, 3].map(|c| o[(r * 4 + c) * w + l]);
                        }
                    }
                }
                out
            },
        )
        .collect()
}
