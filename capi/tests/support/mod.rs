//! Helpers the C API tests share: assembling shaders through the API and
//! reading back a call's status and message. Each test binary uses part
//! of it.
#![allow(dead_code)]

use dxjit_capi::bindings::{Bindings, BufferBinding};
use dxjit_capi::compile::dxjit_shader_assemble;
use dxjit_capi::enums::BufferKind;
use dxjit_capi::guard::dxjit_string_free;
use dxjit_capi::shader::Shader;
use dxjit_capi::Status;
use std::ffi::{c_char, CStr, CString};

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
