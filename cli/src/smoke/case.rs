//! The case that runs a shader once with bindings made from its own
//! declarations: one thread group for compute, 64 vertices for a vertex
//! shader, a 16×16 draw for a pixel shader, and for a geometry, hull or
//! domain shader a pipeline draw of 64 vertices' worth of its input
//! primitives or patches, through the stages [`super::feed`] makes for it.

use std::path::Path;

use super::io::{self, VERTICES};
use super::reflect::Declared;
use super::resources::{self, TEXTURE_SIZE};
use crate::case::{Action, Case, DrawDesc, ShaderCode, StageDesc};
use dxjit::ir::{Program, Stage};
use dxjit::shader::Family;

/// A stage of `bytes` with nothing bound and no inputs.
pub(super) fn bare_stage(bytes: Vec<u8>) -> StageDesc {
    StageDesc {
        code: ShaderCode::Bytes(bytes),
        cbs: Vec::new(),
        c: Default::default(),
        i: Default::default(),
        b: Default::default(),
        srvs: Vec::new(),
        samplers: Vec::new(),
        inputs: Vec::new(),
        class_instances: Vec::new(),
    }
}

/// The stage table of a shader: code, constants, views, samplers, inputs.
fn stage_desc(
    bytes: Vec<u8>,
    program: &Program,
    family: Family,
    declared: &Declared,
) -> Result<StageDesc, String> {
    let d3d9 = family == Family::D3d9;
    let mut desc = bare_stage(bytes);
    for cb in &program.cbs {
        match (d3d9, cb.slot) {
            (false, _) => desc.cbs.push(resources::constant_buffer(cb)),
            (true, 0) => desc.c = resources::float_constants(cb.rows),
            (true, 1) => desc.i = resources::int_constants(cb.rows),
            (true, 2) => desc.b = resources::bool_constants(cb.rows),
            (true, _) => {}
        }
    }
    for srv in &program.srvs {
        let ty = declared
            .srv_types
            .get(&srv.slot)
            .copied()
            .unwrap_or_default();
        desc.srvs.push(resources::srv(srv, ty, d3d9)?);
    }
    desc.samplers = declared
        .samplers
        .iter()
        .map(|(slot, comparison)| resources::sampler(*slot, *comparison))
        .collect();
    if program.stage == Stage::Vertex {
        desc.inputs = io::vertex_inputs(&program.inputs, &declared.input_types);
    }
    Ok(desc)
}

/// The case that runs `bytes` (which lowered to `program`) once, named after
/// `path`. It has no expectations: running without an error is the test.
pub fn smoke_case(
    path: &Path,
    bytes: Vec<u8>,
    program: &Program,
    family: Family,
    declared: &Declared,
) -> Result<Case, String> {
    let stage = stage_desc(bytes, program, family, declared)?;
    let uavs = program
        .uavs
        .iter()
        .map(|u| {
            let ty = declared.uav_types.get(&u.slot).copied().unwrap_or_default();
            resources::uav(u, ty)
        })
        .collect();
    let mut case = Case {
        name: path.display().to_string(),
        source: None,
        path: path.to_path_buf(),
        cs: None,
        vs: None,
        ps: None,
        gs: None,
        hs: None,
        ds: None,
        stream_outputs: Vec::new(),
        uavs,
        action: Action::None,
        expects: Vec::new(),
    };
    match program.stage {
        Stage::Hull | Stage::Domain => {
            let (vs, other, action) = super::feed::tessellation(program, declared)?;
            let (hs, ds) = match program.stage {
                Stage::Hull => (stage, other),
                _ => (other, stage),
            };
            case.vs = Some(vs);
            case.hs = Some(hs);
            case.ds = Some(ds);
            case.action = action;
        }
        Stage::Compute => {
            case.cs = Some(stage);
            case.action = Action::Dispatch { groups: [1, 1, 1] };
        }
        Stage::Vertex => {
            case.vs = Some(stage);
            case.action = Action::Vertices { count: VERTICES };
        }
        Stage::Geometry => {
            let (vs, action) = super::feed::geometry(program, declared)?;
            case.vs = Some(vs);
            case.gs = Some(stage);
            case.action = action;
        }
        Stage::Pixel => {
            case.ps = Some(stage);
            case.action = Action::Draw(DrawDesc {
                targets: io::targets(
                    &program.outputs,
                    &declared.output_types,
                    program.depth_output,
                ),
                clear: [0; 4],
                rect: Some([0, 0, TEXTURE_SIZE, TEXTURE_SIZE]),
                pixel_center: None,
                inputs: io::pixel_inputs(&program.inputs, &declared.input_types),
                sample_mask: u32::MAX,
            });
        }
    }
    Ok(case)
}
