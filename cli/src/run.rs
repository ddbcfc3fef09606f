//! Executes a case: compiles its shaders, builds and binds its resources,
//! performs its action and collects what the expectations look at.

use crate::case::{
    Action, Case, DrawDesc, InputDesc, InputValues, IoRef, Outcome, SamplerDesc, ShaderCode,
    SrvDesc, SrvKind, StageDesc, TargetImage, UavDesc, UavDimension, UavKind, VertexOutput,
    VertexOutputs,
};
use dxjit::api::RunError;
use dxjit::d3d9::bump::{BumpEnvBlock, BUMP_ENV_SLOT, STAGES};
use dxjit::ir::{class, IoReg, Program, Stage};
use dxjit::shader::{compile, CompileOptions, Family, Shader};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::{self, Bindings, PixelInput, RenderTarget};
use dxjit_runtime::msaa::TARGET_SAMPLE_COUNTS;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use dxjit_runtime::sampler::SamplerState;
use dxjit_runtime::texture::{Texture, TextureKind};
use std::collections::BTreeMap;

mod pipeline;

/// 16-byte aligned memory a view points into.
struct Memory(Vec<u128>);

impl Memory {
    fn from_words(words: &[u32], bytes: usize, fill: u32) -> Memory {
        let mut m = Memory(vec![0; bytes.div_ceil(16).max(1)]);
        let all = m.words_mut();
        for (i, w) in all.iter_mut().enumerate() {
            *w = words.get(i).copied().unwrap_or(fill);
        }
        m
    }
    fn words_mut(&mut self) -> &mut [u32] {
        let n = self.0.len() * 4;
        // SAFETY: n/4 u128s are n properly aligned u32 words.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr() as *mut u32, n) }
    }
    fn ptr(&mut self) -> *mut u8 {
        self.0.as_mut_ptr() as *mut u8
    }
    fn bytes(&self, n: usize) -> Vec<u8> {
        self.0
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .take(n)
            .collect()
    }
}

/// Everything a stage has bound, kept alive while it runs.
struct Bound {
    bindings: Bindings,
    /// The constant buffers' words by slot, as bound.
    constants: BTreeMap<u32, Vec<u32>>,
    _memory: Vec<Memory>,
    /// Boxed: views point into each texture, so it must not move.
    #[allow(clippy::vec_box)]
    _textures: Vec<Box<Texture>>,
}

/// Compiles one stage's code, checking its stage against the table it sits in.
fn compile_stage(
    table: &str,
    desc: &StageDesc,
    options: &CompileOptions,
) -> Result<Shader, String> {
    let bytes = match &desc.code {
        ShaderCode::Bytes(b) => b.clone(),
        ShaderCode::Asm(text) => dxjit::text::assemble(text)?,
    };
    let shader = compile(&bytes, options).map_err(|e| e.to_string())?;
    let expected = match table {
        "cs" => Stage::Compute,
        "vs" => Stage::Vertex,
        "gs" => Stage::Geometry,
        "hs" => Stage::Hull,
        "ds" => Stage::Domain,
        _ => Stage::Pixel,
    };
    if shader.stage() != expected {
        return Err(format!("[{table}] holds a {:?} shader", shader.stage()));
    }
    Ok(shader)
}

fn uav_bytes(u: &UavDesc) -> (usize, View) {
    match u.kind {
        UavKind::Raw | UavKind::Structured { .. } => {
            let size = u.size.map_or(u.data.len() * 4, |s| s as usize);
            let stride = if let UavKind::Structured { stride } = u.kind {
                stride
            } else {
                0
            };
            (
                size,
                View {
                    size: size as u32,
                    stride,
                    ..View::EMPTY
                },
            )
        }
        UavKind::Typed { format, dimension } => {
            let bpt = format.bytes_per_texel();
            let width = u.size.unwrap_or((u.data.len() as u32 * 4) / bpt);
            let (height, depth) = match dimension {
                UavDimension::Buffer | UavDimension::Texture1d => (1, 1),
                UavDimension::Texture2d => (u.height.max(1), 1),
                UavDimension::Texture3d => (u.height.max(1), u.depth.max(1)),
            };
            let row = width * bpt;
            let size = (row * height * depth) as usize;
            let view = View {
                size: size as u32,
                stride: bpt,
                width,
                height,
                depth,
                mips: 1,
                format: format as u32,
                row_pitch: row,
                slice_pitch: row * height,
                ..View::EMPTY
            };
            (size, view)
        }
    }
}

