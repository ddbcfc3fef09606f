//! Vertex shaders run whole ranges of vertices in one call (`VertexRun`)
//! at every tier (the top tier, the stencil tier, and the quick Cranelift
//! tier the first tier uses for programs stencils do not cover): the
//! results must be those of the batch path, which runs a call's lanes at a time, for every count
//! around the lanes and the runtime's range size, for ranges, and with UAV
//! writes.

use dxjit::{Bindings, BufferLayout, CompileOptions, Tier};

/// o0 = v0.wzyx + (SV_VertexID, 0, 0, 0); o1 = v1 * 2 + 1 (floats);
/// o2.x = SV_VertexID; o2.y and, through a temp, o2.zw written only by
/// vertices whose bit 3 is clear (the others get zero: outputs and temps
/// start at zero; at 8 lanes a call, whole batches alternate).
const SHADER: &str = "vs_4_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input_sgv v2.x, vertex_id
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 2
iadd o0.x, v0.w, v2.x
mov o0.yzw, v0.zzyx
mad o1.xyzw, v1.xyzw, l(2.0, 2.0, 2.0, 2.0), l(1.0, 1.0, 1.0, 1.0)
mov o2.x, v2.x
and r0.y, v2.x, l(8)
if_z r0.y
  iadd o2.y, v2.x, l(1000)
  mov r1.zw, l(0, 0, 7, 9)
endif
mov o2.zw, r1.zzzw
ret
";

/// `text` assembled and compiled at `tier`.
fn compile_at(text: &str, tier: Tier) -> dxjit::Shader {
    let bytes = dxjit::text::assemble(text).expect("assembles");
    let options = CompileOptions {
        tier,
        ..Default::default()
    };
    dxjit::compile(&bytes, &options).expect("compiles")
}

fn compiled(tier: Tier) -> dxjit::Shader {
    compile_at(SHADER, tier)
}

/// Runs `count` vertices without inputs through `shader`, with a raw UAV
/// of `words` zeroed words at u0: the call's result and the words after.
fn run_with_words(
    shader: &dxjit::Shader,
    count: u32,
    words: usize,
) -> (Result<Vec<[u32; 4]>, dxjit::RunError>, Vec<u32>) {
    let mut bytes = vec![0u8; 4 * words];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut bytes, BufferLayout::Raw).unwrap();
    let result = shader.run_vertices(&b, &[], count);
    drop(b);
    let words = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (result, words)
}

fn inputs(count: u32) -> Vec<[u32; 4]> {
    (0..count)
        .flat_map(|i| {
            let f = (i as f32 * 0.25).to_bits();
            [
                [i, 10 + i, 20 + i, 30 + i],
                [f, f ^ 0x8000_0000, 0, 0x3f80_0000],
            ]
        })
        .collect()
}

/// What the shader gives vertex `i`, worked out by hand.
fn expected(i: u32) -> [[u32; 4]; 3] {
    let f = i as f32 * 0.25;
    let o1 = [f * 2.0 + 1.0, -f * 2.0 + 1.0, 1.0, 3.0].map(f32::to_bits);
    let o2 = if i & 8 == 0 {
        [i, i + 1000, 7, 9]
    } else {
        [i, 0, 0, 0]
    };
    [[30 + 2 * i, 20 + i, 10 + i, i], o1, o2]
}

/// `shader`'s kernel made to run a call's lanes at a time (the batch path
/// the runtime takes for code without runs): the same code, entered
/// without a `VertexRun`.
fn batch_kernel(shader: &dxjit::Shader) -> dxjit_runtime::dispatch::Kernel {
    let mut kernel = shader.kernel();
    kernel.runs_vertices = false;
    kernel
}

#[test]
fn whole_runs_give_every_vertex_its_own_outputs() {
    for tier in [Tier::Top, Tier::First] {
        let shader = compiled(tier);
        assert!(
            shader.kernel().runs_vertices,
            "{tier:?}: the tier runs vertex ranges"
        );
        let batches = batch_kernel(&shader);
        let b = dxjit_runtime::dispatch::Bindings::default();
        // Around one call (8 lanes at k = 2 at the top tier, 4 at the
        // first) and the runtime's ranges (64 calls), with a tail in each.
        for count in [1, 3, 4, 5, 7, 8, 9, 255, 256, 257, 511, 512, 513, 1500] {
            let inputs = inputs(count);
            let out = shader
                .run_vertices(&Bindings::new(), &inputs, count)
                .unwrap();
            assert_eq!(out.len(), 3 * count as usize);
            for i in 0..count {
                let at = 3 * i as usize;
                assert_eq!(
                    out[at..at + 3],
                    expected(i),
                    "{tier:?}: vertex {i} of {count}"
                );
            }
            // SAFETY: the kernel's code is alive while `shader` is; nothing
            // is bound.
            let batched =
                unsafe { dxjit_runtime::dispatch::run_vertices(&batches, &b, &inputs, count) };
            assert_eq!(
                out, batched,
                "{tier:?}, {count} vertices: as a batch a call"
            );
        }
    }
}

