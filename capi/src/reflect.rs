//! Reflection: what a compiled shader declares.

use crate::checks::{in_range, write_versioned, Versioned};
use crate::enums::{Dimension, Family, ResourceKind, ResourceSpace, Stage};
use crate::guard::{call, Message};
use crate::shader::{Element, Shader};
use crate::status::{Failure, Outcome, Status};
use std::ffi::c_char;

/// A shader's overall description.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ShaderInfo {
    /// `sizeof(dxjit_shader_info)`, set by the caller.
    pub struct_size: usize,
    /// The stage.
    pub stage: Stage,
    /// The bytecode family.
    pub family: Family,
    /// Shader model major version (`5` for `cs_5_0`, `2` for `vs_2_0`).
    pub model_major: u32,
    /// Shader model minor version.
    pub model_minor: u32,
    /// Compute thread-group size (x, y, z); 1 1 1 otherwise.
    pub thread_group: [u32; 3],
    /// Declared inputs (`dxjit_shader_get_input` indices).
    pub input_count: u32,
    /// Declared outputs (`dxjit_shader_get_output` indices).
    pub output_count: u32,
    /// Declared resources (`dxjit_shader_get_resource` indices).
    pub resource_count: u32,
    /// Registers per vertex in `dxjit_run_vertices` inputs (input registers
    /// 0 .. this).
    pub input_registers: u32,
    /// Registers per vertex in `dxjit_run_vertices` outputs.
    pub output_registers: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; only written by the library.
unsafe impl Versioned for ShaderInfo {
    const NAME: &'static str = "dxjit_shader_info";
}

/// A declared input or output register.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SignatureElement {
    /// `sizeof(dxjit_signature_element)`, set by the caller.
    pub struct_size: usize,
    /// The register number (the `reg` of draw inputs and render targets).
    pub reg: u32,
    /// Components declared: bit 0 x, bit 1 y, bit 2 z, bit 3 w.
    pub mask: u32,
    /// Semantic index.
    pub semantic_index: u32,
    /// Semantic name in upper case (`TEXCOORD`, `SV_TARGET`), empty when
    /// unknown; NUL-terminated, owned by the shader and valid until it is freed.
    pub semantic_name: *const c_char,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; only written by the library.
unsafe impl Versioned for SignatureElement {
    const NAME: &'static str = "dxjit_signature_element";
}

/// A declared resource.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ResourceInfo {
    /// `sizeof(dxjit_resource_info)`, set by the caller.
    pub struct_size: usize,
    /// Which slots it is bound in.
    pub space: ResourceSpace,
    /// Its slot.
    pub slot: u32,
    /// How it is viewed.
    pub kind: ResourceKind,
    /// Structure stride in bytes (structured), declared 16-byte rows
    /// (constant buffers), otherwise 0.
    pub stride: u32,
    /// Dimension of typed views; `DXJIT_DIMENSION_NONE` otherwise.
    pub dimension: Dimension,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; only written by the library.
unsafe impl Versioned for ResourceInfo {
    const NAME: &'static str = "dxjit_resource_info";
}

/// The shader behind a handle.
///
/// # Safety
/// `shader` is null or a live shader from this library.
pub(crate) unsafe fn shader_ref<'a>(shader: *const Shader) -> Outcome<&'a Shader> {
    if shader.is_null() || !shader.is_aligned() {
        return Err(Failure::new(
            Status::NullPointer,
            "shader is null or misaligned",
        ));
    }
    // SAFETY: a non-null, aligned handle is a live `Shader` by the caller's contract.
    Ok(unsafe { &*shader })
}

/// Describes a shader: stage, shader model, thread-group size, counts.
/// `out->struct_size` must be set.
///
/// # Safety
/// `shader` is null or live; `out` is null or a writable `dxjit_shader_info`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_get_info(
    shader: *const Shader,
    out: *mut ShaderInfo,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let info = ShaderInfo {
            struct_size: std::mem::size_of::<ShaderInfo>(),
            stage: s.stage(),
            family: s.family(),
            model_major: s.model[0],
            model_minor: s.model[1],
            thread_group: s.kernel.thread_group.map(|d| d.max(1)),
            input_count: count(s.inputs.len()),
            output_count: count(s.outputs.len()),
            resource_count: count(s.resources.len()),
            input_registers: s.kernel.input_regs,
            output_registers: s.kernel.output_regs,
        };
        // SAFETY: `out` is null or a writable struct of its `struct_size`.
        unsafe { write_versioned(out, info, "out") }
    })
}

/// Writes element `index` of `list` to `out`.
///
/// # Safety
/// `out` is null or a writable `dxjit_signature_element`.
unsafe fn write_element(
    list: &[Element],
    index: u32,
    out: *mut SignatureElement,
    what: &str,
) -> Outcome<()> {
    let e = &list[in_range(index, list.len(), what)?];
    let element = SignatureElement {
        struct_size: std::mem::size_of::<SignatureElement>(),
        reg: e.reg,
        mask: e.mask,
        semantic_index: e.semantic_index,
        semantic_name: e.semantic.as_ptr(),
    };
    // SAFETY: forwarded contract.
    unsafe { write_versioned(out, element, "out") }
}

/// Describes declared input `index` (0 .. `input_count`).
///
/// # Safety
/// `shader` is null or live; `out` is null or a writable `dxjit_signature_element`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_get_input(
    shader: *const Shader,
    index: u32,
    out: *mut SignatureElement,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contracts.
        unsafe { write_element(&shader_ref(shader)?.inputs, index, out, "input") }
    })
}

/// Describes declared output `index` (0 .. `output_count`).
///
/// # Safety
/// `shader` is null or live; `out` is null or a writable `dxjit_signature_element`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_get_output(
    shader: *const Shader,
    index: u32,
    out: *mut SignatureElement,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contracts.
        unsafe { write_element(&shader_ref(shader)?.outputs, index, out, "output") }
    })
}

/// Describes declared resource `index` (0 .. `resource_count`): constant
/// buffers first, then SRVs, then UAVs.
///
/// # Safety
/// `shader` is null or live; `out` is null or a writable `dxjit_resource_info`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_get_resource(
    shader: *const Shader,
    index: u32,
    out: *mut ResourceInfo,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        let r = s.resources[in_range(index, s.resources.len(), "resource")?];
        let info = ResourceInfo {
            struct_size: std::mem::size_of::<ResourceInfo>(),
            space: r.space,
            slot: r.slot,
            kind: r.kind,
            stride: r.stride,
            dimension: r.dimension,
        };
        // SAFETY: `out` is null or a writable struct of its `struct_size`.
        unsafe { write_versioned(out, info, "out") }
    })
}
