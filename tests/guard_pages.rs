//! Memory safety under hostile addressing: every bound buffer (and, on the
//! direct path, group-shared memory and scratch) sits between `PROT_NONE`
//! guard pages with a canary pattern in the rest of its pages. Compute
//! shaders then store, load and update atomically at huge, wrapping,
//! misaligned and lane-divergent offsets. A stray access faults (and kills
//! the test); the checks then demand that every in-bounds component landed
//! exactly as the D3D11 rules say, out-of-bounds loads read 0, and not one
//! canary byte changed.
//!
//! Addressing model (dxjit's documented rule, `src/jit/memory.rs`): raw and
//! structured byte offsets ignore their low two bits and are not wrapped
//! (64-bit arithmetic); a component is in bounds when its whole word is.

use dxjit::CompileOptions;
use dxjit_runtime::abi::{Frame, SysValSlot, View, STATUS_BARRIER, STATUS_DONE, SYSVAL_COUNT};
use dxjit_runtime::dispatch::{dispatch, Bindings, Kernel};
use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::InlineSampler;
use memmap2::{MmapMut, MmapOptions};

/// The byte written around every buffer inside its accessible pages.
const CANARY: u8 = 0xCD;

/// Where a buffer sits in its accessible pages.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Flush against the guard page before it.
    Start,
    /// Flush against the guard page after it.
    End,
}

/// A buffer between two `PROT_NONE` pages, canaries around it.
struct Guarded {
    _map: MmapMut,
    base: *mut u8,
    page: usize,
    inner: usize,
    start: usize,
    len: usize,
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

impl Guarded {
    /// Maps `data` at `place`, with guard pages on both sides.
    fn new(data: &[u8], place: Place) -> Guarded {
        let page = page_size();
        let inner = data.len().div_ceil(page).max(1) * page;
        let total = inner + 2 * page;
        let mut map = MmapOptions::new().len(total).map_anon().expect("mmap");
        let base = map.as_mut_ptr();
        let start = page
            + match place {
                Place::Start => 0,
                Place::End => inner - data.len(),
            };
        let g = Guarded {
            _map: map,
            base,
            page,
            inner,
            start,
            len: data.len(),
        };
        g.accessible().fill(CANARY);
        g.contents().copy_from_slice(data);
        for at in [0, page + inner] {
            // SAFETY: `at .. at + page` is a whole, page-aligned page of the
            // mapping, which lives as long as `g`; nothing references it.
            let r = unsafe { libc::mprotect(base.add(at).cast(), page, libc::PROT_NONE) };
            assert_eq!(r, 0, "mprotect");
        }
        g
    }

    /// The accessible pages between the guards.
    #[allow(clippy::mut_from_ref)]
    fn accessible(&self) -> &mut [u8] {
        // SAFETY: `page .. page + inner` is readable and writable mapped
        // memory owned by `self`; callers hold no other reference into it
        // while they use the slice (shaders run between such uses).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(self.page), self.inner) }
    }

    /// The buffer's own bytes.
    #[allow(clippy::mut_from_ref)]
    fn contents(&self) -> &mut [u8] {
        let at = self.start - self.page;
        &mut self.accessible()[at..at + self.len]
    }

    /// The buffer's words after asserting that the canaries are intact.
    fn finish(&self, what: &str) -> Vec<u32> {
        let at = self.start - self.page;
        for (i, b) in self.accessible().iter().enumerate() {
            if i < at || i >= at + self.len {
                assert_eq!(*b, CANARY, "{what}: canary byte {i} of the page changed");
            }
        }
        words(self.contents())
    }

    /// A raw (stride 0) or structured view of the buffer.
    fn view(&self, stride: u32) -> View {
        View {
            // SAFETY: `start` is inside the mapping.
            ptr: unsafe { self.base.add(self.start) },
            size: self.len as u32,
            stride,
            ..View::EMPTY
        }
    }

