//! Random and mutated token streams never panic the decoder or the lowering;
//! generated predicated instructions survive decode, disassembly and
//! assembly unchanged.

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

/// Opcodes with a destination and their source counts: mov, add, mad, mul, max, frc.
const ARITHMETIC: [(u32, usize); 6] = [
    (0x01, 1),
    (0x02, 2),
    (0x04, 3),
    (0x05, 2),
    (0x0b, 2),
    (0x13, 1),
];

/// One predicated instruction in the token order fxc writes: the instruction
/// token (length counting the predicate, bit 28 set), the destination
/// `r#.mask`, the predicate `[!]p0.swizzle`, then `c#` sources with
/// arbitrary swizzles and modifiers (none, -, _abs, -_abs).
fn predicated_instruction() -> impl Strategy<Value = Vec<u32>> {
    (
        prop::sample::select(ARITHMETIC.to_vec()),
        1u32..16,
        0u32..12,
        prop::sample::select(vec![0xe4u32, 0x00, 0x55, 0xaa, 0xff]),
        any::<bool>(),
        prop::collection::vec(
            (
                0u32..32,
                any::<u8>(),
                prop::sample::select(vec![0u32, 1, 11, 12]),
            ),
            3,
        ),
    )
        .prop_map(|((op, n), mask, dst, swizzle, not, srcs)| {
            let not = if not { 0xd << 24 } else { 0 };
            let mut t = vec![
                op | ((n as u32 + 2) << 24) | 1 << 28,
                0x8000_0000 | mask << 16 | dst,
                0xb000_1000 | swizzle << 16 | not,
            ];
            t.extend(
                srcs.iter()
                    .take(n)
                    .map(|&(c, sw, m)| 0xa000_0000 | u32::from(sw) << 16 | m << 24 | c),
            );
            t
        })
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
    fn d3d9_predicated_instructions_round_trip(version in prop::sample::select(vec![0xfffe0201u32, 0xfffe0300, 0xffff0201, 0xffff0300]),
                                               body in prop::collection::vec(predicated_instruction(), 1..8)) {
        let mut tokens = vec![version];
        for inst in &body {
            tokens.extend(inst);
        }
        tokens.push(0xffff);
        let shader = d3d9::decode(&tokens).expect("well-formed predicated instructions decode");
        for (inst, words) in shader.instructions().zip(&body) {
            let p = inst.predicate.as_ref().expect("predicated");
            prop_assert_eq!(p.reg.ty, d3d9::types::RegType::Predicate);
            prop_assert_eq!(p.swizzle, [0u32, 2, 4, 6].map(|sh| ((words[2] >> (16 + sh)) & 3) as u8));
            prop_assert_eq!(inst.src.len(), words.len() - 3);
        }
        let again = d3d9::assemble(&d3d9::disassemble(&shader)).expect("reassembles");
        prop_assert_eq!(again, tokens);
        let _ = d3d9::lower(&shader, &d3d9::Options::default());
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
