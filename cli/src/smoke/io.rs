//! A stage's inputs and outputs: patterned per-vertex attributes, pixel
//! inputs interpolated across the draw, and a render target for every
//! pixel output.

use std::collections::BTreeMap;

use dxjit_runtime::format::Format;

use super::pattern;
use super::reflect::ElementType;
use super::resources::TEXTURE_SIZE;
use crate::case::{InputDesc, InputValues, IoRef, TargetDesc};
use dxjit::ir::{Interpolation, IoReg};

/// Vertices a vertex shader runs on.
pub const VERTICES: u32 = 64;

/// Four words of an input of type `ty`: small integers, or patterned floats
/// with a w of 1 (a position-like value).
fn vector(ty: ElementType, seed: usize) -> [u32; 4] {
    let w = match ty {
        ElementType::Float => pattern::float_words(4, seed),
        _ => pattern::int_words(4, seed),
    };
    let last = if ty == ElementType::Float {
        1.0f32.to_bits()
    } else {
        w[3]
    };
    [w[0], w[1], w[2], last]
}

/// Per-vertex values for every input register of a vertex shader.
pub fn vertex_inputs(inputs: &[IoReg], types: &BTreeMap<u32, ElementType>) -> Vec<InputDesc> {
    inputs
        .iter()
        .map(|r| {
            let ty = types.get(&r.reg).copied().unwrap_or_default();
            let values = (0..VERTICES as usize)
                .map(|v| vector(ty, v * 4 + r.reg as usize * 13))
                .collect();
            InputDesc {
                input: IoRef::Reg(r.name.clone()),
                values: InputValues::PerVertex(values),
            }
        })
        .collect()
}

/// Values for every input register of a pixel shader: different corners
/// for interpolated float inputs, one value for integer and constant ones.
pub fn pixel_inputs(inputs: &[IoReg], types: &BTreeMap<u32, ElementType>) -> Vec<InputDesc> {
    inputs
        .iter()
        .map(|r| {
            let ty = types.get(&r.reg).copied().unwrap_or_default();
            let seed = r.reg as usize * 13;
            let values = if ty != ElementType::Float || r.interpolation == Interpolation::Constant {
                InputValues::Flat(vector(ty, seed))
            } else {
                InputValues::Corners([0, 1, 2, 3].map(|c| vector(ty, seed + c * 4)))
            };
            InputDesc {
                input: IoRef::Reg(r.name.clone()),
                values,
            }
        })
        .collect()
}

/// A 16×16 render target for every pixel output, in a format of its type
/// (depth: one float).
pub fn targets(
    outputs: &[IoReg],
    types: &BTreeMap<u32, ElementType>,
    depth: Option<u32>,
) -> Vec<TargetDesc> {
    outputs
        .iter()
        .map(|r| {
            let format = if Some(r.reg) == depth {
                Format::R32Float
            } else {
                match types.get(&r.reg).copied().unwrap_or_default() {
                    ElementType::Float => Format::Rgba32Float,
                    ElementType::Uint => Format::Rgba32Uint,
                    ElementType::Sint => Format::Rgba32Sint,
                }
            };
            TargetDesc {
                format,
                width: TEXTURE_SIZE,
                height: TEXTURE_SIZE,
                output: Some(r.name.clone()),
                samples: 1,
            }
        })
        .collect()
}