/// The runtime state of a case's sampler; D3D9 shaders (`d3d9`) get D3D9's
/// hardware shadow-map behaviour on depth textures.
fn sampler_state(s: &SamplerDesc, d3d9: bool) -> SamplerState {
    SamplerState {
        filter: s.filter,
        mip_filter: s.mip_filter,
        address: s.address,
        compare: s.compare,
        border: s.border,
        lod_bias: s.lod_bias,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        mag_filter: s.mag_filter,
        max_anisotropy: s.max_anisotropy,
        reduction: s.reduction,
        srgb: u32::from(s.srgb),
        shadow_map: u32::from(d3d9),
    }
}

/// The D3D9 bump-environment block of the stages a case's samplers set.
fn bump_block(samplers: &[SamplerDesc]) -> BumpEnvBlock {
    let mut block = BumpEnvBlock::default();
    for s in samplers.iter().filter(|s| (s.slot as usize) < STAGES) {
        block.set(s.slot as usize, s.bump);
    }
    block
}

#[allow(clippy::vec_box)] // views point into each texture, so it must not move
fn srv(
    desc: &SrvDesc,
    memory: &mut Vec<Memory>,
    textures: &mut Vec<Box<Texture>>,
) -> Result<View, String> {
    let kind = match desc.kind {
        SrvKind::Raw | SrvKind::Structured { .. } => {
            let size = desc.size.map_or(desc.data.len() * 4, |s| s as usize);
            let mut m = Memory::from_words(&desc.data, size, desc.fill);
            let stride = if let SrvKind::Structured { stride } = desc.kind {
                stride
            } else {
                0
            };
            let view = View {
                ptr: m.ptr(),
                size: size as u32,
                stride,
                ..View::EMPTY
            };
            memory.push(m);
            return Ok(view);
        }
        SrvKind::Buffer => TextureKind::Buffer,
        SrvKind::Texture1d => TextureKind::Texture1D,
        SrvKind::Texture1dArray => TextureKind::Texture1DArray,
        SrvKind::Texture2d => TextureKind::Texture2D,
        SrvKind::Texture2dArray => TextureKind::Texture2DArray,
        SrvKind::Texture3d => TextureKind::Texture3D,
        SrvKind::TextureCube => TextureKind::TextureCube,
        SrvKind::TextureCubeArray => TextureKind::TextureCubeArray,
        SrvKind::Texture2dMs | SrvKind::Texture2dMsArray => {
            let texture = Box::new(
                desc.multisampled_texture()
                    .ok_or("a multisampled srv needs a format")??,
            );
            let view = texture.view();
            textures.push(texture);
            return Ok(view);
        }
    };
    let format = desc.format.ok_or("a typed srv needs a format")?;
    let bpt = format.bytes_per_texel();
    let (height, layers) = match kind {
        TextureKind::Buffer | TextureKind::Texture1D => (1, 1),
        TextureKind::Texture1DArray => (1, desc.array_size.max(1)),
        TextureKind::Texture2D => (desc.height.max(1), 1),
        TextureKind::Texture2DArray => (desc.height.max(1), desc.array_size.max(1)),
        TextureKind::Texture3D => (desc.height.max(1), desc.depth.max(1)),
        _ => (desc.height.max(1), 6 * desc.array_size.max(1)),
    };
    let width = desc
        .width
        .unwrap_or(((desc.data.len() as u32 * 4) / bpt / height.max(1) / layers.max(1)).max(1));
    let mips = desc.mips.max(1);
    let mut words = desc.data.clone();
    let mut need = 0u64;
    for m in 0..mips {
        let (w, h) = ((width >> m).max(1), (height >> m).max(1));
        let d = if kind == TextureKind::Texture3D {
            (layers >> m).max(1)
        } else {
            1
        };
        need += format.image_bytes(w, h, d);
    }
    if kind != TextureKind::Texture3D {
        need *= u64::from(layers);
    }
    let need_words = need.div_ceil(4) as usize;
    if words.len() < need_words {
        words.resize(need_words, desc.fill);
    }
    let data: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take(need as usize)
        .collect();
    let texture = Box::new(
        Texture::new(kind, format, width, height, layers, mips, data).map_err(|e| e.to_string())?,
    );
    let view = texture.view();
    textures.push(texture);
    Ok(view)
}

