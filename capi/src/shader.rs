//! The `dxjit_shader` handle: a compiled shader and what reflection
//! reports about it, prepared once at compile time.

use crate::enums::{Dimension, Family, ResourceKind, ResourceSpace, Stage};
use dxjit::dxbc::Container;
use dxjit::ir::{self, Program};
use dxjit_runtime::dispatch::Kernel;
use std::ffi::CString;

/// A compiled shader (`dxjit_shader` in C). Immutable once made: it may be
/// used from several threads at once.
pub struct Shader {
    /// The library's shader.
    pub(crate) shader: dxjit::Shader,
    /// The first-tier kernel, for its register counts and thread group
    /// (the same at every tier); calls run `shader.kernel()`, the best tier
    /// ready.
    pub(crate) kernel: Kernel,
    /// Shader model major and minor version.
    pub(crate) model: [u32; 2],
    /// Declared inputs.
    pub(crate) inputs: Vec<Element>,
    /// Declared outputs.
    pub(crate) outputs: Vec<Element>,
    /// Declared resources: constant buffers, then SRVs, then UAVs.
    pub(crate) resources: Vec<Resource>,
}

/// A declared input or output register.
pub(crate) struct Element {
    /// Register number.
    pub(crate) reg: u32,
    /// Components declared (bit 0 = x).
    pub(crate) mask: u32,
    /// Semantic name, upper case; empty when unknown.
    pub(crate) semantic: CString,
    /// Semantic index.
    pub(crate) semantic_index: u32,
}

/// A declared resource.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resource {
    /// Which slots it is bound in.
    pub(crate) space: ResourceSpace,
    /// Its slot.
    pub(crate) slot: u32,
    /// How it is viewed.
    pub(crate) kind: ResourceKind,
    /// Structure stride (structured), 16-byte rows (constant buffers), else 0.
    pub(crate) stride: u32,
    /// Dimension of typed views.
    pub(crate) dimension: Dimension,
}

impl Shader {
    /// Wraps a compiled shader, `bytes` being its bytecode.
    pub(crate) fn new(shader: dxjit::Shader, bytes: &[u8]) -> Shader {
        let program = &shader.program();
        Shader {
            kernel: shader.kernel(),
            model: shader_model(bytes, shader.family()),
            inputs: program.inputs.iter().map(element).collect(),
            outputs: program.outputs.iter().map(element).collect(),
            resources: resources(program),
            shader,
        }
    }

    /// The stage, as the C enum.
    pub(crate) fn stage(&self) -> Stage {
        match self.shader.stage() {
            ir::Stage::Vertex => Stage::Vertex,
            ir::Stage::Pixel => Stage::Pixel,
            ir::Stage::Compute => Stage::Compute,
            ir::Stage::Hull => Stage::Hull,
            ir::Stage::Domain => Stage::Domain,
            ir::Stage::Geometry => Stage::Geometry,
        }
    }

    /// The family, as the C enum.
    pub(crate) fn family(&self) -> Family {
        match self.shader.family() {
            dxjit::Family::Dxbc => Family::Dxbc,
            dxjit::Family::D3d9 => Family::D3d9,
        }
    }
}

/// The shader model in the program's version token.
fn shader_model(bytes: &[u8], family: dxjit::Family) -> [u32; 2] {
    match family {
        dxjit::Family::Dxbc => Container::parse(bytes, false)
            .ok()
            .and_then(|c| c.program().and_then(|p| p.first().copied()))
            .map_or([0, 0], |token| [(token >> 4) & 0xf, token & 0xf]),
        dxjit::Family::D3d9 => {
            let token = dxjit::shader::words(bytes).first().copied().unwrap_or(0);
            [(token >> 8) & 0xff, token & 0xff]
        }
    }
}

fn element(io: &ir::IoReg) -> Element {
    Element {
        reg: io.reg,
        mask: u32::from(io.mask),
        semantic: CString::new(io.semantic.replace('\0', "")).unwrap_or_default(),
        semantic_index: io.semantic_index,
    }
}

fn resources(program: &Program) -> Vec<Resource> {
    let cbs = program.cbs.iter().map(|cb| Resource {
        space: ResourceSpace::ConstantBuffer,
        slot: cb.slot,
        kind: ResourceKind::Constants,
        stride: cb.rows,
        dimension: Dimension::None,
    });
    let views = |space, decls: &[ir::ResourceDecl]| {
        decls
            .iter()
            .map(|d| view(space, d))
            .collect::<Vec<Resource>>()
    };
    cbs.chain(views(ResourceSpace::ShaderResource, &program.srvs))
        .chain(views(ResourceSpace::UnorderedAccess, &program.uavs))
        .collect()
}

fn view(space: ResourceSpace, decl: &ir::ResourceDecl) -> Resource {
    let (kind, stride, dimension) = match decl.kind {
        ir::ResourceKind::Raw => (ResourceKind::Raw, 0, Dimension::None),
        ir::ResourceKind::Structured(stride) => (ResourceKind::Structured, stride, Dimension::None),
        ir::ResourceKind::Typed(dim) => (ResourceKind::Typed, 0, dimension(dim)),
    };
    Resource {
        space,
        slot: decl.slot,
        kind,
        stride,
        dimension,
    }
}

fn dimension(dim: ir::Dim) -> Dimension {
    match dim {
        ir::Dim::Buffer => Dimension::Buffer,
        ir::Dim::Texture1D => Dimension::Texture1d,
        ir::Dim::Texture1DArray => Dimension::Texture1dArray,
        ir::Dim::Texture2D => Dimension::Texture2d,
        ir::Dim::Texture2DArray => Dimension::Texture2dArray,
        ir::Dim::Texture3D => Dimension::Texture3d,
        ir::Dim::TextureCube => Dimension::TextureCube,
        ir::Dim::TextureCubeArray => Dimension::TextureCubeArray,
        ir::Dim::Texture2DMS => Dimension::Texture2dMs,
        ir::Dim::Texture2DMSArray => Dimension::Texture2dMsArray,
    }
}
