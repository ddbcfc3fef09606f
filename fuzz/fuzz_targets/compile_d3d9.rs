//! D3D9 token streams through the whole pipeline.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Never a DXBC container: this target is about token streams.
    if !data.starts_with(b"DXBC") {
        dxjit_fuzz::compile_and_run(data, true);
    }
});