/// The case's UAV views and counters by slot (`UAV_SLOTS` each).
pub(crate) struct UavSlots {
    views: Vec<View>,
    counters: Vec<*const AtomicU32>,
}

/// Builds a stage's constant buffers, SRVs and samplers (UAVs are shared).
fn bind_stage(shader: &Shader, desc: &StageDesc, uavs: &UavSlots) -> Result<Bound, String> {
    let mut bindings = Bindings::default();
    let mut memory = Vec::new();
    let mut textures = Vec::new();
    let mut cbs: BTreeMap<u32, Vec<u32>> =
        desc.cbs.iter().map(|c| (c.slot, c.data.clone())).collect();
    if shader.family() == Family::D3d9 {
        let file = |rows: Vec<(u32, [u32; 4])>| {
            let n = rows.iter().map(|(r, _)| r + 1).max().unwrap_or(0) as usize;
            let mut words = vec![0u32; n * 4];
            for (r, v) in rows {
                words[r as usize * 4..r as usize * 4 + 4].copy_from_slice(&v);
            }
            words
        };
        cbs.insert(0, file(desc.c.iter().map(|(r, v)| (*r, *v)).collect()));
        cbs.insert(
            1,
            file(
                desc.i
                    .iter()
                    .map(|(r, v)| (*r, v.map(|x| x as u32)))
                    .collect(),
            ),
        );
        cbs.insert(
            2,
            file(
                desc.b
                    .iter()
                    .map(|(r, v)| (*r, [u32::from(*v), 0, 0, 0]))
                    .collect(),
            ),
        );
        cbs.insert(BUMP_ENV_SLOT, bump_block(&desc.samplers).words());
    }
    for (slot, row, words) in shader.defined_constants() {
        let cb = cbs.entry(*slot).or_default();
        let at = *row as usize * 4;
        if cb.len() < at + 4 {
            cb.resize(at + 4, 0);
        }
        cb[at..at + 4].copy_from_slice(words);
    }
    let interfaces = &shader.program().interfaces;
    if !interfaces.is_empty() {
        let mut bound = vec![None; class::MAX_SLOTS as usize];
        for c in &desc.class_instances {
            let i = c.instance;
            *bound
                .get_mut(c.slot as usize)
                .ok_or_else(|| format!("interface slot {} is out of range", c.slot))? =
                Some((i.table, [i.cb, i.cb_offset, i.texture, i.sampler]));
        }
        class::check(interfaces, &bound)?;
        cbs.insert(class::CLASS_CB_SLOT, class::rows(&bound).concat());
    }
    for (&slot, words) in &cbs {
        let s = slot as usize;
        if s >= bindings.cbs.len() {
            return Err(format!("cb{slot} is out of range"));
        }
        let mut m = Memory::from_words(words, words.len() * 4, 0);
        bindings.cbs[s] = View {
            ptr: m.ptr(),
            size: (words.len() * 4) as u32,
            ..View::EMPTY
        };
        memory.push(m);
    }
    for d in &desc.srvs {
        let s = d.slot as usize;
        if s >= bindings.srvs.len() {
            return Err(format!("t{} is out of range", d.slot));
        }
        bindings.srvs[s] = srv(d, &mut memory, &mut textures)?;
    }
    for s in &desc.samplers {
        let slot = s.slot as usize;
        if slot >= bindings.samplers.len() {
            return Err(format!("s{} is out of range", s.slot));
        }
        bindings.samplers[slot] = sampler_state(s, shader.family() == Family::D3d9);
    }
    bindings.uavs[..uavs.views.len()].copy_from_slice(&uavs.views);
    bindings.uav_counters[..uavs.counters.len()].copy_from_slice(&uavs.counters);
    Ok(Bound {
        bindings,
        constants: cbs,
        _memory: memory,
        _textures: textures,
    })
}

