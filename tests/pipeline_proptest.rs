//! Random and mutated bytecode through the whole pipeline (container,
//! decoder, lowering, JIT) and, when it compiles into a shader that surely
//! finishes, one small dispatch, vertex run or draw: no panic, no crash, no
//! hang. The case count honours `PROPTEST_CASES`.

#[path = "../fuzz/src/lib.rs"]
mod exec;

use dxjit_runtime::dispatch::{self, Bindings, Draw, RenderTarget};
use dxjit_runtime::format::Format;
use exec::{compile_and_run, Reached};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Seed programs: assembled SM4 containers, then D3D9 token streams.
type Seeds = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// Valid programs to mutate: assembled SM4 containers and D3D9 streams.
fn seeds() -> &'static Seeds {
    static SEEDS: OnceLock<Seeds> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dxbc = [
            include_str!("data/sm4/cs_memory.asm"),
            include_str!("data/sm4/ps_flow.asm"),
            include_str!("data/sm4/vs_misc.asm"),
            "cs_5_0\ndcl_uav_raw u0\ndcl_thread_group 4, 1, 1\n\
             store_raw u0.xyzw, l(0), l(1, 2, 3, 4)\nret\n",
        ]
        .iter()
        .map(|t| dxjit::text::assemble(t).expect("seed assembles"))
        .collect();
        let d3d9 = include_str!("data/d3d9/fixtures.asm")
            .split("===")
            .filter(|t| !t.trim().is_empty())
            .map(|t| dxjit::text::assemble(t).expect("seed assembles"))
            .collect();
        (dxbc, d3d9)
    })
}

/// One edit of a byte string.
#[derive(Debug, Clone)]
enum Edit {
    /// Flip one bit.
    Flip(usize, u8),
    /// Overwrite a 32-bit word.
    Word(usize, u32),
    /// Cut the tail off.
    Truncate(usize),
    /// Copy a run of another seed over this one.
    Splice(usize, usize, usize, usize),
    /// Remove a 32-bit word.
    Delete(usize),
    /// Duplicate a 32-bit word.
    Repeat(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), 0u8..8).prop_map(|(a, b)| Edit::Flip(a, b)),
        3 => (any::<usize>(), prop_oneof![any::<u32>(), Just(0), Just(u32::MAX), 0u32..64])
            .prop_map(|(a, w)| Edit::Word(a, w)),
        1 => any::<usize>().prop_map(Edit::Truncate),
        1 => (any::<usize>(), any::<usize>(), any::<usize>(), 1usize..64)
            .prop_map(|(s, a, b, n)| Edit::Splice(s, a, b, n)),
        1 => any::<usize>().prop_map(Edit::Delete),
        1 => any::<usize>().prop_map(Edit::Repeat),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit, pool: &[Vec<u8>]) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    let word = |a: usize| (a % n.div_ceil(4)) * 4;
    match *e {
        Edit::Flip(a, b) => bytes[a % n] ^= 1 << b,
        Edit::Word(a, w) => {
            let at = word(a);
            for (i, b) in w.to_le_bytes().iter().enumerate() {
                if let Some(x) = bytes.get_mut(at + i) {
                    *x = *b;
                }
            }
        }
        Edit::Truncate(a) => bytes.truncate(a % n),
        Edit::Splice(s, a, b, len) => {
            let src = &pool[s % pool.len()];
            let (from, to) = (b % src.len(), a % n);
            let len = len.min(src.len() - from).min(n - to);
            bytes[to..to + len].copy_from_slice(&src[from..from + len]);
        }
        Edit::Delete(a) => {
            let at = word(a);
            bytes.drain(at..(at + 4).min(n));
        }
        Edit::Repeat(a) => {
            let at = word(a);
            let w: Vec<u8> = bytes[at..(at + 4).min(n)].to_vec();
            bytes.splice(at..at, w);
        }
    }
}

