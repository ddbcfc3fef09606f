//! Every case file of the conformance corpus (`tests/conformance`) and the
//! benchmark kernels (`benches/data`) must parse.

use std::path::{Path, PathBuf};

use dxjit_cli::case::{parse_case, Action, Expect};

/// Every `.toml` under `dir`, sorted.
fn toml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Parses every case under `rel` (relative to the crate root); returns how
/// many parsed.
fn parse_all(rel: &str) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let files = toml_files(&dir);
    let errors: Vec<String> = files
        .iter()
        .filter_map(|f| parse_case(f).err().map(|e| e.to_string()))
        .collect();
    assert!(
        errors.is_empty(),
        "{} of {} cases do not parse:\n{}",
        errors.len(),
        files.len(),
        errors.join("\n")
    );
    files.len()
}

#[test]
fn conformance_cases_parse() {
    let n = parse_all("tests/conformance");
    assert_eq!(n, 1706, "the corpus holds 1706 cases");
}

#[test]
fn benchmark_kernels_parse() {
    assert_eq!(parse_all("benches/data"), 3);
}

#[test]
fn case_conformance_sample_has_expected_shape() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance/wine-d3d11/uint_shader_instructions_036_ibfe.toml");
    let case = parse_case(&path).expect("parses");
    assert_eq!(case.name, "uint_shader_instructions_036_ibfe");
    let ps = case.ps.as_ref().expect("has [ps]");
    assert_eq!(ps.cbs[0].data, vec![30, 1, 0, 0]);
    let Action::Draw(draw) = &case.action else {
        panic!("draw expected")
    };
    assert_eq!(draw.rect(), [0, 0, 640, 480]);
    assert!(matches!(case.expects[0], Expect::Target { .. }));
}
