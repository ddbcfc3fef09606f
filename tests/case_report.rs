//! Report lines, the summary and the JSON report; and target checks, which
//! decode pixels through the runtime's `Format::load` (the format tests
//! here need `runtime/src/format.rs`'s conversions).

use std::path::Path;

use dxjit_cli::case::{
    check, json_report, parse_case_str, report_line, Action, CaseError, CaseReport, Outcome,
    Summary,
};

/// A draw into a 4x2 target of `format`, expecting `value` over `rect`.
fn draw_case(format: &str, value: &str) -> String {
    format!(
        "format = 1\nname = \"t\"\n[ps]\ndwords = [0xffff0200, 0x0000ffff]\n[draw]\n\
         targets = [{{ format = \"{format}\", width = 4, height = 2 }}]\n\
         [[expect]]\nrect = [0, 0, 4, 2]\nvalue = {value}\nabs = 0.002\n"
    )
}

#[test]
fn case_pass_and_fail_lines() {
    let case = parse_case_str(&draw_case("r32_uint", "[7]"), Path::new("t.toml")).expect("parses");
    let pass = CaseReport::from_failures(&case, Vec::new());
    assert_eq!(report_line(&pass), "PASS t");
    let fail = CaseReport::new(&case, &Err("no pixel shaders yet".into()));
    assert_eq!(
        report_line(&fail),
        "FAIL t\n    could not run: no pixel shaders yet"
    );
    let bad = CaseReport::unparsable(&CaseError::Invalid {
        path: "x/bad.toml".into(),
        what: "no [[expect]]".into(),
    });
    assert_eq!(
        report_line(&bad),
        "FAIL bad\n    cannot parse: x/bad.toml: no [[expect]]"
    );
    let reports = [pass, fail, bad];
    assert_eq!(Summary::of(&reports).to_string(), "1 passed, 2 failed");
    let json = json_report(&reports);
    assert_eq!(json["passed"], 1);
    assert_eq!(json["failed"], 2);
    assert_eq!(json["cases"][0]["status"], "pass");
    assert_eq!(
        json["cases"][1]["failures"][0]["what"],
        "could not run: no pixel shaders yet"
    );
    assert_eq!(
        json["cases"][1]["failures"][0]["expect"],
        serde_json::Value::Null
    );
    assert_eq!(json["cases"][2]["path"], "x/bad.toml");
}

/// Runs [`draw_case`] against its target cleared to `clear` and then
/// `poke` applied.
fn run_draw(
    format: &str,
    value: &str,
    clear: [u32; 4],
    poke: impl Fn(&mut Vec<u8>),
) -> Vec<String> {
    let case = parse_case_str(&draw_case(format, value), Path::new("t.toml")).expect("parses");
    let Action::Draw(draw) = &case.action else {
        panic!("draw")
    };
    let mut targets = draw
        .targets
        .iter()
        .map(|t| t.cleared(clear))
        .collect::<Vec<_>>();
    poke(&mut targets[0].data);
    let outcome = Outcome {
        targets,
        ..Outcome::default()
    };
    check(&case, &Ok(outcome))
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn case_unorm_targets_decode_to_unit_floats() {
    let half = 0.5f32.to_bits();
    let one = 1.0f32.to_bits();
    let value = "[0.5, 0.0, 1.0, 1.0]";
    assert!(run_draw("rgba8_unorm", value, [half, 0, one, one], |_| {}).is_empty());
    // bgra8 lies b, g, r, a in memory but is written r, g, b, a.
    assert!(run_draw("bgra8_unorm", value, [half, 0, one, one], |_| {}).is_empty());
    let fails = run_draw("rgba8_unorm", value, [half, 0, one, one], |d| d[4] = 0);
    assert_eq!(
        fails,
        ["[[expect]] #0: target 0 rect [0, 0, 4, 2]: 1 of 8 pixels differ from [0.5, 0.0, 1.0, 1.0] (abs 0.002): (1, 0) has [0.0, 0.0, 1.0, 1.0]"]
    );
}

#[test]
fn case_integer_targets_compare_words_or_numbers() {
    assert!(run_draw("r32_uint", "[7]", [7, 0, 0, 0], |_| {}).is_empty());
    assert!(run_draw("r32_uint", "[7.0]", [7, 0, 0, 0], |_| {}).is_empty());
    assert!(run_draw("r32_sint", "[-2.0]", [(-2i32) as u32, 0, 0, 0], |_| {}).is_empty());
    let fails = run_draw("r32_uint", "[7]", [7, 0, 0, 0], |d| {
        for px in d.chunks_mut(4).skip(2) {
            px[0] = 9;
        }
    });
    assert_eq!(
        fails,
        ["[[expect]] #0: target 0 rect [0, 0, 4, 2]: 6 of 8 pixels differ from [0x7] (abs 0.002): (2, 0) has [0x9]; (3, 0) has [0x9]; (0, 1) has [0x9]"]
    );
}
