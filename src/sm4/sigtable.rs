//! fxc's signature tables (`// Input signature:`, `// Output signature:`,
//! `// Patch Constant signature:`): read back from an assembly text's
//! comments, and written by the fxc-syntax disassembler.
//!
//! A row is `Name Index Mask Register SysValue Format Used`. The mask and
//! used columns print each letter at its component's place (`x  w`). An
//! element without a register (`oDepth`, `oMask`) prints `N/A` as its mask
//! and `YES`/`NO` as its use. For inputs the used column is the element's
//! read mask; for outputs it is the complement of the never-written mask.

use std::fmt::Write;

use super::decode::ProgramType;
use super::encoding::MinPrecision;
use super::Sm4Error;
use crate::dxbc::SignatureElement;

/// The SysValue column's names of the `D3D_NAME` values.
const SYSVALS: &[(u32, &str)] = &[
    (0, "NONE"),
    (1, "POS"),
    (2, "CLIPDST"),
    (3, "CULLDST"),
    (4, "RTINDEX"),
    (5, "VPINDEX"),
    (6, "VERTID"),
    (7, "PRIMID"),
    (8, "INSTID"),
    (9, "FFACE"),
    (10, "SAMPLE"),
    (11, "QUADEDGE"),
    (12, "QUADINT"),
    (13, "TRIEDGE"),
    (14, "TRIINT"),
    (15, "LINEDET"),
    (16, "LINEDEN"),
];

/// Semantics whose SysValue column is named after the semantic (the chunk
/// stores 0 for them), with the register name of those that have no
/// register number.
const NAMED: &[(&str, &str, Option<&str>)] = &[
    ("SV_Target", "TARGET", None),
    ("SV_Depth", "DEPTH", Some("oDepth")),
    ("SV_DepthGreaterEqual", "DEPTHGE", Some("oDepthGE")),
    ("SV_DepthLessEqual", "DEPTHLE", Some("oDepthLE")),
    ("SV_Coverage", "COVERAGE", Some("oMask")),
    ("SV_StencilRef", "STENCILREF", Some("oStencilRef")),
    ("SV_InnerCoverage", "INNERCOV", None),
];

/// Component types by their Format column name.
const FORMATS: &[(u32, &str)] = &[(0, "unknown"), (1, "uint"), (2, "int"), (3, "float")];

/// Minimum-precision Format names and their component types.
const MIN_FORMATS: &[(u32, &str)] = &[(3, "min16f"), (3, "min2_8f"), (2, "min16i"), (1, "min16u")];

/// The signatures a text's comments give (`None` where it has no table).
#[derive(Debug, Default)]
pub struct Tables {
    /// `// Input signature:`.
    pub inputs: Option<Vec<SignatureElement>>,
    /// `// Output signature:`.
    pub outputs: Option<Vec<SignatureElement>>,
    /// `// Patch Constant signature:` (an output of a hull shader, an input
    /// of a domain shader).
    pub patch_constants: Option<Vec<SignatureElement>>,
}

/// Letters of `mask` at their places (`x  w`).
fn placed(mask: u8) -> String {
    (0..4)
        .map(|i| {
            if mask & (1 << i) != 0 {
                ['x', 'y', 'z', 'w'][i]
            } else {
                ' '
            }
        })
        .collect()
}

/// The table rows and framing of one signature.
pub fn write(out: &mut String, title: &str, elements: &[SignatureElement], output: bool) {
    let _ = writeln!(out, "// {title} signature:\n//");
    let _ = writeln!(
        out,
        "// Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------"
    );
    if elements.is_empty() {
        let _ = writeln!(out, "// no {title}");
    }
    for e in elements {
        let named = NAMED
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(&e.semantic));
        let used = if output {
            e.mask & !e.rw_mask & 0xf
        } else {
            e.rw_mask
        };
        let sysval = match (e.sysval, named) {
            (0, Some((_, column, _))) => column.to_string(),
            (v, _) => SYSVALS
                .iter()
                .find(|(c, _)| *c == v)
                .map_or_else(|| v.to_string(), |(_, n)| n.to_string()),
        };
        let (mask, register, used) = match named.and_then(|(_, _, reg)| *reg) {
            Some(reg) if e.register == u32::MAX => (
                "N/A".to_string(),
                reg.to_string(),
                if used != 0 { "YES" } else { "NO" }.to_string(),
            ),
            _ => (placed(e.mask), e.register.to_string(), placed(used)),
        };
        let format = match MinPrecision::from_code(e.min_precision) {
            _ if e.min_precision == 0 => FORMATS
                .iter()
                .find(|(c, _)| *c == e.component_type)
                .map_or("unknown", |(_, n)| n),
            Some(p) => p.name(),
            None => MinPrecision::Uint16.name(),
        };
        let _ = writeln!(
            out,
            "// {:<20} {:>5} {mask:>6} {register:>8} {sysval:>8} {format:>7} {used:>6}",
            e.semantic, e.semantic_index
        );
    }
    let _ = writeln!(out, "//");
}

/// The error at `token` of line `line` (1-based) of `raw`.
fn error(line: usize, raw: &str, token: &str, what: String) -> Sm4Error {
    let offset = (token.as_ptr() as usize).saturating_sub(raw.as_ptr() as usize);
    Sm4Error::Asm {
        line,
        column: raw.get(..offset).map_or(1, |s| s.chars().count() + 1),
        what,
    }
}

