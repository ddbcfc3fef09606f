//! Texture sampling: filtering, addressing and level-of-detail selection.
//!
//! [`sample_quad`] looks up one 2x2 pixel quad, as D3D's `sample*`
//! instructions (and D3D9's `tex*`) do:
//!
//! - Coordinates are normalized; an array's layer is the component after
//!   them, rounded to nearest and clamped to the layers; a cube's direction
//!   picks a face and a place on it (see `cube.rs`), a cube array's fourth
//!   component picks the cube.
//! - The level of detail comes from the quad (coarse derivatives: lane 1 −
//!   lane 0 along x, lane 2 − lane 0 along y, shared by the four lanes) or
//!   from explicit gradients, scaled to texels of mip 0: log2 of the longer
//!   derivative (isotropic; anisotropic filtering divides it by its probe
//!   count, see `footprint.rs`), plus the sampler's bias and, with
//!   [`LOD_BIAS`], the lane's bias. [`LOD_LEVEL`] takes the lane's level
//!   plus the sampler's bias. The result is clamped to the sampler's
//!   [`SamplerState::min_lod`, `max_lod`]; at or below 0 the magnification
//!   filter applies, above it the minification filter. It is then clamped
//!   to the texture's mips: mip filter none reads mip 0, point the nearest
//!   mip, linear blends the two around.
//! - Within a mip, point reads texel `floor(u × size)`; linear blends the
//!   texels around `u × size − 0.5`. Offsets are added to texel indices, then
//!   each tap is addressed on its own (wrap, mirror, clamp, border,
//!   mirror once); border taps read the border colour, in the format's
//!   component space (`border.rs`). Cube taps off their face read the
//!   neighbouring face, and corners the mean of three texels (`seam.rs`).
//! - Taps combine by weight, or by component-wise minimum or maximum under
//!   D3D11.1's reduction filters (`reduce.rs`).
//! - Comparison samplers compare the lane's reference with each tap's first
//!   component (`reference OP texel`, passing as 1.0, failing as 0.0) before
//!   filtering, and return the filtered result in all four components.
//! - Integer formats are never filtered: the nearest mip's point tap gives
//!   its words, bit-cast into the f32 slots (border taps give the border
//!   colour's bits).
//! - An unbound texture reads (0, 0, 0, 1); a buffer, which D3D cannot
//!   sample, reads zeros.
//!
//! - D3D9 states: [`SamplerState::srgb`] decodes texels' r, g, b from sRGB
//!   before filtering; [`SamplerState::shadow_map`] makes lookups from
//!   `d16`/`d24s8`/`r24x8` textures compare the coordinate's z (`z <=
//!   depth`) like a less-equal comparison sampler.
//! - `gather4*` and `lod` are in `gather.rs`.
//!
//! 2D textures in the common float and unorm formats, read without
//! comparison through a sampler with one filter at every level of detail
//! ([`SamplerState::uniform_filter`]) and no sRGB decode, take a path
//! compiled per format (`fast.rs`) that gives the same results as the
//! generic one; its tests compare the two.

mod address;
mod border;
mod cube;
mod fast;
mod filter;
mod footprint;
mod gather;
mod indexed;
mod inline;
mod lod;
mod plane;
mod reduce;
mod seam;
#[cfg(test)]
mod test_rng;
mod texel;
mod wide;

pub use filter::{SUBTEXEL_STEPS, UNORM8_SCALE};
pub use gather::{dxjit_gather_quad, dxjit_lod_quad, gather_quad, lod_quad, GatherSample};
pub use indexed::{
    dxjit_fetch_indexed, dxjit_gather_quad_indexed, dxjit_lod_quad_indexed,
    dxjit_sample_quad_indexed, QuadSlots,
};
pub use inline::{InlineSampler, INLINE_PAIRS};
pub use wide::{
    dxjit_sample_wide, wide_sampling_available, WideBatch, WideLookup, WIDE_BATCH, WIDE_LANES,
};

use crate::abi::View;
use crate::format::{Format, FormatKind};
use crate::texture::{Texture, TextureKind};
use filter::Lookup;

/// Texel filters.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// Nearest texel.
    #[default]
    Point = 0,
    /// Bilinear (trilinear with a linear mip filter).
    Linear = 1,
    /// Anisotropic: up to [`SamplerState::max_anisotropy`] trilinear probes
    /// along the footprint's major axis when minifying (see `footprint.rs`),
    /// bilinear when magnifying.
    Anisotropic = 2,
}

