//! The `info` summary of a program: stage, model, signatures, resources,
//! thread-group size and instruction counts.

use std::fmt::Write;

use super::decode::decode;
use super::opcodes::Opcode;
use super::registers::OperandType as T;
use super::Sm4Error;
use crate::dxbc::{Container, SignatureElement};

fn signature(out: &mut String, title: &str, elements: &[SignatureElement]) {
    let _ = writeln!(out, "{title}: {}", elements.len());
    for e in elements {
        let mask: String = (0..4)
            .filter(|i| e.mask & (1 << i) != 0)
            .map(|i| ['x', 'y', 'z', 'w'][i])
            .collect();
        let _ = writeln!(
            out,
            "  {}{} reg {} .{mask} sysval {} type {}",
            e.semantic, e.semantic_index, e.register, e.sysval, e.component_type
        );
    }
}

/// A text summary of a container's program.
pub fn info(container: &Container) -> Result<String, Sm4Error> {
    let tokens = container.program().ok_or(Sm4Error::NoProgram)?;
    let shader = decode(tokens)?;
    let mut out = String::new();
    let _ = writeln!(out, "stage: {}", shader.program_type.prefix());
    let _ = writeln!(
        out,
        "model: {}_{}_{}",
        shader.program_type.prefix(),
        shader.major,
        shader.minor
    );
    signature(&mut out, "inputs", container.inputs());
    signature(&mut out, "outputs", container.outputs());
    if !container.patch_constants().is_empty() {
        signature(&mut out, "patch constants", container.patch_constants());
    }
    let decls: Vec<_> = shader.instructions.iter().filter(|i| i.info.decl).collect();
    let _ = writeln!(out, "resources:");
    for d in &decls {
        let Some(op) = d.operands.first() else {
            continue;
        };
        let prefix = match op.register() {
            Some(
                t @ (T::Sampler
                | T::Resource
                | T::ConstantBuffer
                | T::UnorderedAccessView
                | T::ThreadGroupSharedMemory),
            ) => t.name(),
            _ => continue,
        };
        let slot = op.index(0).unwrap_or(0) as u32;
        let name = container
            .rdef()
            .and_then(|r| r.name_of(prefix, slot))
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let _ = writeln!(out, "  {prefix}{slot}: {}{name}", d.info.name);
    }
    if let Some(r) = container.rdef() {
        if !r.cbuffers.is_empty() {
            let names: Vec<&str> = r.cbuffers.iter().map(|c| c.name.as_str()).collect();
            let _ = writeln!(out, "constant buffers: {}", names.join(", "));
        }
    }
    if let Some(tg) = decls.iter().find(|d| d.opcode() == Opcode::DclThreadGroup) {
        let _ = writeln!(out, "thread group: {:?}", tg.words);
    }
    let code: Vec<_> = shader
        .instructions
        .iter()
        .filter(|i| !i.info.decl && !i.info.is_custom())
        .collect();
    let _ = writeln!(out, "declarations: {}", decls.len());
    let _ = writeln!(out, "instructions: {}", code.len());
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for i in &code {
        match counts.iter_mut().find(|(n, _)| *n == i.info.name) {
            Some((_, c)) => *c += 1,
            None => counts.push((i.info.name, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (name, c) in counts {
        let _ = writeln!(out, "  {name}: {c}");
    }
    Ok(out)
}
