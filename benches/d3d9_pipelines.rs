//! D3D9 pipeline throughput: a vs_2_0 two-bone skinning shader over 1M
//! vertices, and a ps_2_0 shader with two bilinear texture fetches over a
//! 1920x1080 target.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use dxjit::{CompileOptions, PlaneInput, QuadInputs};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{
    draw, run_vertices, run_vertices_into, Bindings, Draw, PixelInput, Quad, RenderTarget,
};
use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{Address, Filter, SamplerState};
use dxjit_runtime::texture::{Texture, TextureKind};
use std::time::Duration;

/// Two-bone skinning: blend two 4x3 bone matrices by weight, transform by
/// the view-projection matrix, normalise the skinned normal.
const SKINNING: &str = "vs_2_0
dcl_position v0
dcl_blendweight v1
dcl_blendindices v2
dcl_normal v3
def c0, 3.0, 1.0, 0.0, 0.0
mul r1, v2, c0.x
mova a0, r1
m4x3 r2.xyz, v0, c[a0.x + 8]
m4x3 r3.xyz, v0, c[a0.y + 8]
mul r2.xyz, r2, v1.x
mad r2.xyz, r3, v1.y, r2
mov r2.w, c0.y
m4x4 oPos, r2, c1
m3x3 r4.xyz, v3, c[a0.x + 8]
dp3 r4.w, r4, r4
rsq r4.w, r4.w
mul oD0.xyz, r4, r4.w
mov oD0.w, c0.y
mov oT0, v0
";

/// The common vertex shader: a position transformed by a matrix, a
/// texture coordinate and a colour passed on.
const TRANSFORM: &str = "vs_2_0
dcl_position v0
dcl_texcoord v1
dcl_color v2
m4x4 oPos, v0, c0
mov oT0, v1
mov oD0, v2
";

/// Two texture fetches combined with a constant.
const TWO_FETCHES: &str = "ps_2_0
dcl t0.xy
dcl t1.xy
dcl_2d s0
dcl_2d s1
texld r0, t0, s0
texld r1, t1, s1
mad r0, r0, r1, c0
mov oC0, r0
";

const VERTICES: u32 = 1 << 20;
const BONES: u32 = 32;

fn words(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// A shader compiled to its top tier (the one a long run uses).
fn compile(text: &str) -> dxjit::Shader {
    let bytes = dxjit::text::assemble(text).expect("assembles");
    let shader = dxjit::compile(&bytes, &CompileOptions::default()).expect("compiles");
    shader.wait_for_top_tier().expect("the top tier compiles");
    shader
}

/// Bindings with `constants` as constant buffer 0.
fn constants_bound(constants: &mut [u32]) -> Bindings {
    let mut b = Bindings::default();
    b.cbs[0] = View {
        ptr: constants.as_mut_ptr() as *mut u8,
        size: (constants.len() * 4) as u32,
        ..View::EMPTY
    };
    b
}

/// The benchmarks' group, with `elements` (vertices or pixels) a run.
fn group(c: &mut Criterion, elements: u32) -> BenchmarkGroup<'_, WallTime> {
    let mut g = c.benchmark_group("d3d9");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(u64::from(elements)));
    g
}

