//! The DXBC container that wraps SM4/SM5 programs: header, checksum, chunks,
//! signatures and resource definitions.

mod checksum;
pub mod rdef;
pub mod signature;

pub use checksum::checksum;
pub use rdef::{Binding, Rdef};
pub use signature::SignatureElement;

/// Why a container cannot be read. Offsets count bytes from the container's start.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum DxbcError {
    /// The data ends before a field it needs.
    #[error("byte {offset}: truncated container, need {need} bytes for {what}")]
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// Bytes the field needs.
        need: usize,
        /// The field.
        what: &'static str,
    },
    /// The first four bytes are not `DXBC`.
    #[error("byte 0: bad magic {0:02x?}, expected \"DXBC\"")]
    Magic([u8; 4]),
    /// The size field disagrees with the data.
    #[error("byte 24: container size field says {declared} bytes, data has {actual}")]
    Size {
        /// Size in the header.
        declared: u32,
        /// Bytes given.
        actual: usize,
    },
    /// The stored checksum is not the checksum of the data.
    #[error("byte 4: checksum {stored:08x?} does not match computed {computed:08x?}")]
    Checksum {
        /// In the header.
        stored: [u32; 4],
        /// Computed over bytes 20..
        computed: [u32; 4],
    },
    /// A chunk lies (partly) outside the container.
    #[error("byte {offset}: chunk {index} ({tag}) of {size} bytes runs past the container end")]
    Chunk {
        /// Where the chunk header starts.
        offset: usize,
        /// The chunk's position in the table.
        index: usize,
        /// The chunk's tag.
        tag: String,
        /// Its declared size.
        size: u32,
    },
    /// A chunk's contents are malformed.
    #[error("byte {offset}: {what}")]
    Malformed {
        /// Where the problem is.
        offset: usize,
        /// What is wrong.
        what: String,
    },
}

/// Reads a little-endian word of `data` at `at`; `base` is `data`'s offset in the container.
pub(crate) fn read_u32(data: &[u8], at: usize, base: usize) -> Result<u32, DxbcError> {
    data.get(at..at.saturating_add(4))
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or(DxbcError::Truncated {
            offset: base + at,
            need: 4,
            what: "a word",
        })
}

/// Reads a NUL-terminated string of `data` at `at`.
pub(crate) fn read_cstr(data: &[u8], at: usize, base: usize) -> Result<String, DxbcError> {
    let tail = data.get(at..).ok_or(DxbcError::Malformed {
        offset: base + at,
        what: "string offset past chunk end".into(),
    })?;
    let end = tail
        .iter()
        .position(|&b| b == 0)
        .ok_or(DxbcError::Malformed {
            offset: base + at,
            what: "unterminated string".into(),
        })?;
    Ok(String::from_utf8_lossy(&tail[..end]).into_owned())
}

/// One chunk: its tag, where its data starts, and the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Four-character tag (`SHEX`, `ISGN`, ...).
    pub tag: [u8; 4],
    /// Byte offset of the data (after the 8-byte chunk header) in the container.
    pub offset: usize,
    /// The chunk's bytes.
    pub data: Vec<u8>,
}

/// A parsed DXBC container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// Every chunk, in order.
    pub chunks: Vec<Chunk>,
    /// The stored checksum.
    pub stored_checksum: [u32; 4],
    program: Option<Vec<u32>>,
    program_offset: usize,
    inputs: Vec<SignatureElement>,
    outputs: Vec<SignatureElement>,
    patch_constants: Vec<SignatureElement>,
    rdef: Option<Rdef>,
}

