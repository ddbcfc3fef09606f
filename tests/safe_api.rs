//! The safe embedding API: bindings that borrow, calls that check their
//! arguments and return `Result`, deadlines, interrupts, validation and the
//! engine's cache and threads.

mod api_support;

use api_support::{shader, words};
use dxjit::{
    BindError, Bindings, BufferLayout, CallOptions, DrawDesc, Engine, EngineConfig, RunError,
    Target,
};
use dxjit_runtime::dispatch::PixelInput;
use dxjit_runtime::format::Format;
use dxjit_runtime::texture::{Texture, TextureKind};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const STORE_IDS: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ret
";

const CB_PLUS_ID: &str = "cs_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadID.x, l(2)
iadd r1.x, vThreadID.x, cb0[0].x
store_raw u0.x, r0.x, r1.x
ret
";

const ENDLESS: &str = "cs_5_0
dcl_thread_group 1, 1, 1
loop
endloop
ret
";

#[test]
fn a_dispatch_writes_the_buffer_it_borrows_exclusively() {
    let s = shader(STORE_IDS);
    let mut out = vec![0xffu8; 8 * 4 * 4];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    s.dispatch(&b, [2, 1, 1]).expect("runs");
    drop(b);
    let got = words(&out);
    assert_eq!(&got[..8], &[0, 1, 2, 3, 4, 5, 6, 7], "SV_DispatchThreadID");
    assert!(
        got[8..].iter().all(|&w| w == u32::MAX),
        "nothing past the groups"
    );
}

#[test]
fn ranges_of_groups_run_on_the_calling_thread_and_add_up_to_the_dispatch() {
    let s = shader(STORE_IDS);
    let mut out = vec![0xffu8; 7 * 4 * 4];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    for range in [0..2, 2..3, 3..5, 5..99] {
        s.dispatch_range(&b, [6, 1, 1], range).unwrap();
    }
    drop(b);
    let got = words(&out);
    let want: Vec<u32> = (0..24).collect();
    assert_eq!(&got[..24], &want[..], "six groups of four, each once");
    assert!(
        got[24..].iter().all(|&w| w == u32::MAX),
        "nothing past the groups"
    );
}

#[test]
fn constant_buffers_are_read_and_an_unbound_one_reads_zero() {
    let s = shader(CB_PLUS_ID);
    let constants = 100u32.to_le_bytes().repeat(4);
    let mut out = vec![0u8; 16];
    let mut b = Bindings::new();
    b.constant_buffer(0, &constants)
        .unwrap()
        .rw_buffer(0, &mut out, BufferLayout::Raw)
        .unwrap();
    s.dispatch(&b, [1, 1, 1]).unwrap();
    drop(b);
    assert_eq!(words(&out), [100, 101, 102, 103]);
    let mut out = vec![0u8; 16];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    s.dispatch(&b, [1, 1, 1]).unwrap();
    drop(b);
    assert_eq!(words(&out), [0, 1, 2, 3]);
}

#[test]
fn a_call_of_the_wrong_stage_is_refused() {
    let s = shader(STORE_IDS);
    let err = s.run_vertices(&Bindings::new(), &[], 0).unwrap_err();
    assert!(matches!(
        err,
        RunError::WrongStage {
            call: "run_vertices",
            ..
        }
    ));
    let err = s
        .draw(
            &Bindings::new(),
            &DrawDesc {
                rect: [0, 0, 1, 1],
                pixel_center: 0.5,
                inputs: vec![],
                sample_mask: u32::MAX,
            },
            &mut [],
        )
        .unwrap_err();
    assert!(matches!(err, RunError::WrongStage { call: "draw", .. }));
}

#[test]
fn thread_group_counts_past_d3d11_limits_are_refused() {
    let s = shader(STORE_IDS);
    let err = s.dispatch(&Bindings::new(), [65536, 1, 1]).unwrap_err();
    assert!(matches!(err, RunError::Invalid(m) if m.contains("65535")));
    let err = s
        .dispatch_range(&Bindings::new(), [1, 1, 65536], 0..1)
        .unwrap_err();
    assert!(matches!(err, RunError::Invalid(_)));
    s.dispatch(&Bindings::new(), [0, 1, 1])
        .expect("an empty dispatch runs nothing");
}

