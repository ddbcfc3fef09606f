//! Reflection against what fxc printed about the same bytecode: the
//! constant-buffer layouts of its `/Fc` listings, and signatures; plus D3D9
//! CTAB names.

use dxjit::reflect::{reflect, ComponentType, Space};
use std::path::Path;

/// The top-level variables fxc lists for each cbuffer: (buffer, name,
/// offset, size).
fn listed_variables(listing: &str) -> Vec<(String, String, u32, u32)> {
    let mut out = Vec::new();
    let mut buffer: Option<String> = None;
    for line in listing.lines() {
        if let Some(name) = line.strip_prefix("// cbuffer ") {
            buffer = Some(name.trim().to_string());
        } else if line.starts_with("// }") {
            buffer = None;
        } else if let (Some(b), Some(decl)) = (&buffer, line.strip_prefix("//   ")) {
            if decl.starts_with(' ') || !decl.contains("// Offset:") {
                continue;
            }
            let (decl, layout) = decl.split_once("// Offset:").unwrap();
            let name = decl
                .trim()
                .trim_end_matches(';')
                .split_whitespace()
                .last()
                .unwrap()
                .split('[')
                .next()
                .unwrap()
                .to_string();
            let numbers: Vec<u32> = layout
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            out.push((b.clone(), name, numbers[0], numbers[1]));
        }
    }
    out
}

#[test]
fn constant_buffer_layouts_match_fxc_listings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sm4/fxc");
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "o") {
            continue;
        }
        let listing = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        let r = reflect(&std::fs::read(&path).unwrap()).expect("every stage reflects");
        for (buffer, name, offset, size) in listed_variables(&listing) {
            let Some(cb) = r
                .constant_buffers
                .iter()
                .find(|c| c.name.as_deref() == Some(&buffer))
            else {
                continue;
            };
            let v = cb
                .variables
                .iter()
                .find(|v| v.name == name)
                .unwrap_or_else(|| panic!("{}: {buffer}.{name} missing", path.display()));
            assert_eq!(
                (v.offset, v.size),
                (offset, size),
                "{}: {buffer}.{name}",
                path.display()
            );
            compared += 1;
        }
    }
    assert!(compared >= 10, "only {compared} variables compared");
}

#[test]
fn a_pixel_shader_reports_its_signature_resources_and_model() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sm4/fxc");
    let r = reflect(&std::fs::read(dir.join("slimshader-fxdis_test_PS.o")).unwrap()).unwrap();
    assert_eq!(r.stage, dxjit::reflect::ProgramType::Pixel);
    let cb = &r.constant_buffers[0];
    assert_eq!((cb.slot, cb.name.as_deref()), (0, Some("cbuf0")));
    let names: Vec<&str> = cb.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["cool", "zeek", "arr"]);
    assert!(r
        .outputs
        .iter()
        .all(|o| o.component_type != ComponentType::Unknown));
    assert!(r.instructions > 0);
}

#[test]
fn d3d9_constants_take_their_ctab_names() {
    // vkd3d-compiler 1.17, ps_2_0 of `uniform float4 a, b, c; return mad(a, b, c);`
    // (tests/conformance/vkd3d-hlsl/arithmetic-float-uniform_l110_ps_2_0.toml).
    let words: [u32; 59] = [
        0xffff0200, 0x0027fffe, 0x42415443, 0x0000001c, 0x00000074, 0xffff0200, 0x00000003,
        0x0000001c, 0x00000000, 0x00000000, 0x00000058, 0x00000002, 0x00000001, 0x0000005c,
        0x00000000, 0x0000006c, 0x00010002, 0x00000001, 0x0000005c, 0x00000000, 0x00000070,
        0x00020002, 0x00000001, 0x0000005c, 0x00000000, 0xabab0061, 0x00030001, 0x00040001,
        0x00000001, 0x00000001, 0xabab0062, 0xabab0063, 0x33646b76, 0x68732d64, 0x72656461,
        0x312e3120, 0x67282037, 0x66207469, 0x66323337, 0x29383762, 0xababab00, 0x02000001,
        0x800f0000, 0xa0e40000, 0x02000001, 0x800f0001, 0xa0e40001, 0x02000001, 0x800f0002,
        0xa0e40002, 0x04000004, 0x800f0000, 0x80e40000, 0x80e40001, 0x80e40002, 0x02000001,
        0x800f0800, 0x80e40000, 0x0000ffff,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let r = reflect(&bytes).unwrap();
    assert_eq!(r.model, [2, 0]);
    assert_eq!(r.stage, dxjit::reflect::ProgramType::Pixel);
    assert_eq!(r.instructions, 5, "four movs and a mad");
    let c = r
        .constant_buffers
        .iter()
        .find(|c| c.slot == 0)
        .expect("c# is slot 0");
    assert_eq!(c.declared_bytes, 48);
    let vars: Vec<(&str, u32, u32)> = c
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.offset, v.size))
        .collect();
    assert_eq!(vars, [("a", 0, 16), ("b", 16, 16), ("c", 32, 16)]);
    assert!(r.resources.iter().all(|x| x.space != Space::Sampler));
}
