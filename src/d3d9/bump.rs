//! The bump-environment texture-stage state (`D3DTSS_BUMPENVMAT00..11`,
//! `D3DTSS_BUMPENVLSCALE`, `D3DTSS_BUMPENVLOFFSET`) that `texbem`, `texbeml`
//! and `bem` read, and the constant block a lowered shader finds it in.
//!
//! ```
//! use dxjit::d3d9::bump::{BumpEnv, BumpEnvBlock, BUMP_ENV_SLOT};
//! let mut block = BumpEnvBlock::default();
//! block.set(1, BumpEnv { matrix: [0.5, 0.0, 0.0, 0.5], lum_scale: 1.0, lum_offset: 0.0 });
//! let mut bindings = dxjit_runtime::dispatch::Bindings::default();
//! bindings.cbs[BUMP_ENV_SLOT as usize] = block.view();
//! // `block` must stay alive and in place while shaders run with `bindings`.
//! ```

use dxjit_runtime::abi::View;

/// The constant-buffer slot the block is bound to (`Const(3)` in the IR).
pub const BUMP_ENV_SLOT: u32 = 3;

/// Texture stages that have bump-environment state.
pub const STAGES: usize = 8;

/// Rows of the block: a matrix row per stage, then a luminance row per stage.
pub const ROWS: usize = 2 * STAGES;

/// One texture stage's bump-environment state. The default is Direct3D 9's:
/// every value 0.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BumpEnv {
    /// `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11`: `u' = u + m00 du + m10 dv`,
    /// `v' = v + m01 du + m11 dv`.
    pub matrix: [f32; 4],
    /// `D3DTSS_BUMPENVLSCALE`.
    pub lum_scale: f32,
    /// `D3DTSS_BUMPENVLOFFSET`.
    pub lum_offset: f32,
}

/// The block bound at [`BUMP_ENV_SLOT`]: row `n` holds stage `n`'s matrix
/// (m00, m01, m10, m11), row `8 + n` its luminance scale and offset in x and
/// y. 16-byte aligned, as constant buffers must be.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C, align(16))]
pub struct BumpEnvBlock {
    rows: [[f32; 4]; ROWS],
}

impl BumpEnvBlock {
    /// A block holding `stages` (stage 0 first; stages not given stay 0).
    pub fn new(stages: &[BumpEnv]) -> BumpEnvBlock {
        let mut block = BumpEnvBlock::default();
        for (n, env) in stages.iter().enumerate().take(STAGES) {
            block.set(n, *env);
        }
        block
    }

    /// Sets stage `stage`'s state (`stage` below [`STAGES`]).
    pub fn set(&mut self, stage: usize, env: BumpEnv) {
        self.rows[stage] = env.matrix;
        self.rows[STAGES + stage] = [env.lum_scale, env.lum_offset, 0.0, 0.0];
    }

    /// The block as memory words, row 0 first.
    pub fn words(&self) -> Vec<u32> {
        self.rows.iter().flatten().map(|x| x.to_bits()).collect()
    }

    /// A constant-buffer view of the block, for `Bindings::cbs[BUMP_ENV_SLOT]`.
    /// The view points into `self`, which must outlive its use and not move.
    pub fn view(&mut self) -> View {
        View {
            ptr: self.rows.as_mut_ptr() as *mut u8,
            size: std::mem::size_of::<Self>() as u32,
            ..View::EMPTY
        }
    }
}
