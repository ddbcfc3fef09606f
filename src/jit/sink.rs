//! Moves the loads translation marks as movable, and the pure arithmetic
//! computed from them, down to their first reader in their block, for the
//! top tier.
//!
//! Translation emits a shader instruction by instruction, each over all
//! of a step's vectors, and a wide lookup's results are loaded where its
//! paths join (`wide_sample.rs`): sixteen vectors a lookup, all loaded
//! before the first is read. At `opt_level = none` Cranelift keeps that
//! order, and the register allocator spilled most of them to the stack
//! and read them back. Moved to its reader, each load is live for one
//! instruction (and the backend may fold it into its reader as a memory
//! operand), and the arithmetic that reads only such values follows it,
//! so that a step's vectors are worked through one after the other.
//!
//! A load moves only when it is marked `can_move` (its memory is not
//! written again before any reader the function may reach: the results
//! of a wide lookup, written on every path before its join), and never
//! past an instruction that may write memory, so its value is the one it
//! had where it was emitted. Arithmetic moves only when it reads some
//! moved value, and has no effect but its result. Nothing moves into
//! another block, and nothing whose reader is in another block moves.

use cranelift_codegen::entity::SecondaryMap;
use cranelift_codegen::ir::{Function, Inst, InstructionData, Value};
use std::cmp::Ordering;

/// Whether `inst` is a load marked `can_move`.
fn movable_load(func: &Function, inst: Inst) -> bool {
    matches!(func.dfg.insts[inst], InstructionData::Load { flags, .. }
        if func.dfg.mem_flags[flags].can_move())
}

/// Whether `inst` may write memory or otherwise act beyond its results.
fn clobbers(func: &Function, inst: Inst) -> bool {
    let op = func.dfg.insts[inst].opcode();
    op.can_store() || op.is_call() || op.other_side_effects()
}

/// Whether `inst` computes its one result and does nothing else.
fn pure(func: &Function, inst: Inst) -> bool {
    let op = func.dfg.insts[inst].opcode();
    !(clobbers(func, inst)
        || op.can_load()
        || op.can_trap()
        || op.is_branch()
        || op.is_terminator())
        && func.dfg.inst_results(inst).len() == 1
}