    /// An R32_UINT 2D texture view of `width` x `height` texels.
    fn texture(&self, width: u32, height: u32) -> View {
        View {
            width,
            height,
            depth: 1,
            mips: 1,
            format: Format::R32Uint as u32,
            row_pitch: width * 4,
            slice_pitch: width * height * 4,
            ..self.view(4)
        }
    }
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A buffer's initial words: recognisably untouched.
fn initial(n_words: usize) -> Vec<u32> {
    (0..n_words as u32).map(|w| 0xB000_0000 | w).collect()
}

/// What each word of a buffer may hold after the run.
struct Model {
    init: Vec<u32>,
    allowed: Vec<Vec<u32>>,
}

impl Model {
    fn new(init: Vec<u32>) -> Model {
        let allowed = vec![Vec::new(); init.len()];
        Model { init, allowed }
    }

    /// Word `w` must hold `v` (or another value allowed for it).
    fn may(&mut self, w: usize, v: u32) {
        self.allowed[w].push(v);
    }

    fn check(&self, got: &[u32], what: &str) {
        for (w, g) in got.iter().enumerate() {
            if self.allowed[w].is_empty() {
                assert_eq!(*g, self.init[w], "{what}: word {w} should be untouched");
            } else {
                assert!(
                    self.allowed[w].contains(g),
                    "{what}: word {w} is {g:#x}, expected one of {:x?}",
                    self.allowed[w]
                );
            }
        }
    }
}

/// The value component `c` of thread `t` stores (`r1` in every shader).
fn val(t: usize, c: usize) -> u32 {
    (t * 256 + c + 1) as u32
}

/// The word a raw access touches for component `c`, if in bounds.
fn raw_word(off: u32, c: usize, size: usize) -> Option<usize> {
    let o = u64::from(off & !3) + 4 * c as u64;
    (o + 4 <= size as u64).then_some((o / 4) as usize)
}

/// The word a structured access touches for component `c`, if in bounds.
fn structured_word(index: u32, off: u32, c: usize, stride: u32, size: usize) -> Option<usize> {
    let o = u64::from(off & !3) + 4 * c as u64;
    let byte = u64::from(index) * u64::from(stride) + o;
    (o + 4 <= u64::from(stride) && byte + 4 <= size as u64).then_some((byte / 4) as usize)
}

/// How a dispatch is run.
#[derive(Debug, Clone, Copy)]
enum Path {
    /// `dxjit_runtime::dispatch::dispatch`.
    Runtime,
    /// Frames built here, with group-shared memory and scratch guarded too.
    Direct,
}

/// One way of running a scenario.
#[derive(Debug, Clone, Copy)]
struct Config {
    tg: u32,
    groups: u32,
    place: Place,
    path: Path,
}

impl Config {
    fn threads(&self) -> usize {
        (self.tg * self.groups) as usize
    }

