//! Elements of data arrays: a TOML number and the 32-bit word it stands for.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// One element of an expected-value array, keeping how the case wrote it:
/// integers are compared as exact words, floats as numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A TOML integer (or hex literal): an exact 32-bit word.
    Word(u32),
    /// A TOML float, as an f32 (NaN keeps its sign).
    Float(f32),
}

impl Value {
    /// The 32-bit word the element is stored as in memory.
    pub fn word(self) -> u32 {
        match self {
            Value::Word(w) => w,
            Value::Float(f) => f.to_bits(),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Word(w) => write!(f, "{w:#x}"),
            Value::Float(x) => fmt_float(*x, f),
        }
    }
}

/// Writes a float the way a case file would (`1.0`, `-nan`, `inf`).
fn fmt_float(x: f32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if x.is_nan() {
        let sign = if x.is_sign_negative() { "-" } else { "" };
        write!(f, "{sign}nan")
    } else {
        write!(f, "{x:?}")
    }
}

/// A TOML number as read, before it becomes a [`Value`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// A TOML integer.
    Int(i64),
    /// A TOML float.
    Float(f64),
}

impl Num {
    /// The element as a [`Value`]: integers must fit in i32 or u32, floats
    /// in f32 (infinities and NaN allowed).
    pub(crate) fn value(self) -> Result<Value, String> {
        match self {
            Num::Int(i) => {
                if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&i) {
                    Ok(Value::Word(i as u32))
                } else {
                    Err(format!("{i} does not fit in 32 bits"))
                }
            }
            Num::Float(x) if x.is_nan() => {
                let bits = if x.is_sign_negative() {
                    0xffc0_0000
                } else {
                    0x7fc0_0000
                };
                Ok(Value::Float(f32::from_bits(bits)))
            }
            Num::Float(x) => {
                let f = x as f32;
                if f.is_infinite() && !x.is_infinite() {
                    Err(format!("{x} overflows f32"))
                } else {
                    Ok(Value::Float(f))
                }
            }
        }
    }

    /// The 32-bit word the element is stored as.
    pub(crate) fn word(self) -> Result<u32, String> {
        self.value().map(Value::word)
    }

    /// The element as a plain f64 (for tolerances and pixel centres).
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NumVisitor;
        impl Visitor<'_> for NumVisitor {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                i64::try_from(v)
                    .map(Num::Int)
                    .map_err(|_| E::custom(format!("{v} does not fit in 32 bits")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num::Float(v))
            }
        }
        deserializer.deserialize_any(NumVisitor)
    }
}
