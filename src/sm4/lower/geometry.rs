//! Geometry shaders: their declarations (input primitive, output
//! topologies, `dcl_maxout`, instances, streams), 2D-indexed inputs
//! `v[vertex][reg]`, and `emit`/`cut` with their `_stream` forms.

use super::rel_index::Axis;
use super::Lowerer;
use crate::dxbc::Container;
use crate::ir::{File, GeometryInfo, Index, Inst, OutputElement, Src, Stage};
use crate::sm4::decode::{Instruction, Operand};
use crate::sm4::fields::DECLARATION_VALUE;
use crate::sm4::names::{Primitive, PrimitiveTopology};
use crate::sm4::opcodes::Opcode as O;
use crate::sm4::registers::OperandType;
use crate::sm4::Sm4Error;
use dxjit_runtime::pipeline::{GsInput, GsOutput, MAX_STREAMS};

/// The most vertices one invocation may declare (`D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES` is 1024 scalars, so no more vertices than that).
const MAX_OUTPUT_VERTICES: u32 = 1024;
/// The most instances `dcl_gsinstances` takes (D3D11).
const MAX_INSTANCES: u32 = 32;

/// Geometry declarations seen so far.
#[derive(Debug, Default)]
pub(super) struct GsState {
    input: Option<GsInput>,
    outputs: [Option<GsOutput>; MAX_STREAMS],
    max_vertices: Option<u32>,
    instances: Option<u32>,
    /// The stream the last `dcl_stream` named.
    stream: usize,
    streams: u8,
    /// The streams each output register was declared under (bit per stream).
    output_streams: std::collections::BTreeMap<u32, u8>,
}

impl Lowerer {
    /// A geometry declaration.
    pub(super) fn gs_declaration(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        let value = ins.field(DECLARATION_VALUE);
        let word = ins.words.first().copied().unwrap_or(0);
        match ins.opcode() {
            O::DclInputPrimitive => {
                let input = match Primitive::from_code(value) {
                    Some(Primitive::Point) => GsInput::Point,
                    Some(Primitive::Line) => GsInput::Line,
                    Some(Primitive::Triangle) => GsInput::Triangle,
                    Some(Primitive::LineAdj) => GsInput::LineAdj,
                    Some(Primitive::TriangleAdj) => GsInput::TriangleAdj,
                    None => {
                        return Err(
                            self.err(format!("input primitive {value} is not one of D3D11's"))
                        )
                    }
                };
                self.gs.input = Some(input);
            }
            O::DclOutputTopology => {
                let out = match PrimitiveTopology::from_code(value) {
                    Some(PrimitiveTopology::PointList) => GsOutput::PointList,
                    Some(PrimitiveTopology::LineStrip) => GsOutput::LineStrip,
                    Some(PrimitiveTopology::TriangleStrip) => GsOutput::TriangleStrip,
                    _ => {
                        return Err(self.err(format!(
                            "output topology {value}: a geometry shader emits point lists, line strips or triangle strips"
                        )))
                    }
                };
                self.gs.outputs[self.gs.stream] = Some(out);
            }
            O::DclVerticesOut => {
                if word > MAX_OUTPUT_VERTICES {
                    return Err(self.err(format!(
                        "dcl_maxout {word}: at most {MAX_OUTPUT_VERTICES} vertices"
                    )));
                }
                self.gs.max_vertices = Some(word);
            }
            O::DclGsInstances => {
                if !(1..=MAX_INSTANCES).contains(&word) {
                    return Err(self.err(format!(
                        "dcl_gsinstances {word}: D3D11 takes 1 to {MAX_INSTANCES}"
                    )));
                }
                self.gs.instances = Some(word);
            }
            O::DclStream => {
                let s = self.stream_of(self.operand(ins, 0)?)?;
                self.gs.stream = s;
                self.gs.streams |= 1 << s;
            }
            _ => return Err(self.err("not a geometry declaration")),
        }
        Ok(())
    }

    /// Notes that output register `reg` is declared under the current stream.
    pub(super) fn gs_output_declared(&mut self, reg: u32) {
        *self.gs.output_streams.entry(reg).or_default() |= 1 << self.gs.stream;
    }

    /// The stream of a signature element: its own (OSG5), or, in a
    /// signature without streams (OSGN, as the assembler derives it), the
    /// one stream its register was declared under.
    fn element_stream(&self, stream: u32, reg: u32) -> u32 {
        match self.gs.output_streams.get(&reg) {
            Some(bits) if stream == 0 && bits.count_ones() == 1 => bits.trailing_zeros(),
            _ => stream,
        }
    }

