//! The safe pipeline API: vs → [gs] → stream output through
//! `dxjit::api::run_pipeline`, and the errors it gives for stages and
//! declarations it cannot run.

use dxjit::api::{
    run_pipeline, DrawInput, PipelineStages, RunError, SoDeclEntry, StageBinding, StreamOutput,
};
use dxjit::{Bindings, CompileOptions, Shader};
use dxjit_runtime::pipeline::Topology;

fn shader(text: &str) -> Shader {
    let bytes = dxjit::text::assemble(text).expect("assembles");
    dxjit::compile(&bytes, &CompileOptions::default()).expect("compiles")
}

const VS: &str = "vs_4_0
dcl_input v0.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v0.xyzw
ret
";

/// Each line becomes the point at its midpoint.
const GS_MIDPOINT: &str = "gs_4_0
dcl_input v[2][0].xyzw
dcl_temps 1
dcl_inputprimitive line
dcl_outputtopology pointlist
dcl_output o0.xyzw
dcl_maxout 1
add r0.xyzw, v[0][0].xyzw, v[1][0].xyzw
mul o0.xyzw, r0.xyzw, l(0.5, 0.5, 0.5, 0.5)
emit
ret
";

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn output(stride: u32, size: usize, element: &str) -> StreamOutput {
    StreamOutput {
        slot: 0,
        stream: 0,
        stride,
        elements: vec![SoDeclEntry::parse(element).unwrap()],
        data: vec![0; size],
    }
}

fn line_strip(xs: &[f32]) -> DrawInput {
    DrawInput {
        topology: Topology::LineStrip,
        vertex_count: xs.len() as u32,
        indices: None,
        instance_count: 1,
        inputs: xs.iter().map(|x| [x.to_bits(), 0, 0, 0]).collect(),
    }
}

#[test]
fn a_line_strip_through_a_geometry_shader_reaches_the_buffer() {
    // The strip 0, 2, 6 is the lines (0, 2) and (2, 6), whose midpoints are
    // 1 and 4; the third slot keeps its zero.
    let (vs, gs) = (shader(VS), shader(GS_MIDPOINT));
    let b = Bindings::new();
    let stages = PipelineStages {
        vs: StageBinding {
            shader: &vs,
            bindings: &b,
        },
        hs: None,
        ds: None,
        gs: Some(StageBinding {
            shader: &gs,
            bindings: &b,
        }),
    };
    let out = run_pipeline(
        &stages,
        &line_strip(&[0.0, 2.0, 6.0]),
        vec![output(4, 12, "TEXCOORD0.x")],
    )
    .unwrap();
    assert_eq!(floats(&out.buffers[0]), [1.0, 4.0, 0.0]);
    assert_eq!((out.counts.written[0], out.counts.needed[0]), (2, 2));
}

#[test]
fn a_lone_hull_stage_and_bad_declarations_are_errors() {
    let vs = shader(VS);
    let b = Bindings::new();
    let vs_only = StageBinding {
        shader: &vs,
        bindings: &b,
    };
    let mut stages = PipelineStages {
        vs: vs_only,
        hs: Some(vs_only),
        ds: None,
        gs: None,
    };
    let draw = line_strip(&[0.0, 1.0]);
    let err = run_pipeline(&stages, &draw, vec![output(16, 64, "TEXCOORD0")]).unwrap_err();
    assert!(
        matches!(&err, RunError::Invalid(m) if m.contains("come together")),
        "{err}"
    );
    stages.hs = None;
    // 16 bytes of TEXCOORD0.xyzw do not fit a stride of 8.
    let err = run_pipeline(&stages, &draw, vec![output(8, 64, "TEXCOORD0.xyzw")]).unwrap_err();
    assert!(err.to_string().contains("more than the stride"), "{err}");
    // A vertex shader where the geometry shader belongs.
    stages.gs = Some(vs_only);
    let err = run_pipeline(&stages, &draw, vec![output(16, 64, "TEXCOORD0")]).unwrap_err();
    assert!(matches!(err, RunError::WrongStage { .. }), "{err}");
}
