//! fxc syntax, word by word: token words worked out by hand from the
//! D3D10/11 token format for the forms fxc prints, the errors the assembler
//! gives (with line and column), and the look of the fxc disassembly.

use std::path::Path;

use dxjit::dxbc::Container;
use dxjit::sm4::asm::assemble_instruction;
use dxjit::sm4::{self, Sm4Error, Syntax};

fn fxc(text: &str) -> Vec<u32> {
    assemble_instruction(text, Syntax::Fxc).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn vkd3d(text: &str) -> Vec<u32> {
    assemble_instruction(text, Syntax::Vkd3d).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn literals_write_their_bits() {
    assert_eq!(
        fxc("mov r0.x, l(1.000000)"),
        [0x0500_0036, 0x0010_0012, 0, 0x4001, 0x3f80_0000]
    );
    // The same text in an integer and in a float instruction: the word is
    // what the text says, integer or float.
    assert_eq!(fxc("iadd r0.x, r0.x, l(-1)")[6], 0xffff_ffff);
    assert_eq!(fxc("mul r0.x, r0.x, l(-1.000000)")[6], 0xbf80_0000);
    assert_eq!(fxc("and r0.y, r0.y, l(0x3f800000)")[6], 0x3f80_0000);
    assert_eq!(fxc("ushr r0.x, r0.x, l(4294967295)")[6], 0xffff_ffff);
    assert_eq!(
        fxc("mov r0.xyzw, l(1.#INF00, -1.#INF00, 1.#QNAN0, -1.#IND00)")[4..],
        [0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0xffc0_0000]
    );
    assert_eq!(
        fxc("mov r0.xyzw, l(-0.500000, 1e-10, 2.5E+3, 0.5)")[4..],
        [
            0xbf00_0000,
            1e-10f32.to_bits(),
            2500f32.to_bits(),
            0x3f00_0000
        ]
    );
    assert_eq!(
        fxc("mov r0.xy, l(0,0xffffffff,0,0)")[4..],
        [0, 0xffff_ffff, 0, 0]
    );
    assert_eq!(
        fxc("dmov r0.xy, d(1.000000l, 0)")[3..],
        [0x5002, 0, 0x3ff0_0000, 0, 0]
    );
}

#[test]
fn source_selections_in_each_dialect() {
    // fxc prints a swizzle with four letters and select-1 with one.
    assert_eq!(fxc("mov r1.yzw, r0.z")[3], 0x0010_002a);
    assert_eq!(fxc("mov r1.yzw, r0.zzzz")[3], 0x0010_0aa6);
    // vkd3d shortens a replicated swizzle to one letter.
    assert_eq!(vkd3d("mov r1.yzw, r0.z")[3], 0x0010_0aa6);
    assert_eq!(vkd3d("mov r1.yzw, r0.(z)")[3], 0x0010_002a);
    // Two or three letters in order are a mask, as fxc prints mask-mode
    // sources and 3DMigoto assembles hand-written ones; others repeat
    // their last letter.
    assert_eq!(
        fxc("add r21.xyz, r21.xyz, -r19.xyz"),
        [
            0x0800_0000,
            0x0010_0072,
            21,
            0x0010_0072,
            21,
            0x8010_0072,
            0x41,
            19
        ]
    );
    assert_eq!(fxc("mul o1.xyz, r0.yyy, v1.xyzx")[3], 0x0010_0556);
    assert_eq!(fxc("mov r0.xy, v1.yx")[3], 0x0010_1016);
    // Modifiers, relative indices, two-dimensional inputs.
    assert_eq!(fxc("mov r0.x, -|r1.x|")[3..6], [0x8010_000a, 0xc1, 1]);
    assert_eq!(
        fxc("mov o0.xyzw, cb0[r0.x + 3].xyzw")[3..],
        [0x0620_8e46, 0, 3, 0x0010_000a, 0]
    );
    assert_eq!(
        fxc("mov r0.xyzw, icb[r0.w + 0].xyzw")[3..],
        [0x0090_9e46, 0x0010_003a, 0]
    );
    assert_eq!(
        fxc("mov r0.x, x0[r1.x + 0].x")[3..],
        [0x0420_300a, 0, 0x0010_000a, 1]
    );
    assert_eq!(fxc("mov r0.xyz, vicp[0][1].xyzx")[3..], [0x0021_9246, 0, 1]);
    assert_eq!(fxc("mov r0.xyzw, v[2][0].xyzw")[3..], [0x0020_1e46, 2, 0]);
    assert_eq!(fxc("mov r0.x, vThreadIDInGroupFlattened")[3], 0x0002_4001);
    assert_eq!(fxc("mov r0.x, vForkInstanceID.x")[3], 0x0001_700a);
    assert_eq!(fxc("mov oDepth, r0.x")[1], 0x0000_c001);
    assert_eq!(fxc("imul null, r0.x, r1.x, r2.x")[1], 0x0000_d000);
}

#[test]
fn instruction_suffixes() {
    // sample_l with offsets (-1, 0, 0), a texture2d dimension and float returns.
    assert_eq!(
        fxc("sample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)"),
        [
            0x8e00_0048,
            0x8000_1e01,
            0x8000_00c2,
            0x0015_5543,
            0x0010_00f2,
            0,
            0x0010_1046,
            1,
            0x0010_7e46,
            0,
            0x0010_6000,
            0,
            0x4001,
            0
        ]
    );
    assert_eq!(
        fxc("ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.xyzw, v0.x, l(0), t0.xyzw")[..4],
        [0x8b00_00a7, 0x8000_8302, 0x0019_9983, 0x0010_00f2]
    );
    assert_eq!(
        fxc("resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw")[..3],
        [0x8900_103d, 0x8000_00c2, 0x0015_5543]
    );
    assert_eq!(fxc("mad_sat r0.x, r0.x, r0.x, r0.x")[0], 0x0900_2032);
    assert_eq!(fxc("if_nz r0.x"), [0x0304_001f, 0x0010_000a, 0]);
    assert_eq!(fxc("breakc_z r0.x")[0], 0x0300_0003);
    assert_eq!(fxc("retc_nz r0.x")[0], 0x0304_003f);
    assert_eq!(fxc("discard_nz r0.x")[0], 0x0304_000d);
    assert_eq!(fxc("sync_g_t"), [0x0100_18be]);
    assert_eq!(fxc("sync_uglobal_g_t"), [0x0100_58be]);
    assert_eq!(
        fxc("add [precise(xy)] r0.xy, r1.xyxx, r2.xyxx")[0],
        0x0718_0000
    );
    assert_eq!(
        fxc("mul [precise] r2.xyzw, r2.xyzw, r2.xyzw")[0],
        0x0778_0038
    );
    assert_eq!(fxc("ldms_indexable(texture2dms)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), t0.xyzw, l(1)")[0] & 0x7ff, 46);
    assert_eq!(fxc("fcall fp0[1][0]"), [0x0500_0078, 0, 0x0021_3000, 0, 1]);
    assert_eq!(
        fxc("ld_raw_indexable(rawbuffer)(mixed,mixed,mixed,mixed) r0.x, l(0), t0.xxxx")[1],
        0x8000_02c2
    );
    assert_eq!(
        fxc("MAD_SAT R0.X, R0.X, R0.X, L(1.0)"),
        fxc("mad_sat r0.x, r0.x, r0.x, l(1.000000)")
    );
}

#[test]
fn sample_pos_on_a_texture_ends_with_fxc_zero_word() {
    // fxc writes one 0 after sample_pos's operands when the resource is a
    // texture (vkd3d's test_shader_sample_position holds fxc's
    // `0x0900006e ... 0x00000000`; 3DMigoto's assembler writes the same),
    // none after the rasterizer: 1 + 2 (r0.xy) + 2 (t1) + 2 (v1.x) + 1 = 8.
    assert_eq!(
        fxc("samplepos r0.xy, t1.xyxx, v1.x"),
        [
            0x0800_006e,
            0x0010_0032,
            0,
            0x0010_7046,
            1,
            0x0010_100a,
            1,
            0
        ]
    );
    assert_eq!(
        vkd3d("sample_pos r0.xy, t1.xyxx, v1.(x)"),
        fxc("samplepos r0.xy, t1.xyxx, v1.x")
    );
    // 1 + 2 + 1 (rasterizer has no index) + 2 = 6, no trailing word.
    assert_eq!(
        fxc("samplepos r0.xy, rasterizer.xyxx, v1.x"),
        [0x0600_006e, 0x0010_0032, 0, 0x0000_e046, 0x0010_100a, 1]
    );
}

#[test]
fn declarations() {
    let cases: &[(&str, &[u32])] = &[
        (
            "dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers",
            &[0x0100_486a],
        ),
        (
            "dcl_constantbuffer CB0[4], dynamicIndexed",
            &[0x0400_0859, 0x0020_8e46, 0, 4],
        ),
        (
            "dcl_constantbuffer cb1[1] (ParamBuffer), immediateIndexed",
            &[0x0400_0059, 0x0020_8e46, 1, 1],
        ),
        (
            "dcl_resource_texture2d (float,float,float,float) t0",
            &[0x0400_1858, 0x0010_7000, 0, 0x5555],
        ),
        (
            "dcl_resource_texture2dms(4) (float,float,float,float) t3",
            &[0x0404_2058, 0x0010_7000, 3, 0x5555],
        ),
        (
            "dcl_resource_structured t0, 16",
            &[0x0400_00a2, 0x0010_7000, 0, 16],
        ),
        ("dcl_resource_raw t0", &[0x0300_00a1, 0x0010_7000, 0]),
        (
            "dcl_uav_typed_texture2d (float,float,float,float) u0",
            &[0x0400_189c, 0x0011_e000, 0, 0x5555],
        ),
        (
            "dcl_uav_structured_opc u0, 4",
            &[0x0480_009e, 0x0011_e000, 0, 4],
        ),
        (
            "dcl_sampler s0, mode_default",
            &[0x0300_005a, 0x0010_6000, 0],
        ),
        ("dcl_input_ps linear v1.xy", &[0x0300_1062, 0x0010_1032, 1]),
        (
            "dcl_input_ps_siv linear noperspective v0.xy, position",
            &[0x0400_2064, 0x0010_1032, 0, 1],
        ),
        (
            "dcl_input_ps_sgv v0.x, primitive_id",
            &[0x0400_0863, 0x0010_1012, 0, 7],
        ),
        (
            "dcl_input_ps_siv constant v1.x, rendertarget_array_index",
            &[0x0400_0864, 0x0010_1012, 1, 4],
        ),
        (
            "dcl_output_siv o0.xyzw, position",
            &[0x0400_0067, 0x0010_20f2, 0, 1],
        ),
        ("dcl_output oDepth", &[0x0200_0065, 0x0000_c001]),
        ("dcl_input vThreadID.xy", &[0x0200_005f, 0x0002_0032]),
        ("dcl_input vForkInstanceID", &[0x0200_005f, 0x0001_7000]),
        ("dcl_thread_group 8, 8, 1", &[0x0400_009b, 8, 8, 1]),
        (
            "dcl_tgsm_structured g0, 4, 256",
            &[0x0500_00a0, 0x0011_f000, 0, 4, 256],
        ),
        ("dcl_indexableTemp x0[4], 4", &[0x0400_0069, 0, 4, 4]),
        ("dcl_indexrange o0.x 2", &[0x0400_005b, 0x0010_2012, 0, 2]),
        ("dcl_temps 8", &[0x0200_0068, 8]),
        ("dcl_function_body fb3", &[0x0200_0090, 3]),
        (
            "dcl_function_table ft1 = {fb3, fb4}",
            &[0x0500_0091, 1, 2, 3, 4],
        ),
        (
            "dcl_interface_dynamicindexed fp3[3][1] = {ft6, ft7}",
            &[0x0600_0892, 3, 1, 0x0003_0002, 6, 7],
        ),
        ("hs_decls", &[0x0100_0071]),
        ("hs_control_point_phase", &[0x0100_0072]),
        ("hs_fork_phase", &[0x0100_0073]),
        ("hs_join_phase", &[0x0100_0074]),
        ("dcl_hs_fork_phase_instance_count 3", &[0x0200_0099, 3]),
        ("dcl_input_control_point_count 3", &[0x0100_1893]),
        ("dcl_output_control_point_count 16", &[0x0100_8094]),
        ("dcl_tessellator_domain domain_tri", &[0x0100_1095]),
        (
            "dcl_tessellator_partitioning partitioning_fractional_odd",
            &[0x0100_1896],
        ),
        (
            "dcl_tessellator_output_primitive output_triangle_cw",
            &[0x0100_1897],
        ),
        (
            "dcl_hs_max_tessfactor l(64.000000)",
            &[0x0200_0098, 0x4280_0000],
        ),
        ("dcl_inputprimitive triangle", &[0x0100_185d]),
        ("dcl_outputtopology trianglestrip", &[0x0100_285c]),
        ("dcl_maxout 3", &[0x0200_005e, 3]),
        ("dcl_stream m0", &[0x0300_008f, 0x0011_0000, 0]),
        ("dcl_gsinstances 4", &[0x0200_00ce, 4]),
        ("dcl_input vGSInstanceID", &[0x0200_005f, 0x0002_5000]),
        // RenderDoc's spellings.
        (
            "dcl_input_sgv v0.x, vertexid",
            &[0x0400_0060, 0x0010_1012, 0, 6],
        ),
        ("dcl_indexRange o0.x 2", &[0x0400_005b, 0x0010_2012, 0, 2]),
    ];
    for (text, words) in cases {
        assert_eq!(&fxc(text)[..], *words, "{text}");
    }
    assert_eq!(
        fxc("dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n    { -1, 0x3f800000, 1.#INF00, 2} }"),
        [0x1835, 10, 0x3f80_0000, 0, 0, 0, 0xffff_ffff, 0x3f80_0000, 0x7f80_0000, 2]
    );
    assert_eq!(
        fxc("printf \"%0 is fine!\", r10.z"),
        [
            0x2035,
            12,
            0x0020_0102,
            1,
            11,
            1,
            2,
            0x0010_002a,
            10,
            0x6920_3025,
            0x6966_2073,
            0x0021_656e
        ]
    );
}

#[test]
fn signatures_come_from_the_comment_tables() {
    let text = "\
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
// TEXCOORD                 3   xy          1     NONE   float   x
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                2   xyzw        2   TARGET   float   xyzw
//
ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.x
dcl_output o2.xyzw
mov o2.xyzw, v1.xxxx
ret
";
    let c = Container::parse(&sm4::assemble(text).unwrap(), true).unwrap();
    let (i, o) = (c.inputs(), c.outputs());
    assert_eq!(i.len(), 2);
    assert_eq!(
        (i[1].semantic.as_str(), i[1].semantic_index, i[1].register),
        ("TEXCOORD", 3, 1)
    );
    assert_eq!((i[1].mask, i[1].rw_mask), (3, 1));
    assert_eq!(
        (o[0].semantic.as_str(), o[0].semantic_index, o[0].sysval),
        ("SV_Target", 2, 0)
    );
    assert_eq!((o[0].mask, o[0].rw_mask), (15, 0));
    // Without tables the declarations give the signatures.
    let bare = text
        .lines()
        .filter(|l| !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let c = Container::parse(&sm4::assemble(&bare).unwrap(), true).unwrap();
    assert_eq!(c.inputs()[1].semantic, "TEXCOORD");
    assert_eq!(c.outputs()[0].semantic, "SV_Target");
}

/// The line and column of the error assembling `text` gives.
fn at(text: &str) -> (usize, usize) {
    match sm4::assemble(text) {
        Err(Sm4Error::Asm { line, column, .. }) => (line, column),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn errors_point_at_the_offending_token() {
    let cases: &[(&str, (usize, usize))] = &[
        ("ps_5_0\nmov r0.x, r1.q\n", (2, 14)),
        ("ps_5_0\n  frob r0.x\n", (2, 3)),
        ("ps_5_0\n// c\nmov r0.x, l(1.2.3)\n", (3, 13)),
        ("ps_5_0\nmov r0.x, q0.x\n", (2, 11)),
        ("ps_5_0\nadd r0.x, r1.x\n", (2, 15)),
        ("ps_5_0\nmov r0.x, r1.x, r2.x\n", (2, 17)),
        ("ps_5_0\nsample_aoffimmi(1,2) r0, r0, t0, s0\n", (2, 16)),
        ("ps_5_0\ndcl_immediateConstantBuffer { { 1, 2,\n", (2, 29)),
        (
            "ps_5_0\ndcl_immediateConstantBuffer { { 1, 2},\n { 3, x} }\n",
            (3, 7),
        ),
        ("ps_6_0\nret\n", (1, 1)),
        ("ps_5_0\ndcl_sampler s0, mode_strange\n", (2, 17)),
        ("ps_5_0\nmov r0.yx, r1.x\n", (2, 8)),
    ];
    for (text, place) in cases {
        assert_eq!(at(text), *place, "{text}");
    }
    let shown = sm4::assemble("ps_5_0\nmov r0.x, r1.q")
        .unwrap_err()
        .to_string();
    assert_eq!(shown, "line 2, column 14: bad components 'q'");
}

#[test]
fn fxc_disassembly_reads_like_fxc() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sm4/fxc");
    for name in [
        "slimshader-ps4_primID",
        "slimshader-vs4_switch",
        "slimshader-hs5_basic",
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.o"))).unwrap();
        let c = Container::parse(&bytes, false).unwrap();
        let ours = sm4::disassemble_as(&c, Syntax::Fxc).unwrap();
        let theirs = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
        let lines = |t: &str| -> Vec<String> {
            t.lines()
                .skip_while(|l| !l.contains("signature:"))
                .map(|l| l.trim_end().to_string())
                .filter(|l| l != "//" && !l.contains("Approximately"))
                .collect()
        };
        assert_eq!(lines(&ours), lines(&theirs), "{name}:\n{ours}");
    }
}