#[test]
fn bad_bindings_are_refused_before_anything_is_bound() {
    let data = [0u8; 16];
    let mut b = Bindings::new();
    assert!(matches!(
        b.constant_buffer(16, &data),
        Err(BindError::SlotOutOfRange { slot: 16, .. })
    ));
    assert_eq!(
        b.buffer(0, &data, BufferLayout::Structured(6)).unwrap_err(),
        BindError::BadStride(6)
    );
    assert_eq!(
        b.buffer(0, &data, BufferLayout::Structured(0)).unwrap_err(),
        BindError::BadStride(0)
    );
    let mut small = vec![0u8; 63];
    assert!(matches!(
        Target::new(&mut small, 4, 1, 64, Format::Rgba32Float, 0),
        Err(BindError::BadTarget(_))
    ));
    let mut pixels = vec![0u8; 64];
    assert!(matches!(
        Target::new(&mut pixels, 4, 1, 63, Format::Rgba32Float, 0),
        Err(BindError::BadTarget(_))
    ));
    assert!(Target::new(&mut pixels, 4, 1, 64, Format::Rgba32Float, 0).is_ok());
}

#[test]
fn a_draw_writes_its_targets_inside_the_rectangle_only() {
    let s = shader(
        "ps_4_0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
mov o0.xy, v1.xyxx
mov o0.zw, l(0, 0, 0, 1.0)
ret
",
    );
    let (w, h) = (6u32, 4u32);
    let mut pixels = vec![0xaau8; (w * h * 16) as usize];
    let mut targets = [Target::new(&mut pixels, w, h, w * 16, Format::Rgba32Float, 0).unwrap()];
    let corner = |x: f32, y: f32| [x.to_bits(), y.to_bits(), 0, 0];
    let desc = DrawDesc {
        rect: [1, 1, 5, 3],
        pixel_center: 0.5,
        inputs: vec![PixelInput {
            reg: s.program().input_named("v1").expect("declared"),
            corners: [
                corner(1.0, 1.0),
                corner(5.0, 1.0),
                corner(1.0, 3.0),
                corner(5.0, 3.0),
            ],
        }],
        sample_mask: u32::MAX,
    };
    s.draw(&Bindings::new(), &desc, &mut targets)
        .expect("draws");
    let px = words(&pixels);
    for y in 0..h {
        for x in 0..w {
            let at = ((y * w + x) * 4) as usize;
            let inside = (1..5).contains(&x) && (1..3).contains(&y);
            if inside {
                let want = [x as f32 + 0.5, y as f32 + 0.5, 0.0, 1.0].map(f32::to_bits);
                assert_eq!(&px[at..at + 4], &want, "pixel {x},{y}");
            } else {
                assert!(
                    px[at..at + 4].iter().all(|&w| w == 0xaaaa_aaaa),
                    "pixel {x},{y} untouched"
                );
            }
        }
    }
    let mut pixels = vec![0u8; 16];
    let mut targets = [Target::new(&mut pixels, 1, 1, 16, Format::Rgba32Float, 3).unwrap()];
    let err = s.draw(&Bindings::new(), &desc, &mut targets).unwrap_err();
    assert!(matches!(err, RunError::Invalid(m) if m.contains("output register 3")));
}

#[test]
fn vertices_run_and_short_inputs_are_refused() {
    let s = shader("vs_4_0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.wzyx\nret\n");
    let inputs: Vec<[u32; 4]> = (0..5).map(|i| [i, 10 + i, 20 + i, 30 + i]).collect();
    let out = s.run_vertices(&Bindings::new(), &inputs, 5).unwrap();
    assert_eq!(out[3], [33, 23, 13, 3]);
    let err = s.run_vertices(&Bindings::new(), &inputs, 6).unwrap_err();
    assert!(matches!(err, RunError::Invalid(_)));
}