/// Magnification filters: [`MagFilter::AsMin`] makes the sampler's one
/// [`SamplerState::filter`] serve both minification and magnification.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MagFilter {
    /// The same filter as [`SamplerState::filter`].
    #[default]
    AsMin = 0,
    /// Nearest texel.
    Point = 1,
    /// Bilinear.
    Linear = 2,
    /// Anisotropic (bilinear: a magnified footprint covers less than a texel).
    Anisotropic = 3,
}

/// How the taps of a lookup combine (D3D11.1's filter reduction types).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reduction {
    /// Weighted average (or, with a [`Compare`] function, the weighted pass fraction).
    #[default]
    Standard = 0,
    /// Component-wise minimum of the taps of non-zero weight.
    Minimum = 1,
    /// Component-wise maximum of the taps of non-zero weight.
    Maximum = 2,
}

/// Mip filters.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MipFilter {
    /// Always mip 0.
    #[default]
    None = 0,
    /// Nearest mip.
    Point = 1,
    /// Blend of the two nearest mips.
    Linear = 2,
}

/// Texture addressing modes.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Address {
    /// Repeat.
    #[default]
    Wrap = 0,
    /// Repeat, mirrored every other tile.
    Mirror = 1,
    /// Clamp to the edge texel.
    Clamp = 2,
    /// Outside the texture: the border colour.
    Border = 3,
    /// Mirror once around 0, then clamp.
    MirrorOnce = 4,
}

/// Comparison functions of comparison samplers.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compare {
    /// Not a comparison sampler.
    #[default]
    None = 0,
    /// Never passes.
    Never = 1,
    /// `ref < texel`.
    Less = 2,
    /// `ref == texel`.
    Equal = 3,
    /// `ref <= texel`.
    LessEqual = 4,
    /// `ref > texel`.
    Greater = 5,
    /// `ref != texel`.
    NotEqual = 6,
    /// `ref >= texel`.
    GreaterEqual = 7,
    /// Always passes.
    Always = 8,
}

/// A sampler's state, as compiled code passes it to the sampling functions.
/// Its default is D3D's: point filters, wrap, no comparison, border
/// (0, 0, 0, 0), no bias, levels of detail clamped to [0, f32::MAX],
/// anisotropy 1, standard reduction.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerState {
    /// Minification filter, and magnification filter unless
    /// [`SamplerState::mag_filter`] says otherwise.
    pub filter: Filter,
    /// Mip filter.
    pub mip_filter: MipFilter,
    /// Addressing along u, v, w.
    pub address: [Address; 3],
    /// Comparison function.
    pub compare: Compare,
    /// Border colour (r, g, b, a).
    pub border: [f32; 4],
    /// Added to every computed level of detail.
    pub lod_bias: f32,
    /// Lowest mip level used.
    pub min_lod: f32,
    /// Highest mip level used.
    pub max_lod: f32,
    /// Magnification filter (used where the clamped level of detail is ≤ 0).
    pub mag_filter: MagFilter,
    /// Most probes of the anisotropic filter, 1 to 16 (0 counts as 1,
    /// more as 16).
    pub max_anisotropy: u32,
    /// How taps combine.
    pub reduction: Reduction,
    /// D3D9's `SRGBTEXTURE`: when nonzero, each texel's r, g and b (not the
    /// border colour) are decoded from sRGB before filtering.
    pub srgb: u32,
    /// D3D9's hardware shadow maps: when nonzero, a lookup without a
    /// comparison function from a `d16`, `d24s8` or `r24x8` texture
    /// compares the coordinate's z with each tap (`z <= depth` passes) and
    /// filters the results, as D3D9 drivers do. Set it for D3D9 shaders.
    pub shadow_map: u32,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            filter: Filter::default(),
            mip_filter: MipFilter::default(),
            address: [Address::default(); 3],
            compare: Compare::default(),
            border: [0.0; 4],
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: f32::MAX,
            mag_filter: MagFilter::AsMin,
            max_anisotropy: 1,
            reduction: Reduction::Standard,
            srgb: 0,
            shadow_map: 0,
        }
    }
}

impl SamplerState {
    /// The magnification filter in effect.
    pub fn magnification(&self) -> Filter {
        match self.mag_filter {
            MagFilter::AsMin => self.filter,
            MagFilter::Point => Filter::Point,
            MagFilter::Linear => Filter::Linear,
            MagFilter::Anisotropic => Filter::Anisotropic,
        }
    }

    /// [`SamplerState::max_anisotropy`] clamped to 1..=16.
    pub fn anisotropy(&self) -> u32 {
        self.max_anisotropy.clamp(1, 16)
    }