#[test]
fn ranges_and_caller_outputs_match_the_whole_run() {
    for tier in [Tier::Top, Tier::First] {
        let shader = compiled(tier);
        let inputs = inputs(700);
        let whole = shader.run_vertices(&Bindings::new(), &inputs, 700).unwrap();
        let mut pieces = Vec::new();
        for range in [0..3, 3..520, 520..521, 521..800] {
            pieces.extend(
                shader
                    .run_vertices_range(&Bindings::new(), &inputs, 700, range)
                    .unwrap(),
            );
        }
        assert_eq!(pieces, whole, "{tier:?}");
        // Outputs past the vertices' own stay as the caller left them.
        let mut owned = vec![[0xdead_beef; 4]; whole.len() + 5];
        shader
            .run_vertices_into(&Bindings::new(), &inputs, 700, &mut owned)
            .unwrap();
        assert_eq!(owned[..whole.len()], whole[..], "{tier:?}");
        assert!(owned[whole.len()..].iter().all(|r| *r == [0xdead_beef; 4]));
    }
}

#[test]
fn a_vertex_shader_with_no_outputs_runs_every_vertex_once() {
    // Each vertex adds one to its UAV word: a vertex run twice or never
    // shows.
    let text = "vs_5_0\ndcl_uav_raw u0\ndcl_input_sgv v0.x, vertex_id\ndcl_temps 1\n\
                ishl r0.x, v0.x, l(2)\natomic_iadd u0, r0.x, l(1)\nret\n";
    for tier in [Tier::Top, Tier::First] {
        let shader = compile_at(text, tier);
        assert!(shader.kernel().runs_vertices, "{tier:?}");
        let count = 1234u32;
        let (result, counts) = run_with_words(&shader, count, count as usize + 1);
        result.unwrap();
        assert!(
            counts[..count as usize].iter().all(|&n| n == 1),
            "{tier:?}: {counts:?}"
        );
        assert_eq!(counts[count as usize], 0, "nothing past the last vertex");
    }
}

#[test]
fn a_draws_list_of_vertices_and_instances_runs_as_the_batch_path_does() {
    // o0 = (SV_VertexID, SV_InstanceID, v0.x, v0.y), o1 written by
    // instance 1 only.
    let text = "vs_4_0\ndcl_input v0.xy\ndcl_input_sgv v1.x, vertex_id\n\
                dcl_input_sgv v2.x, instance_id\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n\
                mov o0.x, v1.x\nmov o0.y, v2.x\nmov o0.zw, v0.xxxy\n\
                if_nz v2.x\n  iadd o1.xyzw, v1.xxxx, l(1, 2, 3, 4)\nendif\nret\n";
    let (top, first) = (compile_at(text, Tier::Top), compile_at(text, Tier::First));
    let inputs: Vec<[u32; 4]> = (0..300).map(|v| [v * 3, v * 5, 0, 0]).collect();
    // Vertices out of order, repeated, two instances: 2 x 600 entries.
    let ids: Vec<[u32; 2]> = (0..2)
        .flat_map(|i| (0..600u32).map(move |e| [(e * 7) % 300, i]))
        .collect();
    let b = dxjit_runtime::dispatch::Bindings::default();
    let run = |s: &dxjit::Shader| {
        // SAFETY: `s`'s kernel is alive while `s` is; nothing is bound.
        unsafe { dxjit_runtime::dispatch::run_vertex_list(&s.kernel(), &b, &inputs, &ids) }
    };
    let out = run(&top);
    assert!(top.kernel().runs_vertices && first.kernel().runs_vertices);
    for (e, &[v, i]) in ids.iter().enumerate() {
        let o1 = if i == 1 {
            [v + 1, v + 2, v + 3, v + 4]
        } else {
            [0; 4]
        };
        assert_eq!(
            out[2 * e..2 * e + 2],
            [[v, i, 3 * v, 5 * v], o1],
            "entry {e}"
        );
    }
    assert_eq!(out, run(&first), "both tiers agree");
    let batches = batch_kernel(&first);
    // SAFETY: as above.
    let batched = unsafe { dxjit_runtime::dispatch::run_vertex_list(&batches, &b, &inputs, &ids) };
    assert_eq!(out, batched, "as a batch a call");
    // A vertex past the inputs reads zeros, on the batch path.
    let mut far = ids.clone();
    far[5] = [1000, 0];
    // SAFETY: as above.
    let out = unsafe { dxjit_runtime::dispatch::run_vertex_list(&top.kernel(), &b, &inputs, &far) };
    assert_eq!(out[10], [1000, 0, 0, 0]);
}

