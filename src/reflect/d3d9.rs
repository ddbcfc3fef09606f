//! Reflection of a D3D9 token stream: its version and CTAB constants.

use super::{constant_buffers, views, Reflection, Resource, Space, Variable};
use crate::d3d9::ctab::RegisterSet;
use crate::d3d9::opcodes::{self, Extra};
use crate::error::Error;
use crate::ir::Program;
use crate::shader::words;

/// Fills in what the token stream records beyond the program: samplers
/// are the texture slots, and CTAB names constants (as variables of the
/// `c#`, `i#` and `b#` buffers, 16 bytes per register).
pub(super) fn complete(
    mut r: Reflection,
    bytes: &[u8],
    program: &Program,
) -> Result<Reflection, Error> {
    let shader = crate::d3d9::decode(&words(bytes))?;
    r.model = [shader.version.major.into(), shader.version.minor.into()];
    r.instructions = shader
        .instructions()
        .filter(|i| opcodes::info(i.opcode).is_some_and(|o| o.extra == Extra::None))
        .count();
    let ctab = shader.ctab.as_ref();
    let named = |set: RegisterSet, slot: u32| {
        ctab.and_then(|t| {
            t.constants.iter().find(|c| {
                c.set == set
                    && (u32::from(c.index)..u32::from(c.index) + u32::from(c.count.max(1)))
                        .contains(&slot)
            })
        })
        .map(|c| c.name.clone())
    };
    r.resources = views(program);
    let samplers: Vec<Resource> = program
        .srvs
        .iter()
        .map(|d| Resource {
            space: Space::Sampler,
            slot: d.slot,
            kind: None,
            comparison: false,
            name: named(RegisterSet::Sampler, d.slot),
        })
        .collect();
    for res in &mut r.resources {
        res.name = named(RegisterSet::Sampler, res.slot);
    }
    r.resources.extend(samplers);
    r.constant_buffers = constant_buffers(program);
    for cb in &mut r.constant_buffers {
        let set = match cb.slot {
            0 => RegisterSet::Float4,
            1 => RegisterSet::Int4,
            _ => RegisterSet::Bool,
        };
        cb.variables = ctab
            .map(|t| {
                t.constants
                    .iter()
                    .filter(|c| c.set == set)
                    .map(|c| Variable {
                        name: c.name.clone(),
                        offset: u32::from(c.index) * 16,
                        size: u32::from(c.count) * 16,
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    Ok(r)
}
