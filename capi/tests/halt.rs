//! A shader that runs `abort` stops the C call with `DXJIT_STATUS_HALTED`
//! and a message naming the instruction.

mod support;

use dxjit_capi::bindings::Bindings;
use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::dispatch::dxjit_dispatch;
use dxjit_capi::Status;
use support::{assemble, empty_bindings, raw_uav, with_message};

/// Thread 1 runs `abort`. Hand-counted: version and length 8 bytes,
/// dcl_uav_raw 12, dcl_input 8, dcl_temps 8, dcl_thread_group 16, ieq 24,
/// if_nz 12: `abort` is at byte 88, instruction 6.
const ABORTS: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 2, 1, 1
ieq r0.x, vThreadID.x, l(1)
if_nz r0.x
  abort
endif
ret
";

#[test]
fn abort_returns_halted_with_the_instruction() {
    let shader = assemble(ABORTS);
    let mut data = [0u32; 2];
    let uav = raw_uav(0, &mut data);
    let b = Bindings {
        uavs: &uav,
        uav_count: 1,
        ..empty_bindings()
    };
    for _ in 0..2 {
        // SAFETY: a live shader, bindings over live memory.
        let (status, message) = with_message(|m| unsafe { dxjit_dispatch(shader, &b, 1, 1, 1, m) });
        assert_eq!(status, Status::Halted);
        assert_eq!(
            message, "the shader ran `abort` at byte 88 (instruction 6)",
            "and again on the next call: the halt word was cleared"
        );
    }
    // SAFETY: a live shader, freed once.
    unsafe { dxjit_shader_free(shader) };
}
