//! Textures and typed buffers as the sampler and `ld` see them.
//!
//! A texture's bytes are laid out as the case files give them: mip 0 of
//! slice 0 first, rows tightly packed, then the next mips of that slice, then
//! the next slice. A 3D texture has one "slice": each of its mips is a whole
//! volume (depth slices of that mip, each tightly packed rows). A cube
//! texture's slices are its faces, in D3D's order +X, -X, +Y, -Y, +Z, -Z,
//! cube after cube. Block-compressed formats store each mip as rows of 4×4
//! blocks (a mip of 2×2 texels still takes a whole block), and `ld` and the
//! sampler decode the block holding the texel they read.
//!
//! A multisampled texture ([`TextureKind::Texture2DMS`],
//! [`TextureKind::Texture2DMSArray`]) has one mip; each texel stores its
//! samples consecutively (sample 0 first), so a row holds `width × samples`
//! texel-sized elements, and the layers follow each other.

pub use crate::abi::TextureKind;
use crate::abi::View;
use crate::format::Format;
use apron::Aprons;
pub use apron::APRON_TEXELS;

mod apron;

impl TextureKind {
    /// Whether `depth_or_array` counts array layers (or cube faces).
    pub fn is_array_like(self) -> bool {
        matches!(
            self,
            TextureKind::Texture1DArray
                | TextureKind::Texture2DArray
                | TextureKind::TextureCube
                | TextureKind::TextureCubeArray
                | TextureKind::Texture2DMSArray
        )
    }

    /// Whether the texture is multisampled.
    pub fn is_multisampled(self) -> bool {
        matches!(
            self,
            TextureKind::Texture2DMS | TextureKind::Texture2DMSArray
        )
    }

    /// Whether the texture has a y dimension.
    fn has_height(self) -> bool {
        !matches!(
            self,
            TextureKind::Buffer | TextureKind::Texture1D | TextureKind::Texture1DArray
        )
    }
}

/// Why a texture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// A size or the mip count is zero.
    #[error("a texture needs non-zero sizes and mip count, got {width}x{height}x{depth_or_array} with {mips} mips")]
    Empty {
        /// Texels along x.
        width: u32,
        /// Texels along y.
        height: u32,
        /// Depth or layers.
        depth_or_array: u32,
        /// Mip levels.
        mips: u32,
    },
    /// A dimension the kind does not have is not 1 (or a buffer has mips).
    #[error("a {kind:?} must have {what} 1")]
    ExtraDimension {
        /// The texture's kind.
        kind: TextureKind,
        /// Which size should be 1.
        what: &'static str,
    },
    /// More mips than the largest dimension allows.
    #[error("{mips} mips is more than the {max} a {width}x{height}x{depth} texture has")]
    TooManyMips {
        /// Mip levels asked for.
        mips: u32,
        /// The most there can be.
        max: u32,
        /// Texels along x.
        width: u32,
        /// Texels along y.
        height: u32,
        /// Texels along z (1 unless 3D).
        depth: u32,
    },
    /// Cube faces are not square, or the face count is not a multiple of 6.
    #[error("a cube texture needs square faces and six faces per cube, got {width}x{height} and {faces} faces")]
    BadCube {
        /// Texels along x.
        width: u32,
        /// Texels along y.
        height: u32,
        /// Faces given.
        faces: u32,
    },
    /// The data is shorter than the layout needs.
    #[error("texture data has {got} bytes, its layout needs {need}")]
    DataTooShort {
        /// Bytes given.
        got: usize,
        /// Bytes needed.
        need: usize,
    },
    /// A sample count D3D does not allow (1, 2, 4, 8 and 16 are).
    #[error("a multisampled texture takes 1, 2, 4, 8 or 16 samples (D3D11), got {samples}")]
    BadSampleCount {
        /// Samples asked for.
        samples: u32,
    },
    /// Samples on a kind that has none, or a block-compressed
    /// multisampled texture (D3D11 allows neither).
    #[error("a {kind:?} texture of format {format:?} cannot be multisampled")]
    NotMultisampled {
        /// The texture's kind.
        kind: TextureKind,
        /// The texel format.
        format: Format,
    },
    /// A block-compressed texture whose top mip is not a whole number of
    /// blocks wide and high (D3D11.3 19.5.1; lower mips may end in partial
    /// blocks).
    #[error("a {format:?} texture of {width}x{height}: block-compressed textures are a multiple of 4 texels wide and high")]
    PartialBlocks {
        /// The texel format.
        format: Format,
        /// Mip 0's width.
        width: u32,
        /// Mip 0's height.
        height: u32,
    },
    /// The texture is larger than a view's 32-bit sizes can describe.
    #[error("texture of {bytes} bytes is larger than 4 GiB")]
    TooLarge {
        /// Bytes needed.
        bytes: usize,
    },
}

