//! The assembler for the disassembler's syntax: text to a whole container.

use super::decode::{ProgramType, Sel};
use super::names::{
    self, DIMS, GLOBAL_FLAGS, INTERPOLATIONS, MIN_PRECISIONS, REGISTERS, RETURN_TYPES,
    SAMPLER_MODES, SCALAR_REGISTERS, SYNC_FLAGS, SYSVALS,
};
use super::opcodes::{self, OpInfo, OPCODES};
use super::signatures;
use super::Sm4Error;
use crate::dxbc;

fn fail(what: impl Into<String>) -> Sm4Error {
    Sm4Error::Asm {
        line: 0,
        what: what.into(),
    }
}

/// Assembles a whole program text into container bytes.
pub fn assemble(text: &str) -> Result<Vec<u8>, Sm4Error> {
    let mut statements = Vec::new();
    let mut pending = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if pending.is_empty() {
            start = i + 1;
        } else {
            pending.push(' ');
        }
        pending.push_str(line);
        if pending.matches('{').count() <= pending.matches('}').count() {
            statements.push((start, std::mem::take(&mut pending)));
        }
    }
    if !pending.is_empty() {
        return Err(Sm4Error::Asm {
            line: start,
            what: "unclosed '{'".into(),
        });
    }
    let mut it = statements.into_iter();
    let (line, version) = it.next().ok_or(Sm4Error::Asm {
        line: 1,
        what: "empty program".into(),
    })?;
    let (program_type, major, minor) = parse_version(&version).ok_or(Sm4Error::Asm {
        line,
        what: format!("bad version '{version}'"),
    })?;
    let mut tokens = vec![(program_type.code() << 16) | (major << 4) | minor, 0];
    for (line, statement) in it {
        let words = assemble_instruction(&statement).map_err(|e| match e {
            Sm4Error::Asm { what, .. } => Sm4Error::Asm { line, what },
            other => other,
        })?;
        tokens.extend(words);
    }
    tokens[1] = tokens.len() as u32;
    let (isgn, osgn) = signatures::from_program(&tokens, program_type)?;
    let tag = if major >= 5 { *b"SHEX" } else { *b"SHDR" };
    let program: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok(dxbc::build(&[
        (*b"ISGN", isgn),
        (*b"OSGN", osgn),
        (tag, program),
    ]))
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find("//"), line.find(';')]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |c| &line[..c])
}

