//! Running a hull shader over a patch list: the control-point phase (one
//! lane per output control point of a patch), then every fork and join
//! phase instance (one call each, in lane 0) writing the patch constants.
//!
//! A patch runs in calls of its own: its control points and patch
//! constants reach compiled code through the patch rows
//! ([`super::patch_rows`]), uniform over the call; input register 0 holds
//! `vOutputControlPointID` in the control-point phase.

use super::patch_rows::{self as rows, HEADER, INPUT_POINTS, OUTPUT_POINTS, PATCH_CONSTANTS};
use super::{with_flushed_denormals, Bindings, Block, Call, Kernel};
use rayon::prelude::*;

/// The kind of a hull-shader phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HullPhaseKind {
    /// The control-point phase: one invocation per output control point.
    ControlPoint,
    /// A fork phase: patch constants, each instance independent.
    Fork,
    /// A join phase: patch constants, reading the fork phases' (`vpc`).
    Join,
}

/// One phase to run: its kind and instance count. A phase's position in
/// [`HullDesc::phases`] is the selector compiled code switches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HullPhaseRun {
    /// The kind.
    pub kind: HullPhaseKind,
    /// Instances (1 for the control-point phase).
    pub instances: u32,
}

/// What the runtime needs to run a hull shader's patches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HullDesc {
    /// Control points per input patch.
    pub input_points: u32,
    /// Registers per input control point in the caller's data.
    pub input_regs: u32,
    /// Control points per output patch (the input's without a
    /// control-point phase).
    pub output_points: u32,
    /// Registers per output control point (the input's without a
    /// control-point phase).
    pub output_regs: u32,
    /// Patch-constant registers.
    pub patch_constant_regs: u32,
    /// The phases, in order.
    pub phases: Vec<HullPhaseRun>,
}

/// The hull shader's results, patch after patch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HullOutput {
    /// `output_points * output_regs` registers per patch, vertex-major.
    pub control_points: Vec<[u32; 4]>,
    /// `patch_constant_regs` registers per patch.
    pub patch_constants: Vec<[u32; 4]>,
}

/// One patch's output control points and patch constants.
type PatchResult = (Vec<[u32; 4]>, Vec<[u32; 4]>);

/// What a worker reuses from patch to patch.
struct Worker {
    call: Call,
    rows: Vec<[u32; 4]>,
    inputs: Block,
    outputs: Block,
}

impl Worker {
    fn new(k: &Kernel, b: &Bindings) -> Worker {
        let w = k.lanes as usize;
        let mut worker = Worker {
            call: Call::new(k, b),
            rows: rows::new_rows(),
            inputs: Block::new(k.input_regs.max(1) as usize * 16 * w),
            outputs: Block::new(k.output_regs.max(1) as usize * 16 * w),
        };
        let mut cbs = b.cbs.clone();
        cbs[rows::SLOT as usize] = rows::view(&mut worker.rows);
        // SAFETY: the bindings' views are valid for the call; the rows view
        // points into `worker.rows`, which lives as long as the worker.
        unsafe { worker.call.bind_cbs(k, &cbs) };
        worker.call.frame.inputs = worker.inputs.ptr() as *const u32;
        worker.call.frame.outputs = worker.outputs.ptr() as *mut u32;
        worker
    }

    /// Runs phase `selector`, instance `instance`, with `active` lanes.
    fn run(&mut self, k: &Kernel, selector: usize, instance: u32, patch: u32, active: usize) {
        self.rows[HEADER as usize] = [selector as u32, instance, patch, 0];
        let mask = self.call.lane_mask.words();
        for (l, m) in mask[..k.lanes as usize].iter_mut().enumerate() {
            *m = if l < active { u32::MAX } else { 0 };
        }
        self.call.frame.resume = 0;
        self.call.run(k.func);
    }

    /// Register `reg` of lane `lane` of the output block.
    fn output(&mut self, k: &Kernel, lane: usize, reg: usize) -> [u32; 4] {
        if reg >= k.output_regs as usize {
            return [0; 4];
        }
        let w = k.lanes as usize;
        let o = self.outputs.words();
        [0, 1, 2, 3].map(|c| o[(reg * 4 + c) * w + lane])
    }

