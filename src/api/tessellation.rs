//! Running a patch list through a hull shader, the fixed-function
//! tessellator and a domain shader: the vertices and primitives the domain
//! shader produces, ready for a geometry shader or stream output.
//!
//! Hull outputs reach the domain shader by register: output control point
//! register `r` is the domain shader's `vicp[i][r]`, patch constant `r`
//! its `vpc[r]`.

use super::bindings::Bindings;
use super::calls::CallOptions;
use super::error::RunError;
use crate::ir::{FactorSlot, IoReg, Stage, TessInfo};
use crate::shader::Shader;
use dxjit_runtime::dispatch::{
    self, Bindings as RawBindings, DomainDesc, DomainPatch, HullDesc, HullPhaseRun,
};
use dxjit_runtime::tessellator::{
    tessellate, Domain, OutputPrimitive, Partitioning, TessFactors, Tessellation, Topology,
};
use rayon::prelude::*;

/// Control points of a patch list, as the previous stage output them.
#[derive(Debug, Clone, Copy)]
pub struct PatchList<'a> {
    /// `regs_per_point` registers per control point, vertex-major,
    /// `points_per_patch` control points per patch, patch after patch.
    pub control_points: &'a [[u32; 4]],
    /// Registers per control point (1-32).
    pub regs_per_point: u32,
    /// Control points per patch (`patch_list_N`: 1-32); the hull shader's
    /// `dcl_input_control_point_count`.
    pub points_per_patch: u32,
}

/// What a domain shader produced for a patch list: the vertex source of
/// the stages after it.
#[derive(Debug, Clone, PartialEq)]
pub struct DomainOutput {
    /// `regs_per_vertex` output registers per domain point, vertex-major,
    /// patch after patch, each patch's points in the tessellator's order.
    pub vertices: Vec<[u32; 4]>,
    /// Output registers per vertex (the domain shader's).
    pub regs_per_vertex: u32,
    /// How `indices` group into primitives.
    pub topology: Topology,
    /// The hull's output primitive: for triangle lists, the winding the
    /// indices follow in the domain's (u, v) space.
    pub output_primitive: OutputPrimitive,
    /// Indices into `vertices`, `topology.indices_per_primitive()` per primitive.
    pub indices: Vec<u32>,
    /// The patch (SV_PrimitiveID) each primitive came from.
    pub primitive_patches: Vec<u32>,
    /// The domain shader's output registers.
    pub signature: Vec<IoReg>,
}

impl DomainOutput {
    /// Number of primitives.
    pub fn primitive_count(&self) -> usize {
        self.indices.len() / self.topology.indices_per_primitive()
    }
}

/// The hull's tessellator state, checked complete.
struct Fixed {
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    edges: Vec<FactorSlot>,
    inside: Vec<FactorSlot>,
    max: f32,
}

fn invalid<T>(message: String) -> Result<T, RunError> {
    Err(RunError::Invalid(message))
}

/// The hull's tessellation declarations, with every factor the domain needs.
fn fixed(t: &TessInfo) -> Result<Fixed, RunError> {
    let (Some(domain), Some(partitioning), Some(output)) =
        (t.domain, t.partitioning, t.output_primitive)
    else {
        return invalid(
            "the hull shader lacks a dcl_tessellator_domain, _partitioning or _output_primitive"
                .into(),
        );
    };
    let (edges, inside) = match domain {
        Domain::Tri => (3, 1),
        Domain::Quad => (4, 2),
        Domain::Isoline => (2, 0),
    };
    let edges: Option<Vec<FactorSlot>> = t.edge_factors[..edges].iter().copied().collect();
    let inside: Option<Vec<FactorSlot>> = t.inside_factors[..inside].iter().copied().collect();
    match (edges, inside) {
        (Some(edges), Some(inside)) => Ok(Fixed {
            domain,
            partitioning,
            output,
            edges,
            inside,
            max: t.max_tess_factor,
        }),
        _ => invalid(format!(
            "the hull shader does not declare every SV_TessFactor and SV_InsideTessFactor of a {domain:?} domain"
        )),
    }
}

