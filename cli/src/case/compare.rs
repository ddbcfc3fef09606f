//! Checking a run's [`Outcome`] (or its error) against a case's expectations.

use serde::Serialize;

use super::compare_so;
use super::model::{Area, Case, Expect, Tolerance};
use super::number::{element_matches, show_word, WordKind};
use super::outcome::{Outcome, TargetImage, VertexOutputs};
use super::texel;
use super::value::Value;

/// How many mismatching words or pixels a failure lists before counting.
const SHOWN: usize = 3;

/// One expectation that did not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// Index of the `[[expect]]` in the file; `None` for a failure of the
    /// whole case (it could not be parsed or run).
    pub expect: Option<usize>,
    /// What was expected, what was produced, and where.
    pub what: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.expect {
            Some(k) => write!(f, "[[expect]] #{k}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// Checks every expectation of `case` against `result`: the outcome of
/// running it, or the error message of compiling/running it. Returns the
/// failures (empty when the case passes). An error fails every non-`rejected`
/// expectation with one failure naming the error; an outcome fails every
/// `rejected` expectation.
pub fn check(case: &Case, result: &Result<Outcome, String>) -> Vec<Failure> {
    let mut failures = Vec::new();
    let mut reported_error = false;
    for (k, expect) in case.expects.iter().enumerate() {
        let what = match (expect, result) {
            (Expect::Rejected { message_contains }, Err(message)) => match message_contains {
                Some(part) if !message.contains(part.as_str()) => Some(format!(
                    "rejected with {message:?}, which does not contain {part:?}"
                )),
                _ => None,
            },
            (Expect::Rejected { .. }, Ok(_)) => {
                Some("expected the shader to be rejected, but it ran".to_string())
            }
            (_, Err(message)) if !reported_error => {
                reported_error = true;
                failures.push(Failure {
                    expect: None,
                    what: format!("could not run: {message}"),
                });
                None
            }
            (_, Err(_)) => None,
            (expect, Ok(outcome)) => check_one(expect, outcome),
        };
        failures.extend(what.map(|what| Failure {
            expect: Some(k),
            what,
        }));
    }
    failures
}

/// One non-`rejected` expectation against an outcome.
fn check_one(expect: &Expect, outcome: &Outcome) -> Option<String> {
    match expect {
        Expect::Uav {
            slot,
            offset,
            data,
            tolerance,
        } => match outcome.uavs.get(slot) {
            Some(bytes) => check_uav(*slot, *offset, data, bytes, *tolerance),
            None => Some(format!("uav {slot} is missing from the outcome")),
        },
        Expect::UavCounter { slot, value } => match outcome.uav_counters.get(slot) {
            Some(&word) if element_matches(*value, word, WordKind::Float, Tolerance::default()) => {
                None
            }
            Some(&word) => Some(format!(
                "uav {slot} counter: expected {value}, got {}",
                show_word(*value, word, WordKind::Float)
            )),
            None => Some(format!("uav {slot} counter is missing from the outcome")),
        },
        Expect::Target {
            target,
            area,
            sample,
            value,
            tolerance,
        } => match outcome.targets.get(*target as usize) {
            Some(image) => check_target(*target, *area, *sample, value, image, *tolerance),
            None => Some(format!("target {target} is missing from the outcome")),
        },
        Expect::Vertex {
            vertex,
            output,
            value,
            tolerance,
        } => {
            let outputs: Option<&VertexOutputs> = outcome.vertices.get(*vertex as usize);
            let Some(outputs) = outputs else {
                return Some(format!("vertex {vertex} is missing from the outcome"));
            };
            let Some(out) = outputs.find(output) else {
                let names: Vec<&str> = outputs.outputs.iter().map(|o| o.name.as_str()).collect();
                return Some(format!(
                    "vertex {vertex} has no output {output} (it wrote {})",
                    if names.is_empty() {
                        "nothing".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            };
            let kind = WordKind::Float;
            let same = value
                .iter()
                .zip(out.value)
                .all(|(e, w)| element_matches(*e, w, kind, *tolerance));
            (!same).then(|| {
                format!(
                    "vertex {vertex} {output}: expected {}, got {}{}",
                    show_values(value),
                    show_words(value, &out.value, kind),
                    show_tolerance(*tolerance)
                )
            })
        }
        Expect::StreamOutput {
            slot,
            offset,
            data,
            tolerance,
            unordered_stride,
        } => match outcome.stream_outputs.get(slot) {
            Some(bytes) => {
                let at = (*slot, *offset);
                compare_so::check_buffer(at, data, bytes, *tolerance, *unordered_stride)
            }
            None => Some(format!("stream_output {slot} is missing from the outcome")),
        },
        Expect::StreamCounts {
            stream,
            written,
            needed,
        } => compare_so::check_counts(*stream, *written, *needed, outcome),
        Expect::StreamOutputFilled { slot, value } => {
            compare_so::check_filled(*slot, *value, outcome)
        }
        Expect::Rejected { .. } => None,
    }
}

/// `[a, b, c]` of expected elements.
fn show_values(values: &[Value]) -> String {
    let parts: Vec<String> = values.iter().map(Value::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// `[a, b, c]` of produced words, each written like its expected element.
fn show_words(expected: &[Value], words: &[u32], kind: WordKind) -> String {
    let parts: Vec<String> = expected
        .iter()
        .zip(words)
        .map(|(e, w)| show_word(*e, *w, kind))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// ` (abs X, ulp N)` when a tolerance is set.
fn show_tolerance(t: Tolerance) -> String {
    match (t.abs > 0.0, t.ulp > 0) {
        (false, false) => String::new(),
        (true, false) => format!(" (abs {})", t.abs),
        (false, true) => format!(" (ulp {})", t.ulp),
        (true, true) => format!(" (abs {}, ulp {})", t.abs, t.ulp),
    }
}

/// The uav form: `data` against the words from `offset`.
fn check_uav(
    slot: u32,
    offset: u32,
    data: &[Value],
    bytes: &[u8],
    tolerance: Tolerance,
) -> Option<String> {
    let end = offset as usize + 4 * data.len();
    if bytes.len() < end {
        return Some(format!(
            "uav {slot} holds {} bytes, the expectation reads up to byte {end}",
            bytes.len()
        ));
    }
    let kind = WordKind::Float;
    let bad: Vec<String> = data
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let at = offset as usize + 4 * i;
            let word = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            (!element_matches(*e, word, kind, tolerance))
                .then(|| format!("byte {at}: expected {e}, got {}", show_word(*e, word, kind)))
        })
        .collect();
    (!bad.is_empty()).then(|| {
        let more = if bad.len() > SHOWN {
            format!("; {} more", bad.len() - SHOWN)
        } else {
            String::new()
        };
        format!(
            "uav {slot}: {} of {} words differ{}: {}{more}",
            bad.len(),
            data.len(),
            show_tolerance(tolerance),
            bad[..bad.len().min(SHOWN)].join("; ")
        )
    })
}

/// The target form: every pixel of `area` against `value`, decoded through
/// the target's format.
fn check_target(
    target: u32,
    area: Area,
    sample: Option<u32>,
    value: &[Value],
    image: &TargetImage,
    tolerance: Tolerance,
) -> Option<String> {
    let kind = if !texel::is_integer(image.format) {
        WordKind::Float
    } else if texel::is_signed_integer(image.format) {
        WordKind::Sint
    } else {
        WordKind::Uint
    };
    let [x0, y0, x1, y1] = match area {
        Area::Pixel([x, y]) => [x, y, x.saturating_add(1), y.saturating_add(1)],
        Area::Rect(r) => r,
    };
    let samples = match sample {
        Some(s) => s..s + 1,
        None => 0..image.samples,
    };
    let mut bad: Vec<(u32, u32, Option<[u32; 4]>)> = Vec::new();
    let mut count = 0usize;
    for y in y0..y1 {
        for x in x0..x1 {
            let texels: Vec<Option<[u32; 4]>> =
                samples.clone().map(|s| image.sample(x, y, s)).collect();
            let differs = texels.iter().find(|texel| {
                !texel.is_some_and(|t| {
                    value
                        .iter()
                        .zip(t)
                        .all(|(e, w)| element_matches(*e, w, kind, tolerance))
                })
            });
            if let Some(texel) = differs {
                count += 1;
                if bad.len() < SHOWN {
                    bad.push((x, y, *texel));
                }
            }
        }
    }
    if count == 0 {
        return None;
    }
    let got = |t: &Option<[u32; 4]>| match t {
        Some(words) => show_words(value, words, kind),
        None => format!("nothing (the image is {}x{})", image.width, image.height),
    };
    Some(match area {
        Area::Pixel([x, y]) => format!(
            "target {target} pixel ({x}, {y}){}: expected {}, got {}{}",
            shown_samples(sample, image.samples),
            show_values(value),
            got(&bad[0].2),
            show_tolerance(tolerance)
        ),
        Area::Rect(r) => {
            let shown: Vec<String> = bad
                .iter()
                .map(|(x, y, t)| format!("({x}, {y}) has {}", got(t)))
                .collect();
            format!(
                "target {target} rect {r:?}{}: {count} of {} pixels differ from {}{}: {}",
                shown_samples(sample, image.samples),
                (u64::from(x1 - x0)) * u64::from(y1 - y0),
                show_values(value),
                show_tolerance(tolerance),
                shown.join("; ")
            )
        }
    })
}

/// Which samples a target expectation compared, for its message: nothing
/// for a single-sampled target.
fn shown_samples(sample: Option<u32>, samples: u32) -> String {
    match sample {
        Some(s) => format!(" sample {s}"),
        None if samples > 1 => format!(" (every one of {samples} samples)"),
        None => String::new(),
    }
}
