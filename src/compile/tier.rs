//! Compile tiers: which code a compile produces, and when.

use crate::jit::Codegen;

/// Which code a compile produces.
///
/// Both tiers give bit-identical results; they differ in compile time and
/// in how fast the code runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Built for compile speed: stencils (machine code compiled once per
    /// process for each kind of piece) copied and patched, at the stage's
    /// lane count; programs with group barriers and hull and geometry
    /// shaders with Cranelift's single-pass register allocator and one
    /// vector per register component. [`CompileOptions::k`](crate::CompileOptions::k)
    /// sets the lane count of either.
    First,
    /// Built for speed of the code: the backtracking register allocator and
    /// the stage's lane count, fewer when a loop's state would not fit in
    /// the registers.
    Top,
    /// The first tier at once, the top tier in the background; a shader
    /// switches to the top tier between calls, never during one.
    #[default]
    Both,
}

impl std::str::FromStr for Tier {
    type Err = String;

    /// `first`, `top` or `both`.
    fn from_str(s: &str) -> Result<Tier, String> {
        match s {
            "first" => Ok(Tier::First),
            "top" => Ok(Tier::Top),
            "both" => Ok(Tier::Both),
            other => Err(format!(
                "unknown tier `{other}`: expected first, top or both"
            )),
        }
    }
}

impl Tier {
    /// The code generator settings of a single tier (`Both` starts with
    /// the first).
    pub(crate) fn codegen(self) -> Codegen {
        match self {
            Tier::First | Tier::Both => Codegen::Quick,
            Tier::Top => Codegen::Full,
        }
    }
}