/// Tessellates one patch from its patch constants.
fn tessellate_patch(f: &Fixed, constants: &[[u32; 4]]) -> Tessellation {
    let read = |s: &FactorSlot| {
        constants
            .get(s.reg as usize)
            .map_or(0.0, |r| f32::from_bits(r[usize::from(s.component & 3)]))
    };
    let e: Vec<f32> = f.edges.iter().map(read).collect();
    let i: Vec<f32> = f.inside.iter().map(read).collect();
    let factors = match f.domain {
        Domain::Tri => TessFactors::tri([e[0], e[1], e[2]], i[0]),
        Domain::Quad => TessFactors::quad([e[0], e[1], e[2], e[3]], [i[0], i[1]]),
        Domain::Isoline => TessFactors::isoline(e[0], e[1]),
    };
    tessellate(
        f.domain,
        f.partitioning,
        f.output,
        &factors.with_max_tess_factor(f.max),
    )
}

impl Shader {
    /// Runs `patches` through this hull shader, the tessellator and
    /// `domain`, on every core. A patch whose factors cull it (≤ 0 or NaN)
    /// produces nothing.
    pub fn run_patches(
        &self,
        bindings: &Bindings<'_>,
        domain: &Shader,
        domain_bindings: &Bindings<'_>,
        patches: &PatchList<'_>,
    ) -> Result<DomainOutput, RunError> {
        self.run_patches_with(
            bindings,
            domain,
            domain_bindings,
            patches,
            &CallOptions::default(),
        )
    }

    /// [`Shader::run_patches`] with a deadline (for each shader stage) or
    /// validation.
    pub fn run_patches_with(
        &self,
        bindings: &Bindings<'_>,
        domain: &Shader,
        domain_bindings: &Bindings<'_>,
        patches: &PatchList<'_>,
        options: &CallOptions,
    ) -> Result<DomainOutput, RunError> {
        self.guarded(bindings, options, |hull_raw| {
            domain.guarded(domain_bindings, options, |domain_raw| {
                // SAFETY: the views in both raw bindings come from
                // `Bindings`, which hold their borrows for the call, or
                // from defined constants alive until `guarded` returns.
                unsafe { self.run_patches_raw(hull_raw, domain, domain_raw, patches) }
            })
        })??
    }

