//! Where a function keeps the values that outlive an instruction: register
//! components, execution masks and scalar temps.
//!
//! The top tier keeps each in a Cranelift variable: the builder turns them
//! into SSA values and block parameters, which the backtracking allocator
//! keeps in registers across blocks. The first tier keeps each in a piece
//! of one stack slot, as a baseline compiler keeps locals in its frame: a
//! read is a load and a write a store, so no value outlives its block, the
//! builder builds no SSA form and the single-pass allocator has little to
//! spill. Inside a block a read takes the value the block last wrote or
//! read (no load), a write the next write overwrites unread goes, and at
//! the end writes to cells nothing reads go.

use cranelift_codegen::ir::{
    types, Block, Function, Inst, InstBuilder, MemFlagsData, StackSlot, StackSlotData,
    StackSlotKind, Type, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use rustc_hash::{FxHashMap, FxHashSet};

/// Where a function keeps its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Cranelift variables.
    Vars,
    /// Pieces of one stack slot.
    Stack,
}

/// Where one value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A Cranelift variable.
    Var(Variable),
    /// The bytes of the function's cell slot from this offset.
    Slot(u32),
}

/// The cells of one function and what the current blocks know of them.
pub struct Cells {
    /// Where new cells go.
    storage: Storage,
    /// The stack slot holding every [`Cell::Slot`], made by the first one.
    slot: Option<StackSlot>,
    /// Bytes of the slot handed out.
    size: u32,
    /// The slot's address in the block it was taken in.
    addr: Option<(Block, Value)>,
    /// Each cell's value as its block last wrote or read it.
    known: FxHashMap<u32, (Block, Value)>,
    /// Each cell's last write, while its block has not read it.
    unread: FxHashMap<u32, (Block, Inst)>,
    /// Every write to a cell, for dropping those to cells never read.
    writes: Vec<(u32, Inst)>,
    /// The cells some load reads.
    read: FxHashSet<u32>,
}

impl Cells {
    /// No cells yet; new ones go to `storage`.
    pub fn new(storage: Storage) -> Cells {
        Cells {
            storage,
            slot: None,
            size: 0,
            addr: None,
            known: FxHashMap::default(),
            unread: FxHashMap::default(),
            writes: Vec::new(),
            read: FxHashSet::default(),
        }
    }

    /// `n` new cells of type `ty` (the rest of the `N` repeat the first).
    pub fn declare<const N: usize>(
        &mut self,
        b: &mut FunctionBuilder,
        ty: Type,
        n: usize,
    ) -> [Cell; N] {
        let mut cells = [self.declare_one(b, ty); N];
        for cell in cells.iter_mut().take(n).skip(1) {
            *cell = self.declare_one(b, ty);
        }
        cells
    }

    fn declare_one(&mut self, b: &mut FunctionBuilder, ty: Type) -> Cell {
        match self.storage {
            Storage::Vars => Cell::Var(b.declare_var(ty)),
            Storage::Stack => {
                if self.slot.is_none() {
                    self.slot = Some(b.create_sized_stack_slot(StackSlotData::new(
                        StackSlotKind::ExplicitSlot,
                        0,
                        4,
                    )));
                }
                let offset = self.size.next_multiple_of(ty.bytes());
                self.size = offset + ty.bytes();
                Cell::Slot(offset)
            }
        }
    }

    /// The cell slot's address in the current block.
    fn addr(&mut self, b: &mut FunctionBuilder, slot: StackSlot) -> Value {
        let block = b.current_block().expect("a cell is used inside a block");
        match self.addr {
            Some((at, v)) if at == block => v,
            _ => {
                let v = b.ins().stack_addr(types::I64, slot, 0);
                self.addr = Some((block, v));
                v
            }
        }
    }

    /// Reads `cell` (of type `ty`).
    pub fn get(&mut self, b: &mut FunctionBuilder, cell: Cell, ty: Type) -> Value {
        let offset = match cell {
            Cell::Var(var) => return b.use_var(var),
            Cell::Slot(offset) => offset,
        };
        let block = b.current_block().expect("a cell is read inside a block");
        if let Some(&(at, v)) = self.known.get(&offset) {
            if at == block && b.func.dfg.value_type(v) == ty {
                return v;
            }
        }
        let slot = self.slot.expect("a slot cell has its slot");
        let addr = self.addr(b, slot);
        let v = b
            .ins()
            .load(ty, MemFlagsData::trusted(), addr, offset as i32);
        self.read.insert(offset);
        self.unread.remove(&offset);
        self.known.insert(offset, (block, v));
        v
    }

