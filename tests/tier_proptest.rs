//! Random compute, vertex and pixel programs give the same bits at every
//! tier: the stencil first tier (copied pieces, registers in memory) at 4,
//! 8 and 16 lanes a call, and the top tier (Cranelift over the whole
//! function) at 16, where most calls hold lanes that take both sides of a
//! branch.
//!
//! The programs mix float and integer operations of every arity over
//! temps, literals and constant-buffer rows (relatively indexed too), with
//! modifiers, swizzles, write masks and saturation, inside `if`/`else`
//! on per-thread conditions, loops whose trip counts differ by thread
//! (with `continue` and `break` on temps) and `switch`es with fall-through;
//! then each thread stores its temps (a vertex writes them to its outputs,
//! and reads its index from an input where a thread reads its id; a pixel
//! computes its index from its position, and half of the pixels discard
//! before writing their outputs to `rgba32_uint` targets). Loops of
//! independent chains check the top tier's loop distribution. Programs
//! with a group barrier check the top tier's temps split into their live
//! ranges and its group loop.

use dxjit::ir::*;
use dxjit::jit::{compile, Codegen, JitOptions};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{dispatch, draw, run_vertices, Bindings, Draw, RenderTarget};
use dxjit_runtime::format::Format;
use proptest::prelude::*;

/// Temps the programs compute in; the last one's x counts loop trips.
const TEMPS: u32 = 5;
/// Threads of the one group the programs run.
const THREADS: u32 = 24;
/// Rows of the bound constant buffer.
const CB_ROWS: usize = 6;

const OPS: [AluOp; 40] = [
    AluOp::Mov,
    AluOp::Movc,
    AluOp::Add,
    AluOp::Mul,
    AluOp::Mad,
    AluOp::MulLegacy,
    AluOp::MadLegacy,
    AluOp::Div,
    AluOp::Min,
    AluOp::Max,
    AluOp::Sqrt,
    AluOp::Rsq,
    AluOp::Rcp,
    AluOp::Exp,
    AluOp::Log,
    AluOp::Frc,
    AluOp::RoundNe,
    AluOp::RoundNi,
    AluOp::Sin,
    AluOp::Eq,
    AluOp::Ge,
    AluOp::Lt,
    AluOp::IAdd,
    AluOp::IMul,
    AluOp::IMad,
    AluOp::ILt,
    AluOp::ULt,
    AluOp::And,
    AluOp::Xor,
    AluOp::IShl,
    AluOp::UShr,
    AluOp::IMin,
    AluOp::UMax,
    AluOp::UDiv,
    AluOp::Bfi,
    AluOp::Ubfe,
    AluOp::CountBits,
    AluOp::FToI,
    AluOp::UToF,
    AluOp::F32ToF16,
];

fn tid() -> Src {
    Src::reg(File::SysVal(SysVal::DispatchThreadId), 0).scalar(0)
}

/// A source: a temp, a literal or a constant-buffer row, now and then
/// through a relative index.
fn src() -> impl Strategy<Value = Src> {
    (
        0u8..10,
        0..TEMPS,
        prop::array::uniform4(0u8..4),
        any::<bool>(),
        any::<bool>(),
        any::<[u32; 4]>(),
    )
        .prop_map(|(kind, reg, swizzle, neg, abs, imm)| {
            let mut s = match kind {
                0..=5 => Src::temp(reg),
                6 => Src {
                    file: File::Imm,
                    ..Src::splat(0)
                },
                7 | 8 => Src::reg(File::Const(0), reg % CB_ROWS as u32),
                _ => {
                    let index = Src::temp(reg).scalar(swizzle[0]);
                    Src {
                        index: Index {
                            base: 1,
                            rel: Some(Box::new(index)),
                        },
                        ..Src::reg(File::Const(0), 0)
                    }
                }
            };
            s.swizzle = swizzle;
            s.neg = neg;
            s.abs = abs;
            s.imm = imm;
            s
        })
}

fn alu() -> impl Strategy<Value = Inst> {
    (
        0..OPS.len(),
        0..TEMPS - 1,
        1u8..16,
        any::<bool>(),
        prop::collection::vec(src(), 3),
    )
        .prop_map(|(op, reg, mask, saturate, mut src)| {
            let op = OPS[op];
            src.truncate(usize::from(op.info().arity));
            Inst::Alu {
                op,
                dst: Dst {
                    saturate,
                    ..Dst::temp(reg, mask)
                },
                src,
            }
        })
}

