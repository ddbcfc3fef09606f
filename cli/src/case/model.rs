//! The model of a parsed case: shaders, resources, the action and the
//! expectations, with every value already converted to memory words.

use std::collections::BTreeMap;
use std::path::PathBuf;

use dxjit_runtime::format::Format;
use dxjit_runtime::pipeline::Topology;
use dxjit_runtime::sampler::{Address, Compare, Filter, MagFilter, MipFilter, Reduction};

use super::value::Value;
use dxjit::d3d9::bump::BumpEnv;

/// One parsed case file.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// `name`, or the file stem when the case gives none.
    pub name: String,
    /// `source`: where the expected values come from.
    pub source: Option<String>,
    /// The case file (what a shader `file` is relative to).
    pub path: PathBuf,
    /// `[cs]`; never together with `vs`/`ps`.
    pub cs: Option<StageDesc>,
    /// `[vs]`.
    pub vs: Option<StageDesc>,
    /// `[ps]`.
    pub ps: Option<StageDesc>,
    /// `[gs]` (with `[pipeline]`).
    pub gs: Option<StageDesc>,
    /// `[hs]` (with `[pipeline]`).
    pub hs: Option<StageDesc>,
    /// `[ds]` (with `[pipeline]`).
    pub ds: Option<StageDesc>,
    /// `[[stream_output]]`, in file order (slots are unique).
    pub stream_outputs: Vec<StreamOutputDesc>,
    /// `[[uav]]`, shared by all stages, in file order (slots are unique).
    pub uavs: Vec<UavDesc>,
    /// What to run.
    pub action: Action,
    /// `[[expect]]`, in file order; never empty.
    pub expects: Vec<Expect>,
}

impl Case {
    /// The UAV bound at `slot`.
    pub fn uav(&self, slot: u32) -> Option<&UavDesc> {
        self.uavs.iter().find(|u| u.slot == slot)
    }

    /// True when every expectation is `rejected`: the case only checks that
    /// the bytecode is refused.
    pub fn expects_rejection(&self) -> bool {
        self.expects
            .iter()
            .all(|e| matches!(e, Expect::Rejected { .. }))
    }

    /// The shader stages present, as (table name, stage), in the order
    /// cs, vs, hs, ds, gs, ps.
    pub fn stages(&self) -> impl Iterator<Item = (&'static str, &StageDesc)> {
        [
            ("cs", &self.cs),
            ("vs", &self.vs),
            ("hs", &self.hs),
            ("ds", &self.ds),
            ("gs", &self.gs),
            ("ps", &self.ps),
        ]
        .into_iter()
        .filter_map(|(n, s)| s.as_ref().map(|s| (n, s)))
    }
}

/// A shader's code as the case gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShaderCode {
    /// `asm`: text in the project's assembler syntax.
    Asm(String),
    /// `dwords`, `hex` or `file`: the bytecode bytes (dwords little-endian).
    Bytes(Vec<u8>),
}

/// One shader table (`[cs]`, `[vs]`, `[ps]`) and the resources bound to it.
#[derive(Debug, Clone, PartialEq)]
pub struct StageDesc {
    /// The shader.
    pub code: ShaderCode,
    /// `[[S.cb]]`: SM4/5 constant buffers.
    pub cbs: Vec<CbDesc>,
    /// `[S.c]`: D3D9 float constants, register → four words.
    pub c: BTreeMap<u32, [u32; 4]>,
    /// `[S.i]`: D3D9 integer constants, register → four integers.
    pub i: BTreeMap<u32, [i32; 4]>,
    /// `[S.b]`: D3D9 boolean constants.
    pub b: BTreeMap<u32, bool>,
    /// `[[S.srv]]`: shader resource views (D3D9: the texture of s#).
    pub srvs: Vec<SrvDesc>,
    /// `[[S.sampler]]`.
    pub samplers: Vec<SamplerDesc>,
    /// `[[S.input]]`: per-vertex inputs (vertex shaders).
    pub inputs: Vec<InputDesc>,
    /// `[[S.class_instance]]`: SM5 class instances by interface slot.
    pub class_instances: Vec<ClassInstanceDesc>,
}

/// `[[S.class_instance]]`: the class instance bound to interface slot
/// `slot` (`fp#` numbering), as [`dxjit::ClassInstance`] describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassInstanceDesc {
    /// The interface slot.
    pub slot: u32,
    /// The instance's class, as its function table and `this` data.
    pub instance: dxjit::ClassInstance,
}

