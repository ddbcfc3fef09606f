//! The `info` text: constant table, declarations and instruction counts.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::disasm::instruction_text;
use super::opcodes::{self, DCL, DEF, DEFB, DEFI};
use super::types::*;

/// Describes a shader: its version, CTAB constants, declarations, `def`s and
/// instruction counts per opcode.
pub fn info(shader: &Shader) -> String {
    let v = shader.version;
    let mut out = format!("version: {}\n", v.name());
    if let Some(ctab) = &shader.ctab {
        let _ = writeln!(out, "creator: {}", ctab.creator);
        let _ = writeln!(out, "constants: {}", ctab.constants.len());
        for k in &ctab.constants {
            let _ = writeln!(
                out,
                "  {} {}{} count {}",
                k.name,
                k.set.prefix(),
                k.index,
                k.count
            );
        }
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    let mut decls = Vec::new();
    for inst in shader.instructions() {
        match inst.opcode {
            DCL | DEF | DEFI | DEFB => decls.push(instruction_text(inst, v)),
            op => {
                let name = opcodes::info(op).map_or(format!("{op:#x}"), |i| {
                    opcodes::mnemonic(i, inst.controls, v)
                });
                *counts.entry(name).or_default() += 1;
                total += 1;
            }
        }
    }
    let _ = writeln!(out, "declarations: {}", decls.len());
    for d in decls {
        let _ = writeln!(out, "  {d}");
    }
    let _ = writeln!(out, "instructions: {total}");
    for (name, n) in counts {
        let _ = writeln!(out, "  {name}: {n}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_instructions_and_declarations() {
        let tokens =
            super::super::assemble("ps_2_0\ndcl_2d s0\ndcl t0.xy\ntexld r0, t0, s0\nmov oC0, r0\n")
                .expect("asm");
        let s = super::super::decode(&tokens).expect("decode");
        let text = info(&s);
        assert!(text.contains("version: ps_2_0"));
        assert!(text.contains("declarations: 2"));
        assert!(text.contains("instructions: 2"));
        assert!(text.contains("texld: 1"));
    }
}