/// Finds the program register a case names.
fn find_reg<'a>(regs: &'a [IoReg], which: &IoRef) -> Option<&'a IoReg> {
    regs.iter().find(|r| match which {
        IoRef::Reg(name) => r.name.eq_ignore_ascii_case(name),
        IoRef::Semantic { name, index } => {
            r.semantic.eq_ignore_ascii_case(name) && r.semantic_index == *index
        }
    })
}

fn vertex_inputs(
    prog: &Program,
    inputs: &[InputDesc],
    count: usize,
    regs: u32,
) -> Result<Vec<[u32; 4]>, String> {
    let mut data = vec![[0u32; 4]; count * regs as usize];
    for input in inputs {
        let reg = find_reg(&prog.inputs, &input.input)
            .ok_or_else(|| format!("the vertex shader has no input {}", input.input))?;
        for v in 0..count {
            let value = match &input.values {
                InputValues::PerVertex(list) => list.get(v).copied().unwrap_or([0; 4]),
                InputValues::Corners(c) => c.get(v).copied().unwrap_or([0; 4]),
                InputValues::Flat(f) => *f,
            };
            data[v * regs as usize + reg.reg as usize] = value;
        }
    }
    Ok(data)
}

fn outputs_of(prog: &Program, regs: &[[u32; 4]], no: usize, count: usize) -> Vec<VertexOutputs> {
    (0..count)
        .map(|v| VertexOutputs {
            outputs: prog
                .outputs
                .iter()
                .map(|o| VertexOutput {
                    name: o.name.clone(),
                    semantic: (!o.semantic.is_empty()).then(|| o.semantic.clone()),
                    index: o.semantic_index,
                    value: regs[v * no + o.reg as usize],
                })
                .collect(),
        })
        .collect()
}

/// A case ready to run: shaders compiled, resources built and bound.
pub struct Prepared {
    action: Ready,
    uav_memory: Vec<Memory>,
    uav_sizes: BTreeMap<u32, (usize, usize)>,
    /// The hidden counters of the UAVs that have one, by slot; boxed so the
    /// bound pointers stay valid when `Prepared` moves.
    uav_counters: BTreeMap<u32, Box<AtomicU32>>,
    /// Microseconds the backend spent compiling the case's shaders.
    pub compile_us: f64,
    /// Invocations one action runs.
    pub invocations: u64,
    /// Invocations one call of the action's shader runs (0 without an action).
    pub lanes: u32,
}

/// The shader an action runs and the constant buffers bound to it, for
/// tools that analyse the action (`dxjit bench` counts its operations).
pub struct ActionShader<'a> {
    /// The compute shader of a dispatch, the vertex shader of a vertex
    /// batch, the pixel shader of a draw.
    pub shader: &'a Shader,
    /// The words of each bound constant buffer, by slot.
    pub constants: &'a BTreeMap<u32, Vec<u32>>,
}

/// Bytes of memory an action's views and arrays cover, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BoundBytes {
    /// Shader resource views bound to the action's shader (read).
    pub srv: u64,
    /// Unordered access views (read and written).
    pub uav: u64,
    /// Render targets a draw writes.
    pub target: u64,
    /// Input registers a vertex batch reads and output registers it writes.
    pub vertex: u64,
}

impl BoundBytes {
    /// Every byte counted once.
    pub fn total(&self) -> u64 {
        self.srv + self.uav + self.target + self.vertex
    }
}

/// The action with everything it needs.
enum Ready {
    Dispatch {
        shader: Shader,
        bound: Bound,
        groups: [u32; 3],
    },
    Vertices {
        shader: Shader,
        bound: Bound,
        inputs: Vec<[u32; 4]>,
        count: u32,
        outputs: Vec<[u32; 4]>,
    },
    Draw {
        shader: Shader,
        bound: Bound,
        draw: dispatch::Draw,
        images: Vec<(TargetImage, Memory)>,
    },
    Pipeline(Box<pipeline::PipelineReady>),
    Nothing,
}

/// Compiles every shader of a case; the microseconds the backend spent.
pub fn compile_case(case: &Case, options: &CompileOptions) -> Result<f64, String> {
    let mut us = 0.0;
    for (table, desc) in case.stages() {
        us += compile_stage(table, desc, options)?.compile_us();
    }
    Ok(us)
}

