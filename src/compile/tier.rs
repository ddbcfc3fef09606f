//! Compile tiers: which code a compile produces, and when.

use crate::jit::Codegen;

/// Which code a compile produces.
///
/// Both tiers give bit-identical results; they differ in compile time and
/// in how fast the code runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Built for compile speed: the single-pass register allocator and one
    /// vector per register component (`k = 1`) unless
    /// [`CompileOptions::k`](crate::CompileOptions::k) asks otherwise.
    First,
    /// Built for speed of the code: the backtracking register allocator and
    /// the stage's lane count.
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

    /// The lane count of a single tier; `stage_default` (which may run an
    /// analysis) is asked only by the tier that uses it.
    pub(crate) fn k(self, stage_default: impl FnOnce() -> usize) -> usize {
        match self {
            Tier::First | Tier::Both => 1,
            Tier::Top => stage_default(),
        }
    }
}