fn dot() -> impl Strategy<Value = Inst> {
    (2u8..5, any::<bool>(), 0..TEMPS - 1, 1u8..16, src(), src()).prop_map(
        |(n, legacy, reg, mask, a, b)| Inst::Dot {
            n,
            legacy,
            dst: Dst::temp(reg, mask),
            a,
            b,
        },
    )
}

fn straight() -> impl Strategy<Value = Vec<Inst>> {
    prop::collection::vec(prop_oneof![4 => alu(), 1 => dot()], 1..4)
}

/// `if` on a temp component, with or without `else`.
fn branch() -> impl Strategy<Value = Vec<Inst>> {
    (
        0..TEMPS - 1,
        0u8..4,
        any::<bool>(),
        straight(),
        prop::option::of(straight()),
    )
        .prop_map(|(reg, c, nz, then, other)| {
            let mut out = vec![Inst::If {
                cond: Src::temp(reg).scalar(c),
                nz,
            }];
            out.extend(then);
            if let Some(other) = other {
                out.push(Inst::Else);
                out.extend(other);
            }
            out.push(Inst::EndIf);
            out
        })
}

/// A loop running `1 + tid % 3` trips (its count tested at the top, so
/// that a `continue` cannot skip it), now and then going round early or
/// leaving early when a temp component is nonzero.
fn repeat() -> impl Strategy<Value = Vec<Inst>> {
    (
        straight(),
        prop::option::of((0..TEMPS - 1, 0u8..4)),
        straight(),
        prop::option::of((0..TEMPS - 1, 0u8..4)),
    )
        .prop_map(|(first, again, second, early)| {
            let counter = Dst::temp(TEMPS - 1, 1);
            let count = Src::temp(TEMPS - 1).scalar(0);
            let mut out = vec![
                Inst::Alu {
                    op: AluOp::Mov,
                    dst: counter.clone(),
                    src: vec![Src::splat(0)],
                },
                Inst::Loop,
                Inst::Alu {
                    op: AluOp::URem,
                    dst: Dst::temp(TEMPS - 1, 2),
                    src: vec![tid(), Src::splat(3)],
                },
                Inst::Alu {
                    op: AluOp::ULt,
                    dst: Dst::temp(TEMPS - 1, 4),
                    src: vec![Src::temp(TEMPS - 1).scalar(1), count.clone()],
                },
                Inst::BreakC {
                    cond: Src::temp(TEMPS - 1).scalar(2),
                    nz: true,
                },
                Inst::Alu {
                    op: AluOp::IAdd,
                    dst: counter,
                    src: vec![count, Src::splat(1)],
                },
            ];
            out.extend(first);
            if let Some((reg, c)) = again {
                out.push(Inst::ContinueC {
                    cond: Src::temp(reg).scalar(c),
                    nz: true,
                });
            }
            out.extend(second);
            if let Some((reg, c)) = early {
                out.push(Inst::BreakC {
                    cond: Src::temp(reg).scalar(c),
                    nz: true,
                });
            }
            out.push(Inst::EndLoop);
            out
        })
}

/// A `switch` on `tid & 3`: case 0 breaks, case 1 falls through case 2
/// into the default, which breaks.
fn choose() -> impl Strategy<Value = Vec<Inst>> {
    (straight(), straight(), straight()).prop_map(|(zero, one, rest)| {
        let mut out = vec![
            Inst::Alu {
                op: AluOp::And,
                dst: Dst::temp(TEMPS - 1, 8),
                src: vec![tid(), Src::splat(3)],
            },
            Inst::Switch {
                sel: Src::temp(TEMPS - 1).scalar(3),
            },
            Inst::Case(0),
        ];
        out.extend(zero);
        out.extend([Inst::Break, Inst::Case(1)]);
        out.extend(one);
        out.extend([Inst::Case(2), Inst::Default]);
        out.extend(rest);
        out.extend([Inst::Break, Inst::EndSwitch]);
        out
    })
}

