//! DXBC bytes through the whole pipeline: the first byte picks whether the
//! checksum is fixed up (so mutations reach the decoder) or verified.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if flag & 1 == 1 && bytes.len() >= 20 && bytes.starts_with(b"DXBC") {
        let sum = dxjit::dxbc::checksum(&bytes);
        for (i, w) in sum.iter().enumerate() {
            bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
    }
    dxjit_fuzz::compile_and_run(&bytes, flag & 1 == 0);
});
