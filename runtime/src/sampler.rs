//! Texture sampling: filtering, addressing and level-of-detail selection.

/// Texel filters.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// Nearest texel.
    #[default]
    Point = 0,
    /// Bilinear (trilinear with a linear mip filter).
    Linear = 1,
    /// Anisotropic (treated as linear).
    Anisotropic = 2,
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
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SamplerState {
    /// Minification and magnification filter.
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
}
