//! UAV counters through the safe API: `Bindings::uav_counter` binds the
//! hidden counter of append / consume buffers, which `imm_atomic_alloc` and
//! `imm_atomic_consume` step atomically across lanes and threads.

mod api_support;

use api_support::{shader, words};
use dxjit::{BindError, Bindings, BufferLayout};
use std::sync::atomic::{AtomicU32, Ordering};

/// Each thread appends its SV_DispatchThreadID.x: it allocates an index and
/// stores its id at (index - cb0[0].x), the counter's initial value.
const APPEND_IDS: &str = "cs_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_uav_structured_opc u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 32, 1, 1
imm_atomic_alloc r0.x, u0
iadd r0.x, r0.x, -cb0[0].x
store_structured u0.x, r0.x, l(0), vThreadID.x
ret
";

/// Each thread stores what consume returned at its own element.
const CONSUME: &str = include_str!("asm/consume.asm");

#[test]
fn appends_from_many_threads_fill_every_index_once() {
    let s = shader(APPEND_IDS);
    let start = 10u32;
    let constants = start.to_le_bytes();
    let mut out = vec![0xffu8; 96 * 4];
    let counter = AtomicU32::new(start);
    let mut b = Bindings::new();
    b.constant_buffer(0, &constants)
        .unwrap()
        .rw_buffer(0, &mut out, BufferLayout::Structured(4))
        .unwrap()
        .uav_counter(0, &counter)
        .unwrap();
    s.dispatch(&b, [3, 1, 1]).expect("runs");
    drop(b);
    // 3 groups of 32 threads allocate 96 indices from 10: the counter ends at
    // 106, and sorting the ids (the order of appends is unspecified) gives
    // 0..95 exactly when every index was handed out once.
    assert_eq!(counter.load(Ordering::SeqCst), 106);
    let mut ids = words(&out);
    ids.sort_unstable();
    assert_eq!(ids, (0..96).collect::<Vec<u32>>());
}

#[test]
fn consume_returns_the_new_value_and_wraps_below_zero() {
    let s = shader(CONSUME);
    let mut out = vec![0u8; 16];
    let counter = AtomicU32::new(2);
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Structured(4))
        .unwrap()
        .uav_counter(0, &counter)
        .unwrap();
    s.dispatch(&b, [1, 1, 1]).expect("runs");
    drop(b);
    // From 2, four decrements return 1, 0, then wrap to 0xffffffff and
    // 0xfffffffe; the counter ends at 2 - 4 = -2.
    assert_eq!(counter.load(Ordering::SeqCst), 0xffff_fffe);
    let mut got = words(&out);
    got.sort_unstable();
    assert_eq!(got, vec![0, 1, 0xffff_fffe, 0xffff_ffff]);
}

#[test]
fn a_counter_slot_out_of_range_is_refused() {
    let counter = AtomicU32::new(0);
    let mut b = Bindings::new();
    assert!(matches!(
        b.uav_counter(64, &counter),
        Err(BindError::SlotOutOfRange { slot: 64, .. })
    ));
}
