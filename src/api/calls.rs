//! Running a compiled shader safely: the stage is checked, arguments are
//! checked against the shader, the bindings' borrows keep every view alive
//! and exclusive for the call, and a call stopped early says so.

use super::bindings::Bindings;
use super::deadline;
use super::definitions;
use super::error::RunError;
use super::target::Target;
use super::validation;
use crate::ir::Stage;
use crate::shader::Shader;
use dxjit_runtime::dispatch::{self, Bindings as RawBindings, Draw, PixelInput};
use std::ops::Range;
use std::time::Duration;

/// The largest rectangle coordinate a draw takes (D3D11's largest target).
pub const MAX_COORDINATE: u32 = 16384;

/// The most thread groups a dispatch takes along each axis
/// (`D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`).
pub const MAX_GROUPS: u32 = 65535;

/// How a call runs beyond its arguments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// Stop the call once it has run this long
    /// ([`RunError::DeadlineExceeded`]). A CPU has no TDR: without a
    /// deadline a shader with an endless loop runs until interrupted.
    pub deadline: Option<Duration>,
    /// Compare what the shader declares with what is bound and report each
    /// mismatch through `log` (see [`crate::Engine`]).
    pub validate: bool,
}

/// A screen-aligned rectangle to shade.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawDesc {
    /// Pixels covered: x0, y0, x1, y1 (exclusive), each at most
    /// [`MAX_COORDINATE`]. Pixels outside a target are not written to it.
    pub rect: [u32; 4],
    /// Where in a pixel it is sampled: 0.5 for D3D10+, 0.0 for D3D9.
    pub pixel_center: f32,
    /// Inputs interpolated across the rectangle from their corner values.
    pub inputs: Vec<PixelInput>,
    /// D3D's blend-state sample mask (`OMSetBlendState`'s `SampleMask`):
    /// sample i of a pixel is written only when bit i is set; `u32::MAX`
    /// writes every covered sample.
    pub sample_mask: u32,
}

impl Shader {
    /// Runs a compute shader over `groups` thread groups, on every core.
    pub fn dispatch(&self, bindings: &Bindings<'_>, groups: [u32; 3]) -> Result<(), RunError> {
        self.dispatch_with(bindings, groups, &CallOptions::default())
    }

    /// [`Shader::dispatch`] with a deadline or validation.
    pub fn dispatch_with(
        &self,
        bindings: &Bindings<'_>,
        groups: [u32; 3],
        options: &CallOptions,
    ) -> Result<(), RunError> {
        self.require(Stage::Compute, "dispatch")?;
        check_groups(groups)?;
        let per_group = self.kernel().thread_group.map(u64::from);
        let invocations = groups.map(u64::from).iter().chain(&per_group).product();
        let kernel = self.kernel_for(invocations);
        self.guarded(bindings, options, |raw| {
            // SAFETY: `kernel` is this shader's code, alive while `self` is
            // borrowed; every view in `raw` was made by `Bindings` from a
            // borrow it holds for the call (writable ones from exclusive
            // borrows), or by `definitions` from memory alive until
            // `guarded` returns.
            unsafe { dispatch::dispatch(&kernel, raw, groups) }
        })
    }

    /// Runs the thread groups of a `groups` dispatch whose linear indices
    /// (x fastest, then y, then z) lie in `range`, on the calling thread
    /// only: embedders with their own job system split a dispatch into
    /// ranges and run each where they like. Indices past the dispatch are
    /// ignored.
    pub fn dispatch_range(
        &self,
        bindings: &Bindings<'_>,
        groups: [u32; 3],
        range: Range<u64>,
    ) -> Result<(), RunError> {
        self.require(Stage::Compute, "dispatch_range")?;
        check_groups(groups)?;
        let kernel = self.kernel();
        self.guarded(bindings, &CallOptions::default(), |raw| {
            // SAFETY: as in `dispatch_with`.
            unsafe { dispatch::dispatch_range(&kernel, raw, groups, range) }
        })
    }