/// One mip of one slice of a texture: its texels, rows tightly packed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level<'a> {
    /// The texels (`width` × `height` × depth of them for 3D mips).
    pub bytes: &'a [u8],
    /// Texels along x.
    pub width: u32,
    /// Texels along y.
    pub height: u32,
}

/// A texture or typed buffer: its shape, format and bytes. A small 2D
/// texture of four-byte texels sampled inline also keeps a copy of mip 0
/// with an apron for each combination of addressing lookups ask for (at
/// most four, each `(width + 1) × (height + 1)` texels; see
/// `texture/apron.rs`), made on first use and dropped by
/// [`Texture::view_mut`].
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    kind: TextureKind,
    format: Format,
    width: u32,
    height: u32,
    depth_or_array: u32,
    mips: u32,
    samples: u32,
    data: Vec<u8>,
    /// Byte offset of each mip within a slice.
    mip_offsets: Vec<usize>,
    /// Bytes of one slice (all its mips).
    slice_bytes: usize,
    /// Copies of mip 0 with aprons, made when first asked for.
    aprons: Aprons,
}

impl Texture {
    /// A texture of `kind` whose bytes are `data`, laid out as the module
    /// documentation says. Sizes a kind lacks must be 1 (`height` of 1D
    /// textures and buffers, `depth_or_array` of non-array 1D/2D textures and
    /// buffers, `mips` of buffers); a cube has `depth_or_array` = 6 × cubes.
    /// Data shorter than the layout is an error; bytes past it are dropped.
    /// A multisampled kind made here has one sample a texel.
    pub fn new(
        kind: TextureKind,
        format: Format,
        width: u32,
        height: u32,
        depth_or_array: u32,
        mips: u32,
        data: Vec<u8>,
    ) -> Result<Texture, TextureError> {
        Self::build(kind, format, [width, height, depth_or_array], mips, 1, data)
    }

    /// A multisampled texture (`Texture2DMS`, or `Texture2DMSArray` with
    /// `layers` layers) of one mip with `samples` samples a texel, laid out
    /// as the module documentation says. D3D11 allows 1, 2, 4, 8 and 16
    /// samples and no block-compressed formats; anything else is an error.
    pub fn new_multisampled(
        kind: TextureKind,
        format: Format,
        width: u32,
        height: u32,
        layers: u32,
        samples: u32,
        data: Vec<u8>,
    ) -> Result<Texture, TextureError> {
        if !kind.is_multisampled() || format.block_size() != 1 {
            return Err(TextureError::NotMultisampled { kind, format });
        }
        if !matches!(samples, 1 | 2 | 4 | 8 | 16) {
            return Err(TextureError::BadSampleCount { samples });
        }
        Self::build(kind, format, [width, height, layers], 1, samples, data)
    }