fn skinning(c: &mut Criterion) {
    let shader = compile(SKINNING);
    let k = shader.kernel();
    let mut constants = vec![0u32; ((8 + 3 * BONES) * 4) as usize];
    for (row, m) in [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
    .iter()
    .enumerate()
    {
        constants[(1 + row) * 4..(2 + row) * 4].copy_from_slice(&words(m));
    }
    for bone in 0..BONES as usize {
        let t = bone as f32 * 0.25;
        for (r, row) in [
            [1.0, 0.0, 0.0, t],
            [0.0, 1.0, 0.0, -t],
            [0.0, 0.0, 1.0, 0.5],
        ]
        .iter()
        .enumerate()
        {
            let at = (8 + bone * 3 + r) * 4;
            constants[at..at + 4].copy_from_slice(&words(row));
        }
    }
    let b = constants_bound(&mut constants);
    let regs = k.input_regs as usize;
    let mut inputs = vec![[0u32; 4]; VERTICES as usize * regs];
    for v in 0..VERTICES as usize {
        let f = v as f32 / VERTICES as f32;
        inputs[v * regs] = words(&[f, 1.0 - f, 0.5, 1.0]).try_into().expect("4 words");
        inputs[v * regs + 1] = words(&[0.75, 0.25, 0.0, 0.0]).try_into().expect("4 words");
        inputs[v * regs + 2] = words(&[(v % 32) as f32, ((v + 7) % 32) as f32, 0.0, 0.0])
            .try_into()
            .expect("4 words");
        inputs[v * regs + 3] = words(&[0.0, 0.0, 1.0, 0.0]).try_into().expect("4 words");
    }
    let mut g = group(c, VERTICES);
    g.bench_function("vs_2_0 skinning, 1M vertices", |bench| {
        // SAFETY: the constants and inputs outlive the benchmark; `k` is
        // the live shader's.
        bench.iter(|| unsafe { run_vertices(&k, &b, &inputs, VERTICES) })
    });
    g.finish();
}

fn transform(c: &mut Criterion) {
    let shader = compile(TRANSFORM);
    let k = shader.kernel();
    let mut constants: Vec<u32> = (0..16).map(|i| (i as f32 * 0.125).to_bits()).collect();
    let b = constants_bound(&mut constants);
    let regs = k.input_regs as usize;
    let mut inputs = vec![[0u32; 4]; VERTICES as usize * regs];
    for v in 0..VERTICES as usize {
        let f = v as f32 / VERTICES as f32;
        for r in 0..regs {
            inputs[v * regs + r] = words(&[f, 1.0 - f, r as f32, 1.0])
                .try_into()
                .expect("4 words");
        }
    }
    let mut g = group(c, VERTICES);
    // Into one output buffer the benchmark keeps, as a renderer does:
    // allocating (and faulting in) 48 MB each time would be most of it.
    let mut out = vec![[0u32; 4]; VERTICES as usize * k.output_regs as usize];
    g.bench_function("vs_2_0 transform, 1M vertices", |bench| {
        // SAFETY: the constants, inputs and outputs outlive the benchmark;
        // `k` is the live shader's.
        bench.iter(|| unsafe { run_vertices_into(&k, &b, &inputs, VERTICES, &mut out) })
    });
    g.finish();
}

fn two_fetches(c: &mut Criterion) {
    let shader = compile(TWO_FETCHES);
    let k = shader.kernel();
    let texel = |x: u32, y: u32| [(x * 7) as u8, (y * 5) as u8, (x ^ y) as u8, 255];
    let data: Vec<u8> = (0..256 * 256)
        .flat_map(|i| texel(i % 256, i / 256))
        .collect();
    let tex = Texture::new(
        TextureKind::Texture2D,
        Format::Rgba8Unorm,
        256,
        256,
        1,
        1,
        data,
    )
    .expect("texture");
    let mut b = Bindings::default();
    b.srvs[0] = tex.view();
    b.srvs[1] = tex.view();
    let linear = SamplerState {
        filter: Filter::Linear,
        address: [Address::Wrap; 3],
        ..SamplerState::default()
    };
    b.samplers[0] = linear;
    b.samplers[1] = linear;
    let mut c0 = words(&[0.1, 0.1, 0.1, 0.0]);
    b.cbs[0] = View {
        ptr: c0.as_mut_ptr() as *mut u8,
        size: 16,
        ..View::EMPTY
    };
    let (w, h) = (1920u32, 1080u32);
    let mut target = vec![0u8; (w * h * 4) as usize];
    let reg = |name: &str| shader.program().input_named(name).expect("declared");
    let corners = |s: f32| {
        [[0.0, 0.0], [s, 0.0], [0.0, s], [s, s]]
            .map(|[u, v]| [u.to_bits(), f32::to_bits(v), 0, 1.0f32.to_bits()])
    };
    let out = shader
        .program()
        .outputs
        .iter()
        .find(|o| o.semantic == "SV_TARGET")
        .expect("oC0")
        .reg;
    let d = Draw {
        rect: [0, 0, w, h],
        pixel_center: 0.0,
        shading: Default::default(),
        sample_mask: u32::MAX,
        inputs: vec![
            PixelInput {
                reg: reg("t0"),
                corners: corners(7.5),
            },
            PixelInput {
                reg: reg("t1"),
                corners: corners(3.0),
            },
        ],
        targets: vec![RenderTarget {
            ptr: target.as_mut_ptr(),
            width: w,
            height: h,
            row_pitch: w * 4,
            format: Format::Bgra8Unorm,
            output_reg: out,
            samples: 1,
        }],
    };
    let mut g = group(c, w * h);
    g.bench_function("ps_2_0 two texture fetches, 1920x1080", |bench| {
        // SAFETY: the texture, constants and target outlive the benchmark
        // and nothing else touches them; `k` is the live shader's.
        bench.iter(|| unsafe { draw(&k, &b, &d) })
    });
    let quads: Vec<Quad> = (0..h / 2)
        .flat_map(|qy| {
            (0..w / 2).map(move |qx| Quad {
                x: 2 * qx,
                y: 2 * qy,
                coverage: 0b1111,
                front_facing: true,
            })
        })
        .collect();
    let plane = |reg, scale: f32| PlaneInput {
        reg,
        planes: [
            [scale / w as f32, 0.0, 0.0],
            [0.0, scale / h as f32, 0.0],
            [0.0; 3],
            [0.0, 0.0, 1.0],
        ],
        one_over_w: None,
    };
    let planes = [plane(reg("t0"), 7.5), plane(reg("t1"), 3.0)];
    let mut safe = dxjit::Bindings::new();
    safe.texture(0, &tex)
        .and_then(|s| s.texture(1, &tex))
        .and_then(|s| s.sampler(0, linear))
        .and_then(|s| s.sampler(1, linear))
        .expect("binds");
    let c0_bytes: Vec<u8> = c0.iter().flat_map(|w| w.to_le_bytes()).collect();
    safe.constant_buffer(0, &c0_bytes).expect("binds");
    g.bench_function(
        "ps_2_0 two texture fetches, 1920x1080 as shade_quads",
        |bench| {
            bench.iter(|| {
                shader
                    .shade_quads(&safe, &quads, 0.0, QuadInputs::Planes(&planes))
                    .expect("shades")
            })
        },
    );
    g.finish();
}

criterion_group!(benches, skinning, transform, two_fetches);
criterion_main!(benches);
