//! `dxjit_run_pipeline`: what it refuses, with which status, and that a
//! vertex-shader-only draw reaches its stream-output buffer.

mod support;

use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::pipeline::{dxjit_run_pipeline, PipelineDesc, PipelineResult};
use dxjit_capi::stream_output::{SoElement, StreamOutputBuffer, SO_APPEND};
use dxjit_capi::topology::Topology;
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::{null, null_mut};
use support::{assemble, with_message, COMPUTE, PIXEL};

/// A vertex shader copying its input register to an output.
const VS: &str = "vs_4_0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n";

/// A vertex-shader-only point list of `inputs` into `buffer`.
fn desc(
    vs: *const dxjit_capi::shader::Shader,
    inputs: &[u32],
    buffer: &StreamOutputBuffer,
) -> PipelineDesc {
    PipelineDesc {
        struct_size: size_of::<PipelineDesc>(),
        vs,
        vs_bindings: null(),
        hs: null(),
        hs_bindings: null(),
        ds: null(),
        ds_bindings: null(),
        gs: null(),
        gs_bindings: null(),
        topology: Topology::PointList as u32,
        vertex_count: (inputs.len() / 4) as u32,
        indices: null(),
        instance_count: 1,
        inputs: inputs.as_ptr(),
        input_words: inputs.len(),
        stream_outputs: buffer,
        stream_output_count: 1,
    }
}

#[test]
fn points_append_and_bad_descriptions_are_refused() {
    let vs = assemble(VS);
    let ps = assemble(PIXEL);
    // Points x = 1, 2 (floats as bits in word 0 of each vertex's register).
    let inputs = [1f32, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0].map(f32::to_bits);
    let element = SoElement {
        struct_size: size_of::<SoElement>(),
        semantic: c"TEXCOORD".as_ptr(),
        semantic_index: 0,
        start_component: 0,
        component_count: 1,
    };
    let mut words = [0xdead_beefu32; 4];
    let mut buffer = StreamOutputBuffer {
        struct_size: size_of::<StreamOutputBuffer>(),
        slot: 2,
        stream: 0,
        stride: 4,
        elements: &element,
        element_count: 1,
        data: words.as_mut_ptr().cast(),
        size: 16,
        offset: SO_APPEND,
        filled_size: 4,
    };
    let mut result = PipelineResult {
        struct_size: size_of::<PipelineResult>(),
        primitives_written: [0; 4],
        primitives_needed: [0; 4],
        filled_sizes: [0; 4],
    };
    let d = desc(vs, &inputs, &buffer);
    // SAFETY: every pointer in `d` is live for the call; `words` is the
    // buffer's 16 writable bytes.
    let status = unsafe { dxjit_run_pipeline(&d, &mut result, null_mut()) };
    assert_eq!(status, Status::Ok);
    // Appending after the 4 filled bytes: the points land in words 1, 2;
    // the filled size of slot 2 becomes 4 + 2 * 4 = 12.
    assert_eq!(
        words,
        [0xdead_beef, 1f32.to_bits(), 2f32.to_bits(), 0xdead_beef]
    );
    assert_eq!(result.filled_sizes, [0, 0, 12, 0]);
    assert_eq!(
        (result.primitives_written[0], result.primitives_needed[0]),
        (2, 2)
    );

    let refused = |d: &PipelineDesc| {
        // SAFETY: as above; what is wrong in `d` is what is tested.
        with_message(|m| unsafe { dxjit_run_pipeline(d, null_mut(), m) })
    };
    let (status, _) = with_message(|m| {
        // SAFETY: a null description is what is tested.
        unsafe { dxjit_run_pipeline(null(), null_mut(), m) }
    });
    assert_eq!(status, Status::NullPointer);
    // A pixel shader where the vertex shader belongs.
    let (status, message) = refused(&desc(ps, &inputs, &buffer));
    assert_eq!(status, Status::WrongStage, "{message}");
    // A compute shader where the geometry shader belongs.
    let cs = assemble(COMPUTE);
    let (status, message) = refused(&PipelineDesc {
        gs: cs,
        ..desc(vs, &inputs, &buffer)
    });
    assert_eq!(status, Status::WrongStage, "{message}");
    // A hull shader without a domain shader (and a vertex shader as it).
    let lone_hull = PipelineDesc {
        hs: vs,
        ..desc(vs, &inputs, &buffer)
    };
    let (status, message) = refused(&lone_hull);
    assert_eq!(status, Status::WrongStage, "{message}");
    // Fewer input words than the two vertices need.
    let short = PipelineDesc {
        input_words: 4,
        ..desc(vs, &inputs, &buffer)
    };
    let (status, message) = refused(&short);
    assert_eq!(status, Status::InvalidArgument, "{message}");
    // An unknown topology number (6 is not a D3D11 topology).
    let unknown = PipelineDesc {
        topology: 6,
        ..desc(vs, &inputs, &buffer)
    };
    let (status, message) = refused(&unknown);
    assert_eq!(status, Status::InvalidArgument, "{message}");
    // Five components from x.
    buffer.offset = 0;
    let wide = SoElement {
        component_count: 5,
        ..element
    };
    buffer.elements = &wide;
    let (status, message) = refused(&desc(vs, &inputs, &buffer));
    assert!(
        status == Status::InvalidArgument && message.contains("components"),
        "{status:?} {message}"
    );
    // SAFETY: live shaders from `assemble`, freed once.
    unsafe {
        dxjit_shader_free(vs);
        dxjit_shader_free(ps);
        dxjit_shader_free(cs);
    }
}