#[test]
fn vertex_ranges_run_on_the_calling_thread_and_match_the_whole_run() {
    // o0 = v0.wzyx + (SV_VertexID, 0, 0, 0): the ids must stay absolute.
    let s = shader(
        "vs_4_0\ndcl_input v0.xyzw\ndcl_input_sgv v1.x, vertex_id\ndcl_output o0.xyzw\n\
         iadd o0.x, v0.w, v1.x\nmov o0.yzw, v0.zzyx\nret\n",
    );
    let inputs: Vec<[u32; 4]> = (0..23).map(|i| [i, 10 + i, 20 + i, 30 + i]).collect();
    let whole = s.run_vertices(&Bindings::new(), &inputs, 23).unwrap();
    let regs = whole.len() / 23;
    let mut pieces = Vec::new();
    for range in [0..5, 5..6, 6..17, 17..40] {
        pieces.extend(
            s.run_vertices_range(&Bindings::new(), &inputs, 23, range)
                .unwrap(),
        );
    }
    assert_eq!(pieces, whole);
    let mut owned = vec![[0u32; 4]; whole.len()];
    s.run_vertices_into(&Bindings::new(), &inputs, 23, &mut owned)
        .unwrap();
    assert_eq!(owned, whole, "into the caller's outputs");
    let mut short = vec![[0u32; 4]; whole.len() - 1];
    let err = s
        .run_vertices_into(&Bindings::new(), &inputs, 23, &mut short)
        .unwrap_err();
    assert!(matches!(err, RunError::Invalid(m) if m.contains("output registers")));
    // Vertex 7: (37 + 7, 27, 17, 7).
    assert_eq!(whole[7 * regs], [44, 27, 17, 7]);
    let past = s
        .run_vertices_range(&Bindings::new(), &inputs, 23, 30..40)
        .unwrap();
    assert!(past.is_empty(), "indices past the count are ignored");
}

#[test]
fn a_vertex_shader_without_outputs_still_runs_for_its_uav_writes() {
    // Each vertex stores its id at word id of u1 (D3D 11.1 gives every
    // stage UAVs); nothing is written back, yet every vertex must run.
    let s = shader(
        "vs_5_0\ndcl_uav_raw u1\ndcl_input_sgv v0.x, vertex_id\ndcl_temps 1\n\
         ishl r0.x, v0.x, l(2)\nstore_raw u1.x, r0.x, v0.x\nret\n",
    );
    let mut out = vec![0xffu8; 40];
    let mut b = Bindings::new();
    b.rw_buffer(1, &mut out, BufferLayout::Raw).unwrap();
    let written = s.run_vertices(&b, &[], 9).unwrap();
    assert!(written.is_empty());
    let ids = s.run_vertices_range(&b, &[], 10, 9..10).unwrap();
    assert!(ids.is_empty());
    drop(b);
    assert_eq!(words(&out), (0..10).collect::<Vec<u32>>());
}

#[test]
fn d3d9_defined_constants_override_what_is_bound() {
    let s = shader("vs_2_0\ndef c1, 1, 2, 3, 4\ndcl_position v0\nadd oPos, c0, c1\n");
    let mut constants = vec![0u8; 32];
    for (i, w) in [10.0f32, 20.0, 30.0, 40.0, 99.0, 99.0, 99.0, 99.0]
        .iter()
        .enumerate()
    {
        constants[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let mut b = Bindings::new();
    b.constant_buffer(0, &constants).unwrap();
    let inputs = vec![[0u32; 4]; 4];
    let out = s.run_vertices(&b, &inputs, 1).unwrap();
    let pos = s
        .program()
        .outputs
        .iter()
        .find(|o| o.name == "oPos")
        .map(|o| o.reg)
        .unwrap();
    assert_eq!(
        out[pos as usize],
        [11.0f32, 22.0, 33.0, 44.0].map(f32::to_bits)
    );
    assert_eq!(
        words(&constants)[4],
        99.0f32.to_bits(),
        "the bound buffer is untouched"
    );
}

#[test]
fn an_interrupt_set_before_the_call_stops_it() {
    let s = shader(ENDLESS);
    let mut b = Bindings::new();
    let flag = Arc::new(AtomicU32::new(1));
    b.set_interrupt(flag.clone());
    assert_eq!(
        s.dispatch(&b, [4, 1, 1]).unwrap_err(),
        RunError::Interrupted
    );
    assert_eq!(
        flag.load(Ordering::Relaxed),
        1,
        "the embedder's flag stays set"
    );
}

#[test]
fn an_endless_loop_stops_at_its_deadline_and_the_next_call_runs() {
    let s = shader(ENDLESS);
    let b = Bindings::new();
    let options = CallOptions {
        deadline: Some(Duration::from_millis(20)),
        validate: false,
    };
    assert_eq!(
        s.dispatch_with(&b, [1, 1, 1], &options).unwrap_err(),
        RunError::DeadlineExceeded(Duration::from_millis(20))
    );
    assert_eq!(
        b.interrupt().load(Ordering::Relaxed),
        0,
        "the deadline's flag is cleared"
    );
    let ids = shader(STORE_IDS);
    let mut out = vec![0u8; 16];
    let mut b = Bindings::new();
    b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    ids.dispatch_with(&b, [1, 1, 1], &options)
        .expect("a quick call is not stopped");
}

/// Collects the log's warnings.
struct Warnings(Mutex<Vec<String>>);

impl log::Log for Warnings {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            self.0.lock().unwrap().push(r.args().to_string());
        }
    }
    fn flush(&self) {}
}