/// Compiles a case's shaders and builds its resources.
pub fn prepare(case: &Case, options: &CompileOptions) -> Result<Prepared, String> {
    let mut uav_memory = Vec::new();
    let mut uav_views = UavSlots {
        views: vec![View::EMPTY; dxjit_runtime::abi::UAV_SLOTS],
        counters: vec![std::ptr::null(); dxjit_runtime::abi::UAV_SLOTS],
    };
    let mut uav_sizes = BTreeMap::new();
    let mut uav_counters = BTreeMap::new();
    for u in &case.uavs {
        let (size, mut view) = uav_bytes(u);
        let mut m = Memory::from_words(&u.data, size, u.fill);
        view.ptr = m.ptr();
        let slot = u.slot as usize;
        if slot >= uav_views.views.len() {
            return Err(format!("u{} is out of range", u.slot));
        }
        uav_views.views[slot] = view;
        if let Some(initial) = u.counter {
            let counter = Box::new(AtomicU32::new(initial));
            uav_views.counters[slot] = &*counter;
            uav_counters.insert(u.slot, counter);
        }
        uav_sizes.insert(u.slot, (uav_memory.len(), size));
        uav_memory.push(m);
    }
    let mut compile_us = 0.0;
    let (action, invocations) = match &case.action {
        Action::Dispatch { groups } => {
            let desc = case.cs.as_ref().ok_or("a dispatch needs [cs]")?;
            let shader = compile_stage("cs", desc, options)?;
            compile_us += shader.compile_us();
            let bound = bind_stage(&shader, desc, &uav_views)?;
            let per_group: u64 = shader
                .program()
                .thread_group
                .iter()
                .map(|d| u64::from(*d))
                .product();
            let n = per_group * groups.iter().map(|g| u64::from(*g)).product::<u64>();
            (
                Ready::Dispatch {
                    shader,
                    bound,
                    groups: *groups,
                },
                n,
            )
        }
        Action::Vertices { count } => {
            let desc = case.vs.as_ref().ok_or("[vertices] needs [vs]")?;
            let shader = compile_stage("vs", desc, options)?;
            compile_us += shader.compile_us();
            let bound = bind_stage(&shader, desc, &uav_views)?;
            let inputs = vertex_inputs(
                shader.program(),
                &desc.inputs,
                *count as usize,
                shader.kernel().input_regs,
            )?;
            (
                Ready::Vertices {
                    shader,
                    bound,
                    inputs,
                    count: *count,
                    outputs: Vec::new(),
                },
                u64::from(*count),
            )
        }
        Action::Draw(draw) => {
            let (shader, bound, d, images, us) = prepare_draw(case, draw, options, &uav_views)?;
            compile_us += us;
            let [x0, y0, x1, y1] = d.rect;
            let n = u64::from(x1.saturating_sub(x0)) * u64::from(y1.saturating_sub(y0));
            (
                Ready::Draw {
                    shader,
                    bound,
                    draw: d,
                    images,
                },
                n,
            )
        }
        Action::Pipeline(desc) => {
            let (ready, us, n) = pipeline::PipelineReady::prepare(case, desc, options, &uav_views)?;
            compile_us += us;
            (Ready::Pipeline(Box::new(ready)), n)
        }
        Action::None => {
            compile_us += compile_case(case, options)?;
            (Ready::Nothing, 0)
        }
    };
    let lanes = match &action {
        Ready::Dispatch { shader, .. }
        | Ready::Vertices { shader, .. }
        | Ready::Draw { shader, .. } => shader.kernel().lanes,
        Ready::Pipeline(p) => p.shader().0.kernel().lanes,
        Ready::Nothing => 0,
    };
    Ok(Prepared {
        action,
        uav_memory,
        uav_sizes,
        uav_counters,
        compile_us,
        invocations,
        lanes,
    })
}

