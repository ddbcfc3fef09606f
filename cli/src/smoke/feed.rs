//! The stages smoke makes to run a shader that cannot run alone: a vertex
//! shader feeding a geometry shader's inputs or a domain shader's control
//! points (each register passed through from patterned per-vertex values,
//! linked by register as the pipeline links stages), for a domain shader
//! a hull shader ([`hull_text`]), and for a hull shader a domain shader
//! ([`domain_text`]). Each draws as many primitives or
//! patches as fit in the vertices a vertex shader runs on; the last
//! stage's output goes nowhere: running is the test.

use std::fmt::Write;

use super::io::{self, VERTICES};
use super::reflect::Declared;
use crate::case::{Action, PipelineDesc, StageDesc};
use dxjit::ir::{FactorSlot, Program, Stage, TessInfo};
use dxjit::shader::{lower, CompileOptions};
use dxjit::sm4::names::{
    SystemValue, TessellatorDomain, TessellatorOutputPrimitive, TessellatorPartitioning,
};
use dxjit_runtime::pipeline::{GsInput, Topology};
use dxjit_runtime::tessellator::Domain;

/// The tessellation factor every made hull shader writes.
const FACTOR: &str = "2.000000";

/// The text of a vertex shader that writes output registers `regs`
/// (ascending) from the same registers of its own inputs.
pub fn feeding_text(regs: &[u32]) -> String {
    let mut text = String::from("vs_4_0\n");
    for r in regs {
        let _ = writeln!(text, "dcl_input v{r}.xyzw\ndcl_output o{r}.xyzw");
    }
    for r in regs {
        let _ = writeln!(text, "mov o{r}.xyzw, v{r}.xyzw");
    }
    text.push_str("ret\n");
    text
}

/// `text` assembled into a stage without bindings, with patterned
/// per-vertex values for its inputs (typed as `declared` types the
/// registers of the stage it feeds), and its program.
fn made_stage(text: &str, declared: &Declared) -> Result<(StageDesc, Program), String> {
    let made = |e: String| format!("the stage smoke made to run it: {e}");
    let bytes = dxjit::text::assemble(text).map_err(|e| made(e.to_string()))?;
    let (_, program) =
        lower(&bytes, &CompileOptions::default()).map_err(|e| made(e.to_string()))?;
    let stage = StageDesc {
        inputs: io::vertex_inputs(&program.inputs, &declared.input_types),
        ..super::case::bare_stage(bytes)
    };
    Ok((stage, program))
}

/// A pipeline draw of `topology` over as many whole primitives of
/// `per_primitive` vertices as fit in [`VERTICES`].
fn draw(topology: Topology, per_primitive: u32) -> Action {
    Action::Pipeline(PipelineDesc {
        topology,
        vertex_count: VERTICES / per_primitive * per_primitive,
        indices: None,
        instance_count: 1,
        redraws: Vec::new(),
    })
}

/// The vertex stage that feeds geometry shader `gs` (whose declared
/// signature types are `declared`'s) and the draw that runs it.
pub fn geometry(gs: &Program, declared: &Declared) -> Result<(StageDesc, Action), String> {
    let info = gs
        .geometry
        .as_ref()
        .ok_or("a geometry shader without its declarations")?;
    let mut regs: Vec<u32> = gs.inputs.iter().map(|r| r.reg).collect();
    regs.sort_unstable();
    regs.dedup();
    let (vs, _) = made_stage(&feeding_text(&regs), declared)?;
    let topology = match info.input {
        GsInput::Point => Topology::PointList,
        GsInput::Line => Topology::LineList,
        GsInput::Triangle => Topology::TriangleList,
        GsInput::LineAdj => Topology::LineListAdj,
        GsInput::TriangleAdj => Topology::TriangleListAdj,
    };
    Ok((vs, draw(topology, info.input.vertices() as u32)))
}

/// A domain's edge and inside factors, in the order of
/// `TessInfo::edge_factors` and `inside_factors`.
fn factors_of(domain: Domain) -> (&'static [SystemValue], &'static [SystemValue]) {
    use SystemValue as S;
    match domain {
        Domain::Tri => (
            &[
                S::FinalTriUEq0EdgeTessFactor,
                S::FinalTriVEq0EdgeTessFactor,
                S::FinalTriWEq0EdgeTessFactor,
            ],
            &[S::FinalTriInsideTessFactor],
        ),
        Domain::Quad => (
            &[
                S::FinalQuadUEq0EdgeTessFactor,
                S::FinalQuadVEq0EdgeTessFactor,
                S::FinalQuadUEq1EdgeTessFactor,
                S::FinalQuadVEq1EdgeTessFactor,
            ],
            &[S::FinalQuadUInsideTessFactor, S::FinalQuadVInsideTessFactor],
        ),
        Domain::Isoline => (
            &[S::FinalLineDensityTessFactor, S::FinalLineDetailTessFactor],
            &[],
        ),
    }
}

/// The `dcl_tessellator_domain` name of `domain`.
fn domain_name(domain: Domain) -> &'static str {
    match domain {
        Domain::Tri => TessellatorDomain::Triangle,
        Domain::Quad => TessellatorDomain::Quad,
        Domain::Isoline => TessellatorDomain::Isoline,
    }
    .name()
}

