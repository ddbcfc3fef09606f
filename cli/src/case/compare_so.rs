//! Checking stream-output buffers (in order, or as a multiset of vertices)
//! and a stream's primitive counts.

use super::model::Tolerance;
use super::number::{element_matches, show_word, WordKind};
use super::outcome::Outcome;
use super::value::Value;

/// The little-endian word at byte `at`, if the buffer holds it.
fn word_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// `data` against stream-output buffer `slot` from `offset`: word by word,
/// or, with `unordered` = the stride, each expected vertex against a
/// distinct vertex of the same span of the buffer.
pub(super) fn check_buffer(
    (slot, offset): (u32, u32),
    data: &[Value],
    bytes: &[u8],
    tolerance: Tolerance,
    unordered: Option<u32>,
) -> Option<String> {
    let kind = WordKind::Float;
    let start = offset as usize;
    let words: Option<Vec<u32>> = (0..data.len())
        .map(|i| word_at(bytes, start + 4 * i))
        .collect();
    let Some(words) = words else {
        return Some(format!(
            "stream_output {slot} holds {} bytes, the expectation reads up to byte {}",
            bytes.len(),
            start + 4 * data.len()
        ));
    };
    if let Some(stride) = unordered {
        let n = (stride / 4) as usize;
        let mut free: Vec<bool> = vec![true; words.len() / n];
        for (v, expected) in data.chunks(n).enumerate() {
            let found = (0..free.len()).find(|&j| {
                free[j]
                    && expected
                        .iter()
                        .zip(&words[j * n..j * n + n])
                        .all(|(e, w)| element_matches(*e, *w, kind, tolerance))
            });
            match found {
                Some(j) => free[j] = false,
                None => {
                    let shown: Vec<String> = expected.iter().map(Value::to_string).collect();
                    return Some(format!(
                        "stream_output {slot}: expected vertex #{v} [{}] is not among the \
                         unmatched vertices from byte {offset}",
                        shown.join(", ")
                    ));
                }
            }
        }
        return None;
    }
    let bad: Vec<String> = data
        .iter()
        .zip(&words)
        .enumerate()
        .filter(|(_, (e, w))| !element_matches(**e, **w, kind, tolerance))
        .map(|(i, (e, w))| {
            format!(
                "byte {}: expected {e}, got {}",
                start + 4 * i,
                show_word(*e, *w, kind)
            )
        })
        .collect();
    (!bad.is_empty()).then(|| {
        format!(
            "stream_output {slot}: {} of {} words differ: {}",
            bad.len(),
            data.len(),
            bad[..bad.len().min(3)].join("; ")
        )
    })
}

/// A stream's primitives written and needed against the expected counts.
pub(super) fn check_counts(
    stream: u32,
    written: Option<u64>,
    needed: Option<u64>,
    outcome: &Outcome,
) -> Option<String> {
    let s = stream as usize;
    let got = (outcome.primitives_written[s], outcome.primitives_needed[s]);
    let ok = written.is_none_or(|w| w == got.0) && needed.is_none_or(|n| n == got.1);
    (!ok).then(|| {
        format!(
            "stream {stream}: expected primitives written {}, needed {}; got {}, {}",
            written.map_or("-".into(), |w| w.to_string()),
            needed.map_or("-".into(), |n| n.to_string()),
            got.0,
            got.1
        )
    })
}

/// A stream-output buffer's filled size against the expected one.
pub(super) fn check_filled(slot: u32, value: u32, outcome: &Outcome) -> Option<String> {
    match outcome.stream_output_filled.get(&slot) {
        Some(&got) if got == value => None,
        Some(&got) => Some(format!(
            "stream_output {slot}: expected filled size {value}, got {got}"
        )),
        None => Some(format!(
            "stream_output {slot} filled size is missing from the outcome"
        )),
    }
}
