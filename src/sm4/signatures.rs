//! Input and output signatures derived from a program's declarations, for
//! containers the assembler builds.

use super::decode::{decode, ProgramType, Sel};
use super::names::SystemValue as V;
use super::registers::OperandType as T;
use super::Sm4Error;
use crate::dxbc::signature::{write, SignatureElement};

/// `D3D_NAME_TARGET`: the signature's name of pixel outputs, stored as 0.
const D3D_NAME_TARGET: u32 = 64;

/// The signature component type of floats.
const FLOAT_COMPONENT: u32 = 3;

/// The semantic name and D3D_NAME of a declaration's system value.
fn semantic(sysval: Option<u32>, pixel_output: bool) -> (&'static str, u32) {
    let name = match sysval.and_then(V::from_code) {
        Some(V::Position) => "SV_Position",
        Some(V::VertexId) => "SV_VertexID",
        Some(V::PrimitiveId) => "SV_PrimitiveID",
        Some(V::InstanceId) => "SV_InstanceID",
        Some(V::IsFrontFace) => "SV_IsFrontFace",
        Some(V::SampleIndex) => "SV_SampleIndex",
        _ if pixel_output => return ("SV_Target", D3D_NAME_TARGET),
        _ => return ("TEXCOORD", V::Undefined.code()),
    };
    (name, sysval.unwrap_or_default())
}

/// ISGN and OSGN chunk data for the declarations in `tokens`.
pub fn from_program(
    tokens: &[u32],
    program_type: ProgramType,
) -> Result<(Vec<u8>, Vec<u8>), Sm4Error> {
    let shader = decode(tokens)?;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for ins in &shader.instructions {
        let code = ins.opcode();
        let Some(op) = ins.operands.first() else {
            continue;
        };
        let output = code.is_output_decl();
        if !code.is_io_decl() {
            continue;
        }
        let sysval = if code.names_system_value() {
            ins.words.first().copied()
        } else {
            None
        };
        let pixel_output = output && program_type == ProgramType::Pixel;
        let (name, d3d_name, register, mask) = match op.register() {
            Some(T::Input | T::Output) => {
                let reg = op.index(0).unwrap_or(0) as u32;
                let (name, d3d_name) = semantic(sysval, pixel_output);
                (
                    name,
                    d3d_name,
                    reg,
                    if let Sel::Mask(m) = op.sel { m } else { 0xf },
                )
            }
            Some(T::OutputDepth) => ("SV_Depth", V::Undefined.code(), u32::MAX, 1),
            Some(T::OutputStencilRef) => ("SV_StencilRef", V::Undefined.code(), u32::MAX, 1),
            _ => continue,
        };
        let list: &mut Vec<SignatureElement> = if output { &mut outputs } else { &mut inputs };
        let semantic_index = if name == "TEXCOORD" || name == "SV_Target" {
            register
        } else {
            0
        };
        list.push(SignatureElement {
            semantic: name.to_string(),
            semantic_index,
            sysval: if d3d_name == D3D_NAME_TARGET {
                V::Undefined.code()
            } else {
                d3d_name
            },
            component_type: FLOAT_COMPONENT,
            register,
            mask,
            rw_mask: if output { 0 } else { mask },
            stream: 0,
            min_precision: 0,
        });
    }
    Ok((write(&inputs), write(&outputs)))
}
