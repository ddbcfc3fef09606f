//! Whether a lookup's result may be −0 where it is read.
//!
//! D3D9's legacy multiply makes `0 × y` +0 for either zero, so multiplying
//! by a literal costs a subtraction that turns −0 into +0 first (see
//! `alu.rs`). A lookup filtered in compiled code never yields −0, but the
//! runtime's, for formats that hold −0, may. When nothing after the lookup
//! can tell −0 from +0 (every read of its result is a factor of a legacy
//! product, until the register is written again), the runtime's results
//! are made +0 there, once, and the products by literals need no
//! subtraction.

use crate::ir::{AluOp, Dst, File, Inst, Src};

/// Whether the sign of a zero written to `dst` is never observed by
/// `rest`, the instructions that follow up to the program's end
/// (straight-line code only: any other instruction kind, or a read of the
/// register in any other role, says no).
pub fn zero_sign_unobserved(dst: &Dst, rest: &[Inst]) -> bool {
    if dst.file != File::Temp || dst.index.rel.is_some() {
        return false;
    }
    let reg = dst.index.base;
    let mut tracked = dst.mask;
    for inst in rest {
        let (factors, others): (Vec<&Src>, Vec<&Src>) = match inst {
            Inst::Alu {
                op: AluOp::MulLegacy | AluOp::MadLegacy,
                src,
                ..
            } => (src.iter().take(2).collect(), src.iter().skip(2).collect()),
            Inst::Dot {
                legacy: true, a, b, ..
            } => (vec![a, b], Vec::new()),
            Inst::Alu { .. } | Inst::Dot { .. } | Inst::Sample { .. } => {
                (Vec::new(), inst.sources())
            }
            _ => return false,
        };
        if factors.iter().any(|s| indexed_by(s, reg))
            || others
                .iter()
                .any(|s| reads(s, reg, tracked) || indexed_by(s, reg))
        {
            return false;
        }
        for written in inst.destinations() {
            if written.file != File::Temp {
                continue;
            }
            if written.index.rel.is_some() {
                return false;
            }
            if written.index.base == reg {
                tracked &= !written.mask;
            }
        }
        if tracked == 0 {
            return true;
        }
    }
    true
}

/// Whether `src` reads a component of temp `reg` in `mask`.
fn reads(src: &Src, reg: u32, mask: u8) -> bool {
    src.file == File::Temp
        && src.index.base == reg
        && src.swizzle.iter().any(|&c| mask & (1 << c) != 0)
}

/// Whether `src` reads temps at a relative index (which may be `reg`), or
/// its index reads `reg`.
fn indexed_by(src: &Src, reg: u32) -> bool {
    match &src.index.rel {
        Some(rel) => src.file == File::Temp || reads(rel, reg, 0xf) || indexed_by(rel, reg),
        None => false,
    }
}

#[cfg(test)]
mod tests;
