//! Helpers the C API tests share: assembling shaders through the API and
//! reading back a call's status and message. Each test binary uses part
//! of it.
#![allow(dead_code)]

use dxjit_capi::bindings::{Bindings, BufferBinding};
use dxjit_capi::compile::{dxjit_shader_assemble, dxjit_shader_free};
use dxjit_capi::draw::{dxjit_draw, DrawDesc, RenderTarget};
use dxjit_capi::enums::{BufferKind, Format};
use dxjit_capi::guard::dxjit_string_free;
use dxjit_capi::quads::Quad;
use dxjit_capi::shader::Shader;
use dxjit_capi::Status;
use std::ffi::{c_char, CStr, CString};
use std::mem::size_of;
use std::ptr::null;

/// A compute shader writing its thread id to a raw UAV.
pub const COMPUTE: &str = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
dcl_thread_group 4, 1, 1\nishl r0.x, vThreadID.x, l(2)\nstore_raw u0.x, r0.x, vThreadID.x\nret\n";

/// A pixel shader writing a constant colour.
pub const PIXEL: &str = "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 0.5, 0.25, 1.0)\nret\n";

/// Assembles and compiles `text`, panicking on failure.
pub fn assemble(text: &str) -> *mut Shader {
    let text = CString::new(text).unwrap();
    let mut shader = std::ptr::null_mut();
    // SAFETY: a NUL-terminated string, null options, a writable out pointer.
    let status = unsafe {
        dxjit_shader_assemble(
            text.as_ptr(),
            std::ptr::null(),
            &mut shader,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(status, Status::Ok);
    shader
}

/// Runs `f` with a message out-parameter; returns its status and message.
pub fn with_message(f: impl FnOnce(*mut *mut c_char) -> Status) -> (Status, String) {
    let mut message: *mut c_char = std::ptr::null_mut();
    let status = f(&mut message);
    let text = if message.is_null() {
        String::new()
    } else {
        // SAFETY: a non-null message is a NUL-terminated string from the library.
        let t = unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: freed once, as the API says.
        unsafe { dxjit_string_free(message) };
        t
    };
    (status, text)
}

/// A raw UAV binding of `data` at `slot`.
pub fn raw_uav(slot: u32, data: &mut [u32]) -> BufferBinding {
    BufferBinding {
        struct_size: size_of::<BufferBinding>(),
        slot,
        kind: BufferKind::Raw as u32,
        data: data.as_mut_ptr().cast(),
        size: std::mem::size_of_val(data),
        stride: 0,
        format: 0,
        width: 0,
        height: 0,
        depth: 0,
        row_pitch: 0,
        slice_pitch: 0,
    }
}

/// Bindings of the current version with nothing bound.
pub fn empty_bindings() -> Bindings {
    Bindings {
        struct_size: size_of::<Bindings>(),
        constant_buffers: std::ptr::null(),
        constant_buffer_count: 0,
        buffers: std::ptr::null(),
        buffer_count: 0,
        textures: std::ptr::null(),
        texture_count: 0,
        uavs: std::ptr::null(),
        uav_count: 0,
        samplers: std::ptr::null(),
        sampler_count: 0,
        interrupt: std::ptr::null(),
        timeout_ms: 0,
        validate: 0,
        uav_counters: std::ptr::null(),
        uav_counter_count: 0,
        class_instances: std::ptr::null(),
        class_instance_count: 0,
    }
}

/// The quad at the origin, every sample covered, front-facing.
pub const FULL_QUAD: Quad = Quad {
    x: 0,
    y: 0,
    coverage: 0b1111,
    front_facing: 1,
};

/// Writes 5 to o0 and 0b1010 to oMask.
pub const MASKED: &str = "ps_5_0\ndcl_output o0.x\ndcl_output oMask\n\
mov o0.x, l(5)\nmov oMask, l(10)\nret\n";

/// Draws `MASKED` over a 2 x 1 rectangle into an r32_uint target of
/// `samples` samples over `words`, with a draw desc of `desc_size` bytes
/// (an older size is a prefix of the desc) and `masked_samples`; returns
/// the status and message.
pub fn draw_masked(
    words: &mut [u32],
    samples: u32,
    desc_size: usize,
    masked_samples: u32,
) -> (Status, String) {
    let shader = assemble(MASKED);
    let target = RenderTarget {
        struct_size: size_of::<RenderTarget>(),
        data: words.as_mut_ptr().cast(),
        size: words.len() * 4,
        width: 2,
        height: 1,
        row_pitch: (words.len() * 4) as u32,
        format: Format::R32Uint as u32,
        output_reg: 0,
        samples,
    };
    let desc = DrawDesc {
        struct_size: desc_size,
        rect: [0, 0, 2, 1],
        pixel_center: 0.5,
        inputs: null(),
        input_count: 0,
        targets: &target,
        target_count: 1,
        masked_samples,
    };
    // SAFETY: a live shader and a target over live memory; an older
    // `struct_size` is a prefix of the desc.
    let result = with_message(|m| unsafe { dxjit_draw(shader, null(), &desc, m) });
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
    result
}
