//! Stream-output buffers in the caller's memory and their declarations.

use crate::checks::{invalid, versioned_slice, Versioned};
use crate::status::{Failure, Outcome, Status};
use dxjit::api::{SoDeclEntry, SoOffset, StreamOutput};
use std::ffi::{c_char, c_void, CStr};

/// One entry of a stream-output declaration: components of an output of
/// the last stage before stream output, written packed after the entry
/// before it (`D3D11_SO_DECLARATION_ENTRY`, its stream and slot given by
/// the buffer).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SoElement {
    /// `sizeof(dxjit_so_element)`.
    pub struct_size: usize,
    /// The output's semantic name (any case), or null for a gap of
    /// `component_count` words that the draw leaves as they are.
    pub semantic: *const c_char,
    /// The output's semantic index.
    pub semantic_index: u32,
    /// The first component written (0 = x).
    pub start_component: u32,
    /// Components written, 1 to 4, with `start_component + component_count
    /// <= 4`; for a gap, words skipped (1 to 64; `start_component` unused).
    pub component_count: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and a raw pointer.
unsafe impl Versioned for SoElement {
    const NAME: &'static str = "dxjit_so_element";
}

/// `dxjit_stream_output_buffer.offset` meaning D3D11's -1: append after
/// the buffer's `filled_size`.
pub const SO_APPEND: u32 = u32::MAX;

/// A stream-output buffer: where it is bound, the stream that feeds it,
/// what each vertex holds, and its memory. Vertices are written from
/// `offset`, `stride` bytes apart; bytes no element covers keep their values.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct StreamOutputBuffer {
    /// `sizeof(dxjit_stream_output_buffer)`.
    pub struct_size: usize,
    /// The slot, 0 to 3, each at most once.
    pub slot: u32,
    /// The geometry-shader stream feeding it, 0 to 3 (0 without a geometry shader).
    pub stream: u32,
    /// Bytes from one vertex to the next: a multiple of 4, at most 2048,
    /// and at least the elements' bytes.
    pub stride: u32,
    /// The declaration, in order; may be null when `element_count` is 0.
    pub elements: *const SoElement,
    /// Entries in `elements`.
    pub element_count: usize,
    /// The buffer; may be null only when `size` is 0. Buffers must not overlap.
    pub data: *mut c_void,
    /// Bytes at `data`. A primitive that does not fit is not written, and
    /// neither is anything after it on its stream.
    pub size: usize,
    /// Where the draw's first vertex goes (`SOSetTargets`' offset): a byte
    /// offset, or `DXJIT_SO_APPEND` to continue at `filled_size`.
    pub offset: u32,
    /// The buffer's filled size from earlier draws (the byte after the last
    /// vertex they wrote; `dxjit_pipeline_result.filled_sizes` reports it),
    /// read only when `offset` is `DXJIT_SO_APPEND`.
    pub filled_size: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and raw pointers.
unsafe impl Versioned for StreamOutputBuffer {
    const NAME: &'static str = "dxjit_stream_output_buffer";
}

/// The library's declaration entry for `e`.
///
/// # Safety
/// `e.semantic` is null or a NUL-terminated string.
unsafe fn entry(e: &SoElement, what: &str) -> Outcome<SoDeclEntry> {
    let count = e.component_count;
    if e.semantic.is_null() {
        if !(1..=64).contains(&count) {
            return invalid(format!("{what}: a gap of {count} words (1 to 64)"));
        }
        return Ok(SoDeclEntry {
            semantic: "$SKIP".to_string(),
            semantic_index: 0,
            start_component: 0,
            component_count: Some(count as u8),
        });
    }
    if !(1..=4).contains(&count) || e.start_component.saturating_add(count) > 4 {
        return invalid(format!(
            "{what}: components {}..{} are not within x..w",
            e.start_component,
            e.start_component.saturating_add(count)
        ));
    }
    // SAFETY: non-null and NUL-terminated (contract).
    let name = unsafe { CStr::from_ptr(e.semantic) };
    let semantic = name
        .to_str()
        .map_err(|_| {
            Failure::new(
                Status::InvalidArgument,
                format!("{what}: semantic is not UTF-8"),
            )
        })?
        .to_string();
    Ok(SoDeclEntry {
        semantic,
        semantic_index: e.semantic_index,
        start_component: e.start_component as u8,
        component_count: Some(count as u8),
    })
}

/// Reads the caller's buffers into the library's stream outputs (copying
/// their memory), checking that none overlap.
///
/// # Safety
/// The arrays hold their counts of entries; each buffer's `data` holds
/// `size` readable bytes; semantics are null or NUL-terminated.
pub(crate) unsafe fn read_buffers(buffers: &[StreamOutputBuffer]) -> Outcome<Vec<StreamOutput>> {
    let mut spans = Vec::with_capacity(buffers.len());
    let mut outputs = Vec::with_capacity(buffers.len());
    for (i, b) in buffers.iter().enumerate() {
        let what = format!("stream_outputs[{i}]");
        // SAFETY: the array holds its count of entries (contract).
        let elements = unsafe { versioned_slice(b.elements, b.element_count, &what) }?;
        let elements = elements
            .iter()
            .enumerate()
            // SAFETY: semantics are null or NUL-terminated (contract).
            .map(|(j, e)| unsafe { entry(e, &format!("{what}.elements[{j}]")) })
            .collect::<Outcome<Vec<_>>>()?;
        let data = if b.size == 0 {
            Vec::new()
        } else if b.data.is_null() {
            return Err(Failure::new(
                Status::NullPointer,
                format!("{what}.data is null"),
            ));
        } else {
            let start = b.data as usize;
            spans.push([start, start.saturating_add(b.size)]);
            // SAFETY: non-null, `size` readable bytes (contract), byte-aligned.
            unsafe { std::slice::from_raw_parts(b.data.cast::<u8>(), b.size) }.to_vec()
        };
        let offset = match b.offset {
            SO_APPEND => SoOffset::Append,
            n => SoOffset::At(n),
        };
        outputs.push(StreamOutput {
            offset,
            filled_size: b.filled_size,
            ..StreamOutput::new(b.slot, b.stream, b.stride, elements, data)
        });
    }
    spans.sort_unstable();
    if spans.windows(2).any(|w| w[1][0] < w[0][1]) {
        return invalid("stream-output buffers overlap");
    }
    Ok(outputs)
}

/// Copies what stream output produced back into the caller's buffers.
///
/// # Safety
/// Each buffer's `data` holds `size` writable bytes, untouched by other
/// threads; `contents[i]` is buffer `i`'s new contents, `size` bytes long.
pub(crate) unsafe fn write_buffers(buffers: &[StreamOutputBuffer], contents: &[Vec<u8>]) {
    for (b, bytes) in buffers.iter().zip(contents) {
        let n = b.size.min(bytes.len());
        if n > 0 {
            // SAFETY: `data` holds `size` >= `n` writable bytes (contract,
            // non-null since `size` > 0 was checked by `read_buffers`);
            // `bytes` is a separate allocation.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), b.data.cast::<u8>(), n) };
        }
    }
}