    /// The stream an `m#` operand names.
    fn stream_of(&self, op: &Operand) -> Result<usize, Sm4Error> {
        if !op.is(OperandType::Stream) {
            return Err(self.err("the operand is not a stream m#"));
        }
        let s = self.index(op.indices.first())?.base as usize;
        if s >= MAX_STREAMS {
            return Err(self.err(format!("stream m{s}: D3D11 has m0 to m3")));
        }
        Ok(s)
    }

    /// `emit`, `cut`, `emit_then_cut` and their `_stream` forms.
    pub(super) fn gs_emit(&mut self, ins: &Instruction) -> Result<(), Sm4Error> {
        if self.prog.stage != Stage::Geometry {
            return Err(self.err("emit and cut belong to geometry shaders"));
        }
        let (emit, cut, streamed) = match ins.opcode() {
            O::Emit => (true, false, false),
            O::Cut => (false, true, false),
            O::EmitThenCut => (true, true, false),
            O::EmitStream => (true, false, true),
            O::CutStream => (false, true, true),
            _ => (true, true, true),
        };
        let stream = if streamed {
            self.stream_of(self.operand(ins, 0)?)?
        } else {
            0
        };
        let declared = if self.gs.streams == 0 {
            1
        } else {
            self.gs.streams
        };
        if declared & (1 << stream) == 0 {
            return Err(self.err(format!("stream m{stream} is not declared by dcl_stream")));
        }
        if self.gs.outputs[stream].is_none() {
            return Err(self.err(format!(
                "stream {stream} is emitted to but has no dcl_outputtopology"
            )));
        }
        let stream = stream as u8;
        if emit {
            self.emit(Inst::Emit { stream });
        }
        if cut {
            self.emit(Inst::Cut { stream });
        }
        Ok(())
    }

    /// A `v[vertex][reg]` source: register `reg * vertices + vertex` of
    /// the input block. Relative indices on either axis (`v[r0.x][1]`,
    /// `v[0][r1.x + 2]`) are bounded per axis (see `rel_index`).
    pub(super) fn gs_input(&self, op: &Operand) -> Result<Index, Sm4Error> {
        let vertex = self.index(op.indices.first())?;
        let reg = self.index(op.indices.get(1))?;
        let vertices = self.gs.input.map_or(0, GsInput::vertices) as u32;
        if vertex.rel.is_some() || reg.rel.is_some() {
            let vertex = Axis {
                index: &vertex,
                count: vertices,
            };
            let reg = Axis {
                index: &reg,
                count: self.gs_stride(),
            };
            let row = self.flat_rel_row(vertex, reg, vertices);
            return Ok(Index {
                base: 0,
                rel: Some(Box::new(row)),
            });
        }
        if vertex.base >= vertices {
            return Err(self.err(format!(
                "v[{}]: the input primitive has {vertices} vertices",
                vertex.base
            )));
        }
        Ok(Index::fixed(reg.base * vertices + vertex.base))
    }

    /// Input registers per vertex: past the highest declared one.
    fn gs_stride(&self) -> u32 {
        self.inputs.keys().next_back().map_or(0, |r| r + 1)
    }

    /// Reads `v[vertex][reg]` as an IR source with the operand's swizzle.
    pub(super) fn gs_input_src(&self, op: &Operand, swizzle: [u8; 4]) -> Result<Src, Sm4Error> {
        Ok(Src {
            index: self.gs_input(op)?,
            ..Src::reg(File::Input, 0).swizzled(swizzle)
        })
    }

    /// The program's geometry declarations, checked for completeness.
    pub(super) fn gs_info(&self, container: &Container) -> Result<GeometryInfo, Sm4Error> {
        let input = self
            .gs
            .input
            .ok_or_else(|| self.err("geometry shader without dcl_inputprimitive"))?;
        let max_vertices = self
            .gs
            .max_vertices
            .ok_or_else(|| self.err("geometry shader without dcl_maxout"))?;
        let signature = container
            .outputs()
            .iter()
            .map(|e| OutputElement {
                semantic: e.semantic.to_uppercase(),
                semantic_index: e.semantic_index,
                stream: self.element_stream(e.stream, e.register),
                reg: e.register,
                mask: e.mask,
            })
            .collect();
        Ok(GeometryInfo {
            input,
            input_stride: self.gs_stride(),
            max_vertices,
            instances: self.gs.instances.unwrap_or(1),
            outputs: self.gs.outputs.map(|o| o.unwrap_or(GsOutput::PointList)),
            streams: if self.gs.streams == 0 {
                1
            } else {
                self.gs.streams
            },
            signature,
        })
    }
}
