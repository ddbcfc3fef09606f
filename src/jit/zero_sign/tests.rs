//! Which lookups' results are read only where the sign of a zero is lost.

use super::zero_sign_unobserved;
use crate::ir::{Inst, Program};
use crate::shader::{lower, CompileOptions};

/// For a ps_2_0 body, whether the sign of a zero written by each of its
/// lookups is never observed, in order.
fn lookups(body: &str) -> Vec<bool> {
    let text =
        format!("ps_2_0\ndef c0, 0.5, 0.25, 2.0, 1.0\ndcl t0.xy\ndcl_2d s0\ndcl_2d s1\n{body}\n");
    let bytes = crate::text::assemble(&text).expect("assembles");
    let prog: Program = lower(&bytes, &CompileOptions::default()).expect("lowers").1;
    let main = &prog.main;
    main.iter()
        .enumerate()
        .filter_map(|(i, inst)| match inst {
            Inst::Sample { dst, .. } => Some(zero_sign_unobserved(dst, &main[i + 1..])),
            _ => None,
        })
        .collect()
}

#[test]
fn factors_of_legacy_products_lose_the_sign() {
    let body = "texld r0, t0, s0\ntexld r1, t0, s1\nmul r1, r1, c0\n\
                mad r0, r0, c0, r1\nmov oC0, r0";
    assert_eq!(lookups(body), [true, true]);
    let dot = "texld r0, t0, s0\ndp3 r1, r0, c0\nmov oC0, r1";
    assert_eq!(lookups(dot), [true]);
}

#[test]
fn other_reads_keep_the_sign() {
    // Moved out as it is, added, or the addend of a product.
    for body in [
        "texld r0, t0, s0\nmov oC0, r0",
        "texld r0, t0, s0\nadd r0, r0, c0\nmov oC0, r0",
        "texld r0, t0, s0\nmad r1, c0, c0, r0\nmov oC0, r1",
        "texld r0, t0, s0\nrcp r1.x, r0.x\nmov oC0, r1",
    ] {
        assert_eq!(lookups(body), [false], "{body}");
    }
}

#[test]
fn a_register_written_again_ends_the_reads() {
    // r0.x is rewritten before the move reads it; r0.y is still the
    // lookup's when the move reads it.
    let rewritten = "texld r0, t0, s0\nmul r1, r0, c0\nmov r0, c0\nmov oC0, r0";
    assert_eq!(lookups(rewritten), [true]);
    let partly = "texld r0, t0, s0\nmov r0.x, c0.x\nmov oC0, r0";
    assert_eq!(lookups(partly), [false]);
}

#[test]
fn flow_after_the_lookup_keeps_the_sign() {
    let body = "texld r0, t0, s0\ntexkill r0\nmul r0, r0, c0\nmov oC0, r0";
    assert_eq!(lookups(body), [false]);
}