    /// The one within-mip filter the sampler applies at every level of
    /// detail, when there is one: minification and magnification filter
    /// alike, never more than one anisotropic probe (anisotropic filtering
    /// with one probe is bilinear), standard reduction. Paths that filter
    /// without a level of detail (the fast and inline ones) serve only these.
    pub fn uniform_filter(&self) -> Option<Filter> {
        let bilinear = |f: Filter| match f {
            Filter::Anisotropic if self.anisotropy() == 1 => Some(Filter::Linear),
            Filter::Anisotropic => None,
            other => Some(other),
        };
        let min = bilinear(self.filter)?;
        let mag = match self.magnification() {
            Filter::Anisotropic => Filter::Linear,
            other => other,
        };
        (min == mag && self.reduction == Reduction::Standard).then_some(min)
    }
}

/// [`QuadSample::mode`]: the level of detail comes from the quad's coordinates.
pub const LOD_IMPLICIT: u32 = 0;
/// [`QuadSample::mode`]: as [`LOD_IMPLICIT`], plus each lane's [`QuadSample::lod`].
pub const LOD_BIAS: u32 = 1;
/// [`QuadSample::mode`]: each lane's [`QuadSample::lod`] is its level of detail.
pub const LOD_LEVEL: u32 = 2;
/// [`QuadSample::mode`]: the level of detail comes from [`QuadSample::ddx`] and [`QuadSample::ddy`].
pub const LOD_GRADIENT: u32 = 3;

/// The arguments of one 2x2 quad's lookup. Lanes 0..4 are the top-left,
/// top-right, bottom-left and bottom-right pixels.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QuadSample {
    /// Coordinates, `[component][lane]`: u, v, w as the texture has them,
    /// then the array layer (arrays), or x, y, z, then the cube (cubes).
    pub coord: [[f32; 4]; 4],
    /// Explicit x derivatives of the coordinates, `[component][lane]` ([`LOD_GRADIENT`]).
    pub ddx: [[f32; 4]; 4],
    /// Explicit y derivatives of the coordinates, `[component][lane]` ([`LOD_GRADIENT`]).
    pub ddy: [[f32; 4]; 4],
    /// Per lane: the bias ([`LOD_BIAS`]) or the level of detail ([`LOD_LEVEL`]).
    pub lod: [f32; 4],
    /// Per lane: the value comparison samplers compare texels with.
    pub reference: [f32; 4],
    /// Texel offsets along u, v, w (`aoffimmi`); ignored for cubes.
    pub offset: [i32; 3],
    /// How the level of detail is found: one of the `LOD_*` constants (any
    /// other value counts as [`LOD_IMPLICIT`]).
    pub mode: u32,
    /// What a lookup in an unbound texture reads in alpha (its other
    /// components read 0): 1.0 under D3D9's rule, 0.0 from D3D10 on.
    pub unbound_alpha: f32,
}

/// One lane's place in the texture and the derivatives of its image
/// coordinates, in texels of mip 0.
struct Lane {
    lookup: Lookup,
    dx: [f32; 3],
    dy: [f32; 3],
}

/// The results of `sampler` reading `texture` for one quad, `[component][lane]`,
/// as the module documentation says.
pub fn sample_quad(
    texture: Option<&Texture>,
    sampler: &SamplerState,
    args: &QuadSample,
) -> [[f32; 4]; 4] {
    let Some(texture) = texture else {
        return [[0.0; 4], [0.0; 4], [0.0; 4], [args.unbound_alpha; 4]];
    };
    if texture.kind() == TextureKind::Buffer || texture.kind().is_multisampled() {
        return [[0.0; 4]; 4];
    }
    let sampler = &SamplerState {
        border: border::in_format(texture.format(), sampler.border),
        ..*sampler
    };
    let shadow = sampler.shadow_map != 0
        && sampler.compare == Compare::None
        && matches!(
            texture.format(),
            Format::D16 | Format::D24S8 | Format::R24X8
        );
    if shadow {
        let compare = SamplerState {
            compare: Compare::LessEqual,
            ..*sampler
        };
        let args = QuadSample {
            reference: args.coord[2],
            ..*args
        };
        return generic_quad(texture, &compare, &args);
    }
    match fast::quad_for(texture, sampler) {
        Some(quad) => quad(texture, sampler, args),
        None => generic_quad(texture, sampler, args),
    }
}

