//! What a geometry shader declares beyond its registers: the input
//! primitive, output topologies, the vertex limit, instances, and its
//! output signature with streams.

use super::Program;
use dxjit_runtime::pipeline::{GsInput, GsOutput, MAX_STREAMS};

/// One element of a geometry shader's output signature (OSGN / OSG5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputElement {
    /// The semantic name in upper case.
    pub semantic: String,
    /// The semantic index.
    pub semantic_index: u32,
    /// The stream it belongs to.
    pub stream: u32,
    /// The output register.
    pub reg: u32,
    /// Components it occupies.
    pub mask: u8,
}

/// A geometry shader's declarations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeometryInfo {
    /// `dcl_inputprimitive`.
    pub input: GsInput,
    /// Input registers per vertex: `v[n][r]` lies in register
    /// `r * vertices + n` of the input block (vertices of the input primitive).
    pub input_stride: u32,
    /// `dcl_maxout`.
    pub max_vertices: u32,
    /// `dcl_gsinstances` (1 without it).
    pub instances: u32,
    /// `dcl_outputtopology` of each stream (point list where undeclared).
    pub outputs: [GsOutput; MAX_STREAMS],
    /// Streams declared by `dcl_stream` (bit `s`); stream 0 without any.
    pub streams: u8,
    /// The output signature, with streams.
    pub signature: Vec<OutputElement>,
}

impl Program {
    /// Registers in the input block compiled code reads: for a geometry
    /// shader every vertex's registers, else the highest declared input + 1.
    pub fn input_block_regs(&self) -> u32 {
        match &self.geometry {
            Some(g) => g.input_stride.saturating_mul(g.input.vertices() as u32),
            None => self
                .inputs
                .iter()
                .map(|r| r.reg.saturating_add(1))
                .max()
                .unwrap_or(0),
        }
    }
}