/// Writes the correct checksum into a container.
fn fix_checksum(bytes: &mut [u8]) {
    if bytes.len() >= 20 {
        let sum = dxjit::dxbc::checksum(bytes);
        for (i, w) in sum.iter().enumerate() {
            bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
    }
}

#[test]
fn seeds_lower_and_run() {
    let (dxbc, d3d9) = seeds();
    for s in dxbc.iter().chain(d3d9) {
        let lowered = dxjit::shader::lower(s, &dxjit::CompileOptions::default());
        assert!(lowered.is_ok(), "{lowered:?}");
        compile_and_run(s, true);
    }
}

#[test]
fn sm4_derivative_compiles() {
    let text = "ps_5_0\ndcl_input_ps linear v1.x\ndcl_output o0.x\ndcl_temps 1\n\
                deriv_rtx r0.x, v1.x\nmov o0.x, r0.x\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    if let Err(e) = dxjit::compile(&bytes, &dxjit::CompileOptions::default()) {
        panic!("{e}");
    }
}

/// A mutated container and whether its checksum was fixed up.
fn mutated_dxbc() -> impl Strategy<Value = (Vec<u8>, bool)> {
    (
        any::<usize>(),
        prop::collection::vec(edit(), 1..3),
        any::<bool>(),
    )
        .prop_map(|(seed, edits, fix)| {
            let pool = &seeds().0;
            let mut bytes = pool[seed % pool.len()].clone();
            for e in &edits {
                apply(&mut bytes, e, pool);
            }
            if fix {
                fix_checksum(&mut bytes);
            }
            (bytes, fix)
        })
}

/// A mutated D3D9 token stream.
fn mutated_d3d9() -> impl Strategy<Value = Vec<u8>> {
    (any::<usize>(), prop::collection::vec(edit(), 1..3)).prop_map(|(seed, edits)| {
        let pool = &seeds().1;
        let mut bytes = pool[seed % pool.len()].clone();
        for e in &edits {
            apply(&mut bytes, e, pool);
        }
        bytes
    })
}

/// The mutations are not vacuous: many mutants still compile, and some run.
#[test]
fn mutants_reach_the_jit_and_run() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut reached = [0usize; 3];
    let mut tally = |r: Reached| reached[r as usize] += 1;
    for _ in 0..300 {
        let (bytes, fix) = mutated_dxbc()
            .new_tree(&mut runner)
            .expect("input")
            .current();
        tally(compile_and_run(&bytes, !fix));
        let bytes = mutated_d3d9()
            .new_tree(&mut runner)
            .expect("input")
            .current();
        tally(compile_and_run(&bytes, true));
    }
    eprintln!("rejected, compiled only, ran: {reached:?}");
    assert!(reached[1] + reached[2] >= 15, "{reached:?}");
    assert!(reached[2] >= 15, "{reached:?}");
}

#[test]
fn huge_tgsm_declarations_are_rejected_or_fully_sized() {
    let text = "cs_5_0\ndcl_tgsm_raw g0, 4294967280\ndcl_tgsm_raw g1, 32\n\
                dcl_thread_group 1, 1, 1\nstore_raw g1.x, l(0), l(1)\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    if let Ok(shader) = dxjit::compile(&bytes, &dxjit::CompileOptions::default()) {
        let size = u64::from(shader.kernel().tgsm_size);
        assert!(
            size >= 0xFFFF_FFF0 + 32,
            "group-shared block of {size} bytes"
        );
    }
}

#[test]
fn huge_temp_declarations_do_not_exhaust_memory() {
    let text =
        "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 4211015683\nmov o0.xyzw, l(0, 0, 0, 0)\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    // Returning at all (with an error or a shader) is the pass condition.
    let _ = dxjit::compile(&bytes, &dxjit::CompileOptions::default());
}

#[test]
fn huge_output_register_does_not_exhaust_memory() {
    let text = "ps_5_0\ndcl_output o4294836224.xyzw\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    // Failing to compile is fine; compiling and then aborting in draw is not.
    if let Ok(shader) = dxjit::compile(&bytes, &dxjit::CompileOptions::default()) {
        let mut pixels = [0u32; 4];
        let d = Draw {
            rect: [0, 0, 1, 1],
            pixel_center: 0.5,
            shading: Default::default(),
            sample_mask: u32::MAX,
            inputs: Vec::new(),
            targets: vec![RenderTarget {
                ptr: pixels.as_mut_ptr().cast(),
                width: 1,
                height: 1,
                row_pitch: 16,
                format: Format::Rgba32Float,
                output_reg: 0,
                samples: 1,
            }],
        };
        // SAFETY: the target memory outlives the call and nothing else touches it.
        unsafe { dispatch::draw(&shader.kernel(), &Bindings::default(), &d) };
    }
}

