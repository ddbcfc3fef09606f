//! Lexical pieces of both dialects: lists, numbers, literals in every form
//! the disassemblers print, component letters and words.

use super::source::{fault, Res};

/// Splits at top-level commas (outside brackets, parentheses and braces);
/// the pieces are trimmed slices of `s`.
pub fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// `s` without the ASCII prefix `prefix` (matched ignoring case).
pub fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// An integer: decimal (negative ones wrap to their two's complement) or
/// `0x` hexadecimal.
pub fn number(s: &str) -> Res<u32> {
    let t = s.trim();
    let (negative, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let value = match strip_prefix_ci(body, "0x") {
        Some(h) => u32::from_str_radix(h, 16).ok().map(u64::from),
        None if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) => {
            body.parse::<u64>().ok()
        }
        None => None,
    };
    match (value, negative) {
        (Some(v), false) if v <= u64::from(u32::MAX) => Ok(v as u32),
        (Some(v), true) if v <= 1 << 31 => Ok((v as u32).wrapping_neg()),
        _ => Err(fault(t, format!("bad number '{t}'"))),
    }
}

/// Whether a literal is written as a float rather than as an integer.
fn is_float_text(t: &str) -> bool {
    let body = t.trim_start_matches(['-', '+']);
    if strip_prefix_ci(body, "0x").is_some() {
        return false;
    }
    body.contains(['.', '#', 'e', 'E'])
        || ["inf", "nan", "infinity"]
            .iter()
            .any(|w| body.eq_ignore_ascii_case(w))
}

/// The bits MSVC's `printf` names (`1.#INF00`, `-1.#IND00`, `1.#QNAN0`):
/// the payload of a NaN is not in the text, so a NaN gets the quiet (or,
/// for `#SNAN`, signalling) NaN of its sign with the smallest payload.
fn msvc_special(t: &str) -> Option<u32> {
    let (sign, body) = match t.strip_prefix('-') {
        Some(b) => (0x8000_0000, b),
        None => (0, t.strip_prefix('+').unwrap_or(t)),
    };
    let tag = body.strip_prefix("1.#")?.to_ascii_uppercase();
    let bits = if tag.starts_with("INF") {
        0x7f80_0000
    } else if tag.starts_with("QNAN") || tag.starts_with("IND") {
        0x7fc0_0000
    } else if tag.starts_with("SNAN") {
        0x7f80_0001
    } else {
        return None;
    };
    Some(sign | bits)
}

/// One 32-bit literal word: integers as integers, floats as their IEEE
/// bits, in any form fxc, vkd3d or a person writes (`1.000000`,
/// `1.00000000e+00`, `0x3f800000`, `-1`, `4294967295`, `1.#INF00`,
/// `-1.#IND00`, `1.5f`).
pub fn literal(s: &str) -> Res<u32> {
    let t = s.trim();
    if !is_float_text(t) {
        return number(t);
    }
    if let Some(bits) = msvc_special(t) {
        return Ok(bits);
    }
    let body = t.strip_suffix(['f', 'F']).unwrap_or(t);
    body.parse::<f32>()
        .map(f32::to_bits)
        .map_err(|_| fault(t, format!("bad literal '{t}'")))
}

/// One 64-bit literal of a `d(...)` operand: a double (with fxc's `l`
/// suffix or without) or a `0x` hexadecimal bit pattern.
pub fn double_literal(s: &str) -> Res<u64> {
    let t = s.trim();
    if let Some(h) = strip_prefix_ci(t, "0x") {
        return u64::from_str_radix(h, 16).map_err(|_| fault(t, format!("bad double '{t}'")));
    }
    let body = t.strip_suffix(['l', 'L']).unwrap_or(t);
    body.parse::<f64>()
        .map(f64::to_bits)
        .map_err(|_| fault(t, format!("bad double '{t}'")))
}

/// Component letters (`xyzw`, either case) as indices.
pub fn components(s: &str) -> Option<Vec<u8>> {
    s.chars()
        .map(|c| "xyzw".find(c.to_ascii_lowercase()).map(|i| i as u8))
        .collect()
}

/// The leading identifier of `s` (letters, digits, `_`) and the rest.
pub fn word(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// The inside of the bracket pair that opens `s` (one of `(`, `[`, `{`) and
/// what follows it, or an error pointing at the unclosed bracket.
pub fn bracketed(s: &str) -> Res<(&str, &str)> {
    let open = s.chars().next().unwrap_or(' ');
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        _ => return Err(fault(s, "expected a bracket")),
    };
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Ok((&s[1..i], &s[i + 1..]));
            }
        }
    }
    Err(fault(s, format!("unclosed '{open}'")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_in_every_printed_form() {
        let bits = |s: &str| literal(s).map_err(|_| s.to_string());
        assert_eq!(bits("1.000000"), Ok(0x3f80_0000));
        assert_eq!(bits("-0.500000"), Ok(0xbf00_0000));
        assert_eq!(bits("1.00000000e+00"), Ok(0x3f80_0000));
        assert_eq!(bits("-0.000000"), Ok(0x8000_0000));
        assert_eq!(bits("1.#INF00"), Ok(0x7f80_0000));
        assert_eq!(bits("-1.#INF00"), Ok(0xff80_0000));
        assert_eq!(bits("1.#QNAN0"), Ok(0x7fc0_0000));
        assert_eq!(bits("-1.#IND00"), Ok(0xffc0_0000));
        assert_eq!(bits("0x3f800000"), Ok(0x3f80_0000));
        assert_eq!(bits("-1"), Ok(0xffff_ffff));
        assert_eq!(bits("4294967295"), Ok(0xffff_ffff));
        assert_eq!(bits("-2147483648"), Ok(0x8000_0000));
        assert_eq!(bits("1e-10"), Ok(1e-10f32.to_bits()));
        assert_eq!(bits("64.f"), Ok(0x4280_0000));
        assert!(bits("4294967296").is_err());
        assert!(bits("-2147483649").is_err());
        assert!(bits("1.2.3").is_err());
        assert_eq!(double_literal("1.000000l").ok(), Some(1f64.to_bits()));
    }

    #[test]
    fn lists_words_and_brackets() {
        assert_eq!(
            split_top("a, b(c, d), [e, f] , {g,h}"),
            ["a", "b(c, d)", "[e, f]", "{g,h}"]
        );
        assert_eq!(word("cb0[1].x"), ("cb0", "[1].x"));
        assert_eq!(bracketed("(a(b)c)d").ok(), Some(("a(b)c", "d")));
        assert!(bracketed("(a").is_err());
        assert_eq!(components("xYw"), Some(vec![0, 1, 3]));
        assert_eq!(strip_prefix_ci("DCL_Temps 4", "dcl_temps"), Some(" 4"));
    }
}
