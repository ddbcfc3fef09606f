//! What smoke says about each shader: a line per file, the closing count,
//! or one JSON document.

use std::path::PathBuf;

/// How one shader fared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmokeResult {
    /// The shader file.
    pub path: PathBuf,
    /// Why it failed; `None` when it ran.
    pub error: Option<String>,
}

impl SmokeResult {
    /// Whether the shader ran.
    pub fn passed(&self) -> bool {
        self.error.is_none()
    }

    /// `PATH: ok` or `PATH: error: REASON` (on one line).
    pub fn line(&self) -> String {
        match &self.error {
            None => format!("{}: ok", self.path.display()),
            Some(e) => format!("{}: error: {}", self.path.display(), e.replace('\n', " ")),
        }
    }
}

/// `N passed, N failed`.
pub fn summary(results: &[SmokeResult]) -> String {
    let passed = results.iter().filter(|r| r.passed()).count();
    format!("{passed} passed, {} failed", results.len() - passed)
}

/// The JSON report: every shader with its path, `ok` and `error`, then the
/// counts.
pub fn json(results: &[SmokeResult]) -> String {
    let shaders: Vec<_> = results
        .iter()
        .map(|r| {
            serde_json::json!({
                "path": r.path.display().to_string(),
                "ok": r.passed(),
                "error": r.error,
            })
        })
        .collect();
    let passed = results.iter().filter(|r| r.passed()).count();
    serde_json::json!({
        "shaders": shaders,
        "passed": passed,
        "failed": results.len() - passed,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_summary_and_json() {
        let results = [
            SmokeResult {
                path: "a.cso".into(),
                error: None,
            },
            SmokeResult {
                path: "b.txt".into(),
                error: Some("panic: x\ny".into()),
            },
        ];
        assert_eq!(results[0].line(), "a.cso: ok");
        assert_eq!(results[1].line(), "b.txt: error: panic: x y");
        assert_eq!(summary(&results), "1 passed, 1 failed");
        let v: serde_json::Value = serde_json::from_str(&json(&results)).unwrap();
        assert_eq!(v["failed"], 1);
        assert_eq!(v["shaders"][1]["error"], "panic: x\ny");
    }
}
