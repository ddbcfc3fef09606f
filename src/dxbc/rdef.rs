//! The RDEF chunk: names of bound resources and constant buffers.

use super::{read_cstr, read_u32, DxbcError};

/// A resource binding (`D3D_SHADER_INPUT_BIND_DESC`), reduced to what
/// disassembly and `info` print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Name in the source program.
    pub name: String,
    /// Input type: 0 cbuffer, 1 tbuffer, 2 texture, 3 sampler, 4 rw typed,
    /// 5 structured, 6 rw structured, 7 byte address, 8 rw byte address,
    /// 9 append, 10 consume, 11 rw structured with counter.
    pub kind: u32,
    /// Dimension (`D3D_SRV_DIMENSION`).
    pub dimension: u32,
    /// First register.
    pub bind_point: u32,
    /// Registers bound.
    pub bind_count: u32,
}

impl Binding {
    /// The register-file prefix this binding occupies (`cb`, `t`, `s`, `u`).
    pub fn prefix(&self) -> &'static str {
        match self.kind {
            0 => "cb",
            3 => "s",
            1 | 2 | 5 | 7 => "t",
            _ => "u",
        }
    }
}

/// A constant buffer's layout (`D3D11_SHADER_BUFFER_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cbuffer {
    /// Name in the source program.
    pub name: String,
    /// Bytes.
    pub size: u32,
    /// Its variables in order.
    pub variables: Vec<Variable>,
}

/// A constant-buffer variable (`D3D11_SHADER_VARIABLE_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Name in the source program.
    pub name: String,
    /// Byte offset in its buffer.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

/// The parsed RDEF chunk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rdef {
    /// Resource bindings in order.
    pub bindings: Vec<Binding>,
    /// Constant buffers in order.
    pub cbuffers: Vec<Cbuffer>,
    /// The compiler's creator string.
    pub creator: String,
}

impl Rdef {
    /// The name bound at `prefix` register `index`, if any.
    pub fn name_of(&self, prefix: &str, index: u32) -> Option<&str> {
        self.bindings
            .iter()
            .find(|b| {
                b.prefix() == prefix
                    && (b.bind_point..b.bind_point.saturating_add(b.bind_count.max(1)))
                        .contains(&index)
            })
            .map(|b| b.name.as_str())
    }
}

/// Parses an RDEF chunk whose data starts at byte `base` of the container.
pub fn parse(data: &[u8], base: usize) -> Result<Rdef, DxbcError> {
    let cb_count = read_u32(data, 0, base)? as usize;
    let cb_offset = read_u32(data, 4, base)? as usize;
    let bind_count = read_u32(data, 8, base)? as usize;
    let bind_offset = read_u32(data, 12, base)? as usize;
    let version = read_u32(data, 16, base)?;
    let creator_offset = read_u32(data, 24, base)? as usize;
    let sm51 = (version & 0xffff) >= 0x0501;
    let bind_size = if sm51 { 40 } else { 32 };
    let mut rdef = Rdef {
        creator: read_cstr(data, creator_offset, base)?,
        ..Rdef::default()
    };
    for i in 0..bind_count {
        let at = bind_offset + i * bind_size;
        rdef.bindings.push(Binding {
            name: read_cstr(data, read_u32(data, at, base)? as usize, base)?,
            kind: read_u32(data, at + 4, base)?,
            dimension: read_u32(data, at + 12, base)?,
            bind_point: read_u32(data, at + 20, base)?,
            bind_count: read_u32(data, at + 24, base)?,
        });
    }
    let variable_size = if (version & 0xff00) >= 0x0500 { 40 } else { 24 };
    for i in 0..cb_count {
        let at = cb_offset + i * 24;
        let var_count = read_u32(data, at + 4, base)? as usize;
        let var_offset = read_u32(data, at + 8, base)? as usize;
        let mut variables = Vec::new();
        for v in 0..var_count {
            let vat = var_offset + v * variable_size;
            variables.push(Variable {
                name: read_cstr(data, read_u32(data, vat, base)? as usize, base)?,
                offset: read_u32(data, vat + 4, base)?,
                size: read_u32(data, vat + 8, base)?,
            });
        }
        rdef.cbuffers.push(Cbuffer {
            name: read_cstr(data, read_u32(data, at, base)? as usize, base)?,
            size: read_u32(data, at + 12, base)?,
            variables,
        });
    }
    Ok(rdef)
}