impl Container {
    /// Parses and checks a container (the checksum only when `verify_checksum`).
    pub fn parse(bytes: &[u8], verify_checksum: bool) -> Result<Container, DxbcError> {
        let magic: [u8; 4] =
            bytes
                .get(..4)
                .and_then(|b| b.try_into().ok())
                .ok_or(DxbcError::Truncated {
                    offset: 0,
                    need: 32,
                    what: "the header",
                })?;
        if &magic != b"DXBC" {
            return Err(DxbcError::Magic(magic));
        }
        if bytes.len() < 32 {
            return Err(DxbcError::Truncated {
                offset: 0,
                need: 32,
                what: "the header",
            });
        }
        let mut stored = [0u32; 4];
        for (i, w) in stored.iter_mut().enumerate() {
            *w = read_u32(bytes, 4 + 4 * i, 0)?;
        }
        let declared = read_u32(bytes, 24, 0)?;
        if declared as usize != bytes.len() {
            return Err(DxbcError::Size {
                declared,
                actual: bytes.len(),
            });
        }
        if verify_checksum {
            let computed = checksum(bytes);
            if computed != stored {
                return Err(DxbcError::Checksum { stored, computed });
            }
        }
        let count = read_u32(bytes, 28, 0)? as usize;
        if count > bytes.len() / 4 {
            return Err(DxbcError::Truncated {
                offset: 32,
                need: count * 4,
                what: "the chunk table",
            });
        }
        let mut container = Container {
            chunks: Vec::new(),
            stored_checksum: stored,
            program: None,
            program_offset: 0,
            inputs: Vec::new(),
            outputs: Vec::new(),
            patch_constants: Vec::new(),
            rdef: None,
        };
        for index in 0..count {
            let offset = read_u32(bytes, 32 + 4 * index, 0)? as usize;
            let tag: [u8; 4] = bytes
                .get(offset..offset.saturating_add(4))
                .and_then(|b| b.try_into().ok())
                .ok_or(DxbcError::Truncated {
                    offset,
                    need: 8,
                    what: "a chunk header",
                })?;
            let size = read_u32(bytes, offset + 4, 0)?;
            let start = offset + 8;
            let data = bytes
                .get(start..start.saturating_add(size as usize))
                .ok_or_else(|| DxbcError::Chunk {
                    offset,
                    index,
                    tag: String::from_utf8_lossy(&tag).into_owned(),
                    size,
                })?;
            container.chunks.push(Chunk {
                tag,
                offset: start,
                data: data.to_vec(),
            });
        }
        for i in 0..container.chunks.len() {
            let Chunk { tag, offset, data } = &container.chunks[i];
            match tag {
                b"SHDR" | b"SHEX" => {
                    let words: Vec<u32> = data
                        .chunks_exact(4)
                        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                        .collect();
                    container.program_offset = *offset;
                    container.program = Some(words);
                }
                b"ISGN" | b"ISG1" => container.inputs = signature::parse(tag, data, *offset)?,
                b"OSGN" | b"OSG5" | b"OSG1" => {
                    container.outputs = signature::parse(tag, data, *offset)?
                }
                b"PCSG" | b"PSG1" => {
                    container.patch_constants = signature::parse(tag, data, *offset)?
                }
                b"RDEF" => container.rdef = Some(rdef::parse(data, *offset)?),
                _ => {}
            }
        }
        Ok(container)
    }

    /// The SHDR/SHEX program tokens, if the container has a program.
    pub fn program(&self) -> Option<&[u32]> {
        self.program.as_deref()
    }

    /// Byte offset of the program's first token in the container.
    pub fn program_offset(&self) -> usize {
        self.program_offset
    }

    /// The input signature (ISGN/ISG1).
    pub fn inputs(&self) -> &[SignatureElement] {
        &self.inputs
    }

    /// The output signature (OSGN/OSG5/OSG1).
    pub fn outputs(&self) -> &[SignatureElement] {
        &self.outputs
    }

    /// The patch-constant signature (PCSG/PSG1).
    pub fn patch_constants(&self) -> &[SignatureElement] {
        &self.patch_constants
    }

    /// The resource definitions, when the container has an RDEF chunk.
    pub fn rdef(&self) -> Option<&Rdef> {
        self.rdef.as_ref()
    }

    /// The data of the first chunk with this tag.
    pub fn chunk(&self, tag: &[u8; 4]) -> Option<&[u8]> {
        self.chunks
            .iter()
            .find(|c| &c.tag == tag)
            .map(|c| c.data.as_slice())
    }
}

/// Builds a container from chunks, with a correct size field and checksum.
pub fn build(chunks: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * chunks.len();
    let mut out = vec![0u8; header];
    out[..4].copy_from_slice(b"DXBC");
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[28..32].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
    for (i, (tag, data)) in chunks.iter().enumerate() {
        let at = out.len() as u32;
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&at.to_le_bytes());
        out.extend_from_slice(tag);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let size = out.len() as u32;
    out[24..28].copy_from_slice(&size.to_le_bytes());
    let sum = checksum(&out);
    for (i, w) in sum.iter().enumerate() {
        out[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_then_parse() {
        let bytes = build(&[(*b"SHEX", vec![0x50, 0, 5, 0, 2, 0, 0, 0])]);
        let c = Container::parse(&bytes, true).unwrap();
        assert_eq!(c.program(), Some(&[0x0005_0050u32, 2][..]));
    }

    #[test]
    fn rejects_bad_checksum_and_size() {
        let mut bytes = build(&[(*b"JUNK", vec![1, 2, 3, 4])]);
        bytes[4] ^= 1;
        assert!(matches!(
            Container::parse(&bytes, true),
            Err(DxbcError::Checksum { .. })
        ));
        assert!(Container::parse(&bytes, false).is_ok());
        bytes.push(0);
        assert!(matches!(
            Container::parse(&bytes, false),
            Err(DxbcError::Size { .. })
        ));
    }
}
