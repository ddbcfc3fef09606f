//! Random and mutated token streams and containers never make the SM4/5
//! front end panic: every problem is an error value.

use dxjit::dxbc::{self, Container};
use dxjit::sm4;
use proptest::prelude::*;

fn seed() -> Vec<u32> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sm4/ps_flow.asm"
    ))
    .unwrap();
    let c = Container::parse(&sm4::assemble(&text).unwrap(), true).unwrap();
    c.program().unwrap().to_vec()
}

fn exercise(tokens: &[u32]) {
    let _ = sm4::decode(tokens);
    let program: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = dxbc::build(&[(*b"SHEX", program)]);
    let c = Container::parse(&bytes, true).unwrap();
    let _ = sm4::lower(&c);
    let _ = sm4::disassemble(&c);
    let _ = sm4::info(&c);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn sm4_random_tokens_do_not_panic(tokens in proptest::collection::vec(any::<u32>(), 0..64)) {
        exercise(&tokens);
    }

    #[test]
    fn sm4_random_headers_with_plausible_tokens_do_not_panic(
        body in proptest::collection::vec(prop_oneof![0u32..256, any::<u32>(), 0x0100_0000u32..0x0800_0100], 0..48),
        stage in 0u32..6,
    ) {
        let mut tokens = vec![stage << 16 | 0x50, body.len() as u32 + 2];
        tokens.extend(body);
        exercise(&tokens);
    }

    #[test]
    fn sm4_mutated_programs_do_not_panic(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..3), 1..6)) {
        let mut tokens = seed();
        for (at, value, how) in edits {
            let i = at.index(tokens.len());
            match how {
                0 => tokens[i] = value,
                1 => tokens[i] ^= 1 << (value % 32),
                _ => tokens.truncate(i.max(2)),
            }
        }
        exercise(&tokens);
    }

    #[test]
    fn dxbc_random_and_mutated_containers_do_not_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
        verify in any::<bool>(),
    ) {
        let program: Vec<u8> = seed().iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut bytes = dxbc::build(&[(*b"ISGN", vec![1, 0, 0, 0, 8, 0, 0, 0]), (*b"SHEX", program)]);
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let keep = cut.index(bytes.len() + 1);
        bytes.truncate(keep.max(bytes.len() / 2));
        if let Ok(c) = Container::parse(&bytes, verify) {
            let _ = sm4::lower(&c);
            let _ = sm4::disassemble(&c);
        }
    }

    #[test]
    fn sm4_assembler_never_panics_on_text(lines in proptest::collection::vec(prop_oneof![
            "[a-z_0-9().,\\[\\] +|{}-]{0,40}",
            "\\PC{0,20}",
            "(mov|dcl_resource|dcl_input_ps|sample|if|sync|dcl_indexableTemp|ld|l)\\PC{0,8} \\PC{0,16}",
        ], 0..8)) {
        let _ = sm4::assemble(&format!("ps_5_0\n{}", lines.join("\n")));
    }
}