/// A loop of `1 + tid % 3` trips whose operations each stay within one
/// temp (its chain: its sources' temps are renamed to the one it writes,
/// all but relative indices) and may read the counter: the top tier splits
/// such a loop into one loop per group of chains that fit the registers.
fn chained() -> impl Strategy<Value = Vec<Inst>> {
    chained_with(Just(None))
}

/// [`chained`] with a trip count of 0 to 3 the same for every thread: a
/// uniform loop, which the top tier also rotates when an operation reads
/// a value the iteration makes and carries round.
fn uniform_chained() -> impl Strategy<Value = Vec<Inst>> {
    chained_with((0..4u32).prop_map(Some))
}

/// [`chained`]'s loop, running `trips` trips when given, else `1 + tid % 3`.
fn chained_with(trips: impl Strategy<Value = Option<u32>>) -> impl Strategy<Value = Vec<Inst>> {
    (
        prop::collection::vec(
            (
                0..TEMPS - 1,
                prop_oneof![4 => alu(), 1 => dot()],
                any::<bool>(),
            ),
            2..12,
        ),
        trips,
    )
        .prop_map(|(ops, trips)| {
            let control = TEMPS - 1;
            let alu = |op, mask, src| Inst::Alu {
                op,
                dst: Dst::temp(control, mask),
                src,
            };
            let counter = Src::temp(control).scalar(0);
            let mut out = vec![
                alu(AluOp::Mov, 1, vec![Src::splat(0)]),
                Inst::Loop,
                match trips {
                    Some(n) => alu(AluOp::Mov, 4, vec![Src::splat(n)]),
                    None => alu(AluOp::URem, 4, vec![tid(), Src::splat(3)]),
                },
                alu(
                    AluOp::UGe,
                    8,
                    vec![counter.clone(), Src::temp(control).scalar(2)],
                ),
                Inst::BreakC {
                    cond: Src::temp(control).scalar(3),
                    nz: true,
                },
            ];
            for (chain, mut inst, reads_counter) in ops {
                let (dst, sources) = match &mut inst {
                    Inst::Alu { dst, src, .. } => (dst, src.iter_mut().collect::<Vec<_>>()),
                    Inst::Dot { dst, a, b, .. } => (dst, vec![a, b]),
                    _ => unreachable!("alu() and dot() make operations"),
                };
                dst.index.base = chain;
                for (i, s) in sources.into_iter().enumerate() {
                    if s.file == File::Temp {
                        s.index.base = if reads_counter && i == 0 {
                            control
                        } else {
                            chain
                        };
                        if s.index.base == control {
                            s.swizzle = [0; 4];
                        }
                    }
                }
                out.push(inst);
            }
            out.extend([
                alu(AluOp::IAdd, 1, vec![counter, Src::splat(1)]),
                Inst::EndLoop,
            ]);
            out
        })
}

fn body() -> impl Strategy<Value = Vec<Inst>> {
    prop::collection::vec(
        prop_oneof![3 => straight(), 1 => branch(), 1 => repeat(), 1 => choose()],
        1..5,
    )
    .prop_map(|parts| parts.concat())
}

/// The program: temps seeded from the thread id and the constants, the
/// body, each temp stored at the thread's 80 bytes.
fn program(body: Vec<Inst>) -> Program {
    let mut p = Program::new(Stage::Compute);
    p.temps = TEMPS;
    p.thread_group = [THREADS, 1, 1];
    p.cbs.push(CbDecl {
        slot: 0,
        rows: CB_ROWS as u32,
    });
    p.uavs.push(ResourceDecl {
        slot: 0,
        kind: ResourceKind::Raw,
    });
    let mut main = Vec::new();
    for reg in 0..TEMPS {
        main.push(Inst::Alu {
            op: AluOp::IMad,
            dst: Dst::temp(reg, 0xf),
            src: vec![tid(), Src::reg(File::Const(0), reg), Src::splat(reg)],
        });
    }
    main.push(Inst::Alu {
        op: AluOp::UToF,
        dst: Dst::temp(1, 0b0101),
        src: vec![tid()],
    });
    main.extend(body);
    main.push(Inst::Alu {
        op: AluOp::IMul,
        dst: Dst::temp(TEMPS, 1),
        src: vec![tid(), Src::splat(16 * TEMPS)],
    });
    for reg in 0..TEMPS {
        main.push(Inst::StoreRaw {
            res: Resource::Uav(0),
            offset: Src::temp(TEMPS).scalar(0),
            value: Src::temp(reg),
            count: 4,
        });
        main.push(Inst::Alu {
            op: AluOp::IAdd,
            dst: Dst::temp(TEMPS, 1),
            src: vec![Src::temp(TEMPS).scalar(0), Src::splat(16)],
        });
    }
    p.temps = TEMPS + 1;
    p.main = main.into();
    p
}