/// The fuzz artifact (checksum fixed up by the test).
const SHORT_LENGTH_FIELD: &str = concat!(
    "4458424321d929a437b4d21cde941d1fabd4c03101000000ec0800000500000034000000440000007800000074010000",
    "700800004953474e0800000000000000080000004f53474e2c0000000100000008000000200000000000000000000000",
    "03000000000000000f00000073765f74617267657400abab52444546f40000000100000048000000010000001c000000",
    "0004ffff00000000d00000003c0000000000000000000000000000000000000000000000010000000000000024476c6f",
    "62616c7300ababab60000000030000006c00000010000000000000000000000024476c6f62616c7300abababb4000000",
    "000000000400000002000000b800000000000000c8000000040000000400000002000000b800000000000000cc000000",
    "080000000400000002000000b8000000000000006900abab000003000100010000000000010000006a00abab6b00abab",
    "766b6433642d73686164657220312e313720286769742066373332666237382900ababab53484452f406000040000000",
    "bd010000680000020200000059000004468e2000000000000100000065000003f2201000000000003500000401000000",
    "030000000400000069000004000000000c00000004000000360000061230200000000000000000000140000000000000",
    "36000006223020000000000000000000014000000000803f360000064230200000000000000000000140000000000040",
    "360000068230200000000000000000000140000000febfbfc90000061230200000000002010000000140000000002041",
    "360000062230200000000000010000000140000000003041360000064230200000000000010000000140000000004041",
    "36000006823020000000000001000000014000000000504136000006123020000000000002000000014000000000a041",
    "36000006223020000000000002002000014000000000a84136000006423020000000000002000000014000000000b041",
    "36000006823020000000000002000000014000000000b84136000006123020000000000003000000014000000000f041",
    "36000006223020000000000003000000014000000000f841360000064230200000000000030000000140000000000042",
    "360000068230200000000000030000000140000000000442360000061230200000000000040000000140000000002042",
    "360000062230200000000000040000000140000000002442360000064230200000000000040000000140000000002842",
    "360000068230200000000000040000000140000000002c42360000061230200000000000050000000140000000004842",
    "360000062230200000000000050000fa0140000000004c42360000064225200000000000050000000140000000005042",
    "360000068230200000000000050000000140000000005442360000061230200000000000060000000140000000007042",
    "360000062230200000000000060000000140000000007442360000064230200000000000060000000140000000007842",
    "360000068230200000000000060000000140000000007c423600000612302000000000008d0000000140000000008c42",
    "360000062230200000000000070000000140000000008e42360000064230200000000000070000000140000000009042",
    "36000006823020000000000007000000014000000000924236000006123020000000000008000000014000000000a042",
    "36000006223020000000000008000000014000000000a24236000006423020000000000008000000014000000000a442",
    "36000006823020000000000008000020014000000000a64236000006123020000000000009000000014000000000b442",
    "36000006223020000000000009000000014000000000b64236000006423020000000000009000000014000000000b842",
    "36000006823020000000000009000000014000000000ba423600000612302000000000000a000000014000000000c842",
    "3600000622302000000000000a000000014000000000ca423600000642302000000000000a000000014000000000cc42",
    "3600000682302000000000000a000000014000000000ce423600000612302000000000000b000000014000000000dc42",
    "360000062230200000000000000000010b4000000000de423600000642302000000000000b000000014000000000e042",
    "3600000682302000000000000b000000014000000000e242360000061200100000000000568520000000000000000000",
    "360000062200100000000000a68a20000000000000000000100000071200100000000000060010000000000056051000",
    "00000000360000062200100000000000068020000000000000000000360000064200100000000000a68a200000000000",
    "000000000000000722001000000000005605100000000000a60a1000000000001c000005220010000000000056051000",
    "000000001c000005120010000000000006001000000000002600000800d0000012001000010000005605100000000000",
    "014000000300000036000007f200100001000000463e2004000000000a0010000100000036000006f230200001000000",
    "00000000460e1000010000002600000800d000001200100001000000560510000000000001400000030000001e000007",
    "42001000000000000600100001000000014000000100000036000007f200100001000000463e2004000000002a001000",
    "0000000036000006f23020000100000001000000460e1000010000002600000800d00000120010000100000056051000",
    "0000000001400000030000001e00000722001000000000000600100001000000014000000200000036000007f2001000",
    "01000000463e2004000000001a0010000000000036000006f23020000100000002000100460e10000100000036000007",
    "f200100000000000463e2004010000000a0010000000000036000005f220100000000000460e1000000000003e000001",
    "53544154740000004b000000020000000000000000000000020000000500000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000000000003c0000000000000002000000",
    "00000000000000000000000000000000000000000000000000000000",
);

