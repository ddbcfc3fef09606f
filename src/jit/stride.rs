//! Stride hints: for each raw load and store in the main function, the
//! byte stride its offset most likely has from one lane to the next
//! (`offset = u + s * lane`, as in `ld_raw r0.x,
//! vThreadIDInGroupFlattened.x * 16, g0`).
//!
//! The hint is a guess from a forward walk that ignores control flow:
//! thread indices step by 1 per lane, uniform values by 0, and `mov`,
//! `iadd`, `imul`/`ishl` by a literal and `imad` carry strides through.
//! Compiled code checks the guess against the actual offsets before taking
//! the strided path, so a wrong guess only costs the check.

use super::uniform::Uniformity;
use crate::ir::{AluOp, File, Inst, Program, Src, SysVal};
use std::collections::HashMap;

/// The stride hint of each `ld_raw` and `store_raw` in `main`, by
/// instruction index.
pub fn raw_strides(prog: &Program, uniform: &Uniformity) -> HashMap<usize, i64> {
    let mut temps: HashMap<(u32, u8), i64> = HashMap::new();
    let mut out = HashMap::new();
    for (i, inst) in prog.main.iter().enumerate() {
        match inst {
            Inst::LoadRaw { offset, .. } | Inst::StoreRaw { offset, .. } => {
                if let Some(s) = stride(offset, 0, &temps, uniform) {
                    out.insert(i, s);
                }
                forget_written(inst, &mut temps);
            }
            Inst::Alu { op, dst, src } if dst.file == File::Temp && dst.index.rel.is_none() => {
                for c in 0..4u8 {
                    if dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let s = |n: usize| stride(&src[n], c as usize, &temps, uniform);
                    let lit = |n: usize| literal(&src[n], c as usize);
                    let r = match (op, src.len()) {
                        (AluOp::Mov, 1) => s(0),
                        (AluOp::IAdd, 2) => s(0).zip(s(1)).map(|(a, b)| a + b),
                        (AluOp::IMul, 2) => match (lit(0), lit(1)) {
                            (_, Some(k)) => s(0).map(|a| a * k),
                            (Some(k), _) => s(1).map(|b| b * k),
                            _ => None,
                        },
                        (AluOp::IShl, 2) => lit(1).and_then(|k| s(0).map(|a| a << (k & 31))),
                        (AluOp::IMad, 3) => {
                            let prod = match (lit(0), lit(1)) {
                                (_, Some(k)) => s(0).map(|a| a * k),
                                (Some(k), _) => s(1).map(|b| b * k),
                                _ => None,
                            };
                            prod.zip(s(2)).map(|(a, b)| a + b)
                        }
                        _ => None,
                    };
                    match r {
                        Some(r) => temps.insert((dst.index.base, c), r),
                        None => temps.remove(&(dst.index.base, c)),
                    };
                }
            }
            _ => forget_written(inst, &mut temps),
        }
    }
    out
}

/// Drops the guesses of the temp components `inst` writes (only those: a
/// load into `r0.x` leaves the stride of `r0.w` known).
fn forget_written(inst: &Inst, temps: &mut HashMap<(u32, u8), i64>) {
    for d in inst.destinations() {
        for c in (0..4u8).filter(|c| d.mask & (1 << c) != 0) {
            temps.remove(&(d.index.base, c));
        }
    }
}

/// The literal value of component `c` of `src`, when it is one.
fn literal(src: &Src, c: usize) -> Option<i64> {
    (src.file == File::Imm && !src.neg && !src.abs)
        .then(|| i64::from(src.imm[src.swizzle[c] as usize & 3] as i32))
}

/// The stride guess of component `c` of `src`.
fn stride(
    src: &Src,
    c: usize,
    temps: &HashMap<(u32, u8), i64>,
    uniform: &Uniformity,
) -> Option<i64> {
    if src.neg || src.abs || src.index.rel.is_some() {
        return None;
    }
    let comp = src.swizzle[c] & 3;
    match src.file {
        File::Imm | File::Const(_) | File::ImmConst => Some(0),
        File::SysVal(SysVal::GroupIndex) => Some(1),
        File::SysVal(SysVal::DispatchThreadId | SysVal::GroupThreadId) => {
            Some(i64::from(comp == 0))
        }
        File::SysVal(SysVal::GroupId) => Some(0),
        File::Temp if uniform.temp(src.index.base, comp) => Some(0),
        File::Temp => temps.get(&(src.index.base, comp)).copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