/// `program(body)` with a group barrier between the body and the stores:
/// at the top tier its group runs in one call, and its temps are split
/// into their live ranges first (`jit/webs.rs`).
fn program_with_barrier(body: Vec<Inst>) -> Program {
    let at = TEMPS as usize + 1 + body.len();
    let mut prog = program(body);
    let mut main = prog.main.to_vec();
    main.insert(
        at,
        Inst::Sync {
            group: true,
            uav: false,
            tgsm: true,
        },
    );
    prog.main = main.into();
    prog
}

/// Declares outputs `o0..` for the temps, with `semantic`.
fn declare_outputs(p: &mut Program, semantic: &str) {
    for reg in 0..TEMPS {
        p.outputs.push(IoReg {
            reg,
            name: format!("o{reg}"),
            mask: 0xf,
            semantic: semantic.into(),
            semantic_index: reg,
            interpolation: Interpolation::Linear,
        });
    }
}

/// The compute program's instructions without its stores, each read of
/// the thread id replaced by `id` (keeping the read's modifiers).
fn retargeted(compute: &Program, id: &Src) -> Vec<Inst> {
    let mut main = Vec::new();
    for inst in compute.main.as_slice() {
        if matches!(inst, Inst::StoreRaw { .. }) {
            continue;
        }
        let mut inst = inst.clone();
        for src in inst.sources_mut() {
            if src.file == File::SysVal(SysVal::DispatchThreadId) {
                *src = Src {
                    neg: src.neg,
                    abs: src.abs,
                    ..id.clone()
                };
            }
        }
        main.push(inst);
    }
    main
}

/// Each temp moved to the output register of its number.
fn write_outputs() -> impl Iterator<Item = Inst> {
    (0..TEMPS).map(|reg| Inst::Alu {
        op: AluOp::Mov,
        dst: Dst {
            file: File::Output,
            ..Dst::temp(reg, 0xf)
        },
        src: vec![Src::temp(reg)],
    })
}

/// The same program as a vertex shader: the vertex index comes from input
/// `v0.x` where the compute shader reads the thread id, and each temp is
/// written to the output register of its number instead of stored.
fn vertex_program(body: Vec<Inst>) -> Program {
    let compute = program(body);
    let mut p = Program::new(Stage::Vertex);
    p.temps = compute.temps;
    p.cbs = compute.cbs.clone();
    p.inputs.push(IoReg {
        reg: 0,
        name: "v0".into(),
        mask: 1,
        semantic: "TEXCOORD".into(),
        semantic_index: 0,
        interpolation: Interpolation::Linear,
    });
    declare_outputs(&mut p, "TEXCOORD");
    let mut main = retargeted(&compute, &Src::reg(File::Input, 0).scalar(0));
    main.extend(write_outputs());
    p.main = main.into();
    p
}

/// `prog` compiled with `codegen` at `k`.
fn compiled(prog: &Program, codegen: Codegen, k: usize) -> dxjit::jit::Compiled {
    compile(
        prog,
        JitOptions {
            k,
            listing: false,
            codegen,
            keep_image: false,
            wide_sampling: false,
        },
    )
    .expect("compiles")
}

/// Bindings with `cb` as constant buffer 0.
fn binding_constants(cb: &mut [u32]) -> Bindings {
    let mut b = Bindings::default();
    b.cbs[0] = View {
        ptr: cb.as_mut_ptr() as *mut u8,
        size: (cb.len() * 4) as u32,
        ..View::EMPTY
    };
    b
}