    fn build(
        kind: TextureKind,
        format: Format,
        [width, height, depth_or_array]: [u32; 3],
        mips: u32,
        samples: u32,
        mut data: Vec<u8>,
    ) -> Result<Texture, TextureError> {
        if width == 0 || height == 0 || depth_or_array == 0 || mips == 0 {
            return Err(TextureError::Empty {
                width,
                height,
                depth_or_array,
                mips,
            });
        }
        let block = format.block_size();
        if block != 1 && (!width.is_multiple_of(block) || !height.is_multiple_of(block)) {
            return Err(TextureError::PartialBlocks {
                format,
                width,
                height,
            });
        }
        let extra = |what| Err(TextureError::ExtraDimension { kind, what });
        if !kind.has_height() && height != 1 {
            return extra("height");
        }
        let single = matches!(
            kind,
            TextureKind::Buffer
                | TextureKind::Texture1D
                | TextureKind::Texture2D
                | TextureKind::Texture2DMS
        );
        if single && depth_or_array != 1 {
            return extra("depth_or_array");
        }
        if (kind == TextureKind::Buffer || kind.is_multisampled()) && mips != 1 {
            return extra("mips");
        }
        if matches!(
            kind,
            TextureKind::TextureCube | TextureKind::TextureCubeArray
        ) && (width != height
            || !depth_or_array.is_multiple_of(6)
            || (kind == TextureKind::TextureCube && depth_or_array != 6))
        {
            return Err(TextureError::BadCube {
                width,
                height,
                faces: depth_or_array,
            });
        }
        let depth = if kind == TextureKind::Texture3D {
            depth_or_array
        } else {
            1
        };
        let max = 32 - width.max(height).max(depth).leading_zeros();
        if mips > max {
            return Err(TextureError::TooManyMips {
                mips,
                max,
                width,
                height,
                depth,
            });
        }
        let mut mip_offsets = Vec::with_capacity(mips as usize);
        let mut slice_bytes = 0usize;
        for mip in 0..mips {
            mip_offsets.push(slice_bytes);
            let [w, h, d] = [width, height, depth].map(|s| (s >> mip).max(1));
            slice_bytes += format.image_bytes(w * samples, h, d) as usize;
        }
        let slices = if kind.is_array_like() {
            depth_or_array as usize
        } else {
            1
        };
        let need = slice_bytes * slices;
        if data.len() < need {
            return Err(TextureError::DataTooShort {
                got: data.len(),
                need,
            });
        }
        if u32::try_from(need).is_err() {
            return Err(TextureError::TooLarge { bytes: need });
        }
        data.truncate(need);
        Ok(Texture {
            kind,
            format,
            width,
            height,
            depth_or_array,
            mips,
            samples,
            data,
            mip_offsets,
            slice_bytes,
            aprons: Aprons::default(),
        })
    }

    /// The texture's dimension.
    pub fn kind(&self) -> TextureKind {
        self.kind
    }

    /// The texel format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Mip levels.
    pub fn mips(&self) -> u32 {
        self.mips
    }

    /// Samples a texel: 1 unless multisampled.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Array layers (cube faces for cubes), 1 for kinds without layers.
    pub fn layers(&self) -> u32 {
        if self.kind.is_array_like() {
            self.depth_or_array
        } else {
            1
        }
    }

    /// The texture's bytes, exactly as long as its layout.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The view compiled code sees: `ptr`/`size` cover all the bytes,
    /// `stride` is the texel size (the block size of block-compressed
    /// formats, whose rows are rows of blocks), sizes and pitches are mip 0's
    /// (`slice_pitch` is the distance between depth slices of a 3D texture,
    /// or between array slices, mips included), `depth` is the depth or the
    /// layer count, and `texture` points at `self`. The view is read-only
    /// and valid while `self` is neither moved nor dropped.
    pub fn view(&self) -> View {
        self.view_at(self.data.as_ptr().cast_mut())
    }

    /// [`Texture::view`] for writing (UAVs): the pointer comes from an
    /// exclusive borrow.
    pub fn view_mut(&mut self) -> View {
        self.aprons = Aprons::default();
        let ptr = self.data.as_mut_ptr();
        self.view_at(ptr)
    }

    fn view_at(&self, ptr: *mut u8) -> View {
        let bpt = self.format.bytes_per_texel();
        let row_pitch = self.format.image_bytes(self.width * self.samples, 1, 1) as u32;
        let slice_pitch = if self.kind == TextureKind::Texture3D {
            self.format.image_bytes(self.width, self.height, 1) as u32
        } else {
            self.slice_bytes as u32
        };
        View {
            ptr,
            size: self.data.len() as u32,
            stride: bpt,
            width: self.width,
            height: self.height,
            depth: self.depth_or_array,
            mips: self.mips,
            format: self.format as u32,
            row_pitch,
            slice_pitch,
            texture: (self as *const Texture).cast(),
        }
    }

    /// Sizes of mip `mip`: texels along x, y, and the depth (3D) or layer
    /// count (arrays and cubes; 1 otherwise). A mip past the last gives zeros.
    pub fn level_size(&self, mip: u32) -> [u32; 3] {
        if mip >= self.mips {
            return [0, 0, 0];
        }
        let shrink = |s: u32| (s >> mip).max(1);
        let z = match self.kind {
            TextureKind::Texture3D => shrink(self.depth_or_array),
            _ => self.layers(),
        };
        [shrink(self.width), shrink(self.height), z]
    }

