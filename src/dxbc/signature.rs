//! Input/output signature chunks (ISGN, OSGN, OSG5, ISG1, OSG1, PCSG, PSG1).

use super::{read_cstr, read_u32, DxbcError};

/// One element of a signature: a semantic bound to a register's components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureElement {
    /// Semantic name as stored (case preserved).
    pub semantic: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// System-value type (`D3D_NAME`): 0 none, 1 position, 9 is_front_face, 64 target ...
    pub sysval: u32,
    /// Component type: 1 uint, 2 sint, 3 float (0 unknown).
    pub component_type: u32,
    /// Register number.
    pub register: u32,
    /// Components the element occupies.
    pub mask: u8,
    /// Components read (inputs) or never written (outputs).
    pub rw_mask: u8,
    /// Geometry stream (OSG5 / *SG1), else 0.
    pub stream: u32,
    /// Minimum precision (*SG1), else 0.
    pub min_precision: u32,
}

/// Element layouts by chunk tag.
fn layout(tag: &[u8; 4]) -> (usize, bool, bool) {
    match tag {
        b"OSG5" => (28, true, false),
        b"ISG1" | b"OSG1" | b"PSG1" => (32, true, true),
        _ => (24, false, false),
    }
}

/// Parses a signature chunk whose data starts at byte `base` of the container.
pub fn parse(tag: &[u8; 4], data: &[u8], base: usize) -> Result<Vec<SignatureElement>, DxbcError> {
    let count = read_u32(data, 0, base)? as usize;
    let (size, has_stream, has_precision) = layout(tag);
    let mut out = Vec::new();
    for i in 0..count {
        let mut at = 8 + i * size;
        let stream = if has_stream {
            at += 4;
            read_u32(data, at - 4, base)?
        } else {
            0
        };
        let name_offset = read_u32(data, at, base)? as usize;
        let masks = read_u32(data, at + 20, base)?;
        out.push(SignatureElement {
            semantic: read_cstr(data, name_offset, base)?,
            semantic_index: read_u32(data, at + 4, base)?,
            sysval: read_u32(data, at + 8, base)?,
            component_type: read_u32(data, at + 12, base)?,
            register: read_u32(data, at + 16, base)?,
            mask: (masks & 0xff) as u8,
            rw_mask: ((masks >> 8) & 0xff) as u8,
            stream,
            min_precision: if has_precision {
                read_u32(data, at + 24, base)?
            } else {
                0
            },
        });
    }
    Ok(out)
}

/// Serialises elements as an ISGN/OSGN chunk (24-byte elements).
pub fn write(elements: &[SignatureElement]) -> Vec<u8> {
    let mut head = Vec::new();
    head.extend_from_slice(&(elements.len() as u32).to_le_bytes());
    head.extend_from_slice(&8u32.to_le_bytes());
    let mut names = Vec::new();
    let names_at = 8 + 24 * elements.len();
    for e in elements {
        let name_offset = (names_at + names.len()) as u32;
        names.extend_from_slice(e.semantic.as_bytes());
        names.push(0);
        let words = [
            name_offset,
            e.semantic_index,
            e.sysval,
            e.component_type,
            e.register,
            u32::from(e.mask) | u32::from(e.rw_mask) << 8,
        ];
        for w in words {
            head.extend_from_slice(&w.to_le_bytes());
        }
    }
    while !names.len().is_multiple_of(4) {
        names.push(0xab);
    }
    head.extend_from_slice(&names);
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_parse() {
        let e = SignatureElement {
            semantic: "TEXCOORD".into(),
            semantic_index: 2,
            sysval: 0,
            component_type: 3,
            register: 1,
            mask: 3,
            rw_mask: 3,
            stream: 0,
            min_precision: 0,
        };
        let bytes = write(std::slice::from_ref(&e));
        assert_eq!(parse(b"ISGN", &bytes, 0).unwrap(), vec![e]);
    }
}
