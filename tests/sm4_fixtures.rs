//! Round trips and lowering of the hand-written SM4/5 fixtures in
//! `tests/data/sm4` (always run, no corpus needed).

use std::path::Path;

use dxjit::dxbc::Container;
use dxjit::ir::{self, File, Inst, Stage, SysVal};
use dxjit::sm4;

fn fixture(name: &str) -> Container {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sm4")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let bytes = sm4::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    Container::parse(&bytes, true).unwrap()
}

const FIXTURES: [&str; 3] = ["cs_memory.asm", "ps_flow.asm", "vs_misc.asm"];

#[test]
fn sm4_fixtures_round_trip_through_text() {
    for name in FIXTURES {
        let c = fixture(name);
        let text = sm4::disassemble(&c).unwrap();
        assert!(
            !text.contains(".dwords"),
            "{name} needed raw words:\n{text}"
        );
        let again = Container::parse(&sm4::assemble(&text).unwrap(), true).unwrap();
        assert_eq!(again.program(), c.program(), "{name}:\n{text}");
    }
}

#[test]
fn sm4_fixtures_lower_and_validate() {
    for name in FIXTURES {
        let p = sm4::lower(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        ir::validate(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn sm4_fixture_compute_declarations() {
    let p = sm4::lower(&fixture("cs_memory.asm")).unwrap();
    assert_eq!(p.stage, Stage::Compute);
    assert_eq!(p.thread_group, [4, 2, 1]);
    assert_eq!(p.tgsm.len(), 2);
    assert_eq!(p.tgsm[1].size, 32);
    assert_eq!(p.uavs.len(), 3);
    assert_eq!(p.srvs.len(), 3);
    assert!(p.temps >= 3);
    let uses_group_index = p.main.iter().any(|i| match i {
        Inst::Alu { src, .. } => src
            .iter()
            .any(|s| s.file == File::SysVal(SysVal::GroupIndex)),
        _ => false,
    });
    assert!(uses_group_index);
    assert!(p.main.iter().any(|i| matches!(
        i,
        Inst::Atomic {
            dst: Some(_),
            compare: Some(_),
            ..
        }
    )));
    assert!(p.main.iter().any(|i| matches!(
        i,
        Inst::Sync {
            group: true,
            tgsm: true,
            uav: false
        }
    )));
}

#[test]
fn sm4_fixture_pixel_io_and_subroutines() {
    let p = sm4::lower(&fixture("ps_flow.asm")).unwrap();
    assert_eq!(p.icb.len(), 2);
    assert_eq!(p.depth_output, Some(2));
    assert!(p
        .outputs
        .iter()
        .any(|o| o.semantic == "SV_DEPTH" && o.reg == 2));
    assert!(p
        .outputs
        .iter()
        .any(|o| o.semantic == "SV_TARGET" && o.semantic_index == 1));
    assert_eq!(p.subroutines.len(), 1);
    let v1 = p.inputs.iter().find(|i| i.reg == 1).unwrap();
    assert_eq!(v1.mask, 0xf);
    assert!(
        p.inputs.iter().all(|i| i.reg != 0 && i.reg != 3),
        "sysval inputs are not listed"
    );
    let reads = |sv: SysVal| {
        p.main.iter().any(|i| match i {
            Inst::Alu { src, .. } => src.iter().any(|s| s.file == File::SysVal(sv)),
            Inst::If { cond, .. } => cond.file == File::SysVal(sv),
            _ => false,
        })
    };
    assert!(reads(SysVal::Position) && reads(SysVal::FrontFace));
    assert!(p.main.iter().any(|i| matches!(
        i,
        Inst::Sample {
            offset: [1, -2, 0],
            ..
        }
    )));
    assert!(p.main.iter().any(|i| matches!(i, Inst::Fetch { .. })));
}

#[test]
fn sm4_fixture_info_lists_the_program() {
    let text = sm4::info(&fixture("cs_memory.asm")).unwrap();
    assert!(text.contains("stage: cs"), "{text}");
    assert!(text.contains("thread group: [4, 2, 1]"), "{text}");
    assert!(text.contains("u1: dcl_uav_structured"), "{text}");
}

#[test]
fn sm4_fixtures_disassemble_to_their_own_text() {
    for name in FIXTURES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/sm4")
            .join(name);
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            sm4::disassemble(&fixture(name)).unwrap().trim(),
            text.trim(),
            "{name}"
        );
    }
}

#[test]
fn sm4_hull_and_class_linkage_decode_and_disassemble_and_malformed_interfaces_are_refused() {
    let c = fixture("hs_linkage.asm");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sm4/hs_linkage.asm");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(sm4::disassemble(&c).unwrap().trim(), text.trim());
    let shader = sm4::decode(c.program().unwrap()).unwrap();
    assert_eq!(shader.program_type, sm4::ProgramType::Hull);
    // fp0[1][2] has two call sites but ft0 fills one.
    let err = sm4::lower(&c).unwrap_err();
    assert!(
        err.to_string()
            .contains("fp0 has 2 call sites; ft0 fills 1"),
        "{err}"
    );
    assert!(sm4::info(&c).unwrap().contains("stage: hs"));
}
