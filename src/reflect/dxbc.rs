//! Reflection of a DXBC container from its chunks and declarations: the
//! signatures, RDEF names and layouts, and the program's declarations.

use super::{
    ComponentType, ConstantBuffer, Element, Reflection, Resource, Space, Variable, ViewKind,
};
use crate::dxbc::{Container, Rdef, SignatureElement};
use crate::error::Error;
use crate::shader::Family;
use crate::sm4::decode::Instruction;
use crate::sm4::fields::{RESOURCE_DIMENSION, SAMPLER_MODE};
use crate::sm4::names::{ResourceDimension, SamplerMode};
use crate::sm4::opcodes::Opcode;

/// Reflects a DXBC container.
pub(super) fn reflect(bytes: &[u8]) -> Result<Reflection, Error> {
    let container = Container::parse(bytes, false)?;
    let shader = crate::sm4::decode(container.program().unwrap_or(&[]))?;
    let rdef = container.rdef();
    let mut r = Reflection {
        family: Family::Dxbc,
        stage: shader.program_type,
        model: [shader.major, shader.minor],
        inputs: container.inputs().iter().map(element).collect(),
        outputs: container.outputs().iter().map(element).collect(),
        resources: Vec::new(),
        constant_buffers: Vec::new(),
        thread_group: [1, 1, 1],
        instructions: shader.instructions.iter().filter(|i| !i.info.decl).count(),
    };
    for ins in &shader.instructions {
        declaration(&mut r, ins, rdef);
    }
    Ok(r)
}

fn declaration(r: &mut Reflection, ins: &Instruction, rdef: Option<&Rdef>) {
    let slot = ins.operands.first().and_then(|o| o.index(0)).unwrap_or(0) as u32;
    let word = |i: usize| ins.words.get(i).copied().unwrap_or(0);
    let name = |prefix: &str| {
        rdef.and_then(|d| d.name_of(prefix, slot))
            .map(str::to_owned)
    };
    let typed = || {
        ResourceDimension::from_code(ins.field(RESOURCE_DIMENSION))
            .map_or(ViewKind::Raw, ViewKind::Typed)
    };
    let (space, kind) = match ins.opcode() {
        Opcode::DclResource => (Space::ShaderResource, typed()),
        Opcode::DclResourceRaw => (Space::ShaderResource, ViewKind::Raw),
        Opcode::DclResourceStructured => (Space::ShaderResource, ViewKind::Structured(word(0))),
        Opcode::DclUavTyped => (Space::UnorderedAccess, typed()),
        Opcode::DclUavRaw => (Space::UnorderedAccess, ViewKind::Raw),
        Opcode::DclUavStructured => (Space::UnorderedAccess, ViewKind::Structured(word(0))),
        Opcode::DclSampler => {
            r.resources.push(Resource {
                space: Space::Sampler,
                slot,
                kind: None,
                comparison: SamplerMode::from_code(ins.field(SAMPLER_MODE))
                    == Some(SamplerMode::Comparison),
                name: name("s"),
            });
            return;
        }
        Opcode::DclConstantBuffer => {
            let rows = ins.operands.first().and_then(|o| o.index(1)).unwrap_or(0) as u32;
            r.constant_buffers
                .push(constant_buffer(slot, rows, name("cb"), rdef));
            return;
        }
        Opcode::DclThreadGroup => {
            r.thread_group = [word(0), word(1), word(2)];
            return;
        }
        _ => return,
    };
    let prefix = if space == Space::ShaderResource {
        "t"
    } else {
        "u"
    };
    r.resources.push(Resource {
        space,
        slot,
        kind: Some(kind),
        comparison: false,
        name: name(prefix),
    });
}

fn constant_buffer(
    slot: u32,
    rows: u32,
    name: Option<String>,
    rdef: Option<&Rdef>,
) -> ConstantBuffer {
    let layout = rdef.and_then(|d| d.cbuffers.iter().find(|c| Some(&c.name) == name.as_ref()));
    ConstantBuffer {
        slot,
        declared_bytes: rows.saturating_mul(16),
        variables: layout
            .map(|l| {
                l.variables
                    .iter()
                    .map(|v| Variable {
                        name: v.name.clone(),
                        offset: v.offset,
                        size: v.size,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        name,
    }
}

fn element(s: &SignatureElement) -> Element {
    Element {
        semantic: s.semantic.to_ascii_uppercase(),
        semantic_index: s.semantic_index,
        reg: s.register,
        mask: s.mask,
        system_value: s.sysval,
        component_type: match s.component_type {
            1 => ComponentType::Uint,
            2 => ComponentType::Sint,
            3 => ComponentType::Float,
            _ => ComponentType::Unknown,
        },
    }
}