#[test]
fn a_run_stops_at_the_batch_that_aborts() {
    // Each vertex counts itself in its UAV word; vertex 5 aborts. The
    // batches before it and its own run; no later one does. 200 vertices
    // are one range (the runtime hands out 64 calls' worth of vertices at
    // a time), so no other worker runs a later one meanwhile.
    let text = "vs_5_0\ndcl_uav_raw u0\ndcl_input_sgv v0.x, vertex_id\ndcl_temps 1\n\
                ishl r0.x, v0.x, l(2)\natomic_iadd u0, r0.x, l(1)\n\
                ieq r0.y, v0.x, l(5)\nif_nz r0.y\n  abort\nendif\nret\n";
    for tier in [Tier::Top, Tier::First] {
        let shader = compile_at(text, tier);
        assert!(shader.kernel().runs_vertices, "{tier:?}");
        let lanes = shader.kernel().lanes as usize;
        let count = 200u32;
        let (result, counts) = run_with_words(&shader, count, count as usize);
        let err = result.unwrap_err();
        assert!(
            matches!(err, dxjit::RunError::Halted { .. }),
            "{tier:?}: {err}"
        );
        let ran = lanes * (5 / lanes + 1);
        assert!(
            counts[..ran].iter().all(|&n| n == 1),
            "{tier:?}: {counts:?}"
        );
        assert!(
            counts[ran..].iter().all(|&n| n == 0),
            "{tier:?}: {counts:?}"
        );
    }
}

#[test]
fn the_quick_cranelift_tier_runs_ranges_too() {
    // A test of a relatively indexed temp keeps the program off the
    // stencil tier, so its first tier is Cranelift's quick one. o0.x =
    // vertex id, plus 100 where entry id & 3 of the indexable temp is set.
    let text = "vs_4_0\ndcl_input_sgv v0.x, vertex_id\ndcl_output o0.xyzw\ndcl_temps 1\n\
                dcl_indexableTemp x0[4], 4\nmov x0[0].x, l(0)\nmov x0[1].x, l(1)\n\
                mov x0[2].x, l(1)\nmov x0[3].x, l(0)\nand r0.x, v0.x, l(3)\n\
                mov o0.yzw, l(0, 7, 0, 9)\nif_nz x0[r0.x].x\n  iadd o0.x, v0.x, l(100)\n\
                else\n  mov o0.x, v0.x\nendif\nret\n";
    let bytes = dxjit::text::assemble(text).expect("assembles");
    let options = CompileOptions {
        tier: Tier::First,
        listing: true,
        ..Default::default()
    };
    let shader = dxjit::compile(&bytes, &options).expect("compiles");
    let listing = shader.listing().expect("asked for");
    assert!(
        !listing.native.starts_with("; piece"),
        "not stitched from stencils"
    );
    assert!(shader.kernel().runs_vertices);
    let b = dxjit_runtime::dispatch::Bindings::default();
    for count in [1, 5, 255, 256, 257, 1500] {
        let out = shader.run_vertices(&Bindings::new(), &[], count).unwrap();
        let expected: Vec<[u32; 4]> = (0..count)
            .map(|i| [if matches!(i & 3, 1 | 2) { i + 100 } else { i }, 7, 0, 9])
            .collect();
        assert_eq!(out, expected, "{count} vertices");
        // SAFETY: the kernel's code is alive while `shader` is; nothing is
        // bound.
        let batched = unsafe {
            dxjit_runtime::dispatch::run_vertices(&batch_kernel(&shader), &b, &[], count)
        };
        assert_eq!(out, batched, "{count} vertices: as a batch a call");
    }
}
