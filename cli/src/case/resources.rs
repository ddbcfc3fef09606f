//! Resolved defaults of resources: sizes, widths and initial contents.

use super::model::{DrawDesc, SrvDesc, SrvKind, TargetDesc, UavDesc, UavDimension, UavKind};
use super::outcome::TargetImage;
use super::texel;

/// `len` bytes: the words of `data` little-endian from byte 0, then the
/// word `fill` repeated (aligned to words counted from byte 0).
fn filled(data: &[u32], fill: u32, len: usize) -> Vec<u8> {
    let fill = fill.to_le_bytes();
    let mut bytes: Vec<u8> = data.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.truncate(len);
    let start = bytes.len();
    bytes.extend((start..len).map(|i| fill[i % 4]));
    bytes
}

/// `a / b` rounded up, at least 1.
fn div_up(a: u64, b: u64) -> u64 {
    a.div_ceil(b.max(1)).max(1)
}

impl SrvDesc {
    /// Slices of the view: `array_size` of a 1D or 2D array, 6 faces of a
    /// cube, 6 per cube of a cube array, otherwise 1.
    pub fn layers(&self) -> u32 {
        match self.kind {
            SrvKind::Texture1dArray | SrvKind::Texture2dArray | SrvKind::Texture2dMsArray => {
                self.array_size
            }
            SrvKind::TextureCube => 6,
            SrvKind::TextureCubeArray => 6 * self.array_size,
            _ => 1,
        }
    }

    /// Width of a typed view in texels (elements of a typed `buffer`):
    /// `width`, or by default what `data` fills given the other dimensions
    /// (at least 1). 0 for raw and structured buffers.
    pub fn width(&self) -> u32 {
        let Some(format) = self.format else { return 0 };
        self.width.unwrap_or_else(|| {
            let texels = div_up(
                self.data.len() as u64 * 4,
                u64::from(texel::texel_size(format)),
            );
            let per_column = u64::from(self.height)
                * u64::from(self.depth)
                * u64::from(self.layers())
                * u64::from(self.samples);
            u32::try_from(div_up(texels, per_column)).unwrap_or(u32::MAX)
        })
    }

    /// Texels of mip `level` of one slice: (width, height, depth).
    pub fn mip_extent(&self, level: u32) -> (u32, u32, u32) {
        let shrink = |n: u32| n.checked_shr(level).unwrap_or(0).max(1);
        (
            shrink(self.width()),
            shrink(self.height),
            shrink(self.depth),
        )
    }

    /// Size of the resource in bytes: `size` or the bytes of `data` for raw
    /// and structured buffers; every mip of every slice for typed views
    /// (whole 4×4 blocks of block-compressed formats).
    pub fn byte_size(&self) -> u64 {
        match self.format {
            None => self.size.map_or(self.data.len() as u64 * 4, u64::from),
            Some(format) => {
                let per_slice: u64 = (0..self.mips)
                    .map(|m| {
                        let (w, h, d) = self.mip_extent(m);
                        texel::image_size(format, w, h, d)
                    })
                    .sum::<u64>()
                    * u64::from(self.samples);
                per_slice * u64::from(self.layers())
            }
        }
    }

    /// The initial memory: `data`, then `fill`, [`SrvDesc::byte_size`] bytes.
    pub fn contents(&self) -> Vec<u8> {
        filled(&self.data, self.fill, self.byte_size() as usize)
    }
}

impl UavDesc {
    /// Width of a typed UAV in elements/texels: `size`, or by default what
    /// `data` fills given `height` and `depth` (at least 1). 0 for raw and
    /// structured UAVs.
    pub fn width(&self) -> u32 {
        let UavKind::Typed { format, .. } = self.kind else {
            return 0;
        };
        self.size.unwrap_or_else(|| {
            let texels = div_up(
                self.data.len() as u64 * 4,
                u64::from(texel::texel_size(format)),
            );
            let per_column = u64::from(self.height) * u64::from(self.depth);
            u32::try_from(div_up(texels, per_column)).unwrap_or(u32::MAX)
        })
    }

    /// Size in bytes: `size` or the bytes of `data` for raw and structured
    /// UAVs; width × height × depth texels for typed ones.
    pub fn byte_size(&self) -> u64 {
        match self.kind {
            UavKind::Raw | UavKind::Structured { .. } => {
                self.size.map_or(self.data.len() as u64 * 4, u64::from)
            }
            UavKind::Typed { format, dimension } => {
                let (h, d) = match dimension {
                    UavDimension::Buffer | UavDimension::Texture1d => (1, 1),
                    UavDimension::Texture2d => (self.height, 1),
                    UavDimension::Texture3d => (self.height, self.depth),
                };
                u64::from(self.width())
                    * u64::from(h)
                    * u64::from(d)
                    * u64::from(texel::texel_size(format))
            }
        }
    }

    /// The initial memory: `data`, then `fill`, [`UavDesc::byte_size`] bytes.
    pub fn contents(&self) -> Vec<u8> {
        filled(&self.data, self.fill, self.byte_size() as usize)
    }
}

impl DrawDesc {
    /// The pixels covered: `rect`, or by default the whole of target 0.
    pub fn rect(&self) -> [u32; 4] {
        self.rect.unwrap_or_else(|| {
            self.targets
                .first()
                .map_or([0; 4], |t| [0, 0, t.width, t.height])
        })
    }

    /// Every render target, cleared to `clear` converted to its format.
    pub fn cleared_targets(&self) -> Vec<TargetImage> {
        self.targets.iter().map(|t| t.cleared(self.clear)).collect()
    }
}

impl TargetDesc {
    /// An image of this target with every sample holding `value` (four
    /// words as a shader writes them) converted to the format.
    pub fn cleared(&self, value: [u32; 4]) -> TargetImage {
        let texel = texel::encode(self.format, value);
        let samples = self.width as usize * self.height as usize * self.samples as usize;
        TargetImage {
            format: self.format,
            width: self.width,
            height: self.height,
            samples: self.samples,
            data: texel.repeat(samples),
        }
    }
}