/// The output words of each vertex, run with `codegen` at `k`.
fn run_vertices_at(prog: &Program, codegen: Codegen, k: usize, constants: &[u32]) -> Vec<u32> {
    let c = compiled(prog, codegen, k);
    let mut cb = constants.to_vec();
    let b = binding_constants(&mut cb);
    let inputs: Vec<[u32; 4]> = (0..THREADS).map(|i| [i, 0, 0, 0]).collect();
    // SAFETY: the constant buffer lives across the call; `c` keeps the
    // code alive; `inputs` holds one register per vertex.
    let out = unsafe { run_vertices(&c.kernel(), &b, &inputs, THREADS) };
    out.into_iter().flatten().collect()
}

/// Pixels across the draw of the pixel variant.
const DRAW_WIDTH: u32 = 12;
/// Rows of the draw of the pixel variant.
const DRAW_HEIGHT: u32 = 6;

/// The same program as a pixel shader: the pixel's index `y * 12 + x`
/// where the compute shader reads the thread id, pixels whose index has
/// bit 2 set discarded after the body, and each temp written to the output
/// register of its number.
fn pixel_program(body: Vec<Inst>) -> Program {
    let compute = program(body);
    let index = TEMPS + 1;
    let mut p = Program::new(Stage::Pixel);
    p.temps = index + 1;
    p.cbs = compute.cbs.clone();
    declare_outputs(&mut p, "SV_TARGET");
    let mut main = vec![
        Inst::Alu {
            op: AluOp::FToU,
            dst: Dst::temp(index, 0b0011),
            src: vec![Src::reg(File::SysVal(SysVal::Position), 0)],
        },
        Inst::Alu {
            op: AluOp::IMad,
            dst: Dst::temp(index, 1),
            src: vec![
                Src::temp(index).scalar(1),
                Src::splat(DRAW_WIDTH),
                Src::temp(index).scalar(0),
            ],
        },
    ];
    main.extend(retargeted(&compute, &Src::temp(index).scalar(0)));
    main.extend([
        Inst::Alu {
            op: AluOp::And,
            dst: Dst::temp(index, 2),
            src: vec![Src::temp(index).scalar(0), Src::splat(4)],
        },
        Inst::Discard {
            cond: Src::temp(index).scalar(1),
            nz: true,
        },
    ]);
    main.extend(write_outputs());
    p.main = main.into();
    p
}

/// Every target word of the pixel variant's draw, run with `codegen` at
/// `k`: one `rgba32_uint` target per output, cleared to a sentinel.
fn draw_at(prog: &Program, codegen: Codegen, k: usize, constants: &[u32]) -> Vec<u32> {
    let c = compiled(prog, codegen, k);
    let mut cb = constants.to_vec();
    let b = binding_constants(&mut cb);
    let texels = (DRAW_WIDTH * DRAW_HEIGHT) as usize;
    let mut targets = vec![vec![[0x5a5a_5a5au32; 4]; texels]; TEMPS as usize];
    let d = Draw {
        rect: [0, 0, DRAW_WIDTH, DRAW_HEIGHT],
        pixel_center: 0.5,
        shading: Default::default(),
        sample_mask: u32::MAX,
        inputs: Vec::new(),
        targets: targets
            .iter_mut()
            .enumerate()
            .map(|(reg, t)| RenderTarget {
                ptr: t.as_mut_ptr().cast(),
                width: DRAW_WIDTH,
                height: DRAW_HEIGHT,
                row_pitch: DRAW_WIDTH * 16,
                format: Format::Rgba32Uint,
                output_reg: reg as u32,
                samples: 1,
            })
            .collect(),
    };
    // SAFETY: the constant buffer and the targets live, untouched, across
    // the call; `c` keeps the code alive.
    unsafe { draw(&c.kernel(), &b, &d) };
    targets.into_iter().flatten().flatten().collect()
}