    /// Writes `v` to `cell`.
    pub fn set(&mut self, b: &mut FunctionBuilder, cell: Cell, v: Value) {
        let offset = match cell {
            Cell::Var(var) => return b.def_var(var, v),
            Cell::Slot(offset) => offset,
        };
        let block = b.current_block().expect("a cell is written inside a block");
        let slot = self.slot.expect("a slot cell has its slot");
        let addr = self.addr(b, slot);
        let store = b
            .ins()
            .store(MemFlagsData::trusted(), v, addr, offset as i32);
        // Inside a block every read after a write takes the written value,
        // so an earlier write of this block is never read.
        if let Some((at, earlier)) = self.unread.insert(offset, (block, store)) {
            if at == block {
                b.func.layout.remove_inst(earlier);
            }
        }
        self.known.insert(offset, (block, v));
        self.writes.push((offset, store));
    }

    /// Sizes the cell slot and removes the writes to cells no load reads.
    pub fn finish(&mut self, func: &mut Function) {
        let Some(slot) = self.slot else {
            return;
        };
        func.sized_stack_slots[slot].size = self.size;
        for &(offset, store) in &self.writes {
            if !self.read.contains(&offset) && func.layout.inst_block(store).is_some() {
                func.layout.remove_inst(store);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Cells, Storage};
    use cranelift_codegen::ir::{
        types, AbiParam, Function, InstBuilder, MemFlagsData, Signature, UserFuncName,
    };
    use cranelift_codegen::isa::CallConv;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// The text of a function of one pointer parameter whose two blocks
    /// `body` fills through stack cells (then finished).
    fn built(
        body: impl FnOnce(&mut FunctionBuilder, &mut Cells, cranelift_codegen::ir::Value),
    ) -> String {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry)[0];
        let mut cells = Cells::new(Storage::Stack);
        body(&mut b, &mut cells, p);
        cells.finish(b.func);
        b.seal_all_blocks();
        let isa = crate::jit::module::isa(crate::jit::Codegen::Quick).expect("host ISA");
        b.finalize(isa.frontend_config());
        func.display().to_string()
    }

    #[test]
    fn reads_in_a_block_take_its_last_write_and_overwritten_writes_go() {
        let text = built(|b, cells, p| {
            let [c] = cells.declare::<1>(b, types::I32, 1);
            let [d] = cells.declare::<1>(b, types::I32, 1);
            let one = b.ins().iconst(types::I32, 1);
            let two = b.ins().iconst(types::I32, 2);
            cells.set(b, c, one);
            cells.set(b, c, two);
            let x = cells.get(b, c, types::I32);
            cells.set(b, d, x);
            let next = b.create_block();
            b.ins().jump(next, &[]);
            b.switch_to_block(next);
            let y = cells.get(b, c, types::I32);
            let z = cells.get(b, c, types::I32);
            let s = b.ins().iadd(y, z);
            b.ins().store(MemFlagsData::trusted(), s, p, 0);
            b.ins().return_(&[]);
        });
        // Block 0: `c = 1` is overwritten unread, `c = 2` stays (block 1
        // reads it), the read of c is the value 2 (no load), and `d = x`
        // goes at the end because nothing loads d: one store to the slot.
        // Block 1: one load of c serves both reads. The other store is the
        // one to `p`.
        assert_eq!(text.matches("store").count(), 2, "{text}");
        assert_eq!(text.matches("load").count(), 1, "{text}");
        assert!(text.contains("explicit_slot 8"), "{text}");
        // v1 and v2 are the constants, v3 block 0's slot address, v4 block
        // 1's and v5 its load.
        assert!(text.contains("iadd v5, v5"), "{text}");
    }

    #[test]
    fn a_read_between_two_writes_keeps_both_in_another_block() {
        let text = built(|b, cells, p| {
            let [c] = cells.declare::<1>(b, types::I32, 1);
            let one = b.ins().iconst(types::I32, 1);
            cells.set(b, c, one);
            let next = b.create_block();
            b.ins().jump(next, &[]);
            b.switch_to_block(next);
            let x = cells.get(b, c, types::I32);
            let y = b.ins().iadd_imm_s(x, 1);
            cells.set(b, c, y);
            let z = cells.get(b, c, types::I32);
            b.ins().store(MemFlagsData::trusted(), z, p, 0);
            b.ins().return_(&[]);
        });
        // The write in block 0 reaches block 1's load; block 1's own write
        // is read by no load (its read is forwarded) but the slot is read,
        // so it stays: two stores to the slot, one to `p`, one load.
        assert_eq!(text.matches("store").count(), 3, "{text}");
        assert_eq!(text.matches("load").count(), 1, "{text}");
    }
}