fn parse_version(v: &str) -> Option<(ProgramType, u32, u32)> {
    let mut parts = v.split('_');
    let ty = match parts.next()? {
        "ps" => ProgramType::Pixel,
        "vs" => ProgramType::Vertex,
        "gs" => ProgramType::Geometry,
        "hs" => ProgramType::Hull,
        "ds" => ProgramType::Domain,
        "cs" => ProgramType::Compute,
        _ => return None,
    };
    Some((ty, parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Splits at top-level commas (outside brackets, parentheses, braces and bars).
fn split_top(s: &str) -> Vec<String> {
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

fn number(s: &str) -> Result<u32, Sm4Error> {
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

fn literal(s: &str) -> Result<u32, Sm4Error> {
    let t = s.trim();
    if t.starts_with("0x") || t.starts_with("-0x") || !t.contains(['.', 'e', 'n', 'i']) {
        number(t)
    } else {
        t.parse::<f32>()
            .map(f32::to_bits)
            .map_err(|_| fail(format!("bad literal '{t}'")))
    }
}

/// The mnemonic's parts: the opcode row and its suffix words.
struct Mnemonic {
    info: &'static OpInfo,
    controls: u32,
    extended: Vec<u32>,
}

fn parse_mnemonic(m: &str) -> Result<Mnemonic, Sm4Error> {
    let base_end = m.find('(').unwrap_or(m.len());
    let base = &m[..base_end];
    let mut best: Option<&OpInfo> = None;
    for o in OPCODES {
        if base.starts_with(o.name)
            && best.is_none_or(|b| b.name.len() < o.name.len())
            && suffixes_ok(&base[o.name.len()..], o)
        {
            best = Some(o);
        }
    }
    let info = best.ok_or_else(|| fail(format!("unknown instruction '{m}'")))?;
    let mut controls = 0;
    let mut extended = Vec::new();
    let mut rest = &m[info.name.len()..];
    while !rest.is_empty() {
        let (word, args, tail) = next_suffix(rest)?;
        rest = tail;
        match (word, args) {
            ("_nz", None) => controls |= 1 << 7,
            ("_z", None) => {}
            ("_sat", None) => controls |= 1 << 2,
            ("_rcpFloat", None) => controls |= 1,
            ("_uint", None) => controls |= 2,
            ("_3", None) => controls |= 3,
            ("_glc", None) => controls |= 0x20,
            ("_precise", Some(a)) if !info.decl => {
                let mask = components(a).ok_or_else(|| fail(format!("bad precise mask '{a}'")))?;
                controls |= mask.iter().fold(0, |m, &c| m | 1 << (8 + c));
            }
            ("_aoffimmi", Some(a)) => {
                let v: Vec<u32> = split_top(a)
                    .iter()
                    .map(|x| number(x))
                    .collect::<Result<_, _>>()?;
                let [u, vv, w] =
                    <[u32; 3]>::try_from(v).map_err(|_| fail("_aoffimmi needs three offsets"))?;
                extended.push(1 | (u & 0xf) << 9 | (vv & 0xf) << 13 | (w & 0xf) << 17);
            }
            ("_indexable", Some(a)) => {
                let parts = split_top(a);
                let dim = parts
                    .first()
                    .and_then(|d| names::code(DIMS, d))
                    .ok_or_else(|| fail(format!("bad dimension '{a}'")))?;
                let stride = match parts.get(1).and_then(|s| s.strip_prefix("stride=")) {
                    Some(s) => number(s)?,
                    None => 0,
                };
                extended.push(2 | dim << 6 | (stride & 0xfff) << 11);
            }
            ("", Some(a)) => extended.push(3 | return_type_word(a)? << 6),
            (w, None) if info.code == 190 => {
                controls |= SYNC_FLAGS
                    .iter()
                    .find(|(_, n)| *n == w)
                    .map(|(b, _)| *b)
                    .ok_or_else(|| fail(format!("bad sync flag '{w}'")))?
            }
            (w, None) if matches!(info.code, 88 | 156..=158 | 161 | 162) => {
                match names::code(DIMS, w.trim_start_matches('_')) {
                    Some(d) => controls |= d,
                    None => return Err(fail(format!("bad dimension '{w}'"))),
                }
            }
            (w, a) => {
                return Err(fail(format!(
                    "unknown suffix '{w}{}'",
                    a.map(|a| format!("({a})")).unwrap_or_default()
                )))
            }
        }
    }
    let has_dim = extended.iter().any(|e| e & 0x3f == 2);
    if has_dim && !extended.iter().any(|e| e & 0x3f == 3) {
        extended.push(3 | 0x5555 << 6);
    }
    for i in 1..extended.len() {
        extended[i - 1] |= 0x8000_0000;
    }
    Ok(Mnemonic {
        info,
        controls,
        extended,
    })
}

/// The next `_word` or `_word(args)` or `(args)` of a mnemonic.
fn next_suffix(s: &str) -> Result<(&str, Option<&str>, &str), Sm4Error> {
    let word_end = s
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '_' || c == '(')
        .map_or(s.len(), |(i, _)| i);
    let word_end = if s.starts_with('(') { 0 } else { word_end };
    let word = &s[..word_end];
    let tail = &s[word_end..];
    if let Some(inner) = tail.strip_prefix('(') {
        let close = inner
            .find(')')
            .ok_or_else(|| fail("unclosed '(' in mnemonic"))?;
        Ok((word, Some(&inner[..close]), &inner[close + 1..]))
    } else {
        Ok((word, None, tail))
    }
}

fn suffixes_ok(rest: &str, o: &OpInfo) -> bool {
    let allowed = [
        "_precise",
        "_nz",
        "_z",
        "_sat",
        "_rcpFloat",
        "_uint",
        "_3",
        "_glc",
        "_uglobal",
        "_ugroup",
        "_g",
        "_t",
        "_aoffimmi",
        "_indexable",
    ];
    let mut r = rest;
    while !r.is_empty() {
        let Ok((w, _, tail)) = next_suffix(r) else {
            return false;
        };
        let dim = matches!(o.code, 88 | 156..=158 | 161 | 162)
            && names::code(DIMS, w.trim_start_matches('_')).is_some();
        if !(allowed.contains(&w) || dim || w.is_empty()) {
            return false;
        }
        r = tail;
    }
    true
}

fn return_type_word(s: &str) -> Result<u32, Sm4Error> {
    let mut word = 0;
    for (i, t) in split_top(s).iter().enumerate() {
        let code =
            names::code(RETURN_TYPES, t).ok_or_else(|| fail(format!("bad return type '{t}'")))?;
        word |= code << (4 * i);
    }
    Ok(word)
}

/// Where an operand sits, which decides its default component selection.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Dst,
    Src,
    /// A source that reads one component (select-1 encoding by default).
    Scalar,
    Decl,
}

fn components(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| "xyzw".find(c).map(|i| i as u8)).collect()
}

/// Whether operand `i` of opcode `code` reads a single component, which
/// compilers encode as select-1 rather than as a replicated swizzle.
pub fn scalar_operand(code: u16, i: usize) -> bool {
    matches!(
        (code, i),
        (61 | 165 | 166 | 167 | 168, 1)
            | (167 | 168, 2)
            | (169..=177, 2)
            | (172, 3)
            | (180..=189, 3)
            | (185, 4)
    )
}

/// Encodes one operand's text.
fn operand(text: &str, role: Role, out: &mut Vec<u32>) -> Result<(), Sm4Error> {
    let mut t = text.trim();
    let mut flags = 0;
    while let Some((head, tag)) = t.strip_suffix('}').and_then(|r| r.rsplit_once(" {")) {
        flags |= match tag {
            "nonuniform" => 1 << 17,
            p => names::code(MIN_PRECISIONS, p)
                .map(|c| c << 14)
                .ok_or_else(|| fail(format!("unknown operand flag '{p}'")))?,
        };
        t = head.trim_end();
    }
    let mut modifier = 0;
    if let Some(r) = t.strip_prefix('-') {
        modifier |= 1;
        t = r.trim();
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        modifier |= 2;
        t = r.trim();
    }
    let ext = if modifier != 0 || flags != 0 {
        Some(1 | modifier << 6 | flags)
    } else {
        None
    };
    let with_ext = |token: u32| {
        if ext.is_some() {
            token | 0x8000_0000
        } else {
            token
        }
    };
    if let Some(inner) = t.strip_prefix("l(").and_then(|r| r.strip_suffix(')')) {
        let vals: Vec<u32> = split_top(inner)
            .iter()
            .map(|v| literal(v))
            .collect::<Result<_, _>>()?;
        let token = match vals.len() {
            1 => 0x4001,
            4 => 0x4002,
            n => return Err(fail(format!("literal with {n} values"))),
        };
        out.push(with_ext(token));
        out.extend(ext);
        out.extend(vals);
        return Ok(());
    }
    if let Some(inner) = t.strip_prefix("d(").and_then(|r| r.strip_suffix(')')) {
        let vals: Vec<u64> = split_top(inner)
            .iter()
            .map(|v| match v.strip_prefix("0x") {
                Some(h) => {
                    u64::from_str_radix(h, 16).map_err(|_| fail(format!("bad double '{v}'")))
                }
                None => v
                    .parse::<f64>()
                    .map(f64::to_bits)
                    .map_err(|_| fail(format!("bad double '{v}'"))),
            })
            .collect::<Result<_, _>>()?;
        let token = match vals.len() {
            1 => 0x5001,
            2 => 0x5002,
            n => return Err(fail(format!("double literal with {n} values"))),
        };
        out.push(with_ext(token));
        out.extend(ext);
        for v in &vals {
            out.extend([v.to_owned() as u32, (v >> 32) as u32]);
        }
        return Ok(());
    }
    let name_end = t
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
        .unwrap_or(t.len());
    let ty = names::code(REGISTERS, &t[..name_end])
        .ok_or_else(|| fail(format!("unknown register '{t}'")))?;
    let mut rest = &t[name_end..];
    let mut indices: Vec<(u32, Vec<u32>)> = Vec::new();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits > 0 {
        indices.push((0, vec![number(&rest[..digits])?]));
        rest = &rest[digits..];
    }
    while let Some(r) = rest.strip_prefix('[') {
        let close = matching(r).ok_or_else(|| fail(format!("unclosed '[' in '{t}'")))?;
        indices.push(index(&r[..close])?);
        rest = &r[close + 1..];
    }
    let comps = match rest.strip_prefix('.') {
        Some("(1)") => Some(Vec::new()),
        Some(c) if c.starts_with('(') => {
            let one = c
                .strip_prefix('(')
                .and_then(|c| c.strip_suffix(')'))
                .and_then(components);
            match one.as_deref() {
                Some(&[c]) => Some(vec![c]),
                _ => return Err(fail(format!("bad select-1 component '{c}'"))),
            }
        }
        Some(c) => Some(components(c).ok_or_else(|| fail(format!("bad components '{c}'")))?),
        None if rest.is_empty() => None,
        None => return Err(fail(format!("unexpected '{rest}' in operand"))),
    };
    let select = rest.starts_with(".(");
    let sel = match (comps, role) {
        (Some(c), _) if c.is_empty() => Sel::One,
        (Some(c), Role::Src | Role::Scalar) if select => Sel::Select(c[0]),
        (Some(c), Role::Dst | Role::Decl) => Sel::Mask(c.iter().fold(0, |m, &i| m | 1 << i)),
        (Some(c), Role::Scalar) if c.len() == 1 => Sel::Select(c[0]),
        (Some(c), Role::Src | Role::Scalar) if c.len() == 1 => Sel::Swizzle([c[0]; 4]),
        (Some(c), Role::Src | Role::Scalar) if c.len() == 4 => {
            Sel::Swizzle([c[0], c[1], c[2], c[3]])
        }
        (Some(_), Role::Src | Role::Scalar) => {
            return Err(fail(format!("swizzle of '{t}' needs 1 or 4 components")))
        }
        (None, Role::Decl) if SCALAR_REGISTERS.contains(&ty) => Sel::None,
        (None, _) if SCALAR_REGISTERS.contains(&ty) => Sel::One,
        (None, Role::Decl) if ty == 8 => Sel::Swizzle([0, 1, 2, 3]),
        (None, _) => Sel::None,
    };
    let mut token = ty << 12 | (indices.len() as u32) << 20;
    token |= match sel {
        Sel::None => 0,
        Sel::One => 1,
        Sel::Mask(m) => 2 | u32::from(m) << 4,
        Sel::Swizzle(s) => {
            2 | 1 << 2
                | s.iter()
                    .enumerate()
                    .fold(0, |a, (i, &c)| a | u32::from(c) << (4 + 2 * i))
        }
        Sel::Select(c) => 2 | 2 << 2 | u32::from(c) << 4,
    };
    for (i, (repr, _)) in indices.iter().enumerate() {
        token |= repr << (22 + 3 * i);
    }
    out.push(with_ext(token));
    out.extend(ext);
    for (_, words) in indices {
        out.extend(words);
    }
    Ok(())
}

fn matching(s: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Some(i),
            ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// An index's representation and words: `5`, `r0.x`, `r0.x + 5`.
fn index(s: &str) -> Result<(u32, Vec<u32>), Sm4Error> {
    let s = s.trim();
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return Ok((0, vec![number(s)?]));
    }
    let (reg, imm) = match s.split_once(" + ") {
        Some((i, r)) if i.chars().all(|c| c.is_ascii_digit()) => (r, Some(number(i)?)),
        Some((r, i)) => (r, Some(number(i)?).filter(|&v| v != 0)),
        None => return Err(fail(format!("bad relative index '{s}'"))),
    };
    let mut words = Vec::new();
    words.extend(imm);
    operand(reg, Role::Scalar, &mut words)?;
    Ok((if imm.is_some() { 3 } else { 2 }, words))
}

/// Assembles one instruction or declaration statement into its tokens.
pub fn assemble_instruction(statement: &str) -> Result<Vec<u32>, Sm4Error> {
    let s = statement.trim();
    if let Some(list) = s.strip_prefix(".dwords") {
        return split_top(list).iter().map(|w| number(w)).collect();
    }
    let mut depth = 0;
    let split = s
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth == 0 && c.is_whitespace()
        })
        .map_or(s.len(), |(i, _)| i);
    let (m, rest) = (&s[..split], s[split..].trim());
    if m == "dcl_immediateConstantBuffer" || m.starts_with("dcl_customdata") {
        return custom_data(m, rest);
    }
    let mn = parse_mnemonic(m)?;
    let info = mn.info;
    let mut controls = mn.controls;
    let mut body = Vec::new();
    body.extend(mn.extended.iter().copied());
    let mut rest = rest.to_string();
    let mut handled = false;
    match info.code {
        106 => {
            for f in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                controls |= names::code(GLOBAL_FLAGS, f)
                    .ok_or_else(|| fail(format!("bad global flag '{f}'")))?;
            }
            rest.clear();
        }
        88 | 156 => {
            let inner = rest
                .strip_prefix('(')
                .and_then(|r| r.split_once(')'))
                .ok_or_else(|| fail("declaration needs a return type"))?;
            let ret = return_type_word(inner.0)?;
            let mut tail = Vec::new();
            operand(inner.1, Role::Decl, &mut tail)?;
            body.extend(tail);
            body.push(ret);
            rest.clear();
            handled = true;
        }
        98..=100 => {
            let mut longest = 0;
            for (code, name) in INTERPOLATIONS {
                if rest.starts_with(&format!("{name} ")) && name.len() > longest {
                    longest = name.len();
                    controls = (controls & !0xf) | code;
                }
            }
            rest = rest[longest..].trim().to_string();
        }
        105 => {
            let parts = split_top(&rest);
            let (head, comps) = match parts.as_slice() {
                [h, c] => (h.as_str(), c.as_str()),
                _ => return Err(fail("dcl_indexableTemp needs x#[n], components")),
            };
            let (id, count) = head
                .strip_prefix('x')
                .and_then(|h| h.strip_suffix(']'))
                .and_then(|h| h.split_once('['))
                .ok_or_else(|| fail("bad indexable temp"))?;
            body.extend([number(id)?, number(count)?, number(comps)?]);
            rest.clear();
            handled = true;
        }
        _ => {}
    }
    if !rest.is_empty() {
        let items = split_top(&rest);
        let mut items = items.iter();
        let mut position = 0;
        for kind in info.layout.chars() {
            match kind {
                'd' | 's' => {
                    let item = items
                        .next()
                        .ok_or_else(|| fail(format!("{} needs more operands", info.name)))?;
                    let role = if info.decl {
                        Role::Decl
                    } else if kind == 'd' {
                        Role::Dst
                    } else if scalar_operand(info.code, position) {
                        Role::Scalar
                    } else {
                        Role::Src
                    };
                    position += 1;
                    operand(item, role, &mut body)?;
                }
                'u' => {
                    let item = items
                        .next()
                        .ok_or_else(|| fail(format!("{} needs more values", info.name)))?;
                    let word = match names::code(SYSVALS, item) {
                        Some(code) if matches!(info.code, 96 | 97 | 99 | 100 | 102 | 103) => code,
                        _ => number(item)?,
                    };
                    body.push(word);
                }
                _ => {
                    for item in items.by_ref() {
                        body.push(number(item)?);
                    }
                }
            }
        }
        for item in items {
            if let Some(c) = names::code(SAMPLER_MODES, item).filter(|_| info.code == 90) {
                controls |= c;
            } else if let Some(k) =
                names::decl_keywords(info.code).and_then(|k| names::code(k, item))
            {
                controls |= k;
            } else if names::DECL_COUNTS.contains(&info.code) {
                controls |= number(item)?;
            } else if item == "dynamicIndexed" && info.code == 89 {
                controls |= 1;
            } else if item != "immediateIndexed" || info.code != 89 {
                return Err(fail(format!("unexpected '{item}'")));
            }
        }
    } else if !handled && info.layout.contains(['d', 's']) {
        return Err(fail(format!("{} needs operands", info.name)));
    }
    if controls > 0x1fff {
        return Err(fail(format!(
            "control value {controls} does not fit the opcode token"
        )));
    }
    let len = body.len() as u32 + 1;
    if len > 0x7f {
        return Err(fail("instruction longer than 127 words"));
    }
    let ext = if mn.extended.is_empty() {
        0
    } else {
        0x8000_0000
    };
    let mut out = vec![u32::from(info.code) | (controls << 11) | (len << 24) | ext];
    out.extend(body);
    Ok(out)
}

fn custom_data(m: &str, rest: &str) -> Result<Vec<u32>, Sm4Error> {
    let class = match m
        .strip_prefix("dcl_customdata(")
        .and_then(|c| c.strip_suffix(')'))
    {
        Some(c) => number(c)?,
        None => 3,
    };
    let words: Vec<u32> = rest
        .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(number)
        .collect::<Result<_, _>>()?;
    let info = opcodes::info(53).ok_or_else(|| fail("custom data opcode missing"))?;
    let mut out = vec![u32::from(info.code) | class << 11, words.len() as u32 + 2];
    out.extend(words);
    Ok(out)
}
