//! Merges repeated computations inside each block, for the quick tier.
//!
//! Translation builds each operand where it is read: a literal is a new
//! `vconst` at every read, a constant-buffer word a new load and splat, a
//! float view of a variable a new bitcast. At `opt_level = none` Cranelift
//! keeps every copy, and lowering, register allocation and emission pay
//! for each. Within one block an instruction equal to an earlier one (same
//! operation, operands and result type) computes the same value, so its
//! result becomes an alias of the earlier one and the instruction goes.
//! Loads merge only while nothing between them may write memory (a store,
//! a call, an atomic or a fence).

use cranelift_codegen::ir::{Function, Inst, InstructionData, Opcode, Type, Value};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// What makes two instructions compute the same value.
type Key = (InstructionData, Type);

/// How an instruction takes part in merging.
enum Role {
    /// A pure computation: merged with an equal earlier one.
    Pure,
    /// A plain load: merged while memory is unchanged.
    Load,
    /// May write memory: earlier loads no longer hold.
    Clobber,
    /// Left alone.
    Other,
}

fn role(func: &Function, inst: Inst) -> Role {
    let op = func.dfg.insts[inst].opcode();
    if op.can_store() || op.is_call() || op.other_side_effects() {
        return Role::Clobber;
    }
    if op.is_branch() || op.is_terminator() || func.dfg.inst_results(inst).len() != 1 {
        return Role::Other;
    }
    match op {
        Opcode::Load => Role::Load,
        _ if op.can_load() => Role::Other,
        _ => Role::Pure,
    }
}

/// Points `inst`'s operands at the values their aliases stand for, so
/// that equal computations have equal operands.
fn resolve_args(func: &mut Function, inst: Inst) {
    for i in 0..func.dfg.inst_args(inst).len() {
        let v: Value = func.dfg.inst_args(inst)[i];
        let original = func.dfg.resolve_aliases(v);
        if original != v {
            func.dfg.inst_args_mut(inst)[i] = original;
        }
    }
}

/// Merges repeated instructions block by block; returns how many went.
pub fn merge(func: &mut Function) -> usize {
    let mut pure: FxHashMap<Key, Value> = FxHashMap::default();
    let mut loads: FxHashMap<Key, Value> = FxHashMap::default();
    let mut merged = 0;
    let mut block = func.layout.entry_block();
    while let Some(b) = block {
        pure.clear();
        loads.clear();
        let mut next = func.layout.first_inst(b);
        while let Some(inst) = next {
            next = func.layout.next_inst(inst);
            let table = match role(func, inst) {
                Role::Pure => &mut pure,
                Role::Load => &mut loads,
                Role::Clobber => {
                    loads.clear();
                    continue;
                }
                Role::Other => continue,
            };
            resolve_args(func, inst);
            let result = func.dfg.first_result(inst);
            let key = (func.dfg.insts[inst], func.dfg.value_type(result));
            match table.entry(key) {
                Entry::Occupied(earlier) => {
                    func.layout.remove_inst(inst);
                    func.dfg.clear_results(inst);
                    func.dfg.change_to_alias(result, *earlier.get());
                    merged += 1;
                }
                Entry::Vacant(slot) => {
                    slot.insert(result);
                }
            }
        }
        block = func.layout.next_block(b);
    }
    merged
}

#[cfg(test)]
pub(super) mod tests {
    use super::merge;
    use cranelift_codegen::ir::{
        types, AbiParam, Function, InstBuilder, MemFlagsData, Signature, UserFuncName,
    };
    use cranelift_codegen::isa::CallConv;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// A function of one pointer parameter whose one block `body` builds.
    pub(in crate::jit) fn built(
        body: impl FnOnce(&mut FunctionBuilder, cranelift_codegen::ir::Value),
    ) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry)[0];
        body(&mut b, p);
        b.seal_all_blocks();
        let isa = crate::jit::module::isa(crate::jit::Codegen::Quick).expect("host ISA");
        b.finalize(isa.frontend_config());
        func
    }

    /// A function of one pointer parameter built by `body`, then merged.
    fn merged(
        body: impl FnOnce(&mut FunctionBuilder, cranelift_codegen::ir::Value),
    ) -> (usize, String) {
        let mut func = built(body);
        let n = merge(&mut func);
        (n, func.display().to_string())
    }

    #[test]
    fn repeated_pure_instructions_and_loads_merge() {
        let (n, text) = merged(|b, p| {
            let flags = MemFlagsData::trusted();
            let x = b.ins().load(types::I32, flags, p, 8);
            let y = b.ins().load(types::I32, flags, p, 8);
            let one = b.ins().iconst(types::I32, 1);
            let one_again = b.ins().iconst(types::I32, 1);
            let s = b.ins().iadd(x, one);
            let t = b.ins().iadd(y, one_again);
            let u = b.ins().imul(s, t);
            b.ins().store(flags, u, p, 0);
            b.ins().return_(&[]);
        });
        // The second load (same address, nothing stored between), the second
        // iconst 1, then the second iadd (whose operands became the first
        // one's): three instructions, leaving s * s.
        assert_eq!(n, 3, "{text}");
        assert_eq!(text.matches("load").count(), 1, "{text}");
        assert_eq!(text.matches("iadd").count(), 1, "{text}");
        // v5 = iadd v1, v3; the second iadd (v6) was v2 + v4, both merged.
        assert!(text.contains("imul v5, v5"), "{text}");
    }

    #[test]
    fn a_store_between_keeps_both_loads_and_types_keep_apart() {
        let (n, text) = merged(|b, p| {
            let flags = MemFlagsData::trusted();
            let x = b.ins().load(types::I32, flags, p, 8);
            b.ins().store(flags, x, p, 8);
            let y = b.ins().load(types::I32, flags, p, 8);
            // Same bits, another type: not the same value.
            let f = b.ins().load(types::F32, flags, p, 8);
            let z = b.ins().iconst(types::I64, 1);
            let z = b.ins().ireduce(types::I32, z);
            let w = b.ins().iconst(types::I32, 1);
            let g = b.ins().bitcast(types::I32, MemFlagsData::new(), f);
            let h = b.ins().iadd(y, g);
            let h = b.ins().iadd(h, w);
            let h = b.ins().iadd(h, z);
            b.ins().store(flags, h, p, 0);
            b.ins().return_(&[]);
        });
        assert_eq!(n, 0, "{text}");
        assert_eq!(text.matches("load").count(), 3, "{text}");
    }
}