impl Prepared {
    /// Performs the case's action once.
    pub fn act(&mut self) {
        match &mut self.action {
            Ready::Dispatch {
                shader,
                bound,
                groups,
            } => {
                // SAFETY: `bound` owns every view's memory (and the
                // textures they point to) and lives in `self` across the
                // call; the kernel is `shader`'s, also owned by `self`.
                unsafe { dispatch::dispatch(&shader.kernel(), &bound.bindings, *groups) }
            }
            Ready::Vertices {
                shader,
                bound,
                inputs,
                count,
                outputs,
            } => {
                // SAFETY: as for the dispatch above; `inputs` was built
                // with `count` vertices of the shader's input registers.
                *outputs = unsafe {
                    dispatch::run_vertices(&shader.kernel(), &bound.bindings, inputs, *count)
                };
            }
            Ready::Draw {
                shader,
                bound,
                draw,
                ..
            } => {
                // SAFETY: as for the dispatch above; the draw's targets
                // point into images `self` owns, sized for their rows.
                unsafe { dispatch::draw(&shader.kernel(), &bound.bindings, draw) }
            }
            Ready::Pipeline(p) => p.act(),
            Ready::Nothing => {}
        }
    }

    /// The word that stops the action when set nonzero from another thread
    /// (see `Bindings::interrupt`); `None` without an action.
    pub fn interrupt(&self) -> Option<Arc<AtomicU32>> {
        match &self.action {
            Ready::Dispatch { bound, .. }
            | Ready::Vertices { bound, .. }
            | Ready::Draw { bound, .. } => Some(bound.bindings.interrupt.clone()),
            Ready::Pipeline(p) => Some(p.interrupt()),
            Ready::Nothing => None,
        }
    }

    /// Runs the action, stopping it once it has run for `limit`; a stopped
    /// action is an error that says so.
    pub fn act_within(&mut self, limit: std::time::Duration) -> Result<(), String> {
        self.watched(limit, Prepared::act)
    }

    /// Runs `f` (which runs the action, perhaps several times), stopping
    /// the action once `f` has run for `limit`; a stopped action is an
    /// error that says so.
    pub fn watched<R>(
        &mut self,
        limit: std::time::Duration,
        f: impl FnOnce(&mut Self) -> R,
    ) -> Result<R, String> {
        let Some(word) = self.interrupt() else {
            return Ok(f(self));
        };
        let (result, stopped) = dxjit::api::within_deadline(&word, limit, || f(self));
        if stopped {
            return Err(format!(
                "interrupted: the shader ran past the {} ms time limit",
                limit.as_millis()
            ));
        }
        match self.stop_reason() {
            Some(stop) => Err(stop.to_string()),
            None => Ok(result),
        }
    }

    /// Why the action stopped early, from its interrupt word: the
    /// shader's `abort` or `debug_break`, or an interrupt.
    pub fn stop_reason(&self) -> Option<RunError> {
        let word = self.interrupt()?;
        let action = self.action_shader()?;
        dxjit::api::stop_reason(&word, action.shader)
    }

