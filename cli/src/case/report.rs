//! Reporting results: the `PASS`/`FAIL` lines, the closing summary and the
//! JSON report of `run --json`.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::compare::{check, Failure};
use super::error::CaseError;
use super::model::Case;
use super::outcome::Outcome;

/// Whether a case passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every expectation held.
    Pass,
    /// Something failed, or the case could not be parsed or run.
    Fail,
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseReport {
    /// The case's name (the file stem when it could not be parsed).
    pub name: String,
    /// The case file, as given.
    pub path: String,
    /// Pass or fail.
    pub status: Status,
    /// What failed; empty when the case passed.
    pub failures: Vec<Failure>,
}

impl CaseReport {
    /// The report of a case checked against `result` (see [`check`]).
    pub fn new(case: &Case, result: &Result<Outcome, String>) -> CaseReport {
        CaseReport::from_failures(case, check(case, result))
    }

    /// The report of a case given the failures found.
    pub fn from_failures(case: &Case, failures: Vec<Failure>) -> CaseReport {
        CaseReport {
            name: case.name.clone(),
            path: case.path.display().to_string(),
            status: if failures.is_empty() {
                Status::Pass
            } else {
                Status::Fail
            },
            failures,
        }
    }

    /// The report of a case file that could not be parsed: a failure with
    /// the reason.
    pub fn unparsable(error: &CaseError) -> CaseReport {
        let path: &Path = error.path();
        CaseReport {
            name: path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            path: path.display().to_string(),
            status: Status::Fail,
            failures: vec![Failure {
                expect: None,
                what: format!("cannot parse: {error}"),
            }],
        }
    }

    /// True when the case passed.
    pub fn passed(&self) -> bool {
        self.status == Status::Pass
    }
}

/// `PASS name` or `FAIL name` followed by one indented line per failure
/// (a failure's own line breaks are indented further).
impl fmt::Display for CaseReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Status::Pass => write!(f, "PASS {}", self.name)?,
            Status::Fail => write!(f, "FAIL {}", self.name)?,
        }
        for failure in &self.failures {
            write!(f, "\n    {}", failure.to_string().replace('\n', "\n      "))?;
        }
        Ok(())
    }
}

/// The text `run` prints for one case (without a trailing newline): see
/// [`CaseReport`]'s `Display`.
pub fn report_line(report: &CaseReport) -> String {
    report.to_string()
}

/// Counts of passed and failed cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Summary {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed (including those that could not be parsed or run).
    pub failed: usize,
}

impl Summary {
    /// The counts over `reports`.
    pub fn of(reports: &[CaseReport]) -> Summary {
        let passed = reports.iter().filter(|r| r.passed()).count();
        Summary {
            passed,
            failed: reports.len() - passed,
        }
    }
}

/// The closing line: exactly `N passed, N failed`.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failed)
    }
}

/// The JSON report of `run --json`:
/// `{"passed": N, "failed": N, "cases": [{"name", "path", "status", "failures": [{"expect", "what"}]}]}`.
pub fn json_report(reports: &[CaseReport]) -> serde_json::Value {
    #[derive(Serialize)]
    struct Report<'a> {
        #[serde(flatten)]
        summary: Summary,
        cases: &'a [CaseReport],
    }
    serde_json::to_value(Report {
        summary: Summary::of(reports),
        cases: reports,
    })
    .unwrap_or(serde_json::Value::Null)
}