    /// [`Shader::run_patches`] over the runtime's bindings (with D3D9
    /// definitions, validation and deadlines left to the caller).
    ///
    /// # Safety
    /// Every view of both bindings is as [`dispatch::run_hull`] and
    /// [`dispatch::run_domain`] require for the whole call.
    pub unsafe fn run_patches_raw(
        &self,
        bindings: &RawBindings,
        domain: &Shader,
        domain_bindings: &RawBindings,
        patches: &PatchList<'_>,
    ) -> Result<DomainOutput, RunError> {
        self.require(Stage::Hull, "run_patches")?;
        domain.require(Stage::Domain, "run_patches (domain)")?;
        let (Some(hull_info), Some(ds_info)) = (&self.program().tess, &domain.program().tess)
        else {
            return invalid("the shaders carry no tessellation declarations".into());
        };
        let f = fixed(hull_info)?;
        if ds_info.domain != Some(f.domain) {
            return invalid(format!(
                "the domain shader's domain {:?} is not the hull shader's {:?}",
                ds_info.domain, f.domain
            ));
        }
        let (ppp, regs) = (patches.points_per_patch, patches.regs_per_point);
        if ppp != hull_info.input_control_points {
            return invalid(format!(
                "{ppp} control points per patch; the hull shader takes {}",
                hull_info.input_control_points
            ));
        }
        if !(1..=32).contains(&regs) {
            return invalid(format!("{regs} registers per control point (1-32 allowed)"));
        }
        let per_patch = (ppp * regs) as usize;
        if !patches.control_points.len().is_multiple_of(per_patch) {
            return invalid(format!(
                "{} registers are not whole patches of {per_patch}",
                patches.control_points.len()
            ));
        }
        let count = u32::try_from(patches.control_points.len() / per_patch)
            .map_err(|_| RunError::Invalid("too many patches".into()))?;
        let cp_phase = hull_info.has_control_point_phase();
        let (out_points, out_regs) = if cp_phase {
            (
                hull_info.output_control_points,
                hull_info.control_point_regs,
            )
        } else {
            (ppp, regs)
        };
        if ds_info.input_control_points != out_points {
            return invalid(format!(
                "the domain shader takes {} control points; the hull shader outputs {out_points}",
                ds_info.input_control_points
            ));
        }
        let desc = HullDesc {
            input_points: ppp,
            input_regs: regs,
            output_points: out_points,
            output_regs: out_regs,
            patch_constant_regs: hull_info.patch_constant_regs,
            phases: hull_info
                .phases
                .iter()
                .map(|p| HullPhaseRun {
                    kind: p.kind,
                    instances: p.instances,
                })
                .collect(),
        };
        let hull_kernel = self.kernel();
        // SAFETY: `hull_kernel` is this shader's code, alive while `self` is
        // borrowed, lowered from the program whose phases `desc` lists; its
        // output registers cover the control-point and patch-constant
        // registers the program declares (`desc` takes them from it); the
        // views are as this function's contract says.
        let hull_out = unsafe {
            dispatch::run_hull(&hull_kernel, bindings, &desc, patches.control_points, count)
        };
        // A stopped hull call (an abort, an interrupt) leaves the patches
        // after the stop without outputs: nothing after it runs.
        if let Some(stop) = super::stop_reason(&bindings.interrupt, self) {
            return Err(stop);
        }
        let pc_regs = hull_info.patch_constant_regs as usize;
        let cp_per_patch = (out_points * out_regs) as usize;
        let tessellations: Vec<Tessellation> = (0..count as usize)
            .into_par_iter()
            .map(|p| {
                tessellate_patch(
                    &f,
                    &hull_out.patch_constants[p * pc_regs..(p + 1) * pc_regs],
                )
            })
            .collect();
        let jobs: Vec<DomainPatch<'_>> = tessellations
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .map(|(p, t)| DomainPatch {
                id: p as u32,
                control_points: &hull_out.control_points[p * cp_per_patch..(p + 1) * cp_per_patch],
                patch_constants: &hull_out.patch_constants[p * pc_regs..(p + 1) * pc_regs],
                domain: &t.points,
            })
            .collect();
        let ds_desc = DomainDesc {
            points: out_points,
            point_regs: out_regs,
            patch_constant_regs: hull_info.patch_constant_regs,
            tri: f.domain == Domain::Tri,
        };
        let ds_kernel = domain.kernel();
        // SAFETY: as for the hull: `ds_kernel` is `domain`'s code, alive
        // while it is borrowed, and the views are as the contract says.
        let outputs = unsafe { dispatch::run_domain(&ds_kernel, domain_bindings, &ds_desc, &jobs) };
        let topology = match (f.domain, f.output) {
            (_, OutputPrimitive::Point) => Topology::PointList,
            (Domain::Isoline, _) | (_, OutputPrimitive::Line) => Topology::LineList,
            _ => Topology::TriangleList,
        };
        let mut out = DomainOutput {
            vertices: Vec::new(),
            regs_per_vertex: ds_kernel.output_regs,
            topology,
            output_primitive: f.output,
            indices: Vec::new(),
            primitive_patches: Vec::new(),
            signature: domain.program().outputs.clone(),
        };
        let per_primitive = topology.indices_per_primitive();
        for ((job, t), vertices) in jobs
            .iter()
            .zip(tessellations.iter().filter(|t| !t.is_empty()))
            .zip(outputs)
        {
            let base = u32::try_from(out.vertices.len() / ds_kernel.output_regs.max(1) as usize)
                .map_err(|_| RunError::Invalid("more than 2^32 domain points".into()))?;
            out.indices.extend(t.indices.iter().map(|i| i + base));
            out.primitive_patches
                .extend(std::iter::repeat_n(job.id, t.indices.len() / per_primitive));
            out.vertices.extend(vertices);
        }
        Ok(out)
    }
}
