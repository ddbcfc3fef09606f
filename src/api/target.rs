//! Render targets in the caller's memory, checked once when made.

use super::error::BindError;
use dxjit_runtime::dispatch::RenderTarget;
use dxjit_runtime::format::Format;
use dxjit_runtime::msaa::TARGET_SAMPLE_COUNTS;
use std::marker::PhantomData;

/// A render target a draw writes: `height` rows of `width` pixels in
/// `format`, `row_pitch` bytes apart, in memory borrowed for `'a`.
#[derive(Debug)]
pub struct Target<'a> {
    raw: RenderTarget,
    _memory: PhantomData<&'a mut [u8]>,
}

impl<'a> Target<'a> {
    /// A target over `data`, written from the shader's output register
    /// `output_reg` (`oC#` / `SV_Target#`). The rows must fit in `data`
    /// and `format` must be one a target can hold.
    pub fn new(
        data: &'a mut [u8],
        width: u32,
        height: u32,
        row_pitch: u32,
        format: Format,
        output_reg: u32,
    ) -> Result<Self, BindError> {
        Self::multisampled(data, width, height, row_pitch, format, output_reg, 1)
    }

    /// A target of `samples` samples a pixel (1, 2, 4 or 8; others are
    /// [`BindError::BadSampleCount`]). Each pixel holds its samples one
    /// after the other, sample 0 first, as a `texture2dms` does: a row is
    /// `width * samples` texels.
    pub fn multisampled(
        data: &'a mut [u8],
        width: u32,
        height: u32,
        row_pitch: u32,
        format: Format,
        output_reg: u32,
        samples: u32,
    ) -> Result<Self, BindError> {
        if !TARGET_SAMPLE_COUNTS.contains(&samples) {
            return Err(BindError::BadSampleCount(samples));
        }
        if !format.is_writable() {
            return Err(BindError::BadTarget(format!(
                "{format:?} cannot be rendered to"
            )));
        }
        let row = u64::from(width) * u64::from(samples) * u64::from(format.bytes_per_texel());
        let span = u64::from(height.saturating_sub(1)) * u64::from(row_pitch) + row;
        if width == 0 || height == 0 || u64::from(row_pitch) < row || span > data.len() as u64 {
            return Err(BindError::BadTarget(format!(
                "{width}x{height} pixels of {samples} samples with row pitch {row_pitch} need {span} bytes, {} given",
                data.len()
            )));
        }
        Ok(Target {
            raw: RenderTarget {
                ptr: data.as_mut_ptr(),
                width,
                height,
                row_pitch,
                format,
                output_reg,
                samples,
            },
            _memory: PhantomData,
        })
    }

    /// Samples a pixel.
    pub fn samples(&self) -> u32 {
        self.raw.samples
    }

    /// The runtime's description of the target.
    pub fn raw(&self) -> &RenderTarget {
        &self.raw
    }
}
