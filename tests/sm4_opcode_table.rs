//! The SM4 opcode table and the enumerated token fields: every number
//! round-trips through its enum, every mnemonic assembles back to its
//! opcode, and the descriptors agree with what the decoder and the
//! disassemblers make of every DXBC the tests hold.

use std::path::{Path, PathBuf};

use dxjit::dxbc::Container;
use dxjit::sm4::asm::assemble_instruction;
use dxjit::sm4::decode::{decode, Sel};
use dxjit::sm4::encoding::{
    ComponentCount, CustomDataClass, ExtendedOpcodeType, ExtendedOperandType, IndexRepresentation,
    MinPrecision, OperandModifier, ResInfoReturnType, SelectionMode, TestBoolean,
};
use dxjit::sm4::fields::OPCODE;
use dxjit::sm4::names::{
    InterpolationMode, Primitive, PrimitiveTopology, ResourceDimension, ReturnType, SamplerMode,
    SystemValue, TessellatorDomain, TessellatorOutputPrimitive, TessellatorPartitioning,
};
use dxjit::sm4::opcodes::{self, Block, Item, Opcode};
use dxjit::sm4::registers::OperandType;
use dxjit::sm4::{self, Syntax};

#[test]
fn every_opcode_number_round_trips() {
    let mut known = 0;
    for code in 0..=OPCODE.max() {
        match Opcode::from_code(code) {
            Some(op) => {
                known += 1;
                assert_eq!(op.code(), code);
                assert_eq!(u32::from(op), code);
                assert_eq!(Opcode::try_from(code), Ok(op));
                assert_eq!(op.info().op, op, "{code}");
                assert_eq!(u32::from(op.info().code), code);
                assert_eq!(opcodes::info(code).map(|i| i.op), Some(op));
            }
            None => {
                assert_eq!(Opcode::try_from(code), Err(code));
                assert!(opcodes::info(code).is_none());
            }
        }
    }
    assert_eq!(known, Opcode::ALL.len());
    assert!(Opcode::ALL.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(Opcode::from_code(u32::MAX), None);
}

/// Checks one named enum: numbers round-trip, unknown numbers are refused,
/// names are unique and read back.
macro_rules! check_named {
    ($($ty:ty),* $(,)?) => {$(
        for code in 0..=1024u32 {
            match <$ty>::from_code(code) {
                Some(v) => {
                    assert_eq!(v.code(), code);
                    assert_eq!(u32::from(v), code);
                    assert_eq!(<$ty>::try_from(code), Ok(v));
                    assert!(<$ty>::ALL.contains(&v));
                }
                None => assert_eq!(<$ty>::try_from(code), Err(code)),
            }
        }
        assert_eq!(<$ty>::TABLE.len(), <$ty>::ALL.len());
        for (&v, &(code, name)) in <$ty>::ALL.iter().zip(<$ty>::TABLE) {
            assert_eq!((v.code(), v.name()), (code, name));
        }
    )*};
}

#[test]
fn every_enumerated_field_round_trips() {
    check_named!(
        OperandType,
        ComponentCount,
        SelectionMode,
        IndexRepresentation,
        ExtendedOperandType,
        OperandModifier,
        ExtendedOpcodeType,
        TestBoolean,
        ResInfoReturnType,
        CustomDataClass,
        MinPrecision,
        ResourceDimension,
        ReturnType,
        SystemValue,
        InterpolationMode,
        SamplerMode,
        PrimitiveTopology,
        Primitive,
        TessellatorDomain,
        TessellatorPartitioning,
        TessellatorOutputPrimitive,
    );
    for &t in OperandType::ALL.iter().filter(|t| !t.is_immediate()) {
        assert_eq!(OperandType::from_register_name(t.name()), Some(t));
    }
    for &d in ResourceDimension::ALL {
        assert_eq!(ResourceDimension::from_name(d.name()), Some(d));
    }
    for &v in SystemValue::ALL {
        assert_eq!(SystemValue::from_name(v.name()), Some(v));
    }
}

#[test]
fn descriptors_are_consistent() {
    for &op in Opcode::ALL {
        let info = op.info();
        let operands = info.items().filter(|i| i.is_operand()).count();
        if info.decl {
            assert!(info.types.is_empty(), "{}", info.name);
            assert!(!info.test && info.block == Block::None, "{}", info.name);
        } else if !info.is_custom() {
            assert_eq!(info.types.len(), operands, "{}", info.name);
            assert!(
                info.types.bytes().all(|b| b"fiuxd".contains(&b)),
                "{}",
                info.name
            );
        }
        assert!(
            info.layout.bytes().all(|b| b"ds1u*c".contains(&b)),
            "{}",
            info.name
        );
        let firsts = info.items().take_while(|i| *i == Item::Dst).count();
        assert!(
            info.items().skip(firsts).all(|i| i != Item::Dst),
            "{}: destinations come first",
            info.name
        );
        assert_eq!(opcodes::by_name(info.name).map(|i| i.op), Some(op));
        for name in info.names() {
            let owners: Vec<Opcode> = Opcode::ALL
                .iter()
                .copied()
                .filter(|o| o.info().names().any(|n| n.eq_ignore_ascii_case(name)))
                .collect();
            assert_eq!(owners, [op], "{name}");
        }
    }
}

/// A line for an instruction (not a declaration) with registers of the
/// right kinds in every operand position.
fn line(name: &str, op: Opcode) -> String {
    let parts: Vec<&str> = op
        .info()
        .items()
        .map(|item| match item {
            Item::Dst => "r0.x",
            Item::Scalar => "r1.y",
            Item::Word => "0",
            _ => "r2.xyzw",
        })
        .collect();
    format!("{name} {}", parts.join(", ")).trim().to_string()
}

#[test]
fn every_instruction_mnemonic_assembles_back_to_its_opcode() {
    for &op in Opcode::ALL {
        let info = op.info();
        if info.decl || info.is_custom() {
            continue;
        }
        for name in info.names() {
            for syntax in [Syntax::Vkd3d, Syntax::Fxc] {
                let text = line(name, op);
                let tokens =
                    assemble_instruction(&text, syntax).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(Opcode::from_code(OPCODE.get(tokens[0])), Some(op), "{text}");
                let mut program = vec![0x0000_0050, tokens.len() as u32 + 2];
                program.extend(&tokens);
                let shader = decode(&program).unwrap_or_else(|e| panic!("{text}: {e}"));
                let ins = &shader.instructions[0];
                assert_eq!(ins.opcode(), op);
                for (i, o) in ins.operands.iter().enumerate() {
                    if info.scalar(i) {
                        assert_eq!(o.sel, Sel::Select(1), "{text}: operand {i}");
                    }
                }
            }
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dir` (recursively) whose extension is `ext`.
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

/// The DXBC containers of a case file's stage tables (`dwords` or `hex`).
fn case_containers(case: &Path) -> Vec<Vec<u8>> {
    let Ok(doc) = std::fs::read_to_string(case)
        .unwrap_or_default()
        .parse::<toml::Table>()
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for stage in ["vs", "hs", "ds", "gs", "ps", "cs"] {
        let Some(table) = doc.get(stage) else {
            continue;
        };
        let bytes: Option<Vec<u8>> =
            if let Some(words) = table.get("dwords").and_then(|d| d.as_array()) {
                Some(
                    words
                        .iter()
                        .filter_map(|w| w.as_integer())
                        .flat_map(|w| (w as u32).to_le_bytes())
                        .collect(),
                )
            } else if let Some(hex) = table.get("hex").and_then(|h| h.as_str()) {
                let hex: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
                (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
                    .collect()
            } else {
                table
                    .get("asm")
                    .and_then(|a| a.as_str())
                    .and_then(|t| sm4::assemble(t).ok())
            };
        out.extend(bytes.filter(|b| b.starts_with(b"DXBC")));
    }
    out
}

/// Every SM4/5 container the tests hold, and whether fxc compiled it.
fn every_dxbc() -> Vec<(String, Vec<u8>, bool)> {
    let mut out = Vec::new();
    let cases = files(&root().join("tests/conformance"), "toml")
        .into_iter()
        .chain(files(&root().join("tests/cases/sm4"), "toml"));
    for case in cases {
        for bytes in case_containers(&case) {
            out.push((case.display().to_string(), bytes, false));
        }
    }
    for fixture in files(&root().join("tests/data/sm4"), "asm") {
        let text = std::fs::read_to_string(&fixture).unwrap();
        if let Ok(bytes) = sm4::assemble(&text) {
            out.push((fixture.display().to_string(), bytes, false));
        }
    }
    for o in files(&root().join("tests/data/sm4/fxc"), "o") {
        out.push((o.display().to_string(), std::fs::read(&o).unwrap(), true));
    }
    out
}

#[test]
fn descriptors_agree_with_the_disassemblers_on_every_dxbc() {
    let mut programs = 0;
    for (name, bytes, by_fxc) in every_dxbc() {
        let Ok(c) = Container::parse(&bytes, true) else {
            continue;
        };
        let Some(tokens) = c.program() else {
            continue;
        };
        let shader = decode(tokens).unwrap_or_else(|e| panic!("{name}: {e}"));
        programs += 1;
        let fxc = sm4::disassemble_as(&c, Syntax::Fxc).unwrap();
        let mut fxc_lines = fxc
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"));
        let mut depth = 0i32;
        for ins in &shader.instructions {
            let info = ins.info;
            assert_eq!(Opcode::from_code(OPCODE.get(ins.token)), Some(info.op));
            let operands = info.items().filter(|i| i.is_operand()).count();
            assert_eq!(ins.operands.len(), operands, "{name}: {}", info.name);
            let text = sm4::disasm::instruction(ins);
            if !info.is_custom() {
                assert!(text.starts_with(info.name), "{name}: {text}");
                assert!(
                    fxc_lines.any(|l| l.starts_with(info.fxc_name) || l.starts_with(".dwords")),
                    "{name}: no fxc line for {}",
                    info.fxc_name
                );
            }
            if by_fxc {
                for (i, o) in ins.operands.iter().enumerate() {
                    if info.scalar(i) && !o.is(OperandType::Immediate32) {
                        assert!(
                            matches!(o.sel, Sel::Select(_) | Sel::One),
                            "{name}: {text}: operand {i} is {:?}",
                            o.sel
                        );
                    }
                }
            }
            match info.block {
                Block::Close => depth -= 1,
                Block::Open => depth += 1,
                Block::Else | Block::None => {}
            }
            assert!(depth >= 0, "{name}: {text} closes no block");
        }
        assert_eq!(depth, 0, "{name}: blocks left open");
    }
    assert!(programs > 1000, "only {programs} programs");
}
