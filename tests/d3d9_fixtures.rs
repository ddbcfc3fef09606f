//! Round trips and lowering of hand-written D3D9 fixtures (always run).

use dxjit::d3d9;

fn fixtures() -> Vec<String> {
    include_str!("data/d3d9/fixtures.asm")
        .split("===")
        .map(|s| s.trim().to_string())
        .collect()
}

#[test]
fn d3d9_fixtures_round_trip_and_lower() {
    for text in fixtures() {
        let tokens = d3d9::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let shader = d3d9::decode(&tokens).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let again = d3d9::assemble(&d3d9::disassemble(&shader)).expect("reassemble");
        assert_eq!(again, tokens, "{}", d3d9::disassemble(&shader));
        for legacy_mul in [false, true] {
            let program = d3d9::lower(&shader, &d3d9::Options { legacy_mul })
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            dxjit::ir::validate(&program).expect("valid IR");
        }
        assert!(d3d9::info(&shader).contains("instructions:"));
    }
}

#[test]
fn d3d9_rejects_garbage_without_panicking() {
    assert!(d3d9::assemble("").is_err());
    assert!(d3d9::assemble("ps_2_0\nfoo r0").is_err());
    assert!(d3d9::decode(&[0xffff0200, 0x02000001]).is_err());
}
