//! Parsing: data words, defaults, and the errors of malformed cases.

use std::path::Path;

use dxjit::d3d9::bump::BumpEnv;
use dxjit_cli::case::{
    parse_case, parse_case_str, Action, Area, Case, CaseError, Expect, InputValues, IoRef,
    ShaderCode, SrvKind, UavKind, Value,
};

/// A minimal compute case around `extra` TOML.
fn cs_case(extra: &str) -> String {
    format!("format = 1\n[cs]\ndwords = [0x43425844]\n[dispatch]\ngroups = [1, 1, 1]\n{extra}")
}

/// A raw uav of 16 bytes and an expectation reading it.
const UAV: &str = "[[uav]]\nslot = 0\ntype = \"raw\"\nsize = 16\n[[expect]]\nuav = 0\ndata = [0]\n";

fn parse(text: &str) -> Result<Case, CaseError> {
    parse_case_str(text, Path::new("dir/case.toml"))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn case_data_words() {
    let case = parse(&cs_case(&format!(
        "[[cs.cb]]\nslot = 2\ndata = [1.0, -4, 0xdeadbeef, nan, -nan, inf, -inf, 4294967295, -2147483648]\n{UAV}"
    )))
    .expect("parses");
    let cs = case.cs.as_ref().expect("cs");
    assert_eq!(cs.cbs[0].slot, 2);
    assert_eq!(
        cs.cbs[0].data,
        vec![
            0x3f80_0000,
            0xffff_fffc,
            0xdead_beef,
            0x7fc0_0000,
            0xffc0_0000,
            0x7f80_0000,
            0xff80_0000,
            u32::MAX,
            0x8000_0000
        ]
    );
    assert_eq!(case.name, "case");
    assert_eq!(case.action, Action::Dispatch { groups: [1, 1, 1] });
    assert_eq!(cs.code, ShaderCode::Bytes(vec![0x44, 0x58, 0x42, 0x43]));
}

#[test]
fn case_out_of_range_words_are_errors() {
    let e = error(&cs_case(&format!(
        "[[cs.cb]]\nslot = 0\ndata = [4294967296]\n{UAV}"
    )));
    assert!(
        e.contains("[[cs.cb]] #0.data[0]: 4294967296 does not fit in 32 bits"),
        "{e}"
    );
    let e = error(&cs_case(&format!(
        "[[cs.cb]]\nslot = 0\ndata = [-2147483649]\n{UAV}"
    )));
    assert!(e.contains("does not fit in 32 bits"), "{e}");
    let e = error(&cs_case(&format!(
        "[[cs.cb]]\nslot = 0\ndata = [1e39]\n{UAV}"
    )));
    assert!(e.contains("overflows f32"), "{e}");
    let e = error(&cs_case(&format!(
        "[[cs.cb]]\nslot = 0\ndata = [true]\n{UAV}"
    )));
    assert!(e.contains("a number"), "{e}");
}

#[test]
fn case_expected_values_keep_int_or_float() {
    let case = parse(&cs_case("[[uav]]\nslot = 0\ntype = \"raw\"\nsize = 16\n[[expect]]\nuav = 0\noffset = 4\ndata = [1, 1.0, -nan]\nabs = 0.5\nulp = 3\n")).expect("parses");
    let Expect::Uav {
        slot,
        offset,
        data,
        tolerance,
    } = &case.expects[0]
    else {
        panic!("uav form")
    };
    assert_eq!((*slot, *offset), (0, 4));
    assert_eq!(data[0], Value::Word(1));
    assert_eq!(data[1], Value::Float(1.0));
    assert!(matches!(data[2], Value::Float(f) if f.is_nan() && f.is_sign_negative()));
    assert_eq!((tolerance.abs, tolerance.ulp), (0.5, 3));
}

#[test]
fn case_hex_and_file_shaders() {
    let dir = std::env::temp_dir().join(format!("dxjit_case_parse_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("shader.bin"), [0x01, 0x01, 0xfe, 0xff]).expect("write shader");
    let text = "format = 1\n[vs]\nfile = \"shader.bin\"\n[vertices]\ncount = 0\n[[expect]]\nrejected = true\n";
    std::fs::write(dir.join("c.toml"), text).expect("write case");
    let case = parse_case(&dir.join("c.toml")).expect("parses");
    assert_eq!(
        case.vs.map(|s| s.code),
        Some(ShaderCode::Bytes(vec![1, 1, 0xfe, 0xff]))
    );
    let missing = parse_case(&dir.join("absent.toml")).expect_err("missing file");
    assert!(matches!(missing, CaseError::Io { .. }));
    std::fs::remove_dir_all(&dir).expect("clean up");

    let case =
        parse("format = 1\n[ps]\nhex = \"0002ffff ffff0000\"\n[[expect]]\nrejected = true\n")
            .expect("parses");
    assert_eq!(
        case.ps.map(|s| s.code),
        Some(ShaderCode::Bytes(vec![0, 2, 0xff, 0xff, 0xff, 0xff, 0, 0]))
    );
    assert_eq!(case.action, Action::None);
    let e = error("format = 1\n[ps]\nhex = \"0g\"\n[[expect]]\nrejected = true\n");
    assert!(e.contains("not a hex digit"), "{e}");
}

#[test]
fn case_d3d9_constants_and_inputs() {
    let text = r#"
format = 1
[vs]
dwords = [0xfffe0200, 0x0000ffff]
[vs.c]
3 = [1.0, 0.5, 0.25, 1.0]
[vs.i]
0 = [4, -1, 1, 0]
[vs.b]
7 = true
[[vs.input]]
semantic = "POSITION"
data = [[1.0, 2.0, 3.0, 1.0], [4.0, 5.0, 6.0, 1.0]]
[vertices]
count = 2
[[expect]]
vertex = 1
reg = "oPos"
value = [4.0, 5.0, 6.0, 1.0]
"#;
    let case = parse(text).expect("parses");
    let vs = case.vs.as_ref().expect("vs");
    assert_eq!(vs.c[&3], [1.0f32, 0.5, 0.25, 1.0].map(f32::to_bits));
    assert_eq!(vs.i[&0], [4, -1, 1, 0]);
    assert!(vs.b[&7]);
    assert_eq!(
        vs.inputs[0].input,
        IoRef::Semantic {
            name: "POSITION".into(),
            index: 0
        }
    );
    assert!(matches!(&vs.inputs[0].values, InputValues::PerVertex(v) if v.len() == 2));
    assert!(
        matches!(&case.expects[0], Expect::Vertex { vertex: 1, output: IoRef::Reg(r), .. } if r == "oPos")
    );
}

#[test]
fn case_draw_defaults_and_target_expectations() {
    let text = r#"
format = 1
[ps]
dwords = [0xffff0200, 0x0000ffff]
[draw]
targets = [{ format = "rgba8_unorm", width = 4, height = 2 }]
[[draw.input]]
reg = "t0"
flat = [1.0, 0.0, 0.0, 1.0]
[[expect]]
pixel = [3, 1]
value = [1.0, 0.0, 0.0, 1.0]
abs = 0.004
"#;
    let case = parse(text).expect("parses");
    let Action::Draw(draw) = &case.action else {
        panic!("draw")
    };
    assert_eq!(draw.rect(), [0, 0, 4, 2]);
    assert_eq!(draw.clear, [0; 4]);
    assert_eq!(draw.pixel_center, None);
    assert!(matches!(
        case.expects[0],
        Expect::Target {
            target: 0,
            area: Area::Pixel([3, 1]),
            ..
        }
    ));
    let e = error(&text.replace("[3, 1]", "[4, 1]"));
    assert!(e.contains("pixel outside the target"), "{e}");
    let e = error(&text.replace("value = [1.0, 0.0, 0.0, 1.0]", "value = [1.0]"));
    assert!(
        e.contains("must have 4 elements (rgba8_unorm has 4 components)"),
        "{e}"
    );
    let e = error(&text.replace("flat = [1.0, 0.0, 0.0, 1.0]", "flat = [1.0, 0.0, 0.0, 1]"));
    assert!(e.contains("mixes floats with the integer 1"), "{e}");
}

#[test]
fn case_d3d9_sampler_bump_environment() {
    let text = r#"
format = 1
[ps]
dwords = [0xffff0101, 0x0000ffff]
[[ps.sampler]]
slot = 0
[[ps.sampler]]
slot = 1
bump_matrix = [0.5, -0.25, 1, 2.0]
bump_lum_scale = 0.75
bump_lum_offset = -0.125
[draw]
targets = [{ format = "rgba32_float", width = 1, height = 1 }]
[[expect]]
pixel = [0, 0]
value = [0.0, 0.0, 0.0, 0.0]
"#;
    let case = parse(text).expect("parses");
    let ps = case.ps.as_ref().expect("ps");
    assert_eq!(ps.samplers[0].bump, BumpEnv::default());
    assert_eq!(
        ps.samplers[1].bump,
        BumpEnv {
            matrix: [0.5, -0.25, 1.0, 2.0],
            lum_scale: 0.75,
            lum_offset: -0.125
        }
    );
    let e = error(&text.replace("[0.5, -0.25, 1, 2.0]", "[0.5, -0.25, 1]"));
    assert!(e.contains("bump_matrix must have 4 elements"), "{e}");
}

#[test]
fn case_draw_target_output_extension() {
    let text = r#"
format = 1
[ps]
asm = """
ps_2_0
def c0, 0.25, 0.5, 0.75, 1.0
mov oC0, c0
mov oDepth, c0.y
"""
[draw]
targets = [
    { format = "rgba32_float", width = 1, height = 1 },
    { format = "r32_float", width = 1, height = 1, output = "oDepth" },
]
[[expect]]
target = 1
pixel = [0, 0]
value = [0.5]
"#;
    let case = parse(text).expect("parses");
    let Action::Draw(draw) = &case.action else {
        panic!("draw")
    };
    assert_eq!(draw.targets[0].output, None);
    assert_eq!(draw.targets[1].output.as_deref(), Some("oDepth"));
    let outcome = dxjit_cli::run::execute(&case, &dxjit::CompileOptions::default()).expect("runs");
    assert_eq!(outcome.targets[1].data, 0.5f32.to_le_bytes());
    let missing = parse(&text.replace("mov oDepth, c0.y\n", "")).expect("parses");
    let e = dxjit_cli::run::execute(&missing, &dxjit::CompileOptions::default())
        .expect_err("no oDepth");
    assert!(e.contains("the pixel shader has no output oDepth"), "{e}");
}

#[test]
fn case_resource_defaults() {
    let text = cs_case(
        r#"
[[cs.srv]]
slot = 0
type = "structured"
stride = 8
data = [1, 2, 3]
fill = 9
[[cs.srv]]
slot = 1
type = "raw"
size = 8
data = [5]
fill = 0xaabbccdd
[[uav]]
slot = 0
type = "raw"
data = [1, 2]
[[expect]]
uav = 0
data = [1, 2]
"#,
    );
    let case = parse(&text).expect("parses");
    let cs = case.cs.as_ref().expect("cs");
    assert_eq!(cs.srvs[0].kind, SrvKind::Structured { stride: 8 });
    assert_eq!(cs.srvs[0].byte_size(), 12);
    assert_eq!(
        cs.srvs[1].contents(),
        vec![5, 0, 0, 0, 0xdd, 0xcc, 0xbb, 0xaa]
    );
    assert_eq!(case.uavs[0].kind, UavKind::Raw);
    assert_eq!(case.uavs[0].byte_size(), 8);
    assert_eq!(case.uavs[0].contents(), vec![1, 0, 0, 0, 2, 0, 0, 0]);
}

#[test]
fn malformed_cases_are_errors() {
    let cases: [(&str, &str); 13] = [
        ("format = 1\n[cs]\ndwords = [1]\nbogus = 2\n", "line 4: unknown field `bogus`"),
        ("[cs]\ndwords = [1]\n", "format = 1 is missing"),
        ("format = 2\n[cs]\ndwords = [1]\n", "format = 2 is not supported"),
        ("format = 1\n[[expect]]\nrejected = true\n", "no shader table"),
        ("format = 1\n[cs]\ndwords = [1]\nhex = \"00\"\n[[expect]]\nrejected = true\n", "exactly one of asm, dwords, hex, file (has dwords, hex)"),
        ("format = 1\n[cs]\ndwords = [-1]\n", "invalid value"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[dispatch]\ngroups = [1, 1, 1]\n", "no [[expect]]"),
        ("format = 1\n[cs]\nasm = \"ps_4_0\"\n[dispatch]\ngroups = [1, 1, 1]\n[[uav]]\nslot = 0\ntype = \"raw\"\nsize = 4\n[[expect]]\nuav = 0\ndata = [0]\n", "[cs] holds a ps shader"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[[uav]]\nslot = 0\ntype = \"raw\"\nsize = 4\n[[expect]]\nuav = 0\ndata = [0]\n", "no action"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[dispatch]\ngroups = [1, 1, 1]\n[[expect]]\nuav = 3\ndata = [0]\n", "names uav 3, which the case does not bind"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[dispatch]\ngroups = [1, 1, 1]\n[[expect]]\nrejected = true\nuav = 0\n", "`uav` does not belong in a rejected expectation"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[dispatch]\ngroups = [1, 1, 1]\n[[uav]]\nslot = 0\ntype = \"raw\"\nsize = 4\n[[expect]]\nuav = 0\ndata = [0, 0]\n", "reads past the end of uav 0"),
        ("format = 1\n[cs]\nasm = \"cs_5_0\"\n[dispatch]\ngroups = [1, 1, 1]\n[[uav]]\nslot = 0\ntype = \"typed\"\nformat = \"rgb9_unorm\"\ndimension = \"buffer\"\nsize = 4\n[[expect]]\nuav = 0\ndata = [0]\n", "unknown format \"rgb9_unorm\""),
    ];
    for (text, want) in cases {
        let e = error(text);
        assert!(e.starts_with("dir/case.toml: "), "{e}");
        assert!(e.contains(want), "wanted {want:?} in: {e}");
    }
}
