//! A group run phase by phase (one call for the whole group, every
//! barrier at main's top level) that a deadline stops in the middle of a
//! phase: the call fails, and the next call of the same shader runs every
//! group from the start with the right results.

use dxjit::{Bindings, BufferLayout, CallOptions, CompileOptions, RunError, Tier};
use std::time::Duration;

/// Groups of 24 threads (a partly filled batch at 16 lanes): thread `t`
/// writes `100g + t` to g0[t]; after a barrier, while cb0[0].x is not 0,
/// it spins in a loop every thread takes alike; after a second barrier it
/// stores its mirror's word, g0[23 − t], at u0 word 24g + t.
const MIRROR: &str = "cs_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_uav_raw u0
dcl_tgsm_raw g0, 96
dcl_input vThreadIDInGroupFlattened.x
dcl_input vThreadGroupID.x
dcl_temps 3
dcl_thread_group 24, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
imad r0.y, vThreadGroupID.x, l(100), vThreadIDInGroupFlattened.x
store_raw g0.x, r0.x, r0.y
sync_g_t
loop
  breakc_z cb0[0].x
endloop
sync_g_t
iadd r1.x, vThreadIDInGroupFlattened.x, l(-23)
ineg r1.x, r1.x
ishl r1.x, r1.x, l(2)
ld_raw r1.y, r1.x, g0.xxxx
imad r2.x, vThreadGroupID.x, l(24), vThreadIDInGroupFlattened.x
ishl r2.x, r2.x, l(2)
store_raw u0.x, r2.x, r1.y
ret
";

#[test]
fn a_deadline_stops_a_phase_and_the_next_call_runs_every_phase() {
    let bytes = dxjit::text::assemble(MIRROR).expect("assembles");
    let options = CompileOptions {
        tier: Tier::Top,
        ..Default::default()
    };
    let shader = dxjit::compile(&bytes, &options).expect("compiles");
    let call = CallOptions {
        deadline: Some(Duration::from_millis(20)),
        validate: false,
    };
    let mut out = vec![0xccu8; 3 * 24 * 4];

    let spin = 1u32.to_le_bytes().repeat(4);
    {
        let mut b = Bindings::new();
        b.constant_buffer(0, &spin).unwrap();
        b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
        assert_eq!(
            shader.dispatch_with(&b, [3, 1, 1], &call).unwrap_err(),
            RunError::DeadlineExceeded(Duration::from_millis(20))
        );
    }
    assert!(
        out.iter().all(|&b| b == 0xcc),
        "no group got past the spinning phase"
    );

    let go_on = [0u8; 16];
    {
        let mut b = Bindings::new();
        b.constant_buffer(0, &go_on).unwrap();
        b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
        shader.dispatch_with(&b, [3, 1, 1], &call).expect("runs");
    }
    let words: Vec<u32> = out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for g in 0..3u32 {
        for t in 0..24u32 {
            assert_eq!(
                words[(24 * g + t) as usize],
                100 * g + 23 - t,
                "group {g} thread {t}"
            );
        }
    }
}
