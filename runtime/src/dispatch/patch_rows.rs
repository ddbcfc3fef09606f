//! The per-patch constant buffer hull and domain shaders read their patch
//! through: compiled code sees it as constant-buffer slot [`SLOT`], which
//! Direct3D 11 leaves to no application buffer (its slots are 0-13).
//!
//! Row [`HEADER`] holds the call's (phase, instance, primitive id, 0);
//! input control points (`vicp[i][r]`) follow, register-major with a fixed
//! stride of [`MAX_CONTROL_POINTS`] so that a control-point index relative
//! to a register needs no scaling; then output control points (`vocp`),
//! laid out the same way; then patch constants (`vpc[r]`).

/// The constant-buffer slot the patch rows are bound to.
pub const SLOT: u32 = 15;
/// The header row: x = phase, y = fork/join instance, z = SV_PrimitiveID.
pub const HEADER: u32 = 0;
/// Control points a patch can have (`patch_list_32`).
pub const MAX_CONTROL_POINTS: u32 = 32;
/// Registers a control point or the patch constants can have.
pub const MAX_REGS: u32 = 32;
/// The first row of the input control points.
pub const INPUT_POINTS: u32 = 1;
/// The first row of the output control points.
pub const OUTPUT_POINTS: u32 = INPUT_POINTS + MAX_CONTROL_POINTS * MAX_REGS;
/// The first row of the patch constants.
pub const PATCH_CONSTANTS: u32 = OUTPUT_POINTS + MAX_CONTROL_POINTS * MAX_REGS;
/// Rows in the buffer.
pub const ROWS: u32 = PATCH_CONSTANTS + MAX_REGS;

/// The row of register `reg` of control point `point` in the block of
/// control points starting at row `first`.
pub const fn point_row(first: u32, point: u32, reg: u32) -> u32 {
    first + reg * MAX_CONTROL_POINTS + point
}

/// A zeroed buffer of [`ROWS`] rows.
pub(super) fn new_rows() -> Vec<[u32; 4]> {
    vec![[0; 4]; ROWS as usize]
}

/// Copies `points` control points of `regs` registers each (vertex-major in
/// `from`) into the block starting at row `first`; registers past
/// [`MAX_REGS`] are not addressable and are dropped.
pub(super) fn put_points(
    rows: &mut [[u32; 4]],
    first: u32,
    from: &[[u32; 4]],
    points: u32,
    regs: u32,
) {
    for p in 0..points.min(MAX_CONTROL_POINTS) {
        for r in 0..regs.min(MAX_REGS) {
            let value = from.get((p * regs + r) as usize).copied().unwrap_or([0; 4]);
            rows[point_row(first, p, r) as usize] = value;
        }
    }
}

/// A constant-buffer view of `rows`, to place at [`SLOT`].
pub(super) fn view(rows: &mut [[u32; 4]]) -> crate::abi::View {
    crate::abi::View {
        ptr: rows.as_mut_ptr().cast::<u8>(),
        size: (rows.len() * 16) as u32,
        ..crate::abi::View::EMPTY
    }
}