/// One row of a table.
fn row(line: usize, raw: &str, body: &str, output: bool) -> Result<SignatureElement, Sm4Error> {
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let err = |t: &str, what: String| error(line, raw, t, what);
    let at = |i: usize| tokens.get(i).copied().unwrap_or(&body[body.len()..]);
    let number = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| err(t, format!("expected a number, found '{t}'")))
    };
    let semantic = at(0);
    let semantic_index = number(at(1))?;
    let mut i = 2;
    let mut mask = 0u8;
    let mut no_register = false;
    while let Some(t) = tokens.get(i) {
        if t.eq_ignore_ascii_case("N/A") {
            no_register = true;
        } else if let Some(bits) = letters(t) {
            mask |= bits;
        } else {
            break;
        }
        i += 1;
    }
    if no_register {
        mask = 1;
    }
    let register_text = at(i);
    let register = if no_register {
        u32::MAX
    } else {
        number(register_text)?
    };
    let sysval_text = at(i + 1);
    let sysval = SYSVALS
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(sysval_text))
        .map(|(c, _)| *c)
        .or_else(|| {
            NAMED
                .iter()
                .any(|(_, n, _)| n.eq_ignore_ascii_case(sysval_text))
                .then_some(0)
        })
        .map_or_else(|| number(sysval_text), Ok)?;
    let format_text = at(i + 2);
    let component_type = FORMATS
        .iter()
        .chain(MIN_FORMATS)
        .find(|(_, n)| n.eq_ignore_ascii_case(format_text))
        .map(|(c, _)| *c)
        .ok_or_else(|| err(format_text, format!("unknown format '{format_text}'")))?;
    let mut used = 0u8;
    for t in &tokens[(i + 3).min(tokens.len())..] {
        used |= if t.eq_ignore_ascii_case("YES") {
            mask
        } else if t.eq_ignore_ascii_case("NO") {
            0
        } else {
            letters(t).ok_or_else(|| err(t, format!("bad used components '{t}'")))?
        };
    }
    Ok(SignatureElement {
        semantic: semantic.to_string(),
        semantic_index,
        sysval,
        component_type,
        register,
        mask,
        rw_mask: if output { !used & 0xf } else { used },
        stream: 0,
        min_precision: 0,
    })
}

/// The component bits of a run of `xyzw` letters.
fn letters(t: &str) -> Option<u8> {
    t.chars()
        .map(|c| "xyzw".find(c).map(|i| 1u8 << i))
        .try_fold(0, |m, b| b.map(|b| m | b))
}

/// The signature tables in `text`'s comments.
pub fn read(text: &str, program_type: ProgramType) -> Result<Tables, Sm4Error> {
    let mut tables = Tables::default();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, raw)) = lines.next() {
        let Some(comment) = raw.trim_start().strip_prefix("//") else {
            continue;
        };
        let title = comment.trim().to_ascii_lowercase();
        let (slot, output) = match title.as_str() {
            "input signature:" => (&mut tables.inputs, false),
            "output signature:" => (&mut tables.outputs, true),
            "patch constant signature:" => (
                &mut tables.patch_constants,
                program_type == ProgramType::Hull,
            ),
            _ => continue,
        };
        let mut elements = Vec::new();
        let mut in_rows = false;
        while let Some(&(i, raw)) = lines.peek() {
            let Some(body) = raw.trim_start().strip_prefix("//") else {
                break;
            };
            let trimmed = body.trim();
            if in_rows && (trimmed.is_empty() || trimmed.starts_with("no ")) {
                break;
            }
            lines.next();
            if trimmed.starts_with("---") {
                in_rows = true;
            } else if in_rows {
                elements.push(row(i + 1, raw, body, output)?);
            }
        }
        *slot = Some(elements);
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: &str = "\
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
// TEXCOORD                 9   xyzw        9     NONE   float   x  w
// SV_IsFrontFace           0   x           2    FFACE    uint
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyz         0   TARGET   float   xyz
// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES
//
ps_5_0
";

    #[test]
    fn reads_rows_and_writes_them_back() {
        let t = read(TABLES, ProgramType::Pixel).unwrap();
        let inputs = t.inputs.unwrap();
        let outputs = t.outputs.unwrap();
        assert!(t.patch_constants.is_none());
        assert_eq!(inputs.len(), 3);
        assert_eq!(
            (inputs[0].sysval, inputs[0].mask, inputs[0].rw_mask),
            (1, 15, 3)
        );
        assert_eq!((inputs[1].register, inputs[1].rw_mask), (9, 9));
        assert_eq!((inputs[2].component_type, inputs[2].rw_mask), (1, 0));
        assert_eq!(
            (outputs[0].sysval, outputs[0].mask, outputs[0].rw_mask),
            (0, 7, 8)
        );
        assert_eq!(
            (outputs[1].register, outputs[1].mask, outputs[1].rw_mask),
            (u32::MAX, 1, 14)
        );
        let mut text = String::new();
        write(&mut text, "Input", &inputs, false);
        write(&mut text, "Output", &outputs, true);
        let again = read(&text, ProgramType::Pixel).unwrap();
        assert_eq!(again.inputs.unwrap(), inputs);
        assert_eq!(again.outputs.unwrap(), outputs);
        assert!(text
            .contains("// TEXCOORD                 9   xyzw        9     NONE   float   x  w\n"));
        assert!(text
            .contains("// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES\n"));
    }

    #[test]
    fn bad_rows_name_their_line_and_column() {
        let text =
            "// Input signature:\n//\n// Name\n// ----\n// POSITION 0 xyz 0 NONE bogus xyz\n";
        let e = read(text, ProgramType::Vertex).unwrap_err();
        assert_eq!(
            e,
            Sm4Error::Asm {
                line: 5,
                column: 26,
                what: "unknown format 'bogus'".into()
            }
        );
        let empty = read(
            "// Output signature:\n//\n// Name\n// ----\n// no Output\n",
            ProgramType::Compute,
        )
        .unwrap();
        assert_eq!(empty.outputs, Some(Vec::new()));
    }
}
