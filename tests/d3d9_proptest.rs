//! Random and mutated token streams never panic the decoder or the lowering.

use dxjit::d3d9;
use proptest::prelude::*;

const SEED: [u32; 13] = [
    0xffff0200, 0x0200001f, 0x80000000, 0x90030000, 0x0200001f, 0x90000000, 0xa00f0800, 0x03000042,
    0x800f0000, 0xb0e40000, 0xa0e40800, 0x02000001, 0x0000ffff,
];

fn check(tokens: &[u32]) {
    if let Ok(shader) = d3d9::decode(tokens) {
        let _ = d3d9::lower(&shader, &d3d9::Options::default());
        let _ = d3d9::info(&shader);
        let _ = d3d9::assemble(&d3d9::disassemble(&shader));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn d3d9_random_streams(version in prop::sample::select(vec![0xfffe0101u32, 0xfffe0200, 0xfffe0300, 0xffff0104, 0xffff0101, 0xffff0200, 0xffff0300]),
                           body in prop::collection::vec(any::<u32>(), 0..24)) {
        let mut tokens = vec![version];
        tokens.extend(body);
        tokens.push(0xffff);
        check(&tokens);
    }

    #[test]
    fn d3d9_mutated_streams(at in 0usize..SEED.len(), word in any::<u32>(), bit in 0u32..32) {
        let mut tokens = SEED.to_vec();
        tokens[at] ^= 1 << bit;
        check(&tokens);
        tokens[at] = word;
        check(&tokens);
    }
}
