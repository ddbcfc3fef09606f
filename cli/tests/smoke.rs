//! `dxjit smoke` over the collection of game shaders in `tests/shaders`:
//! exactly the shaders listed in `tests/shaders/expected-failures.tsv` fail,
//! each with a message containing its listed reason, and every other one
//! runs. Also the command: its lines, counts and exit code, and an endless
//! loop interrupted by the watchdog.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use dxjit_cli::smoke::{shader_files, smoke_files, DEFAULT_TIMEOUT};

fn collection() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/shaders")
}

/// `path<TAB>reason` lines (paths relative to the collection), skipping
/// blank lines and `#` comments.
fn expected_failures(root: &Path) -> BTreeMap<PathBuf, String> {
    let text = std::fs::read_to_string(root.join("expected-failures.tsv")).unwrap();
    text.lines()
        .filter(|l| !(l.trim().is_empty() || l.starts_with('#')))
        .map(|l| {
            let (path, reason) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("no tab in '{l}'"));
            (root.join(path), reason.to_string())
        })
        .collect()
}

#[test]
fn every_failure_in_the_collection_is_expected_and_explained() {
    let root = collection();
    let expected = expected_failures(&root);
    let files = shader_files(std::slice::from_ref(&root));
    assert!(files.len() >= 100, "only {} shaders found", files.len());
    let run = smoke_files(&files, DEFAULT_TIMEOUT, |_| {});
    assert!(!run.hung, "a shader hung");
    let mut problems = Vec::new();
    for r in &run.results {
        let name = r.path.strip_prefix(&root).unwrap().display();
        match (expected.get(&r.path), &r.error) {
            (None, Some(e)) => problems.push(format!("{name}: fails unexpectedly: {e}")),
            (Some(reason), None) => {
                problems.push(format!("{name}: runs, but is listed as failing ({reason})"))
            }
            (Some(reason), Some(e)) if !e.contains(reason.as_str()) => {
                problems.push(format!("{name}: fails with '{e}', not '{reason}'"))
            }
            _ => {}
        }
    }
    for path in expected.keys().filter(|p| !files.contains(p)) {
        problems.push(format!(
            "{}: listed, but not in the collection",
            path.display()
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_command_prints_a_line_per_shader_sorted_and_the_counts() {
    let root = collection();
    let passing = root.join("alreborn/archlord/g_vs11_shadow.bin");
    let failing = root.join("3d-fixes/the-park/ShaderFixes/09acbaa333fc7273-ps.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .arg("smoke")
        .args([&passing, &failing])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with(&format!("{}: error: ", failing.display())));
    assert_eq!(lines[1], format!("{}: ok", passing.display()));
    assert_eq!(lines[2], "1 passed, 1 failed");
    assert_eq!(out.status.code(), Some(1));

    let out = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(["smoke", "--json"])
        .arg(&passing)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["passed"], 1);
    assert_eq!(report["failed"], 0);
    assert_eq!(report["shaders"][0]["ok"], true);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_endless_loop_is_interrupted_and_the_run_goes_on() {
    let dir = std::env::temp_dir().join(format!("dxjit-smoke-hang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a-hang.asm"),
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.x, l(0)\n\
         loop\niadd r0.x, r0.x, l(1)\nstore_raw u0.x, l(0), r0.x\nendloop\nret\n",
    )
    .unwrap();
    std::fs::copy(
        collection().join("alreborn/archlord/g_vs11_shadow.bin"),
        dir.join("b-after.bin"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(["smoke", "--timeout-ms", "1000"])
        .arg(&dir)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].ends_with("a-hang.asm: error: interrupted: still running after 1 s"),
        "{text}"
    );
    assert!(lines[1].ends_with("b-after.bin: ok"), "{text}");
    assert_eq!(lines[2], "1 passed, 1 failed");
    assert_eq!(out.status.code(), Some(1));
}
