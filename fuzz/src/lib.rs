//! Compiles arbitrary bytes with dxjit and, when they compile into a shader
//! that is sure to finish, runs it once over tiny bindings. Shared by the
//! fuzz targets and `tests/pipeline_proptest.rs` (which includes this file).

use dxjit::ir::{Inst, Program, Stage};
use dxjit::CompileOptions;
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{self, Bindings, Draw, PixelInput, RenderTarget};
use dxjit_runtime::format::Format;

/// Bytes in every buffer bound for a run.
const BUFFER: usize = 256;

/// How far an input got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    /// The pipeline rejected it with an error.
    Rejected,
    /// It compiled but was not run (it may loop or call, or is too big).
    Compiled,
    /// It compiled and ran.
    Ran,
}

/// Whether a program surely terminates and is small enough to run: no loops,
/// no subroutine calls, at most 256 threads per group.
fn runnable(p: &Program) -> bool {
    let group: u64 = p.thread_group.iter().map(|d| u64::from(*d)).product();
    let body = p
        .main
        .iter()
        .chain(p.subroutines.iter().flat_map(|(_, b)| b));
    group <= 256
        && !body
            .clone()
            .any(|i| matches!(i, Inst::Loop | Inst::Call { .. } | Inst::CallC { .. }))
}

/// Group-shared bytes a program may declare: Direct3D 11's limit. Larger
/// declarations are not compiled, to step around a known bug (the JIT sums
/// the sizes in `u32`; see `huge_tgsm_declarations_are_rejected_or_fully_sized`
/// in `tests/pipeline_proptest.rs`).
const TGSM_LIMIT: u64 = 32 * 1024;

/// Temporaries (`r#` plus indexable `x#` registers) a program may declare:
/// Direct3D's 4,096. Larger declarations are not compiled, to step around a
/// known bug (the JIT allocates per declared temporary; see
/// `huge_temp_declarations_do_not_exhaust_memory` in `tests/pipeline_proptest.rs`).
const TEMPS_LIMIT: u64 = 4096;

/// Input or output registers a shader may have to be run: Direct3D 11's 32.
/// More are not run, to step around a known bug (the runtime allocates per
/// register; see `huge_output_register_does_not_exhaust_memory` in
/// `tests/pipeline_proptest.rs`).
const IO_LIMIT: u32 = 32;

/// Compiles `bytes`, then runs the shader when [`runnable`].
pub fn compile_and_run(bytes: &[u8], verify_checksum: bool) -> Reached {
    let options = CompileOptions {
        verify_checksum,
        ..CompileOptions::default()
    };
    let Ok((_, program)) = dxjit::shader::lower(bytes, &options) else {
        return Reached::Rejected;
    };
    let indexables: u64 = program.indexables.iter().map(|d| u64::from(d.count)).sum();
    if program.tgsm.iter().map(|d| u64::from(d.size)).sum::<u64>() > TGSM_LIMIT
        || u64::from(program.temps) + indexables > TEMPS_LIMIT
    {
        return Reached::Rejected;
    }
    let Ok(shader) = dxjit::compile(bytes, &options) else {
        return Reached::Rejected;
    };
    let k = shader.kernel();
    if !runnable(shader.program()) || k.input_regs > IO_LIMIT || k.output_regs > IO_LIMIT {
        return Reached::Compiled;
    }
    let mut memory = vec![[0x3f80_0000u32; BUFFER / 4]; 40];
    let mut views = memory.iter_mut().map(|m| View {
        ptr: m.as_mut_ptr().cast(),
        size: BUFFER as u32,
        stride: 16,
        width: 16,
        height: 4,
        depth: 1,
        mips: 1,
        format: Format::R32Uint as u32,
        row_pitch: 64,
        slice_pitch: BUFFER as u32,
        texture: std::ptr::null(),
    });
    let mut b = Bindings::default();
    for slot in b.cbs.iter_mut() {
        *slot = views.next().expect("40 buffers");
    }
    for slot in b.srvs.iter_mut().take(12) {
        *slot = views.next().expect("40 buffers");
    }
    for slot in b.uavs.iter_mut().take(12) {
        *slot = views.next().expect("40 buffers");
    }
    match shader.stage() {
        // SAFETY: every view points into `memory`, alive and untouched
        // across the call; `k` is `shader`'s, alive in this scope.
        Stage::Compute => unsafe { dispatch::dispatch(&k, &b, [2, 1, 1]) },
        // They run only as a pair through the tessellation API, which
        // this target does not drive.
        Stage::Hull | Stage::Domain => {}
        Stage::Vertex => {
            let inputs: Vec<[u32; 4]> = (0..k.input_regs * 5)
                .map(|i| [i, 0x3f80_0000, 0xbf00_0000, 7])
                .collect();
            // SAFETY: as for compute; `inputs` holds 5 vertices' registers.
            unsafe { dispatch::run_vertices(&k, &b, &inputs, 5) };
        }
        Stage::Geometry => {
            if let Some(g) = &shader.program().geometry {
                let (n, stride) = (g.input.vertices(), g.input_stride as usize);
                let prims = dxjit_runtime::pipeline::Primitives {
                    vertices_per_primitive: n,
                    regs_per_vertex: stride,
                    registers: (0..3 * n * stride)
                        .map(|i| [i as u32, 0x3f80_0000, 0xbf00_0000, 7])
                        .collect(),
                    ids: vec![0, 1, 2],
                };
                let desc = dispatch::GeometryDesc {
                    input_vertices: n,
                    input_stride: stride,
                    max_vertices: g.max_vertices as usize,
                    instances: g.instances,
                    outputs: g.outputs,
                };
                // SAFETY: as for compute; the kernel's input block is
                // `n * stride` registers, which `prims` provides.
                unsafe { dispatch::run_geometry(&k, &b, &desc, &prims) };
            }
        }
        Stage::Pixel => {
            let mut image = vec![0u32; 4 * 4 * 4 * 2];
            let targets = (0..2)
                .map(|t| RenderTarget {
                    ptr: image[t * 64..].as_mut_ptr().cast(),
                    width: 4,
                    height: 4,
                    row_pitch: 64,
                    format: Format::Rgba32Float,
                    output_reg: t as u32,
                    samples: 1,
                })
                .collect();
            let inputs = (0..k.input_regs)
                .map(|reg| PixelInput {
                    reg,
                    corners: [[0x3f80_0000, 0, 0x4000_0000, 0x3f00_0000]; 4],
                })
                .collect();
            let d = Draw {
                rect: [0, 0, 3, 3],
                pixel_center: 0.5,
                shading: Default::default(),
                sample_mask: u32::MAX,
                inputs,
                targets,
            };
            // SAFETY: as for compute; the two targets are disjoint 4x4
            // halves of `image`, which outlives the call.
            unsafe { dispatch::draw(&k, &b, &d) };
        }
    }
    Reached::Ran
}