    fn run(&self, k: &Kernel, b: &Bindings) {
        match self.path {
            // SAFETY: the views point into guarded mappings the scenario
            // owns and keeps alive across the call; `k` is a live shader's.
            Path::Runtime => unsafe { dispatch(k, b, [self.groups, 1, 1]) },
            Path::Direct => run_direct(k, b, self.groups, self.place),
        }
    }
}

/// Every thread-group size, group count, placement and path.
fn each_config(mut f: impl FnMut(Config)) {
    for tg in [1, 5, 8, 19, 64] {
        for groups in [1, 3] {
            for place in [Place::Start, Place::End] {
                for path in [Path::Runtime, Path::Direct] {
                    f(Config {
                        tg,
                        groups,
                        place,
                        path,
                    });
                }
            }
        }
    }
}

/// Runs `groups` thread groups along x without the runtime's dispatch loop,
/// so that group-shared memory and scratch are guarded as well. The
/// batches' system values and lane masks lie one after another; a shader
/// with barriers runs the whole group per call over them (and a scratch of
/// `scratch_size` bytes for all batches), one without runs one call per
/// batch.
#[allow(clippy::needless_range_loop)] // the lane index addresses several SoA arrays at once
fn run_direct(k: &Kernel, b: &Bindings, groups: u32, place: Place) {
    let w = k.lanes as usize;
    let [tx, ty, tz] = k.thread_group.map(|d| d.max(1));
    let threads = (tx * ty * tz) as usize;
    let batches = threads.div_ceil(w);
    let tgsm = Guarded::new(&vec![0; k.tgsm_size as usize], place);
    let scratch = Guarded::new(&vec![0; k.scratch_size as usize], place);
    let stride = SYSVAL_COUNT * 4 * w;
    let mut sysvals = vec![0u32; stride * batches];
    let mut masks = vec![0u32; w * batches];
    let inline = vec![InlineSampler::RUNTIME; k.inline_pair_count as usize];
    for g in 0..groups {
        tgsm.contents().fill(0);
        for batch in 0..batches {
            for l in 0..w {
                let t = (batch * w + l) as u32;
                let at = |s: SysValSlot, c: usize| batch * stride + (s as usize * 4 + c) * w + l;
                let local = [t % tx, (t / tx) % ty, t / (tx * ty)];
                for c in 0..3 {
                    sysvals[at(SysValSlot::GroupThreadId, c)] = local[c];
                    sysvals[at(SysValSlot::GroupId, c)] = if c == 0 { g } else { 0 };
                    sysvals[at(SysValSlot::DispatchThreadId, c)] =
                        local[c] + if c == 0 { g * tx } else { 0 };
                }
                sysvals[at(SysValSlot::GroupIndex, 0)] = t;
                masks[batch * w + l] = if (t as usize) < threads { u32::MAX } else { 0 };
            }
        }
        let mut frame = Frame {
            inputs: std::ptr::null(),
            outputs: std::ptr::null_mut(),
            sysvals: sysvals.as_ptr(),
            lane_mask: masks.as_mut_ptr(),
            cbs: b.cbs.as_ptr(),
            srvs: b.srvs.as_ptr(),
            uavs: b.uavs.as_ptr(),
            samplers: b.samplers.as_ptr(),
            inline_samplers: inline.as_ptr(),
            interrupt: std::sync::Arc::as_ptr(&b.interrupt),
            direct_targets: std::ptr::null(),
            pixel_origin: [0; 2],
            tgsm: tgsm.view(0).ptr,
            scratch: scratch.view(0).ptr,
            resume: 0,
            group_id: [g, 0, 0],
            sink: [0; 8],
            uav_counters: b.uav_counters.as_ptr(),
            draw_row: std::ptr::null(),
            eval: std::ptr::null(),
            vertex_run: std::ptr::null(),
            zero: [0; 8],
            gs: std::ptr::null_mut(),
        };
        // The frame points at live memory sized for this kernel: sysvals
        // and lane masks of `lanes` words per component for every batch,
        // scratch and group-shared memory of the sizes it declares, and the
        // caller's bindings.
        if k.has_barriers {
            // SAFETY: see above; the call moves from batch to batch itself.
            while unsafe { (k.func)(&mut frame) } == STATUS_BARRIER {}
        } else {
            for batch in 0..batches {
                frame.sysvals = sysvals[batch * stride..].as_ptr();
                frame.lane_mask = masks[batch * w..].as_mut_ptr();
                // SAFETY: see above, for this batch's blocks.
                assert_eq!(unsafe { (k.func)(&mut frame) }, STATUS_DONE);
            }
        }
        assert_eq!(frame.zero, [0; 8], "the zero slot was written");
    }
    tgsm.finish("group-shared memory");
    scratch.finish("scratch");
}

/// A compute shader: `t0` holds four parameter words per thread, loaded
/// into `r0`; `r1` holds the thread's values ([`val`]); `r3.x` is the
/// thread's 32-byte output slot.
fn cs(tg: u32, decls: &str, body: &str) -> dxjit::Shader {
    let text = format!(
        "cs_5_0\ndcl_resource_raw t0\n{decls}\ndcl_input vThreadID.x\ndcl_temps 4\n\
         dcl_thread_group {tg}, 1, 1\nishl r0.x, vThreadID.x, l(4)\n\
         ld_raw r0.xyzw, r0.x, t0.xyzw\n\
         imad r1.xyzw, vThreadID.xxxx, l(256, 256, 256, 256), l(1, 2, 3, 4)\n\
         ishl r3.x, vThreadID.x, l(5)\n{body}\nret\n"
    );
    let bytes = dxjit::text::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    dxjit::compile(&bytes, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Four parameter words per thread, each picked from its pool.
fn params(threads: usize, seed: u64, pools: [&[u32]; 4]) -> Vec<[u32; 4]> {
    (0..threads)
        .map(|t| {
            std::array::from_fn(|k| {
                let pool = pools[k];
                if pool.is_empty() {
                    0
                } else {
                    pool[(mix(seed ^ (t as u64 * 4 + k as u64) << 8) % pool.len() as u64) as usize]
                }
            })
        })
        .collect()
}

fn table(p: &[[u32; 4]], place: Place) -> Guarded {
    Guarded::new(&bytes_of(&p.concat()), place)
}

/// Bytes in the small buffers under attack: not a multiple of 16.
const SIZE: usize = 60;

/// Hostile raw byte offsets into a [`SIZE`]-byte buffer.
const RAW_OFFSETS: &[u32] = &[
    0,
    4,
    8,
    44,
    48,
    52,
    56,
    60,
    64,
    1,
    2,
    3,
    58,
    54,
    0xFFFF_FFF0,
    0xFFFF_FFF4,
    0xFFFF_FFFC,
    0xFFFF_FFFF,
    0x7FFF_FFFC,
    0x8000_0000,
    4092,
    4096,
    0x100,
];
/// Hostile structure indices (stride 12, 5 elements); some overflow 32 bits
/// when multiplied by the stride to a small in-bounds value.
const INDICES: &[u32] = &[
    0,
    1,
    3,
    4,
    5,
    6,
    0x1555_5556,
    0x2AAA_AAAB,
    0x8000_0000,
    0xFFFF_FFFF,
    0x4000_0000,
];
/// Hostile byte offsets inside a 12-byte structure.
const STRUCT_OFFSETS: &[u32] = &[0, 4, 8, 12, 16, 1, 7, 0xFFFF_FFFC, 0xFFFF_FFF0, 0x7FFF_FFFC];
/// Hostile texel coordinates for a 5 x 3 texture.
const COORDS: &[u32] = &[
    0,
    1,
    2,
    4,
    5,
    3,
    0xFFFF_FFFF,
    0x8000_0000,
    0x4000_0001,
    0x7FFF_FFFF,
];

/// The output of a scenario: `threads` slots of 32 bytes, fully checked.
fn output(threads: usize, place: Place) -> Guarded {
    Guarded::new(&bytes_of(&initial(threads * 8)), place)
}

#[test]
fn raw_stores_write_only_in_bounds_components() {
    for (m, mask) in ["x", "xy", "xyz", "xyzw"].iter().enumerate() {
        each_config(|cfg| {
            let p = params(cfg.threads(), m as u64, [RAW_OFFSETS, &[], &[], &[]]);
            let k = cs(
                cfg.tg,
                "dcl_uav_raw u0",
                &format!("store_raw u0.{mask}, r0.x, r1.xyzw"),
            );
            let (t0, u0) = (
                table(&p, cfg.place),
                Guarded::new(&bytes_of(&initial(SIZE / 4)), cfg.place),
            );
            let mut b = Bindings::default();
            b.srvs[0] = t0.view(0);
            b.uavs[0] = u0.view(0);
            cfg.run(&k.kernel(), &b);
            let mut model = Model::new(initial(SIZE / 4));
            for (t, p) in p.iter().enumerate() {
                for c in 0..mask.len() {
                    if let Some(w) = raw_word(p[0], c, SIZE) {
                        model.may(w, val(t, c));
                    }
                }
            }
            model.check(&u0.finish("u0"), &format!("store_raw .{mask} {cfg:?}"));
            assert_eq!(t0.finish("t0"), p.concat());
        });
    }
}

#[test]
fn raw_loads_read_zero_out_of_bounds() {
    each_config(|cfg| {
        let n = cfg.threads();
        let p = params(n, 7, [RAW_OFFSETS, &[], &[], &[]]);
        let k = cs(
            cfg.tg,
            "dcl_resource_raw t1\ndcl_uav_raw u0\ndcl_uav_raw u1",
            "ld_raw r2.xyzw, r0.x, t1.xyzw\nstore_raw u0.xyzw, r3.x, r2.xyzw\n\
             ld_raw r2.xyzw, r0.x, u1.xyzw\niadd r3.x, r3.x, l(16)\nstore_raw u0.xyzw, r3.x, r2.xyzw",
        );
        let data: Vec<u32> = (0..SIZE as u32 / 4).map(|w| 0xD000_0000 | w).collect();
        let t0 = table(&p, cfg.place);
        let t1 = Guarded::new(&bytes_of(&data), cfg.place);
        let u1 = Guarded::new(&bytes_of(&data), cfg.place);
        let u0 = output(n, cfg.place);
        let mut b = Bindings::default();
        b.srvs[0] = t0.view(0);
        b.srvs[1] = t1.view(0);
        b.uavs[0] = u0.view(0);
        b.uavs[1] = u1.view(0);
        cfg.run(&k.kernel(), &b);
        let mut model = Model::new(initial(n * 8));
        for (t, p) in p.iter().enumerate() {
            for c in 0..4 {
                let v = raw_word(p[0], c, SIZE).map_or(0, |w| data[w]);
                model.may(t * 8 + c, v);
                model.may(t * 8 + 4 + c, v);
            }
        }
        model.check(&u0.finish("u0"), &format!("ld_raw {cfg:?}"));
        assert_eq!(t1.finish("t1"), data);
        assert_eq!(u1.finish("u1"), data);
        t0.finish("t0");
    });
}

#[test]
fn structured_accesses_stay_inside_elements_and_buffer() {
    for (m, mask) in ["x", "xyz", "xyzw"].iter().enumerate() {
        each_config(|cfg| {
            let n = cfg.threads();
            let p = params(
                n,
                20 + m as u64,
                [INDICES, STRUCT_OFFSETS, INDICES, STRUCT_OFFSETS],
            );
            let k = cs(
                cfg.tg,
                "dcl_resource_structured t1, 12\ndcl_uav_raw u0\ndcl_uav_structured u1, 12",
                &format!(
                    "store_structured u1.{mask}, r0.x, r0.y, r1.xyzw\n\
                     ld_structured r2.xyzw, r0.z, r0.w, t1.xyzw\nstore_raw u0.xyzw, r3.x, r2.xyzw"
                ),
            );
            let data: Vec<u32> = (0..SIZE as u32 / 4).map(|w| 0xD000_0000 | w).collect();
            let t0 = table(&p, cfg.place);
            let t1 = Guarded::new(&bytes_of(&data), cfg.place);
            let u1 = Guarded::new(&bytes_of(&initial(SIZE / 4)), cfg.place);
            let u0 = output(n, cfg.place);
            let mut b = Bindings::default();
            b.srvs[0] = t0.view(0);
            b.srvs[1] = t1.view(12);
            b.uavs[0] = u0.view(0);
            b.uavs[1] = u1.view(12);
            cfg.run(&k.kernel(), &b);
            let mut stored = Model::new(initial(SIZE / 4));
            let mut loaded = Model::new(initial(n * 8));
            for (t, p) in p.iter().enumerate() {
                for c in 0..4 {
                    if c < mask.len() {
                        if let Some(w) = structured_word(p[0], p[1], c, 12, SIZE) {
                            stored.may(w, val(t, c));
                        }
                    }
                    let v = structured_word(p[2], p[3], c, 12, SIZE).map_or(0, |w| data[w]);
                    loaded.may(t * 8 + c, v);
                }
            }
            stored.check(
                &u1.finish("u1"),
                &format!("store_structured .{mask} {cfg:?}"),
            );
            loaded.check(&u0.finish("u0"), &format!("ld_structured {cfg:?}"));
            assert_eq!(t1.finish("t1"), data);
            t0.finish("t0");
        });
    }
}

#[test]
fn typed_accesses_stay_inside_the_texture() {
    let (w, h) = (5u32, 3u32);
    each_config(|cfg| {
        let n = cfg.threads();
        let p = params(n, 30, [COORDS, COORDS, COORDS, COORDS]);
        let k = cs(
            cfg.tg,
            "dcl_uav_raw u0\ndcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n\
             dcl_uav_typed_texture2d (uint,uint,uint,uint) u2",
            "store_uav_typed u1.xyzw, r0.xyyy, r1.xyzw\n\
             ld_uav_typed r2.x, r0.zwww, u2.xyzw\nstore_raw u0.x, r3.x, r2.x",
        );
        let texels = (w * h) as usize;
        let data: Vec<u32> = (0..texels as u32).map(|i| 0xD000_0000 | i).collect();
        let t0 = table(&p, cfg.place);
        let u0 = output(n, cfg.place);
        let u1 = Guarded::new(&bytes_of(&initial(texels)), cfg.place);
        let u2 = Guarded::new(&bytes_of(&data), cfg.place);
        let mut b = Bindings::default();
        b.srvs[0] = t0.view(0);
        b.uavs[0] = u0.view(0);
        b.uavs[1] = u1.texture(w, h);
        b.uavs[2] = u2.texture(w, h);
        cfg.run(&k.kernel(), &b);
        let mut stored = Model::new(initial(texels));
        let mut loaded = Model::new(initial(n * 8));
        for (t, p) in p.iter().enumerate() {
            if p[0] < w && p[1] < h {
                stored.may((p[1] * w + p[0]) as usize, val(t, 0));
            }
            let v = if p[2] < w && p[3] < h {
                data[(p[3] * w + p[2]) as usize]
            } else {
                0
            };
            loaded.may(t * 8, v);
        }
        stored.check(&u1.finish("u1"), &format!("store_uav_typed {cfg:?}"));
        loaded.check(&u0.finish("u0"), &format!("ld_uav_typed {cfg:?}"));
        assert_eq!(u2.finish("u2"), data);
        t0.finish("t0");
    });
}

#[test]
fn atomics_update_only_in_bounds_words() {
    each_config(|cfg| {
        let n = cfg.threads();
        let p = params(n, 40, [RAW_OFFSETS, INDICES, STRUCT_OFFSETS, &[]]);
        let k = cs(
            cfg.tg,
            "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_uav_structured u2, 12",
            "atomic_iadd u1, r0.x, l(1)\nimm_atomic_iadd r2.x, u1, r0.x, l(16)\n\
             imm_atomic_or r2.y, u2, r0.yzyy, l(0x100)\nstore_raw u0.xy, r3.x, r2.xyxx",
        );
        let t0 = table(&p, cfg.place);
        let u0 = output(n, cfg.place);
        let init = initial(SIZE / 4);
        let u1 = Guarded::new(&bytes_of(&init), cfg.place);
        let u2 = Guarded::new(&bytes_of(&init), cfg.place);
        let mut b = Bindings::default();
        b.srvs[0] = t0.view(0);
        b.uavs[0] = u0.view(0);
        b.uavs[1] = u1.view(0);
        b.uavs[2] = u2.view(12);
        cfg.run(&k.kernel(), &b);
        let mut hits = vec![0u32; SIZE / 4];
        let mut ored = vec![false; SIZE / 4];
        for p in &p {
            if let Some(w) = raw_word(p[0], 0, SIZE) {
                hits[w] += 1;
            }
            if let Some(w) = structured_word(p[1], p[2], 0, 12, SIZE) {
                ored[w] = true;
            }
        }
        let got1 = u1.finish("u1");
        let expect1: Vec<u32> = init.iter().zip(&hits).map(|(i, h)| i + 17 * h).collect();
        assert_eq!(got1, expect1, "atomic_iadd {cfg:?}");
        let got2 = u2.finish("u2");
        let expect2: Vec<u32> = init
            .iter()
            .zip(&ored)
            .map(|(i, o)| if *o { i | 0x100 } else { *i })
            .collect();
        assert_eq!(got2, expect2, "imm_atomic_or {cfg:?}");
        let out = u0.finish("u0");
        for (t, p) in p.iter().enumerate() {
            let old = out[t * 8];
            match raw_word(p[0], 0, SIZE) {
                None => assert_eq!(old, 0, "thread {t}: out-of-bounds atomic returned {old:#x}"),
                // Its own atomic_iadd came first; its +16 is not yet in.
                Some(w) => assert!(
                    old > init[w] && old < expect1[w],
                    "thread {t}: imm_atomic_iadd returned {old:#x} {cfg:?}"
                ),
            }
            let old = out[t * 8 + 1];
            match structured_word(p[1], p[2], 0, 12, SIZE) {
                None => assert_eq!(old, 0, "thread {t}: out-of-bounds atomic returned {old:#x}"),
                Some(w) => assert!(old == init[w] || old == init[w] | 0x100),
            }
            assert_eq!(
                out[t * 8 + 2..t * 8 + 8],
                initial(n * 8)[t * 8 + 2..t * 8 + 8]
            );
        }
        t0.finish("t0");
    });
}

#[test]
fn constant_buffers_indexed_out_of_range_read_zero() {
    // Three rows bound, four declared: the bound size is the limit.
    let rows = 3usize;
    let pool: &[u32] = &[
        0,
        1,
        2,
        3,
        4,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0x7FFF_FFFF,
        0x8000_0000,
        0x1000_0000,
        0x0FFF_FFFF,
    ];
    each_config(|cfg| {
        let n = cfg.threads();
        let p = params(n, 50, [pool, &[], &[], &[]]);
        let k = cs(
            cfg.tg,
            "dcl_constantBuffer cb0[4], dynamicIndexed\ndcl_uav_raw u0",
            "mov r2.xyzw, cb0[r0.x + 0].xyzw\nstore_raw u0.xyzw, r3.x, r2.xyzw\n\
             mov r2.xyzw, cb0[r0.x + 2].xyzw\niadd r3.x, r3.x, l(16)\nstore_raw u0.xyzw, r3.x, r2.xyzw",
        );
        let data: Vec<u32> = (0..rows as u32 * 4).map(|w| 0xC000_0000 | w).collect();
        let t0 = table(&p, cfg.place);
        let cb = Guarded::new(&bytes_of(&data), cfg.place);
        let u0 = output(n, cfg.place);
        let mut b = Bindings::default();
        b.srvs[0] = t0.view(0);
        b.cbs[0] = cb.view(0);
        b.uavs[0] = u0.view(0);
        cfg.run(&k.kernel(), &b);
        let mut model = Model::new(initial(n * 8));
        for (t, p) in p.iter().enumerate() {
            for (half, base) in [0i64, 2].iter().enumerate() {
                let row = i64::from(p[0].wrapping_add(*base as u32) as i32);
                for c in 0..4 {
                    let v = if (0..rows as i64).contains(&row) {
                        data[row as usize * 4 + c]
                    } else {
                        0
                    };
                    model.may(t * 8 + half * 4 + c, v);
                }
            }
        }
        model.check(&u0.finish("u0"), &format!("cb0[r + i] {cfg:?}"));
        assert_eq!(cb.finish("cb0"), data);
        t0.finish("t0");
    });
}

#[test]
fn indexable_temps_indexed_out_of_range_stay_in_scratch() {
    let pool: &[u32] = &[
        0,
        1,
        2,
        3,
        4,
        5,
        0xFFFF_FFFF,
        0x8000_0000,
        0x4000_0000,
        0x1000_0000,
    ];
    each_config(|cfg| {
        let n = cfg.threads();
        let p = params(n, 60, [pool, pool, &[], &[]]);
        let k = cs(
            cfg.tg,
            "dcl_uav_raw u0\ndcl_indexableTemp x0[4], 4",
            "mov x0[0].xyzw, l(10, 11, 12, 13)\nmov x0[1].xyzw, l(20, 21, 22, 23)\n\
             mov x0[2].xyzw, l(30, 31, 32, 33)\nmov x0[3].xyzw, l(40, 41, 42, 43)\n\
             mov x0[r0.x + 0].xyzw, r1.xyzw\nmov r2.xyzw, x0[r0.y + 0].xyzw\n\
             store_raw u0.xyzw, r3.x, r2.xyzw",
        );
        let t0 = table(&p, cfg.place);
        let u0 = output(n, cfg.place);
        let mut b = Bindings::default();
        b.srvs[0] = t0.view(0);
        b.uavs[0] = u0.view(0);
        cfg.run(&k.kernel(), &b);
        let mut model = Model::new(initial(n * 8));
        for (t, p) in p.iter().enumerate() {
            let mut x: Vec<[u32; 4]> = (1..=4)
                .map(|e| std::array::from_fn(|c| e * 10 + c as u32))
                .collect();
            if let Some(e) = x.get_mut(p[0] as usize) {
                *e = std::array::from_fn(|c| val(t, c));
            }
            let r = x.get(p[1] as usize).copied().unwrap_or([0; 4]);
            for (c, v) in r.iter().enumerate() {
                model.may(t * 8 + c, *v);
            }
        }
        model.check(&u0.finish("u0"), &format!("x0[r] {cfg:?}"));
        t0.finish("t0");
    });
}

#[test]
fn group_shared_accesses_stay_in_the_group_block() {
    for (decl, store, atomic, load) in [
        (
            "dcl_tgsm_raw g0, 60",
            "store_raw g0.xyzw, r0.x, r1.xyzw",
            "atomic_iadd g0, r0.y, l(1)",
            "ld_raw r2.xyzw, r0.y, g0.xyzw",
        ),
        (
            "dcl_tgsm_structured g0, 12, 5",
            "store_structured g0.xyzw, r0.x, r0.z, r1.xyzw",
            "atomic_iadd g0, r0.ywyy, l(1)",
            "ld_structured r2.xyzw, r0.y, r0.w, g0.xyzw",
        ),
    ] {
        let structured = decl.contains("structured");
        each_config(|cfg| {
            let n = cfg.threads();
            let p = if structured {
                params(n, 70, [INDICES, INDICES, STRUCT_OFFSETS, STRUCT_OFFSETS])
            } else {
                params(n, 71, [RAW_OFFSETS, RAW_OFFSETS, &[], &[]])
            };
            let k = cs(
                cfg.tg,
                &format!("dcl_uav_raw u0\n{decl}"),
                &format!("{store}\n{atomic}\n{load}\nstore_raw u0.xyzw, r3.x, r2.xyzw"),
            );
            let t0 = table(&p, cfg.place);
            let u0 = output(n, cfg.place);
            let mut b = Bindings::default();
            b.srvs[0] = t0.view(0);
            b.uavs[0] = u0.view(0);
            cfg.run(&k.kernel(), &b);
            // Out-of-bounds g# accesses leave shared memory undefined, so only
            // out-of-bounds loads (which read 0) have an exact result.
            let out = u0.finish("u0");
            for (t, p) in p.iter().enumerate() {
                for c in 0..4 {
                    let w = if structured {
                        structured_word(p[1], p[3], c, 12, SIZE)
                    } else {
                        raw_word(p[1], c, SIZE)
                    };
                    if w.is_none() {
                        assert_eq!(
                            out[t * 8 + c],
                            0,
                            "{decl}: thread {t} component {c} {cfg:?}"
                        );
                    }
                }
                assert_eq!(
                    out[t * 8 + 4..t * 8 + 8],
                    initial(n * 8)[t * 8 + 4..t * 8 + 8]
                );
            }
            t0.finish("t0");
        });
    }
}
