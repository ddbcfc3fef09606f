//! The TOML shape of a format-1 case file, read with serde before the
//! rules of the spec are checked. Unknown keys are refused here.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::value::Num;

/// The top level of a case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCase {
    pub format: Option<i64>,
    pub name: Option<String>,
    pub source: Option<String>,
    pub cs: Option<RawStage>,
    pub vs: Option<RawStage>,
    pub ps: Option<RawStage>,
    pub gs: Option<RawStage>,
    pub hs: Option<RawStage>,
    pub ds: Option<RawStage>,
    #[serde(default)]
    pub uav: Vec<RawUav>,
    pub dispatch: Option<RawDispatch>,
    pub draw: Option<RawDraw>,
    pub vertices: Option<RawVertices>,
    pub pipeline: Option<RawPipeline>,
    #[serde(default)]
    pub stream_output: Vec<RawStreamOutput>,
    #[serde(default)]
    pub expect: Vec<RawExpect>,
}

/// `[cs]`, `[vs]` or `[ps]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStage {
    pub asm: Option<String>,
    pub dwords: Option<Vec<u32>>,
    pub hex: Option<String>,
    pub file: Option<String>,
    #[serde(default)]
    pub cb: Vec<RawCb>,
    #[serde(default)]
    pub c: BTreeMap<String, Vec<Num>>,
    #[serde(default)]
    pub i: BTreeMap<String, Vec<Num>>,
    #[serde(default)]
    pub b: BTreeMap<String, bool>,
    #[serde(default)]
    pub srv: Vec<RawSrv>,
    #[serde(default)]
    pub sampler: Vec<RawSampler>,
    #[serde(default)]
    pub input: Vec<RawInput>,
    #[serde(default)]
    pub class_instance: Vec<RawClassInstance>,
}

/// `[[S.class_instance]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawClassInstance {
    pub slot: u32,
    pub table: u32,
    #[serde(default)]
    pub cb: u32,
    #[serde(default)]
    pub cb_offset: u32,
    #[serde(default)]
    pub texture: u32,
    #[serde(default)]
    pub sampler: u32,
}

/// `[[S.cb]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCb {
    pub slot: u32,
    #[serde(default)]
    pub data: Vec<Num>,
}

/// `[[S.srv]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSrv {
    pub slot: u32,
    #[serde(rename = "type")]
    pub kind: String,
    pub format: Option<String>,
    pub stride: Option<u32>,
    pub size: Option<u32>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub depth: Option<u32>,
    pub array_size: Option<u32>,
    pub mips: Option<u32>,
    #[serde(alias = "sample_count")]
    pub samples: Option<u32>,
    #[serde(default)]
    pub data: Vec<Num>,
    pub fill: Option<Num>,
}

/// `[[S.sampler]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSampler {
    pub slot: u32,
    pub filter: Option<String>,
    pub mip_filter: Option<String>,
    pub address: Option<Vec<String>>,
    pub border: Option<Vec<Num>>,
    pub compare: Option<String>,
    pub bump_matrix: Option<Vec<Num>>,
    pub bump_lum_scale: Option<Num>,
    pub bump_lum_offset: Option<Num>,
    pub min_filter: Option<String>,
    pub mag_filter: Option<String>,
    pub max_anisotropy: Option<u32>,
    pub mip_lod_bias: Option<Num>,
    pub min_lod: Option<Num>,
    pub max_lod: Option<Num>,
    pub max_mip_level: Option<u32>,
    pub reduction: Option<String>,
    pub srgb: Option<bool>,
}

/// `[[vs.input]]`, `[[ps.input]]` and `[[draw.input]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInput {
    pub reg: Option<String>,
    pub semantic: Option<String>,
    pub index: Option<u32>,
    pub corners: Option<Vec<Vec<Num>>>,
    pub flat: Option<Vec<Num>>,
    pub data: Option<Vec<Vec<Num>>>,
}

/// `[[uav]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawUav {
    pub slot: u32,
    #[serde(rename = "type")]
    pub kind: String,
    pub stride: Option<u32>,
    pub format: Option<String>,
    pub dimension: Option<String>,
    pub size: Option<u32>,
    pub height: Option<u32>,
    pub depth: Option<u32>,
    #[serde(default)]
    pub data: Vec<Num>,
    pub fill: Option<Num>,
    pub counter: Option<u32>,
}

/// `[dispatch]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDispatch {
    pub groups: [u32; 3],
}

/// `[draw]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDraw {
    pub targets: Vec<RawTarget>,
    pub clear: Option<Vec<Num>>,
    pub rect: Option<[u32; 4]>,
    pub pixel_center: Option<f64>,
    #[serde(default)]
    pub input: Vec<RawInput>,
    pub sample_mask: Option<u32>,
}

/// One entry of `draw.targets`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTarget {
    pub format: String,
    pub width: u32,
    pub height: u32,
    pub output: Option<String>,
    pub samples: Option<u32>,
    pub sample_count: Option<u32>,
}

/// `[vertices]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVertices {
    pub count: u32,
}

/// `[pipeline]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPipeline {
    pub topology: String,
    pub vertex_count: u32,
    pub indices: Option<Vec<u32>>,
    pub instance_count: Option<u32>,
    #[serde(default)]
    pub redraw: Vec<RawRedraw>,
}

/// `[[pipeline.redraw]]`: a later draw into the same stream-output buffers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRedraw {
    pub vertex_count: Option<u32>,
    pub instance_count: Option<u32>,
    pub offsets: Option<Vec<i64>>,
    #[serde(default)]
    pub cb: Vec<RawRedrawCb>,
}

/// `[[pipeline.redraw.cb]]`: new contents of a stage's constant buffer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRedrawCb {
    pub stage: String,
    pub slot: u32,
    #[serde(default)]
    pub data: Vec<Num>,
}

/// `[[stream_output]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStreamOutput {
    pub slot: u32,
    pub stream: Option<u32>,
    pub stride: u32,
    pub size: u32,
    pub fill: Option<Num>,
    pub elements: Vec<String>,
    pub offset: Option<i64>,
    pub filled_size: Option<u32>,
}

/// `[[expect]]`, all forms together; the form is decided when lowering.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExpect {
    pub rejected: Option<bool>,
    pub message_contains: Option<String>,
    pub uav: Option<u32>,
    pub uav_counter: Option<u32>,
    pub offset: Option<u32>,
    pub data: Option<Vec<Num>>,
    pub target: Option<u32>,
    pub pixel: Option<[u32; 2]>,
    pub rect: Option<[u32; 4]>,
    pub sample: Option<u32>,
    pub value: Option<Vec<Num>>,
    pub vertex: Option<u32>,
    pub reg: Option<String>,
    pub semantic: Option<String>,
    pub index: Option<u32>,
    pub abs: Option<f64>,
    pub ulp: Option<f64>,
    pub stream_output: Option<u32>,
    pub unordered: Option<bool>,
    pub stream: Option<u32>,
    pub primitives_written: Option<u64>,
    pub primitives_needed: Option<u64>,
    pub stream_output_filled: Option<u32>,
}