    /// The shader the action runs, with its constants; `None` without an action.
    pub fn action_shader(&self) -> Option<ActionShader<'_>> {
        let (shader, bound) = match &self.action {
            Ready::Dispatch { shader, bound, .. }
            | Ready::Vertices { shader, bound, .. }
            | Ready::Draw { shader, bound, .. } => (shader, bound),
            Ready::Pipeline(p) => p.shader(),
            Ready::Nothing => return None,
        };
        Some(ActionShader {
            shader,
            constants: &bound.constants,
        })
    }

    /// Bytes of memory bound to the action: its shader's SRVs, the UAVs,
    /// a draw's render targets, a vertex batch's input and output registers.
    pub fn bound_bytes(&self) -> BoundBytes {
        let uav = self.uav_sizes.values().map(|(_, size)| *size as u64).sum();
        let srv = |bound: &Bound| bound.bindings.srvs.iter().map(|v| u64::from(v.size)).sum();
        match &self.action {
            Ready::Dispatch { bound, .. } => BoundBytes {
                srv: srv(bound),
                uav,
                ..BoundBytes::default()
            },
            Ready::Vertices {
                shader,
                bound,
                inputs,
                count,
                ..
            } => {
                let outputs = u64::from(*count) * u64::from(shader.kernel().output_regs);
                BoundBytes {
                    srv: srv(bound),
                    uav,
                    vertex: (inputs.len() as u64 + outputs) * 16,
                    ..BoundBytes::default()
                }
            }
            Ready::Draw { bound, images, .. } => BoundBytes {
                srv: srv(bound),
                uav,
                target: images
                    .iter()
                    .map(|(i, _)| {
                        u64::from(i.width)
                            * u64::from(i.height)
                            * u64::from(i.format.bytes_per_texel())
                    })
                    .sum(),
                ..BoundBytes::default()
            },
            Ready::Pipeline(_) | Ready::Nothing => BoundBytes {
                uav,
                ..BoundBytes::default()
            },
        }
    }

    /// What the expectations look at, after [`Prepared::act`].
    pub fn outcome(&self) -> Outcome {
        let mut outcome = Outcome::default();
        for (slot, (i, size)) in &self.uav_sizes {
            outcome.uavs.insert(*slot, self.uav_memory[*i].bytes(*size));
        }
        for (slot, counter) in &self.uav_counters {
            outcome
                .uav_counters
                .insert(*slot, counter.load(Ordering::SeqCst));
        }
        match &self.action {
            Ready::Vertices {
                shader,
                outputs,
                count,
                ..
            } => {
                let no = shader.kernel().output_regs as usize;
                outcome.vertices = outputs_of(shader.program(), outputs, no, *count as usize);
            }
            Ready::Draw { images, .. } => {
                outcome.targets = images
                    .iter()
                    .map(|(image, m)| TargetImage {
                        data: m.bytes(image.byte_size()),
                        ..image.clone()
                    })
                    .collect();
            }
            Ready::Pipeline(p) => p.fill(&mut outcome),
            _ => {}
        }
        outcome
    }

    /// Why the last action failed, when it can fail (a pipeline whose
    /// declarations are refused).
    pub fn failure(&self) -> Option<String> {
        match &self.action {
            Ready::Pipeline(p) => p.failure(),
            _ => None,
        }
    }
}

/// Runs a case and returns what it produced, or why it could not run.
pub fn execute(case: &Case, options: &CompileOptions) -> Result<Outcome, String> {
    execute_watched(case, options, |_| {})
}

/// [`execute`], handing the action's interrupt word to `watch` before the
/// action starts (a watchdog sets it to stop a shader that runs too long);
/// an interrupted action is an error.
pub fn execute_watched(
    case: &Case,
    options: &CompileOptions,
    watch: impl FnOnce(Arc<AtomicU32>),
) -> Result<Outcome, String> {
    let mut prepared = prepare(case, options)?;
    let interrupt = prepared.interrupt();
    if let Some(word) = &interrupt {
        watch(word.clone());
    }
    prepared.act();
    match prepared.stop_reason() {
        Some(RunError::Interrupted) => {
            return Err("interrupted: the shader ran past its time limit".into())
        }
        Some(stop) => return Err(stop.to_string()),
        None => {}
    }
    if let Some(e) = prepared.failure() {
        return Err(e);
    }
    Ok(prepared.outcome())
}

/// [`execute`], stopping the action once it has run for `limit`; a stopped
/// action is an error that says so.
pub fn execute_within(
    case: &Case,
    options: &CompileOptions,
    limit: std::time::Duration,
) -> Result<Outcome, String> {
    let mut prepared = prepare(case, options)?;
    prepared.act_within(limit)?;
    if let Some(e) = prepared.failure() {
        return Err(e);
    }
    Ok(prepared.outcome())
}

/// What a prepared draw holds: the pixel shader, its bindings, the draw and its targets, and compile time.
type DrawParts = (
    Shader,
    Bound,
    dispatch::Draw,
    Vec<(TargetImage, Memory)>,
    f64,
);

