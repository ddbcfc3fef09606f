//! A function's vector constants as one block, addressed from a base
//! register.
//!
//! Cranelift materialises a `vconst` into a register at each use (a load
//! from its constant pool, then the operation), and would do the same with
//! an `iconst` base address. A `load` from a base held in a register is a
//! sinkable load instead: the backend folds it into the operation's memory
//! operand (`vmulps 0x30(%rsi), %xmm4, %xmm4`), so a constant read once
//! costs no instruction and no register of its own. The base is read once
//! per call from a cell the compiled shader owns, so Cranelift cannot see
//! that it is constant. All-zero and all-one vectors stay `vconst`s: the
//! backend makes them with one register-only instruction.

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::{
    types, Function, Inst, InstBuilder, InstructionData, MemFlagsData, Opcode,
};
use std::collections::HashMap;

/// Sixteen bytes, aligned for vector loads.
#[repr(C, align(16))]
#[derive(Debug, Clone, Copy)]
struct Row([u8; 16]);

/// The constants of a compiled function, living as long as its code.
pub struct ConstBlock {
    /// The constants; compiled code reads them through `cell`.
    _rows: Box<[Row]>,
    /// Holds the address of the rows; compiled code loads it at entry.
    _cell: Box<u64>,
}

/// Flags of the loads from the block: it never changes and is always mapped.
fn flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly()
}

/// How many times each value is an argument (branch arguments included).
fn use_counts(func: &Function) -> HashMap<cranelift_codegen::ir::Value, u32> {
    let mut uses = HashMap::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            for v in func.dfg.inst_values(inst) {
                *uses.entry(v).or_insert(0) += 1;
            }
        }
    }
    uses
}

/// The used `vconst`s of `func` worth a load, with their bytes.
fn used_constants(func: &Function) -> Vec<(Inst, [u8; 16])> {
    let uses = use_counts(func);
    let mut found = Vec::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            let InstructionData::UnaryConst {
                opcode: Opcode::Vconst,
                constant_handle,
            } = func.dfg.insts[inst]
            else {
                continue;
            };
            let result = func.dfg.first_result(inst);
            let Ok(bytes) =
                <[u8; 16]>::try_from(func.dfg.constants.get(constant_handle).as_slice())
            else {
                continue;
            };
            let trivial = bytes.iter().all(|&x| x == 0) || bytes.iter().all(|&x| x == 0xff);
            if !trivial && uses.get(&result).copied().unwrap_or(0) > 0 {
                found.push((inst, bytes));
            }
        }
    }
    found
}

impl ConstBlock {
    /// Moves the used vector constants of `func` (a finished function) into
    /// a block: each `vconst` becomes a load from the block's base, which
    /// the entry block loads. `None` when the function has no such constant.
    pub fn place(func: &mut Function) -> Option<ConstBlock> {
        let found = used_constants(func);
        if found.is_empty() {
            return None;
        }
        let mut rows = Vec::new();
        let mut offsets: HashMap<[u8; 16], i32> = HashMap::new();
        for (_, bytes) in &found {
            offsets.entry(*bytes).or_insert_with(|| {
                rows.push(Row(*bytes));
                16 * (rows.len() as i32 - 1)
            });
        }
        let rows = rows.into_boxed_slice();
        let cell = Box::new(rows.as_ptr() as u64);
        let entry = func.layout.entry_block()?;
        let mut cur = FuncCursor::new(func).at_first_insertion_point(entry);
        let cell_addr = cur.ins().iconst(types::I64, &*cell as *const u64 as i64);
        let base = cur.ins().load(types::I64, flags(), cell_addr, 0);
        for (inst, bytes) in found {
            let ty = func.dfg.value_type(func.dfg.first_result(inst));
            func.replace(inst).load(ty, flags(), base, offsets[&bytes]);
        }
        Some(ConstBlock {
            _rows: rows,
            _cell: cell,
        })
    }
}
