//! Running a vertex shader over arrays of vertices.

use crate::bindings::Bindings;
use crate::bound::Bound;
use crate::checks::{slice, versioned, Versioned};
use crate::dispatch::require_stage;
use crate::enums::Stage;
use crate::guard::{call, Message};
use crate::reflect::shader_ref;
use crate::shader::Shader;
use crate::status::{Failure, Status};
use std::ffi::c_char;

/// Vertices in and out of `dxjit_run_vertices`. Registers are four 32-bit
/// words (floats as their bits); vertex `v`'s register `r` starts at word
/// `(v * registers + r) * 4`, `registers` being the shader's
/// `input_registers` (inputs) or `output_registers` (outputs).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VertexBatch {
    /// `sizeof(dxjit_vertex_batch)`.
    pub struct_size: usize,
    /// Vertices to run.
    pub count: u32,
    /// Input words; may be null when the shader has no input registers.
    pub inputs: *const u32,
    /// Words at `inputs`: at least `count * input_registers * 4`.
    pub input_words: usize,
    /// Where the outputs go; may be null when the shader has no output registers.
    pub outputs: *mut u32,
    /// Words at `outputs`: at least `count * output_registers * 4`.
    pub output_words: usize,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and raw pointers.
unsafe impl Versioned for VertexBatch {
    const NAME: &'static str = "dxjit_vertex_batch";
}

/// Words `count` vertices of `regs` registers take.
fn words(count: u32, regs: u32) -> Option<usize> {
    (count as usize).checked_mul(regs as usize)?.checked_mul(4)
}

/// Runs a vertex shader over `batch->count` vertices, reading inputs and
/// writing outputs as `dxjit_vertex_batch` lays them out. Inputs and
/// outputs may overlap (inputs are read before any output is written).
///
/// # Safety
/// `shader` is null or live; `bindings` is null or valid as
/// `dxjit_bindings` documents; `batch` is null or a readable
/// `dxjit_vertex_batch` whose arrays hold their word counts.
#[no_mangle]
pub unsafe extern "C" fn dxjit_run_vertices(
    shader: *const Shader,
    bindings: *const Bindings,
    batch: *const VertexBatch,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        require_stage(s, Stage::Vertex, "dxjit_run_vertices")?;
        // SAFETY: forwarded contract.
        let b = unsafe { versioned(batch, "batch") }?;
        let (ni, no) = (s.kernel.input_regs, s.kernel.output_regs);
        let too_many = || Failure::new(Status::OutOfRange, "batch: too many vertices");
        let (need_in, need_out) = (
            words(b.count, ni).ok_or_else(too_many)?,
            words(b.count, no).ok_or_else(too_many)?,
        );
        if b.input_words < need_in || b.output_words < need_out {
            return Err(Failure::new(
                Status::InvalidArgument,
                format!(
                    "batch: {} vertices need {need_in} input and {need_out} output words, {} and {} given",
                    b.count, b.input_words, b.output_words
                ),
            ));
        }
        // SAFETY: `inputs` holds `input_words` >= `need_in` words (contract).
        let inputs: Vec<[u32; 4]> = unsafe { slice(b.inputs, need_in, "batch.inputs") }?
            .chunks_exact(4)
            .map(|r| [r[0], r[1], r[2], r[3]])
            .collect();
        if need_out > 0 && (b.outputs.is_null() || !b.outputs.is_aligned()) {
            return Err(Failure::new(
                Status::NullPointer,
                "batch.outputs is null or misaligned",
            ));
        }
        // SAFETY: forwarded contract.
        let bound = unsafe { Bound::new(s, bindings) }?;
        let kernel = s.shader.kernel_for(u64::from(b.count));
        // SAFETY: the caller's contract keeps every bound view valid and
        // untouched for the call; `inputs` holds `count` vertices' registers.
        let out = bound.run(&s.shader, |bindings| unsafe {
            dxjit_runtime::dispatch::run_vertices(&kernel, bindings, &inputs, b.count)
        })?;
        let flat: Vec<u32> = out.iter().flatten().copied().collect();
        if need_out > 0 {
            // SAFETY: `outputs` is non-null, aligned and holds `need_out`
            // writable words (contract); `flat` is a separate allocation of
            // exactly that many words.
            unsafe { std::ptr::copy_nonoverlapping(flat.as_ptr(), b.outputs, need_out) };
        }
        Ok(())
    })
}
