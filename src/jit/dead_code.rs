//! Removes instructions whose results nothing reads, for the top tier.
//!
//! Translation leaves some values unread: the integer view of a register
//! written as a float and read back as one, a lookup component no caller
//! wanted. At `opt_level = none` Cranelift does not remove them, and its
//! lowering counts their reads: a value read by a dead instruction counts
//! as read twice, and then neither it nor anything it is computed from is
//! folded into the instruction that uses it (a constant's load stays a
//! load into a register instead of becoming a memory operand). Removing
//! them first lets the backend fold those loads.

use cranelift_codegen::entity::SecondaryMap;
use cranelift_codegen::ir::{Function, Inst, Opcode, Value};
use cranelift_codegen::ir::{InstructionData, ValueDef};

/// Whether `inst` does nothing but compute its results: no store, call,
/// branch, trap or other effect, and a load only when it cannot trap.
fn removable(func: &Function, inst: Inst) -> bool {
    let data = &func.dfg.insts[inst];
    let op = data.opcode();
    if op.can_store()
        || op.is_call()
        || op.is_branch()
        || op.is_terminator()
        || op.other_side_effects()
        || func.dfg.inst_results(inst).is_empty()
    {
        return false;
    }
    match data {
        InstructionData::Load { flags, .. } => func.dfg.mem_flags[*flags].notrap(),
        _ => !op.can_trap() && !op.can_load() && op != Opcode::GetPinnedReg,
    }
}

/// Removes every removable instruction whose results are unread, and the
/// instructions that only they read; returns how many went.
pub fn remove(func: &mut Function) -> usize {
    let mut reads: SecondaryMap<Value, u32> = SecondaryMap::new();
    let insts: Vec<Inst> = func
        .layout
        .blocks()
        .flat_map(|block| func.layout.block_insts(block))
        .collect();
    for &inst in &insts {
        for v in func.dfg.inst_values(inst) {
            reads[func.dfg.resolve_aliases(v)] += 1;
        }
    }
    let unread = |func: &Function, reads: &SecondaryMap<Value, u32>, inst: Inst| {
        func.dfg.inst_results(inst).iter().all(|r| reads[*r] == 0)
    };
    let mut work: Vec<Inst> = insts
        .into_iter()
        .filter(|&i| removable(func, i) && unread(func, &reads, i))
        .collect();
    let mut removed = 0;
    while let Some(inst) = work.pop() {
        if func.layout.inst_block(inst).is_none() {
            continue;
        }
        let args: Vec<Value> = func.dfg.inst_values(inst).collect();
        func.layout.remove_inst(inst);
        removed += 1;
        for v in args {
            let v = func.dfg.resolve_aliases(v);
            reads[v] -= 1;
            if reads[v] != 0 {
                continue;
            }
            if let ValueDef::Result(def, _) = func.dfg.value_def(v) {
                if func.layout.inst_block(def).is_some()
                    && removable(func, def)
                    && unread(func, &reads, def)
                {
                    work.push(def);
                }
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use crate::jit::local_cse::tests::built;
    use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};

    /// A load converted three times: one conversion read by nothing, one
    /// feeding a sum whose conversion nothing reads. The load is stored
    /// back. The three unread conversions and the sum go; the load, the
    /// store and the return stay.
    #[test]
    fn unread_chains_go_and_effects_stay() {
        let mut func = built(|b, p| {
            let v = b.ins().load(types::I32X4, MemFlagsData::trusted(), p, 0);
            let f = b.ins().bitcast(types::F32X4, crate::jit::lanes::le(), v);
            let g = b.ins().fadd(f, f);
            b.ins().bitcast(types::I32X4, crate::jit::lanes::le(), g);
            b.ins().bitcast(types::F32X4, crate::jit::lanes::le(), v);
            b.ins().store(MemFlagsData::trusted(), v, p, 16);
            b.ins().return_(&[]);
        });
        assert_eq!(super::remove(&mut func), 4);
        let block = func.layout.entry_block().expect("one block");
        let left: Vec<String> = func
            .layout
            .block_insts(block)
            .map(|i| func.dfg.insts[i].opcode().to_string())
            .collect();
        assert_eq!(left, ["load", "store", "return"]);
    }
}