#[test]
fn operands_past_the_length_field_are_an_error() {
    let hex = SHORT_LENGTH_FIELD.as_bytes();
    let mut bytes: Vec<u8> = hex
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).expect("ascii"), 16).expect("hex"))
        .collect();
    fix_checksum(&mut bytes);
    let _ = dxjit::compile(&bytes, &dxjit::CompileOptions::default());
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_dxbc_containers((bytes, fix) in mutated_dxbc()) {
        compile_and_run(&bytes, !fix);
    }

    #[test]
    fn mutated_d3d9_streams(bytes in mutated_d3d9()) {
        compile_and_run(&bytes, true);
    }

    #[test]
    fn random_d3d9_streams(version in prop::sample::select(vec![
                               0xfffe_0101u32, 0xfffe_0200, 0xfffe_0300, 0xffff_0104,
                               0xffff_0101, 0xffff_0200, 0xffff_0300]),
                           body in prop::collection::vec(
                               prop_oneof![any::<u32>(), 0u32..0x60, 0x8000_0000u32..0x800f_0010], 0..32)) {
        let mut tokens = vec![version];
        tokens.extend(body);
        tokens.push(0xffff);
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        compile_and_run(&bytes, true);
    }

    #[test]
    fn random_dxbc_bytes(body in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = b"DXBC".to_vec();
        bytes.extend(body);
        fix_checksum(&mut bytes);
        compile_and_run(&bytes, true);
    }
}

/// Found by fuzzing: a double comparison writing four 32-bit results read a
/// fifth source component. A register holds two doubles: more is an error.
#[test]
fn double_op_with_four_results_is_an_error() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n\
                deq r0.xyzw, r1.xyzw, r1.xyzw\nstore_raw u0.xyzw, l(0), r0.xyzw\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    let err = dxjit::compile(&bytes, &dxjit::CompileOptions::default())
        .err()
        .expect("rejected");
    assert!(err.to_string().contains("two doubles"), "{err}");
}

/// Found by proptest: a vertex program whose version token says cs_5_0 read
/// input registers a compute dispatch never binds.
#[test]
fn compute_shader_with_input_registers_is_an_error() {
    let text = "cs_5_0\ndcl_input v0.xyzw\ndcl_uav_raw u0\ndcl_thread_group 1, 1, 1\n\
                store_raw u0.xyzw, l(0), v0.xyzw\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    assert!(dxjit::compile(&bytes, &dxjit::CompileOptions::default()).is_err());
}

/// Found by proptest: a thread group of 4 x 268438016 x 0 asked the
/// dispatcher for unbounded memory.
#[test]
fn thread_group_past_direct3d_limits_is_an_error() {
    for dims in [
        "4, 268438016, 0",
        "0, 1, 1",
        "1025, 1, 1",
        "1, 1, 65",
        "64, 32, 1",
    ] {
        let text = format!(
            "cs_5_0\ndcl_uav_raw u0\ndcl_thread_group {dims}\nstore_raw u0.x, l(0), l(1)\nret\n"
        );
        let bytes = dxjit::text::assemble(&text).expect("assembles");
        assert!(
            dxjit::compile(&bytes, &dxjit::CompileOptions::default()).is_err(),
            "{dims}"
        );
    }
}

/// Found by proptest: group-shared memory in a pixel shader was addressed
/// through a frame that has none.
#[test]
fn groupshared_memory_outside_compute_is_an_error() {
    let text = "ps_5_0\ndcl_tgsm_raw g0, 16\ndcl_output o0.x\ndcl_temps 1\n\
                ld_raw r0.x, l(0), g0.xxxx\nmov o0.x, r0.x\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    assert!(dxjit::compile(&bytes, &dxjit::CompileOptions::default()).is_err());
}
