//! Runs the D3D9 front end over every D3D9 shader in the conformance corpus
//! (`tests/conformance`): decode, lower, validate, and the assembler round
//! trip.

use std::path::{Path, PathBuf};

use dxjit::d3d9;

fn words_of(table: &toml::Value) -> Option<Vec<u32>> {
    if let Some(arr) = table.get("dwords").and_then(|d| d.as_array()) {
        return arr
            .iter()
            .map(|v| v.as_integer().map(|i| i as u32))
            .collect();
    }
    let hex: String = table.get("hex")?.as_str()?.split_whitespace().collect();
    let bytes: Option<Vec<u8>> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    Some(
        bytes?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

fn corpus() -> Vec<(PathBuf, Vec<u32>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut out = Vec::new();
    for folder in ["wine-d3d9", "vkd3d-hlsl"] {
        let Ok(dir) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(doc) = text.parse::<toml::Table>() else {
                continue;
            };
            for stage in ["vs", "ps"] {
                let Some(words) = doc.get(stage).and_then(words_of) else {
                    continue;
                };
                if words.first().is_some_and(|w| *w >> 17 == 0x7FFF) {
                    out.push((path.clone(), words));
                }
            }
        }
    }
    assert!(!out.is_empty(), "no D3D9 shaders under {}", root.display());
    out
}

#[test]
fn d3d9_conformance_decode_lower_roundtrip() {
    let shaders = corpus();
    let mut failures = Vec::new();
    let (mut lowered, mut round_trips) = (0, 0);
    for (path, words) in &shaders {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let shader = match d3d9::decode(words) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: decode: {e}"));
                continue;
            }
        };
        match d3d9::lower(&shader, &d3d9::Options::default()) {
            Ok(p) => match dxjit::ir::validate(&p) {
                Ok(()) => lowered += 1,
                Err(e) => failures.push(format!("{name}: invalid IR: {e}")),
            },
            Err(e) => failures.push(format!("{name}: lower: {e}")),
        }
        let text = d3d9::disassemble(&shader);
        match d3d9::assemble(&text) {
            Ok(back) if &back == words => round_trips += 1,
            Ok(_) => failures.push(format!("{name}: round trip differs:\n{text}")),
            Err(e) => failures.push(format!("{name}: assemble: {e}\n{text}")),
        }
    }
    println!(
        "{} D3D9 shaders: {lowered} lowered, {round_trips} round trips exact",
        shaders.len()
    );
    for f in failures.iter().take(20) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
