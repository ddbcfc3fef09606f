//! `abort` and `debug_break` through the Rust API: the call fails with
//! `RunError::Halted` naming the instruction, the halt word is cleared,
//! and an embedder's own interrupt is still told apart.

mod api_support;

use api_support::shader;
use dxjit::{Bindings, BufferLayout, RunError};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Thread 2 runs `abort`. Hand-counted: version and length 8 bytes,
/// dcl_uav_raw 12, dcl_input 8, dcl_temps 8, dcl_thread_group 16, ieq 24,
/// if_nz 12: `abort` is at byte 88, instruction 6.
const ABORTS: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
ieq r0.x, vThreadID.x, l(2)
if_nz r0.x
  abort
endif
ret
";

#[test]
fn abort_fails_the_call_with_its_place_and_clears_the_word() {
    let s = shader(ABORTS);
    let mut out = vec![0u8; 16];
    let flag = Arc::new(AtomicU32::new(0));
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    b.set_interrupt(flag.clone());
    let err = s.dispatch(&b, [1, 1, 1]).unwrap_err();
    assert_eq!(
        err,
        RunError::Halted {
            instruction: "abort",
            offset: 88,
            index: Some(6),
        }
    );
    assert_eq!(
        err.to_string(),
        "the shader ran `abort` at byte 88 (instruction 6)"
    );
    assert_eq!(flag.load(Ordering::Relaxed), 0, "the halt word is cleared");
    // The next call halts again, rather than seeing a stale word.
    assert!(matches!(
        s.dispatch(&b, [1, 1, 1]),
        Err(RunError::Halted { .. })
    ));
}

#[test]
fn an_embedders_interrupt_is_not_a_halt() {
    let s = shader(ABORTS);
    let mut out = vec![0u8; 16];
    let flag = Arc::new(AtomicU32::new(5));
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    b.set_interrupt(flag.clone());
    assert_eq!(s.dispatch(&b, [1, 1, 1]), Err(RunError::Interrupted));
    assert_eq!(
        flag.load(Ordering::Relaxed),
        5,
        "the embedder's flag stays set"
    );
}