/// The words each thread stores, run with `codegen` at `k`.
fn run(prog: &Program, codegen: Codegen, k: usize, constants: &[u32]) -> Vec<u32> {
    let c = compiled(prog, codegen, k);
    let mut out = vec![0xdead_beef_u32; (THREADS * 4 * TEMPS) as usize];
    let mut cb = constants.to_vec();
    let mut b = binding_constants(&mut cb);
    b.uavs[0] = View {
        ptr: out.as_mut_ptr() as *mut u8,
        size: (out.len() * 4) as u32,
        ..View::EMPTY
    };
    // SAFETY: both views point into vectors alive and untouched across the
    // call; `c` keeps the code alive.
    unsafe { dispatch(&c.kernel(), &b, [1, 1, 1]) };
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_programs_agree_across_tiers(
        body in body(),
        constants in prop::collection::vec(any::<u32>(), CB_ROWS * 4),
    ) {
        // Each body alone, and followed by a group barrier.
        for prog in [program(body.clone()), program_with_barrier(body)] {
            prop_assume!(validate(&prog).is_ok());
            let top = run(&prog, Codegen::Full, 4, &constants);
            for k in [1, 2, 4] {
                let first = run(&prog, Codegen::Quick, k, &constants);
                prop_assert_eq!(&first, &top, "first tier at k = {}:\n{:#?}", k, prog.main);
            }
        }
    }

    #[test]
    fn split_loops_agree_with_whole_ones(
        body in chained(),
        constants in prop::collection::vec(any::<u32>(), CB_ROWS * 4),
    ) {
        let prog = program(body);
        prop_assume!(validate(&prog).is_ok());
        let first = run(&prog, Codegen::Quick, 1, &constants);
        for k in [2, 3, 4] {
            let top = run(&prog, Codegen::Full, k, &constants);
            prop_assert_eq!(&top, &first, "top tier at k = {}:\n{:#?}", k, prog.main);
        }
    }

    #[test]
    fn rotated_loops_agree_with_whole_ones(
        body in uniform_chained(),
        constants in prop::collection::vec(any::<u32>(), CB_ROWS * 4),
    ) {
        let mut prog = program(body);
        // The control temp starts the same in every thread, so that the
        // loop is uniform (the analysis does not follow the order of writes).
        let control = TEMPS - 1;
        let mut main = prog.main.to_vec();
        main[control as usize] = Inst::Alu {
            op: AluOp::Mov,
            dst: Dst::temp(control, 0xf),
            src: vec![Src::splat(7)],
        };
        prog.main = main.into();
        prop_assume!(validate(&prog).is_ok());
        // The tiers may pass on either NaN's payload when both operands
        // of an `add` or `mul` are NaNs (the backend commutes operands to
        // fold a load); Direct3D leaves the payload open. Words that are
        // NaNs compare as one.
        let canonical = |words: Vec<u32>| -> Vec<u32> {
            words
                .into_iter()
                .map(|w| if f32::from_bits(w).is_nan() { 0x7fc0_0000 } else { w })
                .collect()
        };
        let first = canonical(run(&prog, Codegen::Quick, 1, &constants));
        for k in [1, 3, 4] {
            let top = canonical(run(&prog, Codegen::Full, k, &constants));
            prop_assert_eq!(&top, &first, "top tier at k = {}:\n{:#?}", k, prog.main);
        }
    }

    #[test]
    fn random_vertex_programs_agree_across_tiers(
        body in body(),
        constants in prop::collection::vec(any::<u32>(), CB_ROWS * 4),
    ) {
        let prog = vertex_program(body);
        prop_assume!(validate(&prog).is_ok());
        let top = run_vertices_at(&prog, Codegen::Full, 4, &constants);
        for k in [1, 2, 4] {
            let first = run_vertices_at(&prog, Codegen::Quick, k, &constants);
            prop_assert_eq!(&first, &top, "first tier at k = {}:\n{:#?}", k, prog.main);
        }
    }
}

proptest! {
    // Each draw compiles four pixel shaders and runs 72 pixels through
    // the row loop: fewer cases than the other tests, the same branches.
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_pixel_programs_agree_across_tiers(
        body in body(),
        constants in prop::collection::vec(any::<u32>(), CB_ROWS * 4),
    ) {
        let prog = pixel_program(body);
        prop_assume!(validate(&prog).is_ok());
        let top = draw_at(&prog, Codegen::Full, 4, &constants);
        for k in [1, 2, 4] {
            let first = draw_at(&prog, Codegen::Quick, k, &constants);
            prop_assert_eq!(&first, &top, "first tier at k = {}:\n{:#?}", k, prog.main);
        }
    }
}