/// The text of a hull shader for domain shader `ds`: its domain and
/// control-point count, integer partitioning, control points passed
/// through (no control-point phase), and one fork phase writing every
/// factor ([`FACTOR`]; where `ds` declares a factor, in its register,
/// else in a register past its patch constants) and each other patch
/// constant register `ds` reads (patterned values).
pub fn hull_text(ds: &Program) -> Result<String, String> {
    let t = tess(ds, "domain")?;
    let domain = t
        .domain
        .ok_or("a domain shader without dcl_tessellator_domain")?;
    let output = match domain {
        Domain::Isoline => TessellatorOutputPrimitive::Line,
        Domain::Tri | Domain::Quad => TessellatorOutputPrimitive::TriangleCw,
    };
    let n = t.input_control_points;
    let mut text = format!(
        "hs_5_0\nhs_decls\ndcl_input_control_point_count {n}\n\
         dcl_output_control_point_count {n}\ndcl_tessellator_domain {}\n\
         dcl_tessellator_partitioning {}\n\
         dcl_tessellator_output_primitive {}\nhs_fork_phase\n",
        domain_name(domain),
        TessellatorPartitioning::Integer.name(),
        output.name()
    );
    let (edges, insides) = factors_of(domain);
    let declared = t
        .edge_factors
        .iter()
        .zip(edges)
        .chain(t.inside_factors.iter().zip(insides));
    let mut past = t.patch_constant_regs;
    let factors: Vec<(FactorSlot, &str)> = declared
        .map(|(slot, factor)| {
            let slot = slot.unwrap_or_else(|| {
                past += 1;
                FactorSlot {
                    reg: past - 1,
                    component: 0,
                }
            });
            (slot, factor.name())
        })
        .collect();
    let holds_factor = |r: u32| factors.iter().any(|(s, _)| s.reg == r);
    let constants: Vec<u32> = (0..t.patch_constant_regs)
        .filter(|&r| !holds_factor(r))
        .collect();
    let xyzw = ["x", "y", "z", "w"];
    for (s, name) in &factors {
        let c = xyzw[usize::from(s.component & 3)];
        let _ = writeln!(text, "dcl_output_siv o{}.{c}, {name}", s.reg);
    }
    for r in &constants {
        let _ = writeln!(text, "dcl_output o{r}.xyzw");
    }
    for (s, _) in &factors {
        let c = xyzw[usize::from(s.component & 3)];
        let _ = writeln!(text, "mov o{}.{c}, l({FACTOR})", s.reg);
    }
    for r in &constants {
        let _ = writeln!(
            text,
            "mov o{r}.xyzw, l({r}.250000, 0.500000, 0.750000, 1.000000)"
        );
    }
    text.push_str("ret\n");
    Ok(text)
}

/// The text of a domain shader for hull shader `hs`: its domain and
/// output control-point count, writing each point's domain location.
pub fn domain_text(hs: &Program) -> Result<String, String> {
    let t = tess(hs, "hull")?;
    let domain = t
        .domain
        .map(domain_name)
        .ok_or("a hull shader without dcl_tessellator_domain")?;
    let points = t.output_control_points.max(1);
    Ok(format!(
        "ds_5_0\ndcl_input_control_point_count {points}\ndcl_tessellator_domain {domain}\n\
         dcl_input vDomain.xy\ndcl_output o0.xyzw\nmov o0.xyzw, vDomain.xyxy\nret\n"
    ))
}

/// The tessellation declarations of `program`, a `stage` shader.
fn tess<'a>(program: &'a Program, stage: &str) -> Result<&'a TessInfo, String> {
    program
        .tess
        .as_ref()
        .ok_or_else(|| format!("a {stage} shader without its declarations"))
}

/// A draw of patch lists of `t`'s input control points (1 to 32).
fn patch_list(t: &TessInfo) -> Result<Action, String> {
    let n = u8::try_from(t.input_control_points)
        .ok()
        .filter(|n| (1..=32).contains(n))
        .ok_or("1 to 32 input control points are needed")?;
    Ok(draw(Topology::PatchList(n), u32::from(n)))
}

/// For hull or domain shader `program` (whose declared signature types
/// are `declared`'s): the vertex stage that feeds the control points, the
/// other tessellation stage (a domain shader after a hull shader, a hull
/// shader before a domain shader), and the draw of patches that runs them.
pub fn tessellation(
    program: &Program,
    declared: &Declared,
) -> Result<(StageDesc, StageDesc, Action), String> {
    let hull = program.stage == Stage::Hull;
    let t = tess(program, if hull { "hull" } else { "domain" })?;
    let action = patch_list(t)?;
    // A control point carries one register at least, read or not.
    let regs: Vec<u32> = (0..t.input_regs.max(1)).collect();
    let (vs, _) = made_stage(&feeding_text(&regs), declared)?;
    let other = if hull {
        domain_text(program)?
    } else {
        hull_text(program)?
    };
    let (other, _) = made_stage(&other, declared)?;
    Ok((vs, other, action))
}