    /// Mip 0 with an apron for addressing `wrap` (per axis: wraps, else
    /// clamps; see `texture/apron.rs`), rows of `width + 1` texels and
    /// `height + 1` rows: for a 2D texture of four-byte texels whose mip 0
    /// has at most [`APRON_TEXELS`] texels; otherwise none.
    pub(crate) fn apron(&self, wrap: [bool; 2]) -> Option<&[u8]> {
        let small = u64::from(self.width) * u64::from(self.height) <= u64::from(APRON_TEXELS);
        let plain = self.kind == TextureKind::Texture2D
            && self.format.block_size() == 1
            && self.format.bytes_per_texel() == 4;
        (small && plain).then(|| {
            let level = self.level(0, 0);
            self.aprons.get(level.bytes, self.width, self.height, wrap)
        })
    }

    /// Mip `mip` of slice `slice` (a layer or cube face; 0 for other kinds),
    /// as [`Texture::fetch`] reads it (blocks, for block-compressed formats).
    /// Panics when either is out of range.
    pub(crate) fn level(&self, slice: u32, mip: u32) -> Level<'_> {
        let [width, height, z] = self.level_size(mip);
        let depth = if self.kind == TextureKind::Texture3D {
            z
        } else {
            1
        };
        assert!(slice < self.layers(), "slice {slice} of {}", self.layers());
        let start = slice as usize * self.slice_bytes + self.mip_offsets[mip as usize];
        let len = self.format.image_bytes(width, height, depth) as usize;
        Level {
            bytes: &self.data[start..start + len],
            width,
            height,
        }
    }

    /// The texel `ld` reads, as [`Format::load`] gives it: `z_or_slice` is
    /// the depth (3D) or layer (arrays; the face `6 * cube + face` of cubes).
    /// Coordinates a kind lacks are ignored (y of 1D textures and buffers, z
    /// of non-array 1D and 2D textures, the mip of buffers); any other
    /// coordinate or mip out of range reads all zeros.
    pub fn fetch(&self, x: i32, y: i32, z_or_slice: i32, mip: i32) -> [u32; 4] {
        self.read(x, y, z_or_slice, mip, 0)
    }

    /// Sample `sample` of texel (x, y) of layer `slice` (ignored unless an
    /// array) of a multisampled texture, as [`Format::load`] gives it (`ld2dms`).
    /// A texel, layer or sample out of range reads all zeros; a texture that
    /// is not multisampled has one sample a texel.
    pub fn fetch_sample(&self, x: i32, y: i32, slice: i32, sample: i32) -> [u32; 4] {
        self.read(x, y, slice, 0, sample)
    }

    /// [`Texture::fetch`] of one sample of a texel.
    fn read(&self, x: i32, y: i32, z_or_slice: i32, mip: i32, sample: i32) -> [u32; 4] {
        let Some(sample) = u32::try_from(sample).ok().filter(|&s| s < self.samples) else {
            return [0; 4];
        };
        let mip = if self.kind == TextureKind::Buffer {
            0
        } else {
            mip
        };
        let Ok(mip) = u32::try_from(mip) else {
            return [0; 4];
        };
        let [w, h, d] = self.level_size(mip);
        let y = if self.kind.has_height() { y } else { 0 };
        let has_z = self.kind == TextureKind::Texture3D || self.kind.is_array_like();
        let z = if has_z { z_or_slice } else { 0 };
        let inside = |c: i32, n: u32| u32::try_from(c).ok().filter(|&c| c < n);
        let (Some(x), Some(y), Some(z)) = (inside(x, w), inside(y, h), inside(z, d)) else {
            return [0; 4];
        };
        let (slice, depth) = if self.kind == TextureKind::Texture3D {
            (0, z)
        } else {
            (z, 0)
        };
        let level = slice as usize * self.slice_bytes + self.mip_offsets[mip as usize];
        let block = self.format.block_size();
        let (bx, by) = (x / block, y / block);
        let (bw, bh) = (w.div_ceil(block) as usize, h.div_ceil(block) as usize);
        let index = ((depth as usize * bh + by as usize) * bw + bx as usize)
            * self.samples as usize
            + sample as usize;
        let bpt = self.format.bytes_per_texel() as usize;
        let bytes = &self.data[level + index * bpt..level + (index + 1) * bpt];
        match self.format.load_block(bytes) {
            Some(texels) => texels[((y % block) * block + x % block) as usize],
            None => self.format.load(bytes),
        }
    }
}
