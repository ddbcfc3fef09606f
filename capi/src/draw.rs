//! Drawing a screen-aligned rectangle with a pixel shader.

use crate::bindings::Bindings;
use crate::bound::Bound;
use crate::checks::{in_range, invalid, optional_grown, versioned_slice, Versioned};
use crate::dispatch::require_stage;
use crate::enums::{format, Stage};
use crate::guard::{call, Message};
use crate::reflect::shader_ref;
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use dxjit_runtime::dispatch::{Draw, PixelInput as RuntimeInput, RenderTarget as RuntimeTarget};
use dxjit_runtime::msaa::TARGET_SAMPLE_COUNTS;
use std::ffi::{c_char, c_void};

/// The largest rectangle coordinate (D3D11's largest render target).
pub const MAX_COORDINATE: u32 = 16384;

/// A pixel-shader input register and its values at the rectangle's corners,
/// interpolated across it (components equal at all corners stay exact).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PixelInput {
    /// `sizeof(dxjit_pixel_input)`.
    pub struct_size: usize,
    /// The input register (below the shader's `input_registers`).
    pub reg: u32,
    /// Values at the top-left, top-right, bottom-left and bottom-right
    /// corners, four 32-bit words each (floats as their bits).
    pub corners: [[u32; 4]; 4],
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers only.
unsafe impl Versioned for PixelInput {
    const NAME: &'static str = "dxjit_pixel_input";
}

/// A render target in the caller's memory.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct RenderTarget {
    /// `sizeof(dxjit_render_target)`.
    pub struct_size: usize,
    /// First byte of row 0.
    pub data: *mut c_void,
    /// Bytes at `data`: at least `(height - 1) * row_pitch + width *
    /// samples * texel size`.
    pub size: usize,
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Bytes between rows, at least `width * samples * texel size`.
    pub row_pitch: u32,
    /// A `dxjit_format`.
    pub format: u32,
    /// The shader output register written to it (below `output_registers`).
    pub output_reg: u32,
    /// Samples a pixel: 1, 2, 4 or 8; 0 means 1. This field took the
    /// struct's former tail padding, so its size is unchanged: a caller
    /// from before it that zeroed the struct draws single-sampled. A pixel
    /// holds its samples one after the other, sample 0 first (as a
    /// multisampled texture does). Every target of a draw has the same count.
    pub samples: u32,
}

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers and a raw pointer.
unsafe impl Versioned for RenderTarget {
    const NAME: &'static str = "dxjit_render_target";
}

/// A draw: the rectangle, its inputs and its targets.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DrawDesc {
    /// `sizeof(dxjit_draw_desc)`.
    pub struct_size: usize,
    /// Pixels covered: x0, y0, x1, y1 (exclusive), at most 16384; an empty
    /// rectangle draws nothing. Pixels outside a target are not written to it.
    pub rect: [u32; 4],
    /// Where in a pixel it is sampled: 0.5 for D3D10+, 0.0 for D3D9.
    pub pixel_center: f32,
    /// Interpolated inputs; may be null when `input_count` is 0.
    pub inputs: *const PixelInput,
    /// Entries in `inputs`.
    pub input_count: usize,
    /// Render targets, whose memory must not overlap; may be null when
    /// `target_count` is 0.
    pub targets: *const RenderTarget,
    /// Entries in `targets`.
    pub target_count: usize,
    /// Samples not written: sample i of a pixel is left as it was when bit
    /// i is set. The complement of D3D's blend-state `SampleMask`
    /// (`OMSetBlendState`), so that 0, what a caller from before this field
    /// reads as, writes every covered sample.
    pub masked_samples: u32,
}

/// `struct_size` of `dxjit_draw_desc` before `masked_samples`; still
/// accepted (every sample written).
pub const DRAW_DESC_V1_SIZE: usize = std::mem::offset_of!(DrawDesc, masked_samples);

// SAFETY: `#[repr(C)]`, starts with `struct_size`; integers, a float, raw pointers.
unsafe impl Versioned for DrawDesc {
    const NAME: &'static str = "dxjit_draw_desc";
}

/// The runtime's target for `t`, checked against `output_regs`; also the
/// address range its rows span.
fn target(t: &RenderTarget, i: usize, output_regs: u32) -> Outcome<(RuntimeTarget, [usize; 2])> {
    let fmt = format(t.format, "render target")?;
    if !fmt.is_writable() {
        return invalid(format!("targets[{i}]: {fmt:?} cannot be rendered to"));
    }
    if t.data.is_null() {
        return Err(Failure::new(
            Status::NullPointer,
            format!("targets[{i}].data is null"),
        ));
    }
    in_range(
        t.output_reg,
        output_regs as usize,
        "render target output register",
    )?;
    let samples = t.samples.max(1);
    if !TARGET_SAMPLE_COUNTS.contains(&samples) {
        return invalid(format!(
            "targets[{i}]: {samples} samples a pixel (1, 2, 4 or 8 are allowed)"
        ));
    }
    let row = u64::from(t.width) * u64::from(samples) * u64::from(fmt.bytes_per_texel());
    let span = u64::from(t.height.saturating_sub(1)) * u64::from(t.row_pitch) + row;
    if t.width == 0 || t.height == 0 || u64::from(t.row_pitch) < row || span > t.size as u64 {
        return invalid(format!(
            "targets[{i}]: {}x{} pixels of {samples} samples with row pitch {} need {span} bytes, {} given",
            t.width, t.height, t.row_pitch, t.size
        ));
    }
    let start = t.data as usize;
    let target = RuntimeTarget {
        ptr: t.data.cast(),
        width: t.width,
        height: t.height,
        row_pitch: t.row_pitch,
        format: fmt,
        output_reg: t.output_reg,
        samples,
    };
    Ok((target, [start, start.saturating_add(span as usize)]))
}

