//! fxc syntax over real programs: every DXBC the tests hold disassembles to
//! text that reassembles to the same program tokens in both dialects, the
//! real fxc-style dumps in `tests/data/sm4/fxc` assemble, lower and round
//! trip, and fxc's own text assembles to fxc's own bytecode.

use std::path::{Path, PathBuf};

use dxjit::dxbc::Container;
use dxjit::sm4::{self, Syntax};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dir` (recursively) whose extension is `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The container bytes of a case file's stage table: `dwords`, `hex`, or
/// `asm` assembled.
fn stage_bytes(table: &toml::Value) -> Option<Vec<u8>> {
    if let Some(words) = table.get("dwords").and_then(|d| d.as_array()) {
        return Some(
            words
                .iter()
                .filter_map(|w| w.as_integer())
                .flat_map(|w| (w as u32).to_le_bytes())
                .collect(),
        );
    }
    if let Some(hex) = table.get("hex").and_then(|h| h.as_str()) {
        let hex: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
        return (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
            .collect();
    }
    let text = table.get("asm")?.as_str()?;
    sm4::assemble(text).ok()
}

/// Every SM4/5 container the tests hold: the conformance corpus, the SM4
/// and SM5 cases, the hand-written fixtures and fxc's own bytecode in the fxc data.
fn every_dxbc() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let cases = files(&root().join("tests/conformance"), "toml")
        .into_iter()
        .chain(files(&root().join("tests/cases/sm4"), "toml"))
        .chain(files(&root().join("tests/cases/sm5"), "toml"));
    for case in cases {
        let Ok(doc) = std::fs::read_to_string(&case)
            .unwrap_or_default()
            .parse::<toml::Table>()
        else {
            continue;
        };
        for stage in ["vs", "hs", "ds", "gs", "ps", "cs"] {
            if let Some(bytes) = doc.get(stage).and_then(stage_bytes) {
                if bytes.starts_with(b"DXBC") {
                    out.push((format!("{} [{stage}]", case.display()), bytes));
                }
            }
        }
    }
    for fixture in files(&root().join("tests/data/sm4"), "asm") {
        if fixture.parent() == Some(&root().join("tests/data/sm4")) {
            let text = std::fs::read_to_string(&fixture).unwrap();
            out.push((fixture.display().to_string(), sm4::assemble(&text).unwrap()));
        }
    }
    for o in files(&root().join("tests/data/sm4/fxc"), "o") {
        out.push((o.display().to_string(), std::fs::read(&o).unwrap()));
    }
    out
}

/// Disassembles in `syntax` and reassembles (in `syntax`, and with the
/// dialect detected); the error, or how many `.dwords` lines the text needed.
fn round_trip(c: &Container, syntax: Syntax) -> Result<usize, String> {
    let text = sm4::disassemble_as(c, syntax).map_err(|e| e.to_string())?;
    let fallback = text
        .lines()
        .filter(|l| l.trim_start().starts_with(".dwords"))
        .count();
    for bytes in [sm4::assemble_as(&text, syntax), sm4::assemble(&text)] {
        let back = bytes
            .and_then(|b| Container::parse(&b, true).map_err(sm4::Sm4Error::from))
            .map_err(|e| format!("{e}\n{text}"))?;
        if back.program() != c.program() {
            return Err(format!("program differs\n{text}"));
        }
    }
    Ok(fallback)
}

