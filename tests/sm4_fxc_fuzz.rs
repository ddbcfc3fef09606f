//! Random and mutated fxc-style text never makes the assembler panic, and
//! whatever text assembles, or whatever program decodes, comes back to the
//! same tokens through the fxc disassembly.

use dxjit::dxbc::{self, Container};
use dxjit::sm4::{self, Syntax};
use proptest::prelude::*;

/// A real dump to mutate.
fn seed_text() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sm4/fxc/slimshader-hs5_basic.asm"
    ))
    .unwrap()
}

/// Assembles `text` in both dialects and with detection; where that works,
/// the fxc text of the result must give the same program back.
fn exercise(text: &str) {
    for result in [
        sm4::assemble(text),
        sm4::assemble_as(text, Syntax::Fxc),
        sm4::assemble_as(text, Syntax::Vkd3d),
    ] {
        let Ok(bytes) = result else { continue };
        let c = Container::parse(&bytes, true).unwrap();
        let Ok(again) = sm4::disassemble_as(&c, Syntax::Fxc) else {
            continue;
        };
        let back = sm4::assemble_as(&again, Syntax::Fxc)
            .unwrap_or_else(|e| panic!("{e}\n{again}\nfrom\n{text}"));
        let back = Container::parse(&back, true).unwrap();
        assert_eq!(back.program(), c.program(), "{again}");
    }
}

/// Pieces of fxc text to build lines from.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("mov".to_string()),
        Just("sample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float)".to_string()),
        Just(
            "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed)"
                .to_string()
        ),
        Just("dcl_constantbuffer".to_string()),
        Just("dcl_immediateConstantBuffer {".to_string()),
        Just("dcl_input_ps_siv linear noperspective".to_string()),
        Just("dcl_function_table ft0 = {fb0}".to_string()),
        Just("dcl_interface fp0[1][1] = {ft0}".to_string()),
        Just("[precise(xy)]".to_string()),
        Just("l(1.#INF00, -1.#IND00, 0x3f800000, -1)".to_string()),
        Just("cb0[r0.x + 3].xyzw".to_string()),
        Just("vicp[0][1].xyz".to_string()),
        Just("-|r1.xy|".to_string()),
        Just("printf \"%0\", r0.x".to_string()),
        Just("// Input signature:".to_string()),
        Just("// --- ---".to_string()),
        "[a-zA-Z_0-9().,\\[\\] +|{}#=\"-]{0,24}",
        "\\PC{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_fxc_text_never_panics(
        version in prop_oneof![Just("ps_5_0"), Just("hs_5_0"), Just("cs_4_0"), Just("vs_4_0_level_9_1")],
        lines in proptest::collection::vec(proptest::collection::vec(piece(), 1..5), 0..8),
    ) {
        let body: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        exercise(&format!("{version}\n{}", body.join("\n")));
        exercise(&format!("{version}\n{}", body.join(", ")));
    }

    #[test]
    fn mutated_real_dumps_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4, "\\PC{0,6}"), 1..6),
    ) {
        let mut text = seed_text();
        for (at, how, insert) in edits {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            match how {
                0 => text.insert_str(i, &insert),
                1 => {
                    let mut end = (i + insert.len()).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.replace_range(i..end, "");
                }
                2 => text.insert(i, '\n'),
                _ => text.insert_str(i, ["{", "}", "(", "[", "//", "|", ","][insert.len() % 7]),
            }
        }
        exercise(&text);
    }

    #[test]
    fn decoded_programs_round_trip_through_fxc_text(
        body in proptest::collection::vec(prop_oneof![0u32..256, any::<u32>(), 0x0100_0000u32..0x0800_0100], 0..48),
        stage in 0u32..6,
    ) {
        let mut tokens = vec![stage << 16 | 0x50, body.len() as u32 + 2];
        tokens.extend(body);
        let program: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        let c = Container::parse(&dxbc::build(&[(*b"SHEX", program)]), true).unwrap();
        if let Ok(text) = sm4::disassemble_as(&c, Syntax::Fxc) {
            let back = sm4::assemble_as(&text, Syntax::Fxc).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let back = Container::parse(&back, true).unwrap();
            prop_assert_eq!(back.program(), c.program(), "{}", text);
        }
    }
}
