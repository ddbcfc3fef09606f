//! Comparison edge cases: NaN, signed zeros, ulp and abs tolerances, integer
//! words against floats, and `check` over whole outcomes.

use std::collections::BTreeMap;
use std::path::Path;

use dxjit_cli::case::{
    check, element_matches, floats_match, parse_case_str, ulp_distance, Outcome, Tolerance, Value,
    VertexOutput, VertexOutputs, WordKind,
};

const EXACT: Tolerance = Tolerance { abs: 0.0, ulp: 0 };

#[test]
fn case_nan_matches_nan_of_any_sign_and_payload() {
    let qnan = f32::from_bits(0x7fc0_0000);
    let neg = f32::from_bits(0xffc0_0000);
    let payload = f32::from_bits(0x7f80_0001);
    assert!(floats_match(qnan, neg, EXACT));
    assert!(floats_match(neg, payload, EXACT));
    assert!(!floats_match(qnan, 0.0, EXACT));
    assert!(!floats_match(
        1.0,
        qnan,
        Tolerance {
            abs: f64::INFINITY,
            ulp: u32::MAX
        }
    ));
}

#[test]
fn case_zero_matches_negative_zero() {
    assert!(floats_match(0.0, -0.0, EXACT));
    assert!(floats_match(-0.0, 0.0, EXACT));
    assert_eq!(ulp_distance(0.0, -0.0), 0);
}

#[test]
fn case_infinities_match_only_themselves() {
    assert!(floats_match(f32::INFINITY, f32::INFINITY, EXACT));
    assert!(!floats_match(f32::INFINITY, f32::NEG_INFINITY, EXACT));
    assert!(!floats_match(
        f32::INFINITY,
        f32::MAX,
        Tolerance { abs: 1e30, ulp: 0 }
    ));
    assert!(floats_match(
        f32::INFINITY,
        f32::MAX,
        Tolerance { abs: 0.0, ulp: 1 }
    ));
}

#[test]
fn case_ulp_boundaries() {
    let one = 1.0f32;
    let next = f32::from_bits(one.to_bits() + 1);
    let next2 = f32::from_bits(one.to_bits() + 2);
    assert_eq!(ulp_distance(one, next2), 2);
    assert!(!floats_match(one, next, EXACT));
    assert!(floats_match(one, next, Tolerance { abs: 0.0, ulp: 1 }));
    assert!(!floats_match(one, next2, Tolerance { abs: 0.0, ulp: 1 }));
    assert!(floats_match(one, next2, Tolerance { abs: 0.0, ulp: 2 }));
    // Across zero: the smallest denormals on either side are 2 apart.
    let tiny = f32::from_bits(1);
    assert_eq!(ulp_distance(tiny, -tiny), 2);
    assert!(floats_match(tiny, -tiny, Tolerance { abs: 0.0, ulp: 2 }));
    assert!(!floats_match(tiny, -tiny, Tolerance { abs: 0.0, ulp: 1 }));
}

#[test]
fn case_abs_tolerance_is_inclusive() {
    let t = Tolerance { abs: 0.25, ulp: 0 };
    assert!(floats_match(1.0, 1.25, t));
    assert!(floats_match(1.0, 0.75, t));
    assert!(!floats_match(1.0, 1.2500001, t));
    let unorm = Tolerance {
        abs: 1.0 / 255.0,
        ulp: 0,
    };
    assert!(floats_match(0.5, 128.0 / 255.0, unorm));
    assert!(!floats_match(0.5, 130.0 / 255.0, unorm));
}

#[test]
fn case_integer_elements_compare_as_exact_words() {
    let one_bits = 1.0f32.to_bits();
    assert!(element_matches(
        Value::Word(one_bits),
        one_bits,
        WordKind::Float,
        EXACT
    ));
    assert!(!element_matches(
        Value::Word(1),
        one_bits,
        WordKind::Float,
        EXACT
    ));
    // -0.0 as a word is not 0.
    assert!(!element_matches(
        Value::Word(0),
        0x8000_0000,
        WordKind::Float,
        EXACT
    ));
    // Tolerances do not apply to words.
    let loose = Tolerance {
        abs: 10.0,
        ulp: 100,
    };
    assert!(!element_matches(Value::Word(5), 6, WordKind::Uint, loose));
    assert!(element_matches(
        Value::Word(0xffff_ffff),
        0xffff_ffff,
        WordKind::Sint,
        EXACT
    ));
}