/// Moves every movable instruction of every block to just before its
/// first reader there; returns how many moved.
pub fn sink(func: &mut Function) -> usize {
    let mut readers: SecondaryMap<Value, Vec<Inst>> = SecondaryMap::new();
    let blocks: Vec<_> = func.layout.blocks().collect();
    for &block in &blocks {
        for inst in func.layout.block_insts(block) {
            for v in func.dfg.inst_values(inst) {
                readers[func.dfg.resolve_aliases(v)].push(inst);
            }
        }
    }
    let mut moved = 0;
    for block in blocks {
        let insts: Vec<Inst> = func.layout.block_insts(block).collect();
        // Which instructions may move, in order: a marked load, or pure
        // arithmetic reading a value that may move.
        let mut movable = SecondaryMap::<Inst, bool>::new();
        for &inst in &insts {
            movable[inst] = movable_load(func, inst)
                || (pure(func, inst)
                    && func.dfg.inst_values(inst).any(|v| {
                        match func.dfg.value_def(func.dfg.resolve_aliases(v)).inst() {
                            Some(def) => movable[def] && func.layout.inst_block(def) == Some(block),
                            None => false,
                        }
                    }));
        }
        // The first instruction at or after each place that may write memory.
        let mut next_clobber: Vec<Option<Inst>> = vec![None; insts.len() + 1];
        for (i, &inst) in insts.iter().enumerate().rev() {
            next_clobber[i] = if clobbers(func, inst) {
                Some(inst)
            } else {
                next_clobber[i + 1]
            };
        }
        // Last first: an instruction's readers have moved before it does.
        for (i, &inst) in insts.iter().enumerate().rev() {
            if !movable[inst] {
                continue;
            }
            let result = func.dfg.first_result(inst);
            let reads = &readers[result];
            if reads
                .iter()
                .any(|r| func.layout.inst_block(*r) != Some(block))
            {
                continue;
            }
            let first = reads
                .iter()
                .copied()
                .min_by(|a, b| func.layout.pp_cmp(*a, *b));
            let Some(mut to) = first else {
                continue;
            };
            if func.dfg.insts[inst].opcode().can_load() {
                if let Some(clobber) = next_clobber[i + 1] {
                    if func.layout.pp_cmp(clobber, to) == Ordering::Less {
                        to = clobber;
                    }
                }
            }
            if func.layout.next_inst(inst) == Some(to) {
                continue;
            }
            func.layout.remove_inst(inst);
            func.layout.insert_inst(inst, to);
            moved += 1;
        }
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::sink;
    use crate::jit::lanes::le;
    use crate::jit::local_cse::tests::built;
    use cranelift_codegen::ir::{types, Function, InstBuilder, MemFlagsData};

    /// The opcodes of the entry block's instructions, in order.
    fn order(func: &Function) -> Vec<String> {
        let block = func.layout.entry_block().expect("one block");
        func.layout
            .block_insts(block)
            .map(|i| func.dfg.insts[i].opcode().to_string())
            .collect()
    }

    /// Two results loaded together, as a wide lookup's join loads them,
    /// then each scaled and the two summed: each load moves to its
    /// reader, and each product to the sum, so the loads and products
    /// alternate.
    #[test]
    fn marked_loads_and_their_arithmetic_move_to_their_readers() {
        let mut func = built(|b, p| {
            let flags = MemFlagsData::trusted().with_can_move();
            let x = b.ins().load(types::F32X4, flags, p, 0);
            let y = b.ins().load(types::F32X4, flags, p, 16);
            let two = b.ins().f32const(2.0);
            let two = b.ins().splat(types::F32X4, two);
            let sx = b.ins().fmul(x, two);
            let sy = b.ins().fmul(y, two);
            let sum = b.ins().fadd(sx, sy);
            b.ins().store(MemFlagsData::trusted(), sum, p, 32);
            b.ins().return_(&[]);
        });
        assert_eq!(sink(&mut func), 3);
        assert_eq!(
            order(&func),
            ["f32const", "splat", "load", "fmul", "load", "fmul", "fadd", "store", "return"]
        );
    }

    /// A marked load stops before a store (which may write its memory),
    /// an unmarked load and arithmetic on unmarked values stay where they
    /// are, and a value read in another block does not move.
    #[test]
    fn stores_unmarked_values_and_other_blocks_keep_instructions() {
        let mut func = built(|b, p| {
            let flags = MemFlagsData::trusted();
            let marked = b.ins().load(types::I32X4, flags.with_can_move(), p, 0);
            let plain = b.ins().load(types::I32X4, flags, p, 16);
            let doubled = b.ins().iadd(plain, plain);
            let crossing = b.ins().load(types::I32X4, flags.with_can_move(), p, 48);
            b.ins().store(flags, doubled, p, 64);
            let sum = b.ins().iadd(marked, doubled);
            b.ins().store(flags, sum, p, 32);
            let next = b.create_block();
            b.ins().jump(next, &[]);
            b.switch_to_block(next);
            let f = b.ins().bitcast(types::F32X4, le(), crossing);
            b.ins().store(flags, f, p, 80);
            b.ins().return_(&[]);
        });
        // Only `marked` moves, to just before the first store.
        assert_eq!(sink(&mut func), 1);
        assert_eq!(
            order(&func),
            ["load", "iadd", "load", "load", "store", "iadd", "store", "jump"]
        );
        let block = func.layout.entry_block().expect("entry");
        let third = func.layout.block_insts(block).nth(2).expect("third");
        let offset = match func.dfg.insts[third] {
            cranelift_codegen::ir::InstructionData::Load { offset, .. } => i32::from(offset),
            _ => unreachable!("a load"),
        };
        assert_eq!(offset, 48, "the load read in another block stays");
    }
}
