//! Input and output signatures derived from a program's declarations, for
//! containers the assembler builds.

use super::decode::{decode, ProgramType, Sel};
use super::Sm4Error;
use crate::dxbc::signature::{write, SignatureElement};

/// The semantic name and D3D_NAME of a declaration's system value.
fn semantic(sysval: Option<u32>, pixel_output: bool) -> (&'static str, u32) {
    match sysval {
        Some(1) => ("SV_Position", 1),
        Some(6) => ("SV_VertexID", 6),
        Some(7) => ("SV_PrimitiveID", 7),
        Some(8) => ("SV_InstanceID", 8),
        Some(9) => ("SV_IsFrontFace", 9),
        Some(10) => ("SV_SampleIndex", 10),
        _ if pixel_output => ("SV_Target", 64),
        _ => ("TEXCOORD", 0),
    }
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
        let code = ins.info.code;
        let Some(op) = ins.operands.first() else {
            continue;
        };
        let output = (101..=103).contains(&code);
        if !(95..=103).contains(&code) {
            continue;
        }
        let sysval = if matches!(code, 96 | 97 | 99 | 100 | 102 | 103) {
            ins.words.first().copied()
        } else {
            None
        };
        let pixel_output = output && program_type == ProgramType::Pixel;
        let (name, d3d_name, register, mask) = match op.ty {
            1 | 2 => {
                let reg = op.index(0).unwrap_or(0) as u32;
                let (name, d3d_name) = semantic(sysval, pixel_output);
                (
                    name,
                    d3d_name,
                    reg,
                    if let Sel::Mask(m) = op.sel { m } else { 0xf },
                )
            }
            12 => ("SV_Depth", 0, u32::MAX, 1),
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
            sysval: if d3d_name == 64 { 0 } else { d3d_name },
            component_type: 3,
            register,
            mask,
            rw_mask: if output { 0 } else { mask },
            stream: 0,
            min_precision: 0,
        });
    }
    Ok((write(&inputs), write(&outputs)))
}
