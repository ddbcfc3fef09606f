//! Which loops split, into what, and at which lane count, on small
//! programs whose chains can be read off by hand.

use super::{groups, split_loops, Splittable, STATE_VECTORS};
use crate::ir::Liveness;
use crate::ir::{Inst, Program};
use crate::shader::{lower, CompileOptions};

/// A cs_5_0 program of 256-thread groups with `body` between a
/// thread-varying start and a store of `r0` and `r1`.
fn program(body: &str) -> Program {
    program_of(body, 256)
}

/// [`program`] with groups of `threads` threads.
fn program_of(body: &str, threads: u32) -> Program {
    let text = format!(
        "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened.x\ndcl_temps 8\n\
         dcl_thread_group {threads}, 1, 1\nmov r0.xyzw, vThreadIDInGroupFlattened.xxxx\n\
         mov r1.xyzw, vThreadIDInGroupFlattened.xxxx\nmov r7.x, l(0)\n{body}\n\
         store_raw u0.xyzw, l(0), r0.xyzw\nstore_raw u0.xyzw, l(16), r1.xyzw\nret\n"
    );
    let bytes = crate::text::assemble(&text).expect("assembles");
    lower(&bytes, &CompileOptions::default()).expect("lowers").1
}

/// The positions of `prog`'s splittable loops.
fn splittable(prog: &Program) -> Vec<usize> {
    let loops = Splittable::of(prog, &Liveness::of(prog));
    (0..prog.main.len())
        .filter(|&p| loops.contains(p))
        .collect()
}

/// [`super::lanes_for`] over `prog`'s splittable loops.
fn lanes_for(prog: &Program, max_k: usize) -> Option<usize> {
    super::lanes_for(prog, &Splittable::of(prog, &Liveness::of(prog)), max_k)
}

/// A loop of `steps` with the counter in r7.x.
fn counted(steps: &str) -> String {
    format!(
        "loop\nuge r7.y, r7.x, l(8)\nif_nz r7.y\nbreak\nendif\n{steps}\niadd r7.x, r7.x, l(1)\nendloop"
    )
}

/// Four chains of two live components each: a = 3a + 1, y = y + a.
const FOUR_CHAINS: &str = "imad r0.x, r0.x, l(3), l(1)\niadd r1.x, r1.x, r0.x\n\
     imad r0.y, r0.y, l(3), l(1)\niadd r1.y, r1.y, r0.y\n\
     imad r0.z, r0.z, l(3), l(1)\niadd r1.z, r1.z, r0.z\n\
     imad r0.w, r0.w, l(3), l(1)\niadd r1.w, r1.w, r0.w";

/// [`FOUR_CHAINS`] with each `y` taking the `a` of the iteration before
/// (y = y + a, then a = 3a + 1): nothing reads a value the iteration
/// makes, so the loop does not rotate ([`super::super::rotate`]).
const FOUR_CHAINS_OLD_A: &str = "iadd r1.x, r1.x, r0.x\nimad r0.x, r0.x, l(3), l(1)\n\
     iadd r1.y, r1.y, r0.y\nimad r0.y, r0.y, l(3), l(1)\n\
     iadd r1.z, r1.z, r0.z\nimad r0.z, r0.z, l(3), l(1)\n\
     iadd r1.w, r1.w, r0.w\nimad r0.w, r0.w, l(3), l(1)";

/// The loops of `prog`'s main function, each as the count of operations
/// it holds besides the counter's test and increment.
fn loop_sizes(prog: &Program) -> Vec<usize> {
    let mut out = Vec::new();
    let mut count = None;
    for inst in prog.main.iter() {
        match inst {
            Inst::Loop => count = Some(0),
            Inst::EndLoop => out.extend(count.take().map(|c: usize| c - 2)),
            Inst::Alu { .. } => count = count.map(|c| c + 1),
            _ => {}
        }
    }
    out
}

