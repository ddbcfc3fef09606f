//! Lexical pieces of the assembly syntax: lists, numbers, literals, components.

use super::fail;
use crate::sm4::Sm4Error;

/// Splits at top-level commas (outside brackets, parentheses, braces and bars).
pub(super) fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

pub(super) fn number(s: &str) -> Result<u32, Sm4Error> {
    let s = s.trim();
    let v = if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(h) = s.strip_prefix("-0x") {
        u32::from_str_radix(h, 16).ok().map(u32::wrapping_neg)
    } else {
        s.parse::<i64>().ok().and_then(|v| {
            if v < 0 {
                i32::try_from(v).ok().map(|v| v as u32)
            } else {
                u32::try_from(v).ok()
            }
        })
    };
    v.ok_or_else(|| fail(format!("bad number '{s}'")))
}

pub(super) fn literal(s: &str) -> Result<u32, Sm4Error> {
    let t = s.trim();
    if t.starts_with("0x") || t.starts_with("-0x") || !t.contains(['.', 'e', 'n', 'i']) {
        number(t)
    } else {
        t.parse::<f32>()
            .map(f32::to_bits)
            .map_err(|_| fail(format!("bad literal '{t}'")))
    }
}

pub(super) fn components(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| "xyzw".find(c).map(|i| i as u8)).collect()
}