#[test]
fn case_float_elements_against_integer_words_compare_numbers() {
    assert!(element_matches(Value::Float(1.0), 1, WordKind::Uint, EXACT));
    assert!(element_matches(
        Value::Float(-1.0),
        0xffff_ffff,
        WordKind::Sint,
        EXACT
    ));
    assert!(!element_matches(
        Value::Float(-1.0),
        0xffff_ffff,
        WordKind::Uint,
        EXACT
    ));
    assert!(element_matches(
        Value::Float(2.0),
        3,
        WordKind::Uint,
        Tolerance { abs: 1.0, ulp: 0 }
    ));
    // Against f32 bits, a float element is a number: 1.0 is not the word 1.
    assert!(!element_matches(
        Value::Float(1.0),
        1,
        WordKind::Float,
        EXACT
    ));
}

/// A `[vertices]` case with one uav and one vertex expectation of each kind.
const CASE: &str = r#"
format = 1
[vs]
dwords = [0xfffe0101, 0x0000ffff]
[[vs.input]]
reg = "v0"
data = [[1.0, 2.0, 3.0, 1.0]]
[[uav]]
slot = 1
type = "raw"
size = 16
[vertices]
count = 1
[[expect]]
uav = 1
offset = 4
data = [1.5, 7, nan]
ulp = 1
[[expect]]
vertex = 0
reg = "oD0"
value = [0.5, 0.5, -0.0, 1.0]
[[expect]]
vertex = 0
semantic = "texcoord"
index = 2
value = [0x3f800000, 0, 0, 0]
"#;

/// An outcome meeting every expectation of [`CASE`].
fn good_outcome() -> Outcome {
    let words = [0u32, 1.5f32.to_bits() + 1, 7, 0xffc0_0001];
    let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let out = |name: &str, semantic: Option<&str>, index, value| VertexOutput {
        name: name.to_string(),
        semantic: semantic.map(str::to_string),
        index,
        value,
    };
    Outcome {
        uavs: BTreeMap::from([(1, bytes)]),
        uav_counters: BTreeMap::new(),
        targets: Vec::new(),
        vertices: vec![VertexOutputs {
            outputs: vec![
                out(
                    "oD0",
                    Some("COLOR"),
                    0,
                    [0.5f32, 0.5, 0.0, 1.0].map(f32::to_bits),
                ),
                out("oT2", Some("TEXCOORD"), 2, [0x3f80_0000, 0, 0, 0]),
            ],
        }],
        ..Outcome::default()
    }
}

#[test]
fn case_check_passes_a_matching_outcome() {
    let case = parse_case_str(CASE, Path::new("t.toml")).expect("parses");
    assert_eq!(check(&case, &Ok(good_outcome())), Vec::new());
}

#[test]
fn case_check_reports_each_failed_expectation() {
    let case = parse_case_str(CASE, Path::new("t.toml")).expect("parses");
    let mut outcome = good_outcome();
    if let Some(bytes) = outcome.uavs.get_mut(&1) {
        bytes[8] = 8;
    }
    outcome.vertices[0].outputs[0].value[0] = 0.25f32.to_bits();
    outcome.vertices[0].outputs.pop();
    let failures = check(&case, &Ok(outcome));
    let text: Vec<String> = failures.iter().map(ToString::to_string).collect();
    assert_eq!(failures.len(), 3, "{text:?}");
    assert_eq!(
        text[0],
        "[[expect]] #0: uav 1: 1 of 3 words differ (ulp 1): byte 8: expected 0x7, got 0x8"
    );
    assert_eq!(
        text[1],
        "[[expect]] #1: vertex 0 oD0: expected [0.5, 0.5, -0.0, 1.0], got [0.25, 0.5, 0.0, 1.0]"
    );
    assert_eq!(
        text[2],
        "[[expect]] #2: vertex 0 has no output texcoord2 (it wrote oD0)"
    );
}

#[test]
fn case_check_of_a_run_error() {
    let case = parse_case_str(CASE, Path::new("t.toml")).expect("parses");
    let failures = check(&case, &Err("unsupported opcode".to_string()));
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].expect, None);
    assert_eq!(failures[0].what, "could not run: unsupported opcode");
}

#[test]
fn case_rejected_expectations() {
    let text = "format = 1\n[cs]\nhex = \"00\"\n[[expect]]\nrejected = true\nmessage_contains = \"store_raw\"\n";
    let case = parse_case_str(text, Path::new("r.toml")).expect("parses");
    assert!(case.expects_rejection());
    assert!(check(&case, &Err("bad store_raw mask".into())).is_empty());
    let wrong = check(&case, &Err("truncated".into()));
    assert_eq!(
        wrong[0].what,
        "rejected with \"truncated\", which does not contain \"store_raw\""
    );
    let ran = check(&case, &Ok(Outcome::default()));
    assert_eq!(
        ran[0].what,
        "expected the shader to be rejected, but it ran"
    );
}
