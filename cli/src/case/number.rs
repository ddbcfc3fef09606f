//! Comparing one expected element with one produced word, as the spec says:
//! integers exactly as words; floats as numbers with `abs` / `ulp`.

use super::model::Tolerance;
use super::value::Value;

/// Distance between two f32s in units in the last place: how many
/// representable f32s lie between them on the number line (+0 and -0 are
/// the same point). Not meaningful for NaN.
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    fn key(x: f32) -> i64 {
        let bits = x.to_bits();
        let magnitude = i64::from(bits & 0x7fff_ffff);
        if bits & 0x8000_0000 != 0 {
            -magnitude
        } else {
            magnitude
        }
    }
    key(a).abs_diff(key(b))
}

/// Whether the number `actual` matches the expected float: NaN matches NaN
/// (any sign or payload), 0.0 matches -0.0, otherwise the difference must be
/// within `tolerance.abs` or `tolerance.ulp`.
pub fn floats_match(expected: f32, actual: f32, tolerance: Tolerance) -> bool {
    if expected.is_nan() || actual.is_nan() {
        return expected.is_nan() && actual.is_nan();
    }
    expected == actual
        || (f64::from(expected) - f64::from(actual)).abs() <= tolerance.abs
        || ulp_distance(expected, actual) <= u64::from(tolerance.ulp)
}

/// How a produced word is read when the expected element is a float.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// The word holds f32 bits (UAV words, vertex outputs, float and unorm
    /// targets).
    Float,
    /// The word is an unsigned integer (uint targets).
    Uint,
    /// The word is a two's-complement integer (sint targets).
    Sint,
}

impl WordKind {
    /// The word as a number.
    pub fn number(self, word: u32) -> f32 {
        match self {
            WordKind::Float => f32::from_bits(word),
            WordKind::Uint => word as f32,
            WordKind::Sint => word as i32 as f32,
        }
    }
}

/// Whether the produced `word` matches one expected element. An integer
/// element must equal the word exactly. A float element is compared with
/// [`floats_match`] against the word read as a number: as f32 bits for
/// [`WordKind::Float`], as the integer it holds for integer targets (so
/// `1.0` matches a uint texel holding 1).
pub fn element_matches(expected: Value, word: u32, kind: WordKind, tolerance: Tolerance) -> bool {
    match expected {
        Value::Word(w) => w == word,
        Value::Float(f) => floats_match(f, kind.number(word), tolerance),
    }
}

/// The produced word written the way the expected element is: hex for an
/// integer element, a number for a float element.
pub(crate) fn show_word(expected: Value, word: u32, kind: WordKind) -> String {
    match (expected, kind) {
        (Value::Word(_), _) => format!("{word:#x}"),
        (Value::Float(_), WordKind::Float) => Value::Float(f32::from_bits(word)).to_string(),
        (Value::Float(_), WordKind::Uint) => word.to_string(),
        (Value::Float(_), WordKind::Sint) => (word as i32).to_string(),
    }
}