#[test]
fn every_test_dxbc_round_trips_in_both_syntaxes() {
    let all = every_dxbc();
    assert!(all.len() > 1000, "only {} DXBCs found", all.len());
    let mut failures = Vec::new();
    for syntax in [Syntax::Vkd3d, Syntax::Fxc] {
        let (mut ok, mut fallback) = (0, 0);
        for (name, bytes) in &all {
            let c = Container::parse(bytes, false).unwrap_or_else(|e| panic!("{name}: {e}"));
            match round_trip(&c, syntax) {
                Ok(n) => {
                    ok += 1;
                    fallback += n;
                }
                Err(e) => failures.push(format!("{name} ({syntax:?}): {e}")),
            }
        }
        println!(
            "{syntax:?}: {ok} of {} DXBCs round trip exactly; {fallback} instructions needed .dwords",
            all.len()
        );
        assert_eq!(
            fallback, 0,
            "{syntax:?}: every instruction has a readable form"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Dumps the SM4 front end cannot lower yet, with the reason it gives
/// (none since `abort` lowers; a dump added here must say why).
const NOT_LOWERED: &[(&str, &str)] = &[];

#[test]
fn real_fxc_dumps_assemble_lower_and_round_trip() {
    let dir = root().join("tests/data/sm4/fxc");
    let dumps: Vec<PathBuf> = files(&dir, "txt")
        .into_iter()
        .chain(files(&dir, "asm"))
        .collect();
    let mut stages = std::collections::BTreeMap::<&str, usize>::new();
    let mut lowered = 0;
    for path in &dumps {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(Syntax::detect(&text), Syntax::Fxc, "{name}");
        let bytes = sm4::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let c = Container::parse(&bytes, true).unwrap();
        let shader = sm4::decode(c.program().unwrap()).unwrap();
        let stage = shader.program_type.prefix();
        *stages.entry(stage).or_default() += 1;
        let expected = NOT_LOWERED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, why)| *why);
        let result = sm4::lower(&c)
            .map_err(|e| e.to_string())
            .and_then(|p| dxjit::ir::validate(&p).map_err(|e| e.to_string()));
        match (result, expected) {
            (Ok(_), None) => lowered += 1,
            (Err(e), Some(why)) => assert!(e.contains(why), "{name}: {e}"),
            (Ok(_), Some(why)) => panic!("{name} lowers now; drop '{why}' from NOT_LOWERED"),
            (Err(e), None) => panic!("{name}: {e}"),
        }
        for syntax in [Syntax::Fxc, Syntax::Vkd3d] {
            assert_eq!(round_trip(&c, syntax), Ok(0), "{name} ({syntax:?})");
        }
    }
    println!(
        "{} real dumps assemble and round trip; {lowered} lower; by stage: {stages:?}",
        dumps.len()
    );
    assert!(dumps.len() >= 20, "{} dumps", dumps.len());
    assert_eq!(
        lowered,
        dumps.len() - NOT_LOWERED.len(),
        "every other dump lowers"
    );
    for stage in ["vs", "ps", "cs", "gs", "hs", "ds"] {
        assert!(stages.contains_key(stage), "no {stage} dump in {stages:?}");
    }
}

/// `%f` of a word read as a float, as fxc prints it.
fn printed(word: u32) -> String {
    format!("{:.6}", f32::from_bits(word))
}

#[test]
fn fxc_text_assembles_to_fxc_own_bytecode() {
    let dir = root().join("tests/data/sm4/fxc");
    let (mut exact, mut total) = (0, 0);
    for o in files(&dir, "o") {
        let name = o.display().to_string();
        let reference = Container::parse(&std::fs::read(&o).unwrap(), false).unwrap();
        let text = std::fs::read_to_string(o.with_extension("asm")).unwrap();
        let ours = Container::parse(&sm4::assemble(&text).unwrap(), true).unwrap();
        let (a, b) = (reference.program().unwrap(), ours.program().unwrap());
        total += 1;
        if a == b {
            exact += 1;
        } else {
            assert_eq!(a.len(), b.len(), "{name}");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert!(
                    x == y || printed(*x) == printed(*y),
                    "{name}: word {i} is {y:#010x}, fxc wrote {x:#010x}"
                );
            }
        }
        for (ours, theirs) in [
            (ours.inputs(), reference.inputs()),
            (ours.outputs(), reference.outputs()),
            (ours.patch_constants(), reference.patch_constants()),
        ] {
            assert_eq!(
                ours, theirs,
                "{name}: signature read from the comment tables"
            );
        }
    }
    println!("{exact} of {total} fxc texts give fxc's program exactly; the rest differ only in %f-rounded floats");
    assert!(exact * 2 > total, "{exact} of {total}");
}
