//! Stable numeric codes for every error, numbered in ranges per component
//! as vkd3d-shader numbers its messages, and the place in the bytecode an
//! error points at.
//!
//! | range | component |
//! |---|---|
//! | 1000–1999 | DXBC container |
//! | 2000–2999 | SM4/SM5 decoding, assembly and lowering |
//! | 3000–3999 | D3D9 decoding, assembly and lowering |
//! | 5000–5999 | IR validation and the backend |
//! | 9000–9999 | input that is no known bytecode |
//!
//! Codes are never reused: a new kind of error gets a new number.

use crate::d3d9::D3d9Error;
use crate::dxbc::DxbcError;
use crate::error::Error;
use crate::ir::Place;
use crate::jit::JitError;
use crate::sm4::Sm4Error;

/// Where in the bytecode an error points, as far as it is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// Index of the instruction (SM4: in the program; D3D9: counting
    /// declarations; backend and IR validation: the bytecode instruction
    /// the IR instruction was lowered from, or for hand-built IR its index
    /// in its function body).
    pub instruction: Option<usize>,
    /// Byte offset (SM4: in the program tokens; D3D9: from the version
    /// token; container: in the file).
    pub byte_offset: Option<usize>,
    /// The opcode's name.
    pub opcode: Option<String>,
}

impl Error {
    /// The error's stable numeric code (see the module documentation).
    pub fn code(&self) -> u32 {
        match self {
            Error::Dxbc(e) | Error::Sm4(Sm4Error::Container(e)) => dxbc_code(e),
            Error::Sm4(e) => match e {
                Sm4Error::Decode { .. } => 2001,
                Sm4Error::Lower { .. } => 2002,
                Sm4Error::NoProgram => 2003,
                Sm4Error::Asm { .. } => 2004,
                Sm4Error::Container(e) => dxbc_code(e),
            },
            Error::D3d9(e) => match e {
                D3d9Error::Decode { .. } => 3001,
                D3d9Error::Lower { .. } => 3002,
                D3d9Error::Asm { .. } => 3003,
            },
            Error::Jit(e) => jit_code(e),
            Error::Unrecognised(_) => 9001,
        }
    }

    /// Where the error points.
    pub fn location(&self) -> Location {
        match self {
            Error::Dxbc(e) | Error::Sm4(Sm4Error::Container(e)) => Location {
                byte_offset: dxbc_offset(e),
                ..Location::default()
            },
            Error::Sm4(Sm4Error::Decode {
                index,
                offset,
                opcode,
                ..
            })
            | Error::Sm4(Sm4Error::Lower {
                index,
                offset,
                opcode,
                ..
            }) => Location {
                instruction: Some(*index),
                byte_offset: Some(*offset),
                opcode: Some(opcode.clone()),
            },
            Error::D3d9(D3d9Error::Decode { offset, index, .. })
            | Error::D3d9(D3d9Error::Lower { offset, index, .. }) => Location {
                instruction: Some(*index),
                byte_offset: Some(offset * 4),
                opcode: None,
            },
            Error::Jit(JitError::At { place, .. }) => place_location(*place),
            Error::Jit(JitError::Ir(e)) => place_location(e.place()),
            _ => Location::default(),
        }
    }
}

/// Where a backend or validation error points: the bytecode position when
/// the IR came from bytecode, otherwise the IR index.
fn place_location(place: Place) -> Location {
    match place.pos {
        Some(pos) => Location {
            instruction: Some(pos.index as usize),
            byte_offset: Some(pos.offset as usize),
            opcode: Some(pos.opcode.to_string()),
        },
        None => Location {
            instruction: Some(place.index),
            ..Location::default()
        },
    }
}

fn dxbc_code(e: &DxbcError) -> u32 {
    match e {
        DxbcError::Truncated { .. } => 1001,
        DxbcError::Magic(_) => 1002,
        DxbcError::Size { .. } => 1003,
        DxbcError::Checksum { .. } => 1004,
        DxbcError::Chunk { .. } => 1005,
        DxbcError::Malformed { .. } => 1006,
    }
}

fn dxbc_offset(e: &DxbcError) -> Option<usize> {
    match e {
        DxbcError::Truncated { offset, .. }
        | DxbcError::Chunk { offset, .. }
        | DxbcError::Malformed { offset, .. } => Some(*offset),
        DxbcError::Magic(_) => Some(0),
        DxbcError::Size { .. } | DxbcError::Checksum { .. } => None,
    }
}

fn jit_code(e: &JitError) -> u32 {
    match e {
        JitError::Unsupported(_) => 5001,
        JitError::Invalid(_) | JitError::Ir(_) => 5002,
        JitError::Backend(_) => 5003,
        JitError::TooLarge => 5004,
        JitError::At { source, .. } => jit_code(source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile_error(bytes: &[u8]) -> Error {
        crate::compile(bytes, &crate::CompileOptions::default())
            .err()
            .expect("refused")
    }

    #[test]
    fn each_component_has_its_range_and_location() {
        let e = compile_error(b"no!");
        assert_eq!(e.code(), 9001);
        let e = compile_error(b"DXBC\\0\\0\\0\\0");
        assert!((1000..2000).contains(&e.code()), "{e}: {}", e.code());
        let text = "ps_4_0\nmov r4096.x, l(1.0)\nret\n";
        let e = compile_error(&crate::text::assemble(text).unwrap());
        assert_eq!(e.code(), 2002, "{e}");
        let at = e.location();
        assert_eq!(
            (at.instruction, at.opcode.as_deref()),
            (Some(0), Some("mov")),
            "{e}"
        );
        assert!(at.byte_offset.is_some());
    }

    #[test]
    fn d3d9_offsets_are_bytes() {
        let e = compile_error(&[0x00, 0x02, 0xff, 0xff, 0x55, 0x55, 0x00, 0x00]);
        assert!((3000..4000).contains(&e.code()), "{e}: {}", e.code());
        let at = e.location();
        assert_eq!(at.byte_offset.map(|o| o % 4), Some(0), "{e}");
    }
}
