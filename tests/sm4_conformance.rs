//! SM4/SM5 front end over the conformance corpus (`tests/conformance`):
//! container checksums, decoding, lowering, disassembly against vkd3d's
//! reference text, and assembler round trips.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dxjit::dxbc::Container;
use dxjit::sm4;

/// One SM4/5 container of the corpus: case path, stage table name, bytes.
struct Shader {
    case: PathBuf,
    stage: String,
    bytes: Vec<u8>,
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

fn shader_bytes(table: &toml::Value) -> Option<Vec<u8>> {
    if let Some(words) = table.get("dwords").and_then(|d| d.as_array()) {
        let words: Vec<u32> = words
            .iter()
            .filter_map(|w| w.as_integer())
            .map(|w| w as u32)
            .collect();
        return Some(words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    let hex: String = table
        .get("hex")?
        .as_str()?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// The corpus's SM4/5 shaders, read once for all tests.
fn shaders(root: &Path) -> &'static [Shader] {
    static ALL: OnceLock<Vec<Shader>> = OnceLock::new();
    ALL.get_or_init(|| read_shaders(root))
}

fn read_shaders(root: &Path) -> Vec<Shader> {
    let mut out = Vec::new();
    for folder in ["wine-d3d11", "vkd3d-hlsl"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for case in files
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            let Ok(text) = std::fs::read_to_string(&case) else {
                continue;
            };
            let Ok(doc) = text.parse::<toml::Table>() else {
                continue;
            };
            for stage in ["vs", "ps", "cs"] {
                if let Some(bytes) = doc.get(stage).and_then(shader_bytes) {
                    if bytes.starts_with(b"DXBC") {
                        out.push(Shader {
                            case: case.clone(),
                            stage: stage.to_string(),
                            bytes,
                        });
                    }
                }
            }
        }
    }
    out
}

#[test]
fn sm4_corpus_parses_and_lowers() {
    let root = corpus();
    let all = shaders(&root);
    assert!(!all.is_empty());
    let mut failures = Vec::new();
    for s in all {
        let result = Container::parse(&s.bytes, true)
            .map_err(sm4::Sm4Error::from)
            .and_then(|c| sm4::lower(&c))
            .map_err(|e| e.to_string())
            .and_then(|p| dxjit::ir::validate(&p).map_err(|e| e.to_string()));
        if let Err(e) = result {
            failures.push(format!("{} [{}]: {e}", s.case.display(), s.stage));
        }
    }
    println!(
        "lowered {} of {} SM4/5 shaders",
        all.len() - failures.len(),
        all.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn reference(root: &Path, s: &Shader) -> Option<String> {
    let folder = s.case.parent()?.file_name()?;
    let file = root
        .join("reference-disasm")
        .join(folder)
        .join(s.case.with_extension("asm").file_name()?);
    let text = std::fs::read_to_string(file).ok()?;
    let marker = format!("; [{}]", s.stage);
    let start = text.find(&marker)? + marker.len();
    let body = &text[start..];
    let end = body.find("\n; [").map_or(body.len(), |e| e + 1);
    Some(body[..end].trim().to_string())
}

#[test]
fn sm4_corpus_disassembly_matches_reference() {
    let root = corpus();
    let (mut same, mut total, mut lines_same, mut lines_total) = (0, 0, 0, 0);
    let mut first_diffs = Vec::new();
    for s in shaders(&root) {
        let Some(expected) = reference(&root, s) else {
            continue;
        };
        let ours = Container::parse(&s.bytes, false)
            .map_err(sm4::Sm4Error::from)
            .and_then(|c| sm4::disassemble(&c));
        let ours = ours.unwrap_or_else(|e| panic!("{}: {e}", s.case.display()));
        total += 1;
        let ours: Vec<&str> = ours
            .trim()
            .lines()
            .map(|l| l.split(" // ").next().unwrap_or(l).trim_end())
            .collect();
        let ours = ours.join("\n");
        if ours == expected {
            same += 1;
        }
        let a: Vec<&str> = ours.lines().collect();
        let b: Vec<&str> = expected.lines().collect();
        lines_total += b.len();
        lines_same += a.iter().zip(&b).filter(|(x, y)| x == y).count();
        if let Some((x, y)) = a.iter().zip(&b).find(|(x, y)| x != y && !x.contains(".(")) {
            if first_diffs.len() < 400 {
                first_diffs.push(format!("{}:\n  ours: {x}\n  ref:  {y}", s.case.display()));
            }
        }
    }
    println!("{}", first_diffs.join("\n"));
    println!("disassembly identical to reference: {same} of {total} shaders; {lines_same} of {lines_total} lines");
    assert!(total > 0);
}

#[test]
fn sm4_corpus_assembler_round_trip() {
    let root = corpus();
    let (mut ok, mut total, mut fallback) = (0, 0, 0);
    let mut failures = Vec::new();
    for s in shaders(&root) {
        total += 1;
        let Ok(c) = Container::parse(&s.bytes, false) else {
            continue;
        };
        let text = sm4::disassemble(&c).unwrap_or_else(|e| panic!("{}: {e}", s.case.display()));
        fallback += text
            .lines()
            .filter(|l| l.trim_start().starts_with(".dwords"))
            .count();
        let back = sm4::assemble(&text)
            .and_then(|b| Container::parse(&b, true).map_err(sm4::Sm4Error::from));
        match back {
            Ok(b) if b.program() == c.program() => ok += 1,
            Ok(_) => failures.push(format!("{}: program differs", s.case.display())),
            Err(e) => failures.push(format!("{}: {e}", s.case.display())),
        }
    }
    println!("round trip exact: {ok} of {total} shaders; {fallback} instructions needed .dwords");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(fallback, 0, "every corpus instruction has a readable form");
}