static WARNINGS: Warnings = Warnings(Mutex::new(Vec::new()));

#[test]
fn validation_reports_unbound_short_and_mismatched_resources() {
    log::set_logger(&WARNINGS).expect("the only logger");
    log::set_max_level(log::LevelFilter::Warn);
    let s = shader(
        "cs_5_0
dcl_constantbuffer cb0[4], immediateIndexed
dcl_constantbuffer cb1[1], immediateIndexed
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_structured t1, 16
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, cb0[3].x
iadd r0.x, r0.x, cb1[0].x
ld_indexable(texture2d)(float,float,float,float) r0.y, l(0, 0, 0, 0), t0.yxzw
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.z, l(0), l(0), t1.xxxx
store_raw u0.x, l(0), r0.x
ret
",
    );
    let short = [0u8; 16];
    let texture = Texture::new(
        TextureKind::Texture1D,
        Format::Rgba8Unorm,
        2,
        1,
        1,
        1,
        vec![0; 8],
    )
    .unwrap();
    let raw = [0u8; 64];
    let mut out = [0u8; 4];
    let mut b = Bindings::new();
    b.constant_buffer(0, &short)
        .unwrap()
        .texture(0, &texture)
        .unwrap()
        .buffer(1, &raw, BufferLayout::Raw)
        .unwrap()
        .rw_buffer(0, &mut out, BufferLayout::Raw)
        .unwrap();
    let engine = Engine::new(EngineConfig {
        validate: true,
        ..EngineConfig::default()
    })
    .unwrap();
    engine
        .dispatch(&s, &b, [1, 1, 1])
        .expect("validation never refuses");
    let got = WARNINGS.0.lock().unwrap().clone();
    let has = |needle: &str| got.iter().any(|w| w.contains(needle));
    assert!(
        has("constant buffer 0 holds 16 bytes; the shader declares 64"),
        "{got:?}"
    );
    assert!(
        has("constant buffer 1 is read by the shader but unbound"),
        "{got:?}"
    );
    assert!(
        has("SRV 0: the shader declares Typed(Texture2D)"),
        "{got:?}"
    );
    assert!(has("SRV 1: the shader declares Structured(16)"), "{got:?}");
    assert_eq!(
        got.len(),
        4,
        "nothing about the UAV, which matches: {got:?}"
    );
}

#[test]
fn the_engine_caches_and_shares_shaders() {
    let engine = Engine::new(EngineConfig {
        threads: Some(1),
        cache: Some(dxjit::CacheLimit::default()),
        ..EngineConfig::default()
    })
    .unwrap();
    let bytes = dxjit::text::assemble(STORE_IDS).unwrap();
    let a = engine.compile(&bytes).unwrap();
    let b = engine.compile(&bytes).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(engine.cache_stats().map(|s| s.hits), Some(1));
    let mut out = vec![0u8; 16];
    let mut bind = Bindings::new();
    bind.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    engine.dispatch(&a, &bind, [1, 1, 1]).unwrap();
    drop(bind);
    assert_eq!(words(&out), [0, 1, 2, 3]);
}

#[test]
fn the_engine_runs_on_the_embedders_own_pool() {
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    let engine = Engine::new(EngineConfig {
        pool: Some(pool.clone()),
        threads: Some(7),
        ..EngineConfig::default()
    })
    .unwrap();
    // The engine keeps the embedder's pool (for calls and, through its
    // spawner, background compiles) rather than building one of 7 threads.
    assert!(Arc::strong_count(&pool) >= 2);
    let bytes = dxjit::text::assemble(STORE_IDS).unwrap();
    let shader = engine.compile(&bytes).unwrap();
    let mut out = vec![0u8; 16];
    let mut bind = Bindings::new();
    bind.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
    engine.dispatch(&shader, &bind, [1, 1, 1]).unwrap();
    drop(bind);
    assert_eq!(words(&out), [0, 1, 2, 3]);
    drop(shader);
    drop(engine);
    assert_eq!(Arc::strong_count(&pool), 1, "the engine let the pool go");
}