fn prepare_draw(
    case: &Case,
    draw: &DrawDesc,
    options: &CompileOptions,
    uavs: &UavSlots,
) -> Result<DrawParts, String> {
    let desc = case.ps.as_ref().ok_or("a draw needs [ps]")?;
    let ps = compile_stage("ps", desc, options)?;
    let mut compile_us = ps.compile_us();
    let bound = bind_stage(&ps, desc, uavs)?;
    let vs = match &case.vs {
        Some(vdesc) => {
            let vs = compile_stage("vs", vdesc, options)?;
            compile_us += vs.compile_us();
            let vb = bind_stage(&vs, vdesc, uavs)?;
            let k = vs.kernel();
            let inputs = vertex_inputs(vs.program(), &vdesc.inputs, 4, k.input_regs)?;
            // SAFETY: `vb` owns its views' memory and outlives the call;
            // `inputs` holds 4 vertices of the shader's input registers.
            let out = unsafe { dispatch::run_vertices(&k, &vb.bindings, &inputs, 4) };
            Some((vs, out, k.output_regs as usize))
        }
        None => None,
    };
    let mut inputs = Vec::new();
    if let Some((vs, out, no)) = &vs {
        for input in &ps.program().inputs {
            let Some(o) = vs.program().outputs.iter().find(|o| {
                o.semantic.eq_ignore_ascii_case(&input.semantic)
                    && o.semantic_index == input.semantic_index
                    && !o.semantic.is_empty()
            }) else {
                continue;
            };
            let corners = [0, 1, 2, 3].map(|v| out[v * no + o.reg as usize]);
            inputs.push(PixelInput {
                reg: input.reg,
                corners,
            });
        }
    }
    for input in &draw.inputs {
        let reg = find_reg(&ps.program().inputs, &input.input)
            .ok_or_else(|| format!("the pixel shader has no input {}", input.input))?;
        let corners = match &input.values {
            InputValues::Corners(c) => *c,
            InputValues::Flat(f) => [*f; 4],
            InputValues::PerVertex(_) => return Err("pixel inputs take corners or flat".into()),
        };
        inputs.retain(|i: &PixelInput| i.reg != reg.reg);
        inputs.push(PixelInput {
            reg: reg.reg,
            corners,
        });
    }
    let mut images: Vec<(TargetImage, Memory)> = Vec::new();
    for (i, t) in draw.targets.iter().enumerate() {
        if !TARGET_SAMPLE_COUNTS.contains(&t.samples) {
            return Err(format!(
                "targets[{i}]: {} samples a pixel (1, 2, 4 or 8 are allowed)",
                t.samples
            ));
        }
        if t.samples != draw.targets[0].samples {
            return Err("every target of a draw has the same sample count".into());
        }
        let mut texel = vec![0u8; t.format.bytes_per_texel() as usize];
        t.format.store(draw.clear, &mut texel);
        let image = TargetImage {
            format: t.format,
            width: t.width,
            height: t.height,
            samples: t.samples,
            data: Vec::new(),
        };
        let size = image.byte_size();
        let cleared: Vec<u8> = texel.iter().copied().cycle().take(size).collect();
        images.push((
            image,
            Memory::from_words(&dxjit::shader::words(&cleared), size, 0),
        ));
    }
    let rect = match (draw.rect, draw.targets.first()) {
        (Some(r), _) => r,
        (None, Some(t)) => [0, 0, t.width, t.height],
        (None, None) => return Err("a draw without targets needs a rect".into()),
    };
    let pixel_center = draw.pixel_center.unwrap_or(if ps.family() == Family::D3d9 {
        0.0
    } else {
        0.5
    });
    let mut targets = Vec::new();
    for (i, (image, m)) in images.iter_mut().enumerate() {
        let reg = match &draw.targets[i].output {
            Some(name) => Some(
                find_reg(&ps.program().outputs, &IoRef::Reg(name.clone()))
                    .ok_or_else(|| format!("the pixel shader has no output {name}"))?
                    .reg,
            ),
            None => ps
                .program()
                .outputs
                .iter()
                .find(|o| {
                    o.semantic.eq_ignore_ascii_case("SV_TARGET") && o.semantic_index == i as u32
                })
                .map(|o| o.reg),
        };
        let Some(output_reg) = reg else { continue };
        targets.push(RenderTarget {
            ptr: m.ptr(),
            width: image.width,
            height: image.height,
            row_pitch: image.width * image.samples * image.format.bytes_per_texel(),
            format: image.format,
            output_reg,
            samples: image.samples,
        });
    }
    let d = dispatch::Draw {
        rect,
        pixel_center,
        inputs,
        targets,
        shading: ps.sample_shading(),
        sample_mask: draw.sample_mask,
    };
    Ok((ps, bound, d, images, compile_us))
}
