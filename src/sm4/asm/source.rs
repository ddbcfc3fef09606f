//! The text as statements: comments stripped, one statement per line except
//! where an open `{` carries it on, and every error traced back to the line
//! and column of the text it names.

use crate::sm4::Sm4Error;

/// An assembler error at a piece of the source text.
///
/// `at` is the address of the first byte of the piece; the statement loop
/// turns it into a line and column (see [`Statement::locate`]).
#[derive(Debug)]
pub struct Fault {
    at: usize,
    what: String,
}

/// The result type of the parsing helpers.
pub type Res<T> = Result<T, Fault>;

/// An error about `at`, which must be a slice of the statement's text.
pub fn fault(at: &str, what: impl Into<String>) -> Fault {
    Fault {
        at: at.as_ptr() as usize,
        what: what.into(),
    }
}

/// One physical line of a statement.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The whole line as written.
    raw: &'a str,
    /// The line without its comment and surrounding blanks.
    pub text: &'a str,
}

/// One statement: an instruction, a declaration or the version line.
#[derive(Debug, Clone)]
pub struct Statement<'a> {
    /// Its lines (more than one only inside `{ ... }`).
    pub parts: Vec<Part<'a>>,
}

impl<'a> Statement<'a> {
    /// The first line's text.
    pub fn head(&self) -> &'a str {
        self.parts[0].text
    }

    /// The error of `fault` with the line and 1-based column it points at
    /// (the statement's start when it points outside the statement).
    pub fn locate(&self, fault: Fault) -> Sm4Error {
        let found = self.parts.iter().find_map(|p| {
            let start = p.raw.as_ptr() as usize;
            (start..=start + p.raw.len())
                .contains(&fault.at)
                .then(|| (p.line, p.raw, fault.at - start))
        });
        let (line, raw, offset) = found.unwrap_or_else(|| {
            let p = self.parts[0];
            (
                p.line,
                p.raw,
                p.text.as_ptr() as usize - p.raw.as_ptr() as usize,
            )
        });
        let column = raw.get(..offset).map_or(offset, |s| s.chars().count()) + 1;
        Sm4Error::Asm {
            line,
            column,
            what: fault.what,
        }
    }
}

/// A line without its `//` or `;` comment.
fn code_of(line: &str) -> &str {
    let cut = [line.find("//"), line.find(';')]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |c| &line[..c])
}

/// The comment fxc prints before the D3D9 form of a `_level_9_x` shader,
/// which it lists uncommented ahead of the SM4 program.
const LEVEL9_LISTING: &str = "// Level9 shader bytecode:";

/// Whether `code` is an SM4/5 version line (`vs_4_0`, `ps_4_0_level_9_1`, ...).
fn is_sm4_version(code: &str) -> bool {
    let stage = ["vs_", "ps_", "gs_", "hs_", "ds_", "cs_"];
    stage.iter().any(|p| code.starts_with(p))
        && code
            .as_bytes()
            .get(3)
            .is_some_and(|m| (b'4'..=b'5').contains(m))
}

/// Splits a text into statements. Lines that are blank once comments are
/// gone, and `#line` directives, are skipped, and so is the D3D9 listing
/// fxc prints for `_level_9_x` shaders, up to the SM4 version line.
pub fn statements(text: &str) -> Result<Vec<Statement<'_>>, Sm4Error> {
    let mut out = Vec::new();
    let mut pending: Option<(Statement, i64)> = None;
    let mut in_level9 = false;
    for (i, raw) in text.lines().enumerate() {
        if raw.trim_start().starts_with(LEVEL9_LISTING) {
            in_level9 = true;
            continue;
        }
        let code = code_of(raw).trim();
        if in_level9 {
            if !is_sm4_version(code) {
                continue;
            }
            in_level9 = false;
        }
        if code.is_empty() || code.starts_with("#line") {
            continue;
        }
        let part = Part {
            line: i + 1,
            raw,
            text: code,
        };
        let depth: i64 = code
            .bytes()
            .map(|b| match b {
                b'{' => 1,
                b'}' => -1,
                _ => 0,
            })
            .sum();
        let (mut statement, open) = pending
            .take()
            .unwrap_or_else(|| (Statement { parts: Vec::new() }, 0));
        statement.parts.push(part);
        if open + depth > 0 {
            pending = Some((statement, open + depth));
        } else {
            out.push(statement);
        }
    }
    if let Some((statement, _)) = pending {
        let head = statement.head();
        let at = head.find('{').map_or(head, |i| &head[i..]);
        return Err(statement.locate(fault(at, "unclosed '{'")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level9_listing_is_skipped() {
        let text = "// Level9 shader bytecode:\n    ps_2_x\n    mov oC0, c0\n\nps_4_0\nret\n";
        let s = statements(text).unwrap();
        let heads: Vec<&str> = s.iter().map(|s| s.head()).collect();
        assert_eq!(heads, ["ps_4_0", "ret"]);
    }

    #[test]
    fn statements_join_braces_and_locate_errors() {
        let text = "ps_5_0 // version\n\n  dcl_immediateConstantBuffer { { 1.0, 0, 0, 0},\n   { 2, 0, 0, 0} }\n#line 3 \"a.hlsl\"\nmov r0.x, r1.x ; note\n";
        let s = statements(text).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].parts.len(), 2);
        assert_eq!(s[2].head(), "mov r0.x, r1.x");
        let e = s[2].locate(fault(&s[2].head()[10..], "bad"));
        assert_eq!(
            e,
            Sm4Error::Asm {
                line: 6,
                column: 11,
                what: "bad".into()
            }
        );
        let second = s[1].parts[1].text;
        let e = s[1].locate(fault(&second[4..], "x"));
        assert!(
            matches!(
                e,
                Sm4Error::Asm {
                    line: 4,
                    column: 8,
                    ..
                }
            ),
            "{e}"
        );
        let open = statements("ps_5_0\ndcl_immediateConstantBuffer { {1, 2,\n").unwrap_err();
        assert!(
            matches!(
                open,
                Sm4Error::Asm {
                    line: 2,
                    column: 29,
                    ..
                }
            ),
            "{open}"
        );
    }
}
