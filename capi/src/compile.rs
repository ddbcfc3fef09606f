//! Compiling bytecode or assembly text into a `dxjit_shader`, and freeing it.

use crate::checks::{optional, slice, write_out, Versioned};
use crate::guard::{call, call_quietly, Message};
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use std::ffi::{c_char, CStr};

/// How to compile. Pass null for the defaults (checksums verified, the
/// D3D9 legacy multiply as the library defaults it).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CompileOptions {
    /// `sizeof(dxjit_compile_options)`.
    pub struct_size: usize,
    /// Non-zero: reject DXBC containers whose checksum does not match.
    pub verify_checksum: u32,
    /// Non-zero: D3D9 multiplies treat anything times 0 as 0.
    pub legacy_mul: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`, integers only.
unsafe impl Versioned for CompileOptions {
    const NAME: &'static str = "dxjit_compile_options";
}

/// The library's options for `options` (null: the defaults).
fn options(options: Option<&CompileOptions>) -> dxjit::CompileOptions {
    let mut o = dxjit::CompileOptions::default();
    if let Some(given) = options {
        o.verify_checksum = given.verify_checksum != 0;
        o.legacy_mul = given.legacy_mul != 0;
    }
    o
}

/// Compiles `bytes` and stores the new handle in `out`.
fn build(bytes: &[u8], opts: Option<&CompileOptions>, out: *mut *mut Shader) -> Outcome<()> {
    let shader = dxjit::compile(bytes, &options(opts))
        .map_err(|e| Failure::new(Status::Compile, format!("error {}: {e}", e.code())))?;
    let handle = Box::into_raw(Box::new(Shader::new(shader, bytes)));
    // SAFETY: `out` is documented as a writable `dxjit_shader*`.
    unsafe { write_out(out, handle, "out") }.inspect_err(|_| {
        // SAFETY: `handle` came from `Box::into_raw` just above and was not handed out.
        drop(unsafe { Box::from_raw(handle) });
    })
}

/// Compiles shader bytecode: a DXBC container (SM4/SM5) or a D3D9 token
/// stream (SM1-SM3), told apart by the `DXBC` magic.
///
/// `bytes` points to `size` readable bytes. `options` may be null. On
/// success `*out` is a new shader to free with `dxjit_shader_free`.
/// `message` may be null; otherwise `*message` receives an error text to
/// free with `dxjit_string_free`, or null on success.
///
/// # Safety
/// Pointers are null or valid for the sizes documented above.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_compile(
    bytes: *const u8,
    size: usize,
    options: *const CompileOptions,
    out: *mut *mut Shader,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: the caller passes `size` readable bytes at `bytes`.
        let code = unsafe { slice(bytes, size, "bytes") }?;
        if code.is_empty() {
            return Err(Failure::new(Status::NullPointer, "bytes is empty"));
        }
        // SAFETY: `options` is null or a readable `dxjit_compile_options`.
        let opts = unsafe { optional(options, "options") }?;
        build(code, opts, out)
    })
}

/// Assembles shader text (D3D9 `vs_2_0`... or SM4/SM5 `cs_5_0`... syntax,
/// told apart by the version line) and compiles it, as
/// `dxjit_shader_compile` does. `text` is a NUL-terminated UTF-8 string.
///
/// # Safety
/// `text` is null or a NUL-terminated string; other pointers as for
/// `dxjit_shader_compile`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_assemble(
    text: *const c_char,
    options: *const CompileOptions,
    out: *mut *mut Shader,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        if text.is_null() {
            return Err(Failure::new(Status::NullPointer, "text is null"));
        }
        // SAFETY: `text` is non-null and NUL-terminated by the caller's contract.
        let source = unsafe { CStr::from_ptr(text) }
            .to_str()
            .map_err(|e| Failure::new(Status::InvalidArgument, format!("text: {e}")))?;
        // SAFETY: `options` is null or a readable `dxjit_compile_options`.
        let opts = unsafe { optional(options, "options") }?;
        let code = dxjit::text::assemble(source).map_err(|e| Failure::new(Status::Assemble, e))?;
        build(&code, opts, out)
    })
}

/// Frees a shader. Null is ignored.
///
/// # Safety
/// `shader` is null or a shader from this library, not yet freed, that no
/// call is using.
#[no_mangle]
pub unsafe extern "C" fn dxjit_shader_free(shader: *mut Shader) {
    call_quietly(|| {
        if !shader.is_null() {
            // SAFETY: the caller passes a handle made by `Box::into_raw`, freed once.
            drop(unsafe { Box::from_raw(shader) });
        }
    });
}
