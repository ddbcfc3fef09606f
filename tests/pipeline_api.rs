//! The safe pipeline API: vs → [gs] → stream output through
//! `dxjit::api::run_pipeline`, and the errors it gives for stages and
//! declarations it cannot run.

use dxjit::api::{
    run_pipeline, DrawInput, PipelineStages, RunError, SoDeclEntry, SoOffset, StageBinding,
    StreamOutput,
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
    StreamOutput::new(
        0,
        0,
        stride,
        vec![SoDeclEntry::parse(element).unwrap()],
        vec![0; size],
    )
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

#[test]
fn later_draws_append_and_offsets_rebind() {
    // Vertex-shader-only line lists: each line's two x values reach the
    // 4-byte vertices of a 24-byte buffer (six vertices).
    let vs = shader(VS);
    let b = Bindings::new();
    let stages = PipelineStages {
        vs: StageBinding {
            shader: &vs,
            bindings: &b,
        },
        hs: None,
        ds: None,
        gs: None,
    };
    let lines = |xs: &[f32]| DrawInput {
        topology: Topology::LineList,
        ..line_strip(xs)
    };
    // First draw, bound at byte 4: the line (1, 2) fills bytes 4..12.
    let mut first = output(4, 24, "TEXCOORD0.x");
    first.offset = SoOffset::At(4);
    let outputs = vec![first];
    let out = run_pipeline(&stages, &lines(&[1.0, 2.0]), outputs.clone()).unwrap();
    assert_eq!(floats(&out.buffers[0]), [0.0, 1.0, 2.0, 0.0, 0.0, 0.0]);
    assert_eq!(out.filled_sizes, [12]);
    // Still bound (offset -1): the line (3, 4) goes after it, to 20.
    let resumed = out.resume(&outputs);
    assert_eq!(
        (resumed[0].offset, resumed[0].filled_size),
        (SoOffset::Append, 12)
    );
    let out = run_pipeline(&stages, &lines(&[3.0, 4.0]), resumed.clone()).unwrap();
    assert_eq!(floats(&out.buffers[0]), [0.0, 1.0, 2.0, 3.0, 4.0, 0.0]);
    assert_eq!(out.filled_sizes, [20]);
    // A third line needs bytes 20..28 of 24: not written, still needed;
    // the filled size stays 20.
    let again = out.resume(&resumed);
    let out = run_pipeline(&stages, &lines(&[5.0, 6.0]), again.clone()).unwrap();
    assert_eq!((out.counts.written[0], out.counts.needed[0]), (0, 1));
    assert_eq!(out.filled_sizes, [20]);
    // Rebound at byte 0 (SOSetTargets with offset 0): overwrites from 0.
    let mut rebound = out.resume(&again);
    rebound[0].offset = SoOffset::At(0);
    let out = run_pipeline(&stages, &lines(&[7.0, 8.0]), rebound).unwrap();
    assert_eq!(floats(&out.buffers[0]), [7.0, 8.0, 2.0, 3.0, 4.0, 0.0]);
    assert_eq!(out.filled_sizes, [8]);
}