    /// Shades `desc.rect` in 2x2 quads with a pixel shader and writes
    /// `targets`, on every core. Multisampled targets (all of one sample
    /// count) get every sample the rectangle covers, shaded once a pixel
    /// or, for shaders that run per sample, once a sample.
    pub fn draw(
        &self,
        bindings: &Bindings<'_>,
        desc: &DrawDesc,
        targets: &mut [Target<'_>],
    ) -> Result<(), RunError> {
        self.draw_with(bindings, desc, targets, &CallOptions::default())
    }

    /// [`Shader::draw`] with a deadline or validation.
    pub fn draw_with(
        &self,
        bindings: &Bindings<'_>,
        desc: &DrawDesc,
        targets: &mut [Target<'_>],
        options: &CallOptions,
    ) -> Result<(), RunError> {
        self.require(Stage::Pixel, "draw")?;
        let [x0, y0, x1, y1] = desc.rect.map(u64::from);
        let kernel = self.kernel_for(x1.saturating_sub(x0) * y1.saturating_sub(y0));
        if desc.rect.iter().any(|&c| c > MAX_COORDINATE) {
            return invalid(format!(
                "rect {:?}: coordinates are at most {MAX_COORDINATE}",
                desc.rect
            ));
        }
        if !desc.pixel_center.is_finite() {
            return invalid("pixel_center is not finite".into());
        }
        if let Some(i) = desc.inputs.iter().find(|i| i.reg >= kernel.input_regs) {
            return invalid(format!(
                "input register {} is past the shader's {}",
                i.reg, kernel.input_regs
            ));
        }
        if let Some(t) = targets
            .iter()
            .find(|t| t.raw().output_reg >= kernel.output_regs)
        {
            return invalid(format!(
                "target output register {} is past the shader's {}",
                t.raw().output_reg,
                kernel.output_regs
            ));
        }
        if let Some(t) = targets.iter().find(|t| t.samples() != targets[0].samples()) {
            return invalid(format!(
                "targets of {} and {} samples: every target of a draw has the same sample count",
                targets[0].samples(),
                t.samples()
            ));
        }
        let draw = Draw {
            rect: desc.rect,
            pixel_center: desc.pixel_center,
            inputs: desc.inputs.clone(),
            targets: targets.iter().map(|t| *t.raw()).collect(),
            shading: self.sample_shading(),
            sample_mask: desc.sample_mask,
        };
        self.guarded(bindings, options, |raw| {
            // SAFETY: as in `dispatch_with`; each target was made from an
            // exclusive borrow its `Target` holds, `targets` is borrowed
            // exclusively for the call, and `Target::new` checked that its
            // rows fit in that memory.
            unsafe { dispatch::draw(&kernel, raw, &draw) }
        })
    }

    /// Runs a vertex shader over `count` vertices. `inputs` holds the
    /// shader's input registers (see [`dxjit_runtime::dispatch::Kernel`]'s
    /// `input_regs`) for each vertex; the result holds its output registers
    /// for each vertex.
    pub fn run_vertices(
        &self,
        bindings: &Bindings<'_>,
        inputs: &[[u32; 4]],
        count: u32,
    ) -> Result<Vec<[u32; 4]>, RunError> {
        self.run_vertices_with(bindings, inputs, count, &CallOptions::default())
    }

    /// [`Shader::run_vertices`] with a deadline or validation.
    pub fn run_vertices_with(
        &self,
        bindings: &Bindings<'_>,
        inputs: &[[u32; 4]],
        count: u32,
        options: &CallOptions,
    ) -> Result<Vec<[u32; 4]>, RunError> {
        self.require(Stage::Vertex, "run_vertices")?;
        let kernel = self.kernel_for(u64::from(count));
        check_vertex_inputs(&kernel, inputs, count)?;
        self.guarded(bindings, options, |raw| {
            // SAFETY: as in `dispatch_with`; `inputs` holds `count` vertices'
            // registers (checked above).
            unsafe { dispatch::run_vertices(&kernel, raw, inputs, count) }
        })
    }

    /// [`Shader::run_vertices`] into the caller's `outputs`
    /// (`output_regs` registers per vertex, see [`Shader::kernel`]), with
    /// no allocation: the entry point for embedders that own their vertex
    /// streams. `outputs` must hold every vertex's registers.
    pub fn run_vertices_into(
        &self,
        bindings: &Bindings<'_>,
        inputs: &[[u32; 4]],
        count: u32,
        outputs: &mut [[u32; 4]],
    ) -> Result<(), RunError> {
        self.require(Stage::Vertex, "run_vertices_into")?;
        let kernel = self.kernel_for(u64::from(count));
        check_vertex_inputs(&kernel, inputs, count)?;
        let needed = u64::from(count) * u64::from(kernel.output_regs);
        if (outputs.len() as u64) < needed {
            return invalid(format!(
                "{count} vertices of {} output registers need {needed} registers, {} given",
                kernel.output_regs,
                outputs.len()
            ));
        }
        self.guarded(bindings, &CallOptions::default(), |raw| {
            // SAFETY: as in `run_vertices_with`; `outputs` is the caller's
            // exclusive borrow.
            unsafe { dispatch::run_vertices_into(&kernel, raw, inputs, count, outputs) }
        })
    }

    /// Runs the vertices of a `count`-vertex [`Shader::run_vertices`] whose
    /// indices lie in `range`, on the calling thread only, and returns
    /// their outputs (`range.start`'s first): embedders with their own job
    /// systems split the vertices into ranges and run each where they
    /// like. Indices past `count` are ignored.
    pub fn run_vertices_range(
        &self,
        bindings: &Bindings<'_>,
        inputs: &[[u32; 4]],
        count: u32,
        range: Range<u32>,
    ) -> Result<Vec<[u32; 4]>, RunError> {
        self.require(Stage::Vertex, "run_vertices_range")?;
        let kernel = self.kernel();
        check_vertex_inputs(&kernel, inputs, count)?;
        self.guarded(bindings, &CallOptions::default(), |raw| {
            // SAFETY: as in `run_vertices_with`.
            unsafe { dispatch::run_vertices_range(&kernel, raw, inputs, count, range) }
        })
    }

    /// Refuses bindings that leave one of the shader's class-linkage
    /// interface slots unbound, or bound to a table it does not list.
    pub(super) fn check_linkage(&self, bindings: &Bindings<'_>) -> Result<(), RunError> {
        let interfaces = &self.program().interfaces;
        if interfaces.is_empty() {
            return Ok(());
        }
        crate::ir::class::check(interfaces, bindings.class_instances()).map_err(RunError::Unlinked)
    }

    pub(super) fn require(&self, expected: Stage, call: &'static str) -> Result<(), RunError> {
        match self.stage() {
            got if got == expected => Ok(()),
            got => Err(RunError::WrongStage {
                call,
                expected,
                got,
            }),
        }
    }

    /// Applies the shader's defined constants, validates if asked, runs
    /// `run` under the deadline, and says whether it was stopped.
    pub(super) fn guarded<R>(
        &self,
        bindings: &Bindings<'_>,
        options: &CallOptions,
        run: impl FnOnce(&RawBindings) -> R,
    ) -> Result<R, RunError> {
        self.check_linkage(bindings)?;
        let mut raw = bindings.raw().clone();
        let _defined = definitions::apply(self.defined_constants(), &mut raw);
        if options.validate {
            validation::report(self.program(), &raw);
        }
        let flag = raw.interrupt.clone();
        let (result, expired) = match options.deadline {
            Some(limit) => deadline::within(&flag, limit, || run(&raw)),
            None => (run(&raw), false),
        };
        if expired {
            return Err(RunError::DeadlineExceeded(
                options.deadline.unwrap_or_default(),
            ));
        }
        match super::stop_reason(&flag, self) {
            Some(stop) => Err(stop),
            None => Ok(result),
        }
    }
}

fn check_groups(groups: [u32; 3]) -> Result<(), RunError> {
    if groups.iter().any(|&g| g > MAX_GROUPS) {
        return invalid(format!(
            "{groups:?} thread groups: Direct3D 11 allows at most {MAX_GROUPS} along each axis"
        ));
    }
    Ok(())
}

/// Refuses `inputs` too short for `count` vertices of the kernel's inputs.
fn check_vertex_inputs(
    kernel: &dispatch::Kernel,
    inputs: &[[u32; 4]],
    count: u32,
) -> Result<(), RunError> {
    let needed = u64::from(count) * u64::from(kernel.input_regs);
    if (inputs.len() as u64) < needed {
        return invalid(format!(
            "{count} vertices of {} input registers need {needed} registers, {} given",
            kernel.input_regs,
            inputs.len()
        ));
    }
    Ok(())
}

fn invalid<T>(message: String) -> Result<T, RunError> {
    Err(RunError::Invalid(message))
}