/// [`sample_quad`] of a texture that is not a buffer, for every kind,
/// format and sampler.
fn generic_quad(texture: &Texture, sampler: &SamplerState, args: &QuadSample) -> [[f32; 4]; 4] {
    let integer = matches!(texture.format().kind(), FormatKind::Uint | FormatKind::Sint);
    let lanes: [[f32; 4]; 4] = std::array::from_fn(|lane| {
        let Lane { lookup, dx, dy } = lane_lookup(texture, args, lane);
        footprint::sample_lane(texture, sampler, args, lane, &lookup, (&dx, &dy), integer)
    });
    std::array::from_fn(|component| lanes.map(|value| value[component]))
}

/// Where lane `lane` reads and its derivatives.
fn lane_lookup(texture: &Texture, args: &QuadSample, lane: usize) -> Lane {
    let c: [f32; 4] = std::array::from_fn(|k| args.coord[k][lane]);
    let (dcx, dcy): ([f32; 4], [f32; 4]) = if args.mode == LOD_GRADIENT {
        (
            std::array::from_fn(|k| args.ddx[k][lane]),
            std::array::from_fn(|k| args.ddy[k][lane]),
        )
    } else {
        (
            std::array::from_fn(|k| args.coord[k][1] - args.coord[k][0]),
            std::array::from_fn(|k| args.coord[k][2] - args.coord[k][0]),
        )
    };
    let size = texture.level_size(0).map(|s| s as f32);
    let layer = |component: f32, count: u32| {
        let rounded = (component + 0.5).floor();
        if rounded.is_nan() {
            0
        } else {
            rounded.clamp(0.0, (count - 1) as f32) as u32
        }
    };
    let (dims, cube, array) = match texture.kind() {
        TextureKind::Buffer | TextureKind::Texture1D => (1, false, false),
        TextureKind::Texture1DArray => (1, false, true),
        TextureKind::Texture2D | TextureKind::Texture2DMS => (2, false, false),
        TextureKind::Texture2DArray | TextureKind::Texture2DMSArray => (2, false, true),
        TextureKind::Texture3D => (3, false, false),
        TextureKind::TextureCube => (2, true, false),
        TextureKind::TextureCubeArray => (2, true, true),
    };
    let mut lookup = Lookup {
        coord: [c[0], c[1], c[2]],
        dims,
        slice: 0,
        offset: args.offset,
        cube,
    };
    if cube {
        let projection = cube::project([c[0], c[1], c[2]]);
        let cube_index = if array {
            layer(c[3], texture.layers() / 6)
        } else {
            0
        };
        lookup.coord = [projection.uv[0], projection.uv[1], 0.0];
        lookup.slice = 6 * cube_index + projection.face;
        lookup.offset = [0; 3];
        let dx = projection.derivative([dcx[0], dcx[1], dcx[2]]);
        let dy = projection.derivative([dcy[0], dcy[1], dcy[2]]);
        return Lane {
            lookup,
            dx: [dx[0] * size[0], dx[1] * size[1], 0.0],
            dy: [dy[0] * size[0], dy[1] * size[1], 0.0],
        };
    }
    if array {
        lookup.slice = layer(c[dims], texture.layers());
    }
    let scale = |d: [f32; 4]| std::array::from_fn(|a| if a < dims { d[a] * size[a] } else { 0.0 });
    Lane {
        lookup,
        dx: scale(dcx),
        dy: scale(dcy),
    }
}

/// The entry point compiled code calls for a quad's lookup: samples the
/// texture behind `view` (unbound when `view` or its `texture` is null)
/// with `sampler` and `args`, and writes `[component][lane]` to `out`.
///
/// # Safety
///
/// `view` is null or points to a valid [`View`] whose `texture` is null or
/// was set by [`Texture::view`] of a texture still alive; `sampler` and
/// `args` point to valid values; `out` is valid for a write.
pub unsafe extern "C" fn dxjit_sample_quad(
    view: *const View,
    sampler: *const SamplerState,
    args: *const QuadSample,
    out: *mut [[f32; 4]; 4],
) {
    // SAFETY: the caller guarantees `view` is null or valid, and its `texture` null or a live Texture.
    let texture = unsafe {
        view.as_ref()
            .and_then(|v| v.texture.cast::<Texture>().as_ref())
    };
    // SAFETY: the caller guarantees `sampler` and `args` point to valid values.
    let (sampler, args) = unsafe { (&*sampler, &*args) };
    let result = sample_quad(texture, sampler, args);
    // SAFETY: the caller guarantees `out` is valid for a write.
    unsafe { out.write(result) };
}