/// `[[S.cb]]`: the contents of constant buffer `cb<slot>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbDesc {
    /// The register slot.
    pub slot: u32,
    /// The buffer's words, from byte 0.
    pub data: Vec<u32>,
}

/// The type of a shader resource view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SrvKind {
    /// `raw`: a byte-address buffer.
    Raw,
    /// `structured` with its stride in bytes.
    Structured {
        /// Bytes per element.
        stride: u32,
    },
    /// `buffer`: a typed buffer.
    Buffer,
    /// `texture1d`.
    Texture1d,
    /// `texture1darray`.
    Texture1dArray,
    /// `texture2d`.
    Texture2d,
    /// `texture2darray`.
    Texture2dArray,
    /// `texture3d`.
    Texture3d,
    /// `texturecube` (six faces).
    TextureCube,
    /// `texturecubearray` (six faces per cube).
    TextureCubeArray,
    /// `texture2dms`: one mip, `samples` samples a texel.
    Texture2dMs,
    /// `texture2dmsarray`.
    Texture2dMsArray,
}

impl SrvKind {
    /// True for the typed kinds, which have a format (all but raw and
    /// structured).
    pub fn is_typed(self) -> bool {
        !matches!(self, SrvKind::Raw | SrvKind::Structured { .. })
    }
}

/// `[[S.srv]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SrvDesc {
    /// `t<slot>` (D3D9: the texture sampled through `s<slot>`).
    pub slot: u32,
    /// The view type.
    pub kind: SrvKind,
    /// The texel format; `Some` exactly when `kind.is_typed()`.
    pub format: Option<Format>,
    /// `size`: bytes of a raw/structured buffer, if given
    /// (see [`SrvDesc::byte_size`]).
    pub size: Option<u32>,
    /// `width` as given (see [`SrvDesc::width`] for the default).
    pub width: Option<u32>,
    /// `height` (default 1).
    pub height: u32,
    /// `depth` of a 3D texture (default 1).
    pub depth: u32,
    /// `array_size` of a texture array (default 1).
    pub array_size: u32,
    /// `mips` (default 1).
    pub mips: u32,
    /// `samples` (or `sample_count`) of a multisampled texture (default 1).
    pub samples: u32,
    /// Initial contents: memory words from byte 0.
    pub data: Vec<u32>,
    /// The word filling what `data` does not cover (default 0).
    pub fill: u32,
}

/// `[[S.sampler]]`. Defaults: point filter, no mips, wrap, border 0, no
/// comparison, no bias, levels of detail 0..f32::MAX, anisotropy 1,
/// standard reduction, bump-environment state 0.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerDesc {
    /// `s<slot>`.
    pub slot: u32,
    /// `min_filter`, else `filter`: the minification filter.
    pub filter: Filter,
    /// `mag_filter`, else `filter` ([`MagFilter::AsMin`]).
    pub mag_filter: MagFilter,
    /// `max_anisotropy` (D3D9 `MAXANISOTROPY`), 1 to 16.
    pub max_anisotropy: u32,
    /// `mip_lod_bias` (D3D9 `MIPMAPLODBIAS`).
    pub lod_bias: f32,
    /// `min_lod`, or D3D9's `max_mip_level` (`MAXMIPLEVEL`).
    pub min_lod: f32,
    /// `max_lod`.
    pub max_lod: f32,
    /// `reduction`.
    pub reduction: Reduction,
    /// `srgb` (D3D9 `SRGBTEXTURE`): texels' r, g, b decoded from sRGB.
    pub srgb: bool,
    /// `mip_filter`.
    pub mip_filter: MipFilter,
    /// `address` per u, v, w; a shorter list repeats its last entry.
    pub address: [Address; 3],
    /// `border` colour (r, g, b, a).
    pub border: [f32; 4],
    /// `compare`; [`Compare::None`] when not a comparison sampler.
    pub compare: Compare,
    /// D3D9 only, a dxjit extension: the texture stage's bump-environment
    /// state, `bump_matrix = [m00, m01, m10, m11]`, `bump_lum_scale`,
    /// `bump_lum_offset`.
    pub bump: BumpEnv,
}

impl Default for SamplerDesc {
    fn default() -> Self {
        SamplerDesc {
            slot: 0,
            filter: Filter::Point,
            mag_filter: MagFilter::AsMin,
            max_anisotropy: 1,
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: f32::MAX,
            reduction: Reduction::Standard,
            srgb: false,
            mip_filter: MipFilter::None,
            address: [Address::Wrap; 3],
            border: [0.0; 4],
            compare: Compare::None,
            bump: BumpEnv::default(),
        }
    }
}

