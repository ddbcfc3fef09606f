//! Reflection: what a shader reads and writes, for both families — stage
//! and model, signatures, resources and samplers, constant buffers with
//! their variables (names from RDEF or CTAB), thread-group size and the
//! instruction count.

mod d3d9;
mod dxbc;

use crate::error::Error;
use crate::ir::{Dim, IoReg, Program, ResourceKind, Stage};
use crate::shader::{lower, CompileOptions, Family};
pub use crate::sm4::decode::ProgramType;
pub use crate::sm4::names::ResourceDimension;

/// Everything reflection reports about one shader.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflection {
    /// The bytecode family.
    pub family: Family,
    /// The stage (all six; D3D9 has vertex and pixel).
    pub stage: ProgramType,
    /// Shader model, major and minor.
    pub model: [u32; 2],
    /// Input signature.
    pub inputs: Vec<Element>,
    /// Output signature.
    pub outputs: Vec<Element>,
    /// SRVs, UAVs and samplers.
    pub resources: Vec<Resource>,
    /// Constant buffers the shader reads (D3D9: `c#` is slot 0, `i#` 1, `b#` 2).
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Compute thread-group size (1, 1, 1 for other stages).
    pub thread_group: [u32; 3],
    /// Executable instructions (declarations and comments not counted).
    pub instructions: usize,
}

/// How a signature element's components are typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComponentType {
    /// Not recorded (D3D9 bytecode carries no types).
    Unknown,
    /// 32-bit unsigned integers.
    Uint,
    /// 32-bit signed integers.
    Sint,
    /// 32-bit floats.
    Float,
}

/// One input or output register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// Semantic name in upper case (`TEXCOORD`, `SV_POSITION`); empty when
    /// unknown.
    pub semantic: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// The register the runtime's input/output blocks use.
    pub reg: u32,
    /// Components declared (bit 0 = x).
    pub mask: u8,
    /// The system value (`D3D_NAME`: 1 position, 64 target, ...); 0 for none.
    pub system_value: u32,
    /// Component type.
    pub component_type: ComponentType,
}

/// Which register file a resource is bound in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// `t#`.
    ShaderResource,
    /// `u#`.
    UnorderedAccess,
    /// `s#`.
    Sampler,
}

/// What a view addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// Byte-addressed buffer.
    Raw,
    /// Structured buffer with this stride in bytes.
    Structured(u32),
    /// Typed buffer or texture of this dimension.
    Typed(ResourceDimension),
}

/// A bound resource or sampler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Register file.
    pub space: Space,
    /// Slot.
    pub slot: u32,
    /// View kind and dimension; `None` for samplers.
    pub kind: Option<ViewKind>,
    /// Whether a sampler is a comparison sampler.
    pub comparison: bool,
    /// Its name in the source program, when the bytecode records it.
    pub name: Option<String>,
}

/// A constant buffer and its layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// Slot.
    pub slot: u32,
    /// Bytes the shader declares it reads (16 per row).
    pub declared_bytes: u32,
    /// Its name in the source program, when recorded.
    pub name: Option<String>,
    /// Its variables, when recorded, in order.
    pub variables: Vec<Variable>,
}

/// A named variable in a constant buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Name in the source program.
    pub name: String,
    /// Byte offset in the buffer.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

/// Reflects bytecode (a DXBC container or a D3D9 token stream).
///
/// ```
/// let bytes = dxjit::text::assemble("vs_2_0\ndcl_position v0\nmov oPos, v0\n").unwrap();
/// let r = dxjit::reflect::reflect(&bytes)?;
/// assert_eq!(r.model, [2, 0]);
/// assert_eq!(r.inputs[0].semantic, "POSITION");
/// # Ok::<(), dxjit::Error>(())
/// ```
///
/// DXBC is reflected from its chunks and declarations alone, so every
/// stage and every declaration reflects, including what dxjit does not run;
/// D3D9 bytecode is reflected from its lowering and CTAB.
pub fn reflect(bytes: &[u8]) -> Result<Reflection, Error> {
    if bytes.starts_with(b"DXBC") {
        return dxbc::reflect(bytes);
    }
    let options = CompileOptions {
        verify_checksum: false,
        ..CompileOptions::default()
    };
    let (family, program) = lower(bytes, &options)?;
    let base = Reflection {
        family,
        stage: match program.stage {
            Stage::Vertex => ProgramType::Vertex,
            Stage::Pixel => ProgramType::Pixel,
            Stage::Compute => ProgramType::Compute,
            Stage::Hull => ProgramType::Hull,
            Stage::Domain => ProgramType::Domain,
            Stage::Geometry => ProgramType::Geometry,
        },
        model: [0, 0],
        inputs: program.inputs.iter().map(element).collect(),
        outputs: program.outputs.iter().map(element).collect(),
        resources: Vec::new(),
        constant_buffers: Vec::new(),
        thread_group: program.thread_group,
        instructions: 0,
    };
    d3d9::complete(base, bytes, &program)
}

fn element(io: &IoReg) -> Element {
    Element {
        semantic: io.semantic.clone(),
        semantic_index: io.semantic_index,
        reg: io.reg,
        mask: io.mask,
        system_value: 0,
        component_type: ComponentType::Unknown,
    }
}

/// The program's SRVs and UAVs, unnamed.
fn views(program: &Program) -> Vec<Resource> {
    let of = |space, d: &crate::ir::ResourceDecl| Resource {
        space,
        slot: d.slot,
        kind: Some(view_kind(d.kind)),
        comparison: false,
        name: None,
    };
    let srvs = program.srvs.iter().map(|d| of(Space::ShaderResource, d));
    let uavs = program.uavs.iter().map(|d| of(Space::UnorderedAccess, d));
    srvs.chain(uavs).collect()
}

fn view_kind(kind: ResourceKind) -> ViewKind {
    use ResourceDimension as R;
    match kind {
        ResourceKind::Raw => ViewKind::Raw,
        ResourceKind::Structured(s) => ViewKind::Structured(s),
        ResourceKind::Typed(dim) => ViewKind::Typed(match dim {
            Dim::Buffer => R::Buffer,
            Dim::Texture1D => R::Texture1D,
            Dim::Texture1DArray => R::Texture1DArray,
            Dim::Texture2D => R::Texture2D,
            Dim::Texture2DArray => R::Texture2DArray,
            Dim::Texture3D => R::Texture3D,
            Dim::TextureCube => R::TextureCube,
            Dim::TextureCubeArray => R::TextureCubeArray,
            Dim::Texture2DMS => R::Texture2DMs,
            Dim::Texture2DMSArray => R::Texture2DMsArray,
        }),
    }
}

/// The program's constant buffers, unnamed.
fn constant_buffers(program: &Program) -> Vec<ConstantBuffer> {
    program
        .cbs
        .iter()
        .map(|cb| ConstantBuffer {
            slot: cb.slot,
            declared_bytes: cb.rows.saturating_mul(16),
            name: None,
            variables: Vec::new(),
        })
        .collect()
}