/// The runtime's draw for `d`, checked against the shader.
///
/// # Safety
/// The arrays of `d` hold their counts of entries.
unsafe fn draw_of(s: &Shader, d: &DrawDesc) -> Outcome<Draw> {
    let [x0, y0, x1, y1] = d.rect;
    if [x0, y0, x1, y1].iter().any(|&c| c > MAX_COORDINATE) {
        return Err(Failure::new(
            Status::OutOfRange,
            format!(
                "rect {:?}: coordinates are at most {MAX_COORDINATE}",
                d.rect
            ),
        ));
    }
    if !d.pixel_center.is_finite() {
        return invalid("pixel_center is not finite");
    }
    // SAFETY: forwarded contract.
    let inputs = unsafe { versioned_slice(d.inputs, d.input_count, "inputs") }?;
    // SAFETY: forwarded contract.
    let targets = unsafe { versioned_slice(d.targets, d.target_count, "targets") }?;
    let inputs = inputs
        .iter()
        .map(|p| {
            in_range(p.reg, s.kernel.input_regs as usize, "pixel input register")?;
            Ok(RuntimeInput {
                reg: p.reg,
                corners: p.corners,
            })
        })
        .collect::<Outcome<Vec<_>>>()?;
    let mut checked = Vec::with_capacity(targets.len());
    for (i, t) in targets.iter().enumerate() {
        checked.push(target(t, i, s.kernel.output_regs)?);
    }
    if let Some((t, _)) = checked
        .iter()
        .find(|(t, _)| t.samples != checked[0].0.samples)
    {
        return invalid(format!(
            "targets of {} and {} samples: every target of a draw has the same sample count",
            checked[0].0.samples, t.samples
        ));
    }
    let mut spans: Vec<[usize; 2]> = checked.iter().map(|(_, span)| *span).collect();
    spans.sort_unstable();
    if spans.windows(2).any(|w| w[1][0] < w[0][1]) {
        return invalid("render targets overlap");
    }
    Ok(Draw {
        rect: d.rect,
        pixel_center: d.pixel_center,
        inputs,
        targets: checked.into_iter().map(|(t, _)| t).collect(),
        shading: s.shader.sample_shading(),
        sample_mask: !d.masked_samples,
    })
}

/// Runs a pixel shader over a screen-aligned rectangle in 2x2 quads and
/// writes its render targets, on every core.
///
/// # Safety
/// `shader` is null or live; `bindings` is null or valid as
/// `dxjit_bindings` documents; `desc` is null or a readable
/// `dxjit_draw_desc` whose arrays hold their counts and whose targets are
/// writable for their sizes, untouched by other threads during the call.
#[no_mangle]
pub unsafe extern "C" fn dxjit_draw(
    shader: *const Shader,
    bindings: *const Bindings,
    desc: *const DrawDesc,
    message: *mut *mut c_char,
) -> Status {
    // SAFETY: `message` is null or a writable `char*` (contract).
    let message = unsafe { Message::from_raw(message) };
    call(message, || {
        // SAFETY: forwarded contract.
        let s = unsafe { shader_ref(shader) }?;
        require_stage(s, Stage::Pixel, "dxjit_draw")?;
        // SAFETY: forwarded contract.
        let d = unsafe { optional_grown(desc, "desc", &[DRAW_DESC_V1_SIZE]) }?
            .ok_or_else(|| Failure::new(Status::NullPointer, "desc is null"))?;
        // SAFETY: forwarded contract.
        let draw = unsafe { draw_of(s, &d) }?;
        // SAFETY: forwarded contract.
        let bound = unsafe { Bound::new(s, bindings) }?;
        let [x0, y0, x1, y1] = draw.rect.map(u64::from);
        let kernel = s
            .shader
            .kernel_for(x1.saturating_sub(x0) * y1.saturating_sub(y0));
        // SAFETY: the caller's contract keeps every bound view and target
        // valid and untouched for the call (targets checked not to overlap
        // and to fit their sizes); `s` keeps its code alive.
        bound.run(&s.shader, |b| unsafe {
            dxjit_runtime::dispatch::draw(&kernel, b, &draw)
        })
    })
}