/// A shader input or output named by register or by semantic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IoRef {
    /// `reg`: a register name as written (`v0`, `t1`, `o1`, `oPos`, `oD0`).
    Reg(String),
    /// `semantic` + `index` (index default 0).
    Semantic {
        /// The semantic name as written (`TEXCOORD`).
        name: String,
        /// The semantic index.
        index: u32,
    },
}

impl std::fmt::Display for IoRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IoRef::Reg(r) => f.write_str(r),
            IoRef::Semantic { name, index } => write!(f, "{name}{index}"),
        }
    }
}

/// Where an input's values come from. Every vector is four memory words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputValues {
    /// `corners`: top-left, top-right, bottom-left, bottom-right.
    Corners([[u32; 4]; 4]),
    /// `flat`: the same value everywhere.
    Flat([u32; 4]),
    /// `data`: one vector per vertex (`[vertices]` cases).
    PerVertex(Vec<[u32; 4]>),
}

/// `[[vs.input]]`, `[[ps.input]]` or `[[draw.input]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputDesc {
    /// The input register or semantic.
    pub input: IoRef,
    /// Its values.
    pub values: InputValues,
}

/// The type of an unordered access view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UavKind {
    /// `raw`.
    Raw,
    /// `structured` with its stride in bytes.
    Structured {
        /// Bytes per element.
        stride: u32,
    },
    /// `typed` with its format and dimension.
    Typed {
        /// The element format.
        format: Format,
        /// `dimension`.
        dimension: UavDimension,
    },
}

/// `dimension` of a typed UAV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UavDimension {
    /// `buffer`.
    Buffer,
    /// `texture1d`.
    Texture1d,
    /// `texture2d`.
    Texture2d,
    /// `texture3d`.
    Texture3d,
}

/// `[[uav]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UavDesc {
    /// `u<slot>`.
    pub slot: u32,
    /// The view type.
    pub kind: UavKind,
    /// `size` as given: bytes for raw/structured, elements or width for
    /// typed (see [`UavDesc::byte_size`] and [`UavDesc::width`]).
    pub size: Option<u32>,
    /// `height` of typed textures (default 1).
    pub height: u32,
    /// `depth` of typed 3D textures (default 1).
    pub depth: u32,
    /// Initial contents: memory words from byte 0.
    pub data: Vec<u32>,
    /// The word filling what `data` does not cover (default 0).
    pub fill: u32,
    /// Structured UAVs: the hidden counter's initial value, when the view
    /// has one (`counter = N`); `None` leaves the counter unbound.
    pub counter: Option<u32>,
}

/// One render target of `[draw]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetDesc {
    /// Texel format.
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// A dxjit extension: `output`, the pixel-shader output register the
    /// target takes (e.g. `oDepth`) instead of colour output n for target n.
    pub output: Option<String>,
    /// `sample_count` (or `samples`): samples a pixel, default 1. A count a
    /// render target cannot have is refused when the draw is prepared.
    pub samples: u32,
}

/// `[draw]`.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawDesc {
    /// Render targets o0/oC0... in order; may be empty (then `rect` is set).
    pub targets: Vec<TargetDesc>,
    /// `clear`: four words as a shader would write them (default zeros).
    pub clear: [u32; 4],
    /// `rect` as given (see [`DrawDesc::rect`] for the default).
    pub rect: Option<[u32; 4]>,
    /// `pixel_center` (0.5 or 0.0) as given; `None` means by shader model.
    pub pixel_center: Option<f32>,
    /// `[[draw.input]]`: pixel-shader inputs given directly.
    pub inputs: Vec<InputDesc>,
    /// `sample_mask`: the blend state's sample mask (default all ones).
    pub sample_mask: u32,
}

/// The one action of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `[dispatch]` of `[cs]`.
    Dispatch {
        /// Thread groups along x, y, z.
        groups: [u32; 3],
    },
    /// `[draw]` of `[ps]` (with an optional `[vs]`).
    Draw(DrawDesc),
    /// `[vertices]`: `[vs]` alone on `count` vertices.
    Vertices {
        /// Number of vertices.
        count: u32,
    },
    /// `[pipeline]`: vs, then optionally hs and ds, then optionally gs, then stream output.
    Pipeline(PipelineDesc),
    /// No action: allowed only when every expectation is `rejected`.
    None,
}

/// `[pipeline]`: what the draw reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineDesc {
    /// `topology`.
    pub topology: Topology,
    /// `vertex_count`: vertices (or indices) drawn.
    pub vertex_count: u32,
    /// `indices`, 32-bit.
    pub indices: Option<Vec<u32>>,
    /// `instance_count` (default 1).
    pub instance_count: u32,
    /// `[[pipeline.redraw]]`: later draws, in order.
    pub redraws: Vec<RedrawDesc>,
}

