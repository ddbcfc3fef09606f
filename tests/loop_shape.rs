//! The shape of a uniform loop's compiled code: its header carries only
//! the values the loop changes, an exit that computes a value before its
//! `break` leaves the loop bounded (no interrupt check, whose cold path
//! returns), and a loop run
//! once (every path breaks) goes round from nowhere. Each program also runs
//! and is checked against hand-computed results.

use dxjit::{Bindings, BufferLayout, CompileOptions, Tier};

/// Compiles `text` at the top tier, one vector a component, with its
/// listing; runs one group of four threads, each storing three words at
/// 16 × its id; returns the Cranelift IR and the words.
fn compile_and_run(text: &str) -> (String, Vec<u32>) {
    let bytes = dxjit::text::assemble(text).expect("assembles");
    let options = CompileOptions {
        tier: Tier::Top,
        listing: true,
        k: Some(1),
        ..Default::default()
    };
    let shader = dxjit::compile(&bytes, &options).expect("compiles");
    let clif = shader.listing().expect("asked for").clif.clone();
    let mut out = vec![0u8; 64];
    {
        let mut b = Bindings::new();
        b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
        shader.dispatch(&b, [1, 1, 1]).expect("runs");
    }
    let words = out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (clif, words)
}

/// The vector parameters of each block of `clif` that has a scalar `i32`
/// parameter (a loop header carrying a counter).
fn header_vectors(clif: &str) -> Vec<usize> {
    clif.lines()
        .filter(|l| l.starts_with("block") && l.contains(": i32,"))
        .map(|l| l.matches("i32x4").count())
        .collect()
}

/// Each thread: r1.x = 1.5 a trip, 8 trips; r1.y = r1.x × 2 on the way
/// out; r2.x = its id, set before the loop and read only after it.
const EXIT_WITH_WORK: &str = "cs_5_0
dcl_uav_raw u0
dcl_temps 4
dcl_thread_group 4, 1, 1
mov r0.x, l(0)
mov r1.xy, l(0, 0, 0, 0)
mov r2.x, vThreadID.x
loop
  uge r0.z, r0.x, l(8)
  if_nz r0.z
    mul r1.y, r1.x, l(2.0)
    break
  endif
  add r1.x, r1.x, l(1.5)
  iadd r0.x, r0.x, l(1)
endloop
ishl r3.x, vThreadID.x, l(4)
mov r1.z, r2.x
store_raw u0.xyz, r3.x, r1.xyzx
ret
";

#[test]
fn a_uniform_loop_header_carries_only_what_the_loop_changes() {
    let (clif, words) = compile_and_run(EXIT_WITH_WORK);
    // r1.x is the one vector the loop changes: the masks, r2.x and r1.y
    // (written only on the way out) pass no header parameter.
    assert_eq!(header_vectors(&clif), vec![1], "{clif}");
    // An exit that computes before its `break` still bounds the loop by
    // its counter: no interrupt check, so the function's one return is
    // its end's.
    assert_eq!(clif.matches("return").count(), 1, "{clif}");
    for t in 0..4 {
        let at = t * 4;
        assert_eq!(f32::from_bits(words[at]), 12.0, "thread {t}");
        assert_eq!(f32::from_bits(words[at + 1]), 24.0, "thread {t}");
        assert_eq!(words[at + 2], t as u32, "thread {t}");
    }
}

#[test]
fn a_loop_every_path_of_which_breaks_has_no_back_edge() {
    // The outer loop runs its body once (its last instruction breaks):
    // only the inner loop's header carries values round. (With a back
    // edge from its empty latch, the outer header would carry the
    // counter too.)
    let text = EXIT_WITH_WORK
        .replace("mov r0.x, l(0)\n", "mov r0.x, l(0)\nloop\n")
        .replace("endloop\n", "endloop\nbreak\nendloop\n");
    let (clif, words) = compile_and_run(&text);
    assert_eq!(header_vectors(&clif), vec![1], "{clif}");
    for t in 0..4 {
        assert_eq!(f32::from_bits(words[t * 4]), 12.0, "thread {t}");
        assert_eq!(f32::from_bits(words[t * 4 + 1]), 24.0, "thread {t}");
        assert_eq!(words[t * 4 + 2], t as u32, "thread {t}");
    }
}
