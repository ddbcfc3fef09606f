//! What running a case produced: the input of [`check`](super::check).

use std::collections::BTreeMap;

use dxjit_runtime::format::Format;

use super::model::IoRef;
use super::texel;

/// The results of running a case's action.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Final contents of every UAV, by slot.
    pub uavs: BTreeMap<u32, Vec<u8>>,
    /// Final values of the UAV counters the case binds, by slot.
    pub uav_counters: BTreeMap<u32, u32>,
    /// Final render targets, in `draw.targets` order.
    pub targets: Vec<TargetImage>,
    /// Outputs of each vertex the vertex shader ran on, in vertex order
    /// (the four corners, top-left first, for a draw with `[vs]`).
    pub vertices: Vec<VertexOutputs>,
    /// Final contents of every stream-output buffer, by slot.
    pub stream_outputs: BTreeMap<u32, Vec<u8>>,
    /// Primitives each stream wrote to its buffers (`[pipeline]` cases).
    pub primitives_written: [u64; 4],
    /// Primitives each stream produced (`[pipeline]` cases).
    pub primitives_needed: [u64; 4],
    /// Filled size of every stream-output buffer after the last draw, by slot.
    pub stream_output_filled: BTreeMap<u32, u32>,
}

/// A render target's memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetImage {
    /// Texel format.
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Samples a pixel.
    pub samples: u32,
    /// Rows top to bottom, tightly packed, `bytes_per_texel` per sample,
    /// a pixel's samples one after the other.
    pub data: Vec<u8>,
}

impl TargetImage {
    /// The four words a shader would read from sample `s` of pixel (x, y);
    /// `None` outside the image or past the end of `data`.
    pub fn sample(&self, x: u32, y: u32, s: u32) -> Option<[u32; 4]> {
        if x >= self.width || y >= self.height || s >= self.samples {
            return None;
        }
        let size = texel::texel_size(self.format) as usize;
        let pixel = y as usize * self.width as usize + x as usize;
        let at = (pixel * self.samples as usize + s as usize) * size;
        texel::decode(self.format, self.data.get(at..)?)
    }

    /// Bytes of the image: every sample of every pixel.
    pub fn byte_size(&self) -> usize {
        self.width as usize
            * self.height as usize
            * self.samples as usize
            * self.format.bytes_per_texel() as usize
    }
}

/// The outputs one vertex shader invocation wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VertexOutputs {
    /// Every output written.
    pub outputs: Vec<VertexOutput>,
}

impl VertexOutputs {
    /// The output an expectation names: a register name compares without
    /// regard to ASCII case (`oPos` = `opos`); a semantic by name (ASCII
    /// case-insensitive) and index.
    pub fn find(&self, which: &IoRef) -> Option<&VertexOutput> {
        self.outputs.iter().find(|o| match which {
            IoRef::Reg(r) => o.name.eq_ignore_ascii_case(r),
            IoRef::Semantic { name, index } => {
                o.index == *index
                    && o.semantic
                        .as_deref()
                        .is_some_and(|s| s.eq_ignore_ascii_case(name))
            }
        })
    }
}

/// One output register of a vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexOutput {
    /// The register as the shader names it: `o1`, `oPos`, `oD0`, `oT2`.
    pub name: String,
    /// Its semantic or D3D9 usage (`COLOR`, `POSITION`, `SV_Position`), if
    /// known.
    pub semantic: Option<String>,
    /// The semantic / usage index.
    pub index: u32,
    /// The four words as the shader wrote them.
    pub value: [u32; 4],
}
