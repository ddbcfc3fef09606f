//! A function's vector constants as rows of its read-only data, addressed
//! from a base register.
//!
//! Cranelift materialises a `vconst` into a register at each use (a load
//! from its constant pool, then the operation), and would do the same with
//! an `iconst` base address. A `load` from a base held in a register is a
//! sinkable load instead: the backend folds it into the operation's memory
//! operand (`vmulps 0x30(%rsi), %xmm4, %xmm4`), so a constant read once
//! costs no instruction and no register of its own. The rows are appended
//! to the immediate constant buffer's data object, and the base is that
//! object's symbol, relocated like every other address the code holds, so
//! the code can be stored and loaded elsewhere (the persistent cache). All-
//! zero and all-one vectors stay `vconst`s: the backend makes them with one
//! register-only instruction.

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{
    types, Function, GlobalValue, Inst, InstBuilder, InstructionData, MemFlagsData, Opcode,
};
use std::collections::HashMap;

/// Sixteen bytes, aligned for vector loads.
fn flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly()
}

/// The used `vconst`s of `func` worth a load, with their bytes: one pass
/// notes every value used as an argument (branch arguments included) and
/// every non-trivial 16-byte `vconst`.
fn used_constants(func: &Function) -> Vec<(Inst, [u8; 16])> {
    let mut used = vec![false; func.dfg.num_values()];
    let mut constants = Vec::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            for v in func.dfg.inst_values(inst) {
                used[v.index()] = true;
            }
            let InstructionData::UnaryConst {
                opcode: Opcode::Vconst,
                constant_handle,
            } = func.dfg.insts[inst]
            else {
                continue;
            };
            let Ok(bytes) =
                <[u8; 16]>::try_from(func.dfg.constants.get(constant_handle).as_slice())
            else {
                continue;
            };
            let trivial = bytes.iter().all(|&x| x == 0) || bytes.iter().all(|&x| x == 0xff);
            if !trivial {
                constants.push((inst, bytes));
            }
        }
    }
    constants.retain(|(inst, _)| used[func.dfg.first_result(*inst).index()]);
    constants
}

/// Replaces every used, non-trivial vector constant of `func` with a load
/// at `base_offset` + 16 * row from the data symbol `data`, and returns the
/// rows to append there (at `base_offset`, which is 16-aligned).
pub fn place(func: &mut Function, data: GlobalValue, base_offset: i32) -> Vec<[u8; 16]> {
    let found = used_constants(func);
    let Some(entry) = func.layout.entry_block() else {
        return Vec::new();
    };
    if found.is_empty() {
        return Vec::new();
    }
    let mut rows = Vec::new();
    let mut offsets: HashMap<[u8; 16], i32> = HashMap::new();
    for (_, bytes) in &found {
        offsets.entry(*bytes).or_insert_with(|| {
            rows.push(*bytes);
            base_offset + 16 * (rows.len() as i32 - 1)
        });
    }
    let mut cur = FuncCursor::new(func).at_first_insertion_point(entry);
    let base = cur.ins().symbol_value(types::I64, data);
    for (inst, bytes) in found {
        let ty = func.dfg.value_type(func.dfg.first_result(inst));
        func.replace(inst).load(ty, flags(), base, offsets[&bytes]);
    }
    rows
}
