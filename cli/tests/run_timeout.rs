//! `--timeout-ms`: under `dxjit run` a case whose shader never ends fails
//! with the reason and the run goes on to the next case; under `dxjit
//! bench` the bench stops with the reason.

use std::process::Command;

const ENDLESS: &str = r#"format = 1
name = "an endless loop"
source = "hand-written: loop without break"

[cs]
asm = """
cs_5_0
dcl_uav_raw u0
dcl_thread_group 1, 1, 1
loop
endloop
ret
"""

[[uav]]
slot = 0
type = "raw"
size = 16

[dispatch]
groups = [1, 1, 1]

[[expect]]
uav = 0
offset = 0
data = [0, 0, 0, 0]
"#;

#[test]
fn an_endless_case_fails_at_the_timeout_and_the_next_case_runs() {
    let dir = std::env::temp_dir().join(format!("dxjit-run-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a_endless.toml"), ENDLESS).unwrap();
    let next = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/store_raw.toml");
    std::fs::copy(next, dir.join("b_store_raw.toml")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(["run", "--timeout-ms", "200"])
        .arg(&dir)
        .output()
        .expect("runs");
    std::fs::remove_dir_all(&dir).ok();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("FAIL an endless loop"), "{text}");
    assert!(text.contains("ran past the 200 ms time limit"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("PASS")), "{text}");
    assert!(text.contains("1 passed, 1 failed"), "{text}");
}

#[test]
fn bench_stops_an_endless_action_at_the_timeout() {
    let dir = std::env::temp_dir().join(format!("dxjit-bench-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let case = dir.join("endless.toml");
    std::fs::write(&case, ENDLESS).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dxjit"))
        .args(["bench", "--timeout-ms", "200", "--iterations", "1"])
        .arg(&case)
        .output()
        .expect("runs");
    std::fs::remove_dir_all(&dir).ok();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("ran past the 200 ms time limit"), "{text}");
}