    /// Runs every phase of patch `patch` whose input control points are
    /// `points`; returns its output control points and patch constants.
    fn patch(&mut self, k: &Kernel, d: &HullDesc, patch: u32, points: &[[u32; 4]]) -> PatchResult {
        let w = k.lanes as usize;
        rows::put_points(
            &mut self.rows,
            INPUT_POINTS,
            points,
            d.input_points,
            d.input_regs,
        );
        let mut cps = Vec::with_capacity((d.output_points * d.output_regs) as usize);
        let control_point = d
            .phases
            .iter()
            .position(|p| p.kind == HullPhaseKind::ControlPoint);
        match control_point {
            Some(selector) => {
                let total = d.output_points as usize;
                let mut cp_out = vec![[0u32; 4]; total * d.output_regs as usize];
                for first in (0..total).step_by(w.max(1)) {
                    for (l, word) in self.inputs.words()[..w].iter_mut().enumerate() {
                        *word = (first + l) as u32;
                    }
                    self.outputs.zero();
                    self.run(k, selector, 0, patch, (total - first).min(w));
                    for l in 0..(total - first).min(w) {
                        for r in 0..d.output_regs as usize {
                            let value = self.output(k, l, r);
                            cp_out[(first + l) * d.output_regs as usize + r] = value;
                        }
                    }
                }
                cps.extend_from_slice(&cp_out);
            }
            None => cps.extend(
                (0..(d.output_points * d.output_regs) as usize)
                    .map(|i| points.get(i).copied().unwrap_or([0; 4])),
            ),
        }
        rows::put_points(
            &mut self.rows,
            OUTPUT_POINTS,
            &cps,
            d.output_points,
            d.output_regs,
        );
        self.outputs.zero();
        let mut constants_read = false;
        for (selector, phase) in d.phases.iter().enumerate() {
            if phase.kind == HullPhaseKind::ControlPoint {
                continue;
            }
            if phase.kind == HullPhaseKind::Join && !constants_read {
                for r in 0..d.patch_constant_regs.min(rows::MAX_REGS) {
                    self.rows[(PATCH_CONSTANTS + r) as usize] = self.output(k, 0, r as usize);
                }
                constants_read = true;
            }
            for instance in 0..phase.instances {
                self.run(k, selector, instance, patch, 1);
            }
        }
        let pcs = (0..d.patch_constant_regs as usize)
            .map(|r| self.output(k, 0, r))
            .collect();
        (cps, pcs)
    }
}

/// Runs a hull shader over `patches` patches whose input control points
/// are `inputs` (`d.input_points * d.input_regs` registers per patch,
/// vertex-major; missing registers read 0).
///
/// # Safety
/// As for [`super::run_vertices`]: `k` is live code compiled from a hull
/// program whose phases are `d.phases`, and every view in `b` is valid
/// for the call. `k.output_regs` covers `d.output_regs` (with a
/// control-point phase) and `d.patch_constant_regs`.
pub unsafe fn run_hull(
    k: &Kernel,
    b: &Bindings,
    d: &HullDesc,
    inputs: &[[u32; 4]],
    patches: u32,
) -> HullOutput {
    let per_patch = (d.input_points * d.input_regs) as usize;
    let results: Vec<PatchResult> = (0..patches)
        .into_par_iter()
        .map_init(
            || Worker::new(k, b),
            |worker, patch| {
                if b.interrupted() {
                    return (Vec::new(), Vec::new());
                }
                let start = (patch as usize * per_patch).min(inputs.len());
                let end = (start + per_patch).min(inputs.len());
                with_flushed_denormals(|| worker.patch(k, d, patch, &inputs[start..end]))
            },
        )
        .collect();
    let mut out = HullOutput::default();
    for (cps, pcs) in results {
        out.control_points.extend(cps);
        out.patch_constants.extend(pcs);
    }
    out
}