#[test]
fn four_chains_split_two_by_two_at_three_vectors_and_one_by_one_at_four() {
    let prog = program(&counted(FOUR_CHAINS_OLD_A));
    assert_eq!(splittable(&prog).len(), 1);
    assert_eq!(lanes_for(&prog, 4), Some(3), "12 of 14 vectors beats 8");
    // Groups of 64 threads leave 8 of 72 lanes idle at k = 3: still
    // better than 8 vectors; groups of 4 fill only k = 1.
    assert_eq!(
        lanes_for(&program_of(&counted(FOUR_CHAINS_OLD_A), 64), 4),
        Some(3)
    );
    assert_eq!(
        lanes_for(&program_of(&counted(FOUR_CHAINS_OLD_A), 4), 4),
        Some(1)
    );
    let three = split_loops(&prog, 3).expect("splits at k = 3");
    assert_eq!(loop_sizes(&three), vec![4, 4]);
    let four = split_loops(&prog, 4).expect("splits at k = 4");
    assert_eq!(loop_sizes(&four), vec![2, 2, 2, 2]);
    // At one vector a component the whole state (8) fits.
    assert!(split_loops(&prog, 1).is_none());
    // The saved counter takes a fresh temp, restored before each later copy.
    assert_eq!(three.temps, prog.temps + 1);
    let restores = three
        .main
        .iter()
        .filter(|i| matches!(i, Inst::Alu { dst, .. } if dst.index.base == 7 && dst.mask == 1))
        .count();
    assert_eq!(
        restores,
        1 + 2 + 1,
        "the first set, two increments, one restore"
    );
}

#[test]
fn chains_of_a_loop_that_rotates_split_two_by_two_at_four_vectors() {
    // Each `y` reads the `a` its iteration makes: the loop rotates, and a
    // rotated copy may hold 16 vectors.
    let prog = program(&counted(FOUR_CHAINS));
    assert_eq!(lanes_for(&prog, 4), Some(4), "16 of 16 vectors");
    let four = split_loops(&prog, 4).expect("splits at k = 4");
    assert_eq!(loop_sizes(&four), vec![4, 4]);
}

#[test]
fn chains_that_read_each_other_are_one() {
    let joined = FOUR_CHAINS.replace("iadd r1.w, r1.w, r0.w", "iadd r1.w, r1.w, r0.x");
    let prog = program(&counted(&joined));
    assert_eq!(splittable(&prog).len(), 1, "three chains remain");
    let all_joined = "imad r0.x, r0.x, l(3), r1.w\niadd r1.x, r1.x, r0.x\n\
         imad r0.y, r0.y, l(3), r1.x\niadd r1.y, r1.y, r0.y\n\
         imad r0.z, r0.z, l(3), r1.y\niadd r1.z, r1.z, r0.z\n\
         imad r0.w, r0.w, l(3), r1.z\niadd r1.w, r1.w, r0.w";
    let prog = program(&counted(all_joined));
    assert!(splittable(&prog).is_empty());
    assert_eq!(lanes_for(&prog, 4), None);
}

#[test]
fn an_exit_on_a_chain_value_makes_it_control() {
    // Breaking on r1.x makes chain 0 part of the control, repeated in
    // every copy; the other three still split.
    let body = format!("ilt r7.z, l(1000), r1.x\nbreakc_nz r7.z\n{FOUR_CHAINS}");
    let prog = program(&counted(&body));
    let split = split_loops(&prog, 4).expect("splits");
    assert_eq!(loop_sizes(&split), vec![3 + 2, 3 + 2, 3 + 2]);
}

#[test]
fn memory_nested_flow_and_relative_indexing_keep_a_loop_whole() {
    for extra in [
        "store_raw u0.x, l(0), r0.x",
        "if_nz r0.x\nmov r1.x, l(0)\nendif",
        "mov r2.x, r[r7.x + 0].x",
    ] {
        let prog = program(&counted(&format!("{FOUR_CHAINS}\n{extra}")));
        assert!(splittable(&prog).is_empty(), "{extra}");
    }
}

#[test]
fn groups_are_even_and_fit() {
    let limit = STATE_VECTORS;
    assert_eq!(
        groups(&[2, 2, 2, 2], 3, limit),
        Some(vec![vec![0, 1], vec![2, 3]])
    );
    assert_eq!(
        groups(&[2, 2, 2, 2], 2, limit),
        Some(vec![vec![0, 1], vec![2, 3]])
    );
    assert_eq!(groups(&[2, 2, 2, 2], 4, limit).map(|g| g.len()), Some(4));
    assert_eq!(
        groups(&[1, 1, 1, 1, 1, 1, 1], 2, limit),
        Some(vec![(0..7).collect()])
    );
    assert_eq!(
        groups(&[5, 1], 3, limit),
        None,
        "a chain of 15 vectors fits nowhere"
    );
    // A rotated loop holds 16: two chains of two components at k = 4.
    let rotated = super::super::rotate::ROTATED_STATE_VECTORS;
    assert_eq!(
        groups(&[2, 2, 2, 2], 4, rotated),
        Some(vec![vec![0, 1], vec![2, 3]])
    );
}