/// `[[pipeline.redraw]]`: a later draw into the stream-output buffers,
/// which stay bound unless `offsets` binds them again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedrawDesc {
    /// `vertex_count` (default: the first draw's).
    pub vertex_count: u32,
    /// `instance_count` (default: the first draw's).
    pub instance_count: u32,
    /// `offsets`: bind the buffers again first, one offset per
    /// `[[stream_output]]` in order; `None` for -1 (append).
    pub offsets: Option<Vec<Option<u32>>>,
    /// `[[pipeline.redraw.cb]]`: stage (`vs`, `hs`, `ds`, `gs`) and the new
    /// contents of one of its constant buffers, for this draw and later ones.
    pub cbs: Vec<(String, CbDesc)>,
}

/// `[[stream_output]]`: one stream-output buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutputDesc {
    /// `slot`, 0 to 3.
    pub slot: u32,
    /// `stream` (default 0).
    pub stream: u32,
    /// `stride` in bytes.
    pub stride: u32,
    /// `size` in bytes.
    pub size: u32,
    /// `fill`: the word the buffer starts as (default 0).
    pub fill: u32,
    /// `elements`: `SEMANTIC<index>.<mask>` each.
    pub elements: Vec<String>,
    /// `offset`: where the first draw starts writing; `None` for -1
    /// (append at `filled_size`). Default 0.
    pub offset: Option<u32>,
    /// `filled_size`: the buffer's filled size before the first draw.
    pub filled_size: u32,
}

/// Allowed difference for float elements of an expectation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tolerance {
    /// `abs`: largest absolute difference (default 0).
    pub abs: f64,
    /// `ulp`: largest distance in units in the last place of f32 (default 0).
    pub ulp: u32,
}

/// The pixels a target expectation covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// `pixel = [x, y]`.
    Pixel([u32; 2]),
    /// `rect = [x0, y0, x1, y1]`, x1/y1 exclusive.
    Rect([u32; 4]),
}

/// One `[[expect]]`.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// A UAV's contents from `offset`.
    Uav {
        /// The UAV slot (bound by the case).
        slot: u32,
        /// Byte offset, a multiple of 4.
        offset: u32,
        /// Expected elements, one word each.
        data: Vec<Value>,
        /// Tolerance of float elements.
        tolerance: Tolerance,
    },
    /// The final value of a UAV's hidden counter.
    UavCounter {
        /// The UAV slot (bound by the case with a `counter`).
        slot: u32,
        /// The expected word.
        value: Value,
    },
    /// Pixels of a render target.
    Target {
        /// Target index (default 0).
        target: u32,
        /// The pixel or rectangle.
        area: Area,
        /// `sample`: the one sample of each pixel compared; `None` compares
        /// every sample of a multisampled target.
        sample: Option<u32>,
        /// One element per component of the target's format, r, g, b, a.
        value: Vec<Value>,
        /// Tolerance of float elements.
        tolerance: Tolerance,
    },
    /// A vertex shader output of one vertex.
    Vertex {
        /// Vertex number.
        vertex: u32,
        /// The output register or semantic.
        output: IoRef,
        /// The four components as the shader wrote them.
        value: [Value; 4],
        /// Tolerance of float elements.
        tolerance: Tolerance,
    },
    /// A stream-output buffer's contents from `offset`.
    StreamOutput {
        /// The buffer's slot.
        slot: u32,
        /// Byte offset, a multiple of 4.
        offset: u32,
        /// Expected elements, one word each.
        data: Vec<Value>,
        /// Tolerance of float elements.
        tolerance: Tolerance,
        /// `unordered`: compare whole vertices (`stride` bytes each) as a
        /// multiset; `None` for an ordered comparison.
        unordered_stride: Option<u32>,
    },
    /// `stream_output_filled = slot`: a stream-output buffer's filled size
    /// after the last draw.
    StreamOutputFilled {
        /// The stream-output slot.
        slot: u32,
        /// The expected filled size in bytes.
        value: u32,
    },
    /// Primitive counts of a stream.
    StreamCounts {
        /// The stream.
        stream: u32,
        /// `primitives_written`.
        written: Option<u64>,
        /// `primitives_needed`.
        needed: Option<u64>,
    },
    /// The bytecode must be refused with an error.
    Rejected {
        /// Text the error message must contain.
        message_contains: Option<String>,
    },
}
