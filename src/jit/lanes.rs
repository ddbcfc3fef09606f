//! Values that span all lanes of one register component.
//!
//! A shader runs `4 * k` lanes per call; one component of one register is
//! `k` vectors of four 32-bit lanes (`i32x4`). [`Lanes`] holds those `k`
//! SSA values and [`LaneVar`] the `k` Cranelift variables behind a register
//! component, so every emitter is written once for any `k`.

use cranelift_codegen::ir::{
    types, ConstantData, InstructionData, MemFlagsData, Opcode, Type, Value, ValueDef,
};
use cranelift_codegen::ir::{Endianness, InstBuilder};
use cranelift_frontend::{FunctionBuilder, Variable};

/// Most vectors per component the backend supports.
pub const MAX_K: usize = 4;

/// One register component across all lanes: `k` `i32x4` values.
#[derive(Debug, Clone, Copy)]
pub struct Lanes {
    /// The vectors; only the first `k` are meaningful.
    pub v: [Value; MAX_K],
}

/// The Cranelift variables that hold one register component.
#[derive(Debug, Clone, Copy)]
pub struct LaneVar {
    /// The variables; only the first `k` are used.
    pub v: [Variable; MAX_K],
}

/// The vector type every component is stored as.
pub const VEC: Type = types::I32X4;
/// The float view of [`VEC`].
pub const FVEC: Type = types::F32X4;

/// `x` reinterpreted as `ty`. A constant stays a constant (of the new
/// type), so the instruction using it can still read it from memory; a
/// value that is itself a reinterpretation of a `ty` value is that value
/// (no bitcast of a bitcast: fewer instructions for the backend to lower).
fn retype(b: &mut FunctionBuilder, ty: Type, x: Value) -> Value {
    if b.func.dfg.value_type(x) == ty {
        return x;
    }
    if let ValueDef::Result(inst, _) = b.func.dfg.value_def(x) {
        match b.func.dfg.insts[inst] {
            InstructionData::UnaryConst {
                opcode: Opcode::Vconst,
                constant_handle,
            } => return b.ins().vconst(ty, constant_handle),
            InstructionData::LoadNoOffset {
                opcode: Opcode::Bitcast,
                arg,
                ..
            } if b.func.dfg.value_type(arg) == ty => return arg,
            _ => {}
        }
    }
    b.ins().bitcast(ty, le(), x)
}

/// Flags for bitcasts between vector types.
pub fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Lane-wise helpers on a function builder, for `k` vectors per value.
pub struct LaneBuilder<'a, 'b> {
    /// The builder.
    pub b: &'a mut FunctionBuilder<'b>,
    /// Vectors per value.
    pub k: usize,
}

impl Lanes {
    /// Whether the first `k` vectors are one SSA value (a value the same in
    /// every lane, such as a constant, is built once and shared).
    pub fn shared(&self, k: usize) -> bool {
        self.v[1..k].iter().all(|v| *v == self.v[0])
    }
}

impl LaneBuilder<'_, '_> {
    /// Applies `f` to each vector of `a`, once when `a` is shared.
    pub fn map1(&mut self, a: Lanes, f: impl Fn(&mut FunctionBuilder, Value) -> Value) -> Lanes {
        if a.shared(self.k) {
            let v = f(self.b, a.v[0]);
            return Lanes { v: [v; MAX_K] };
        }
        let mut out = a;
        for j in 0..self.k {
            out.v[j] = f(self.b, a.v[j]);
        }
        out
    }

    /// Applies `f` to each pair of vectors of `a` and `b`, once when both
    /// are shared.
    pub fn map2(
        &mut self,
        a: Lanes,
        b: Lanes,
        f: impl Fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Lanes {
        if a.shared(self.k) && b.shared(self.k) {
            let v = f(self.b, a.v[0], b.v[0]);
            return Lanes { v: [v; MAX_K] };
        }
        let mut out = a;
        for j in 0..self.k {
            out.v[j] = f(self.b, a.v[j], b.v[j]);
        }
        out
    }

    /// Applies `f` to each triple of vectors, once when all are shared.
    pub fn map3(
        &mut self,
        a: Lanes,
        b: Lanes,
        c: Lanes,
        f: impl Fn(&mut FunctionBuilder, Value, Value, Value) -> Value,
    ) -> Lanes {
        if a.shared(self.k) && b.shared(self.k) && c.shared(self.k) {
            let v = f(self.b, a.v[0], b.v[0], c.v[0]);
            return Lanes { v: [v; MAX_K] };
        }
        let mut out = a;
        for j in 0..self.k {
            out.v[j] = f(self.b, a.v[j], b.v[j], c.v[j]);
        }
        out
    }

    /// A value with the same 32-bit word in every lane.
    /// It is a `vconst`: the backend loads it from the function's constant
    /// pool where it is used, instead of broadcasting a scalar each time.
    pub fn splat(&mut self, word: u32) -> Lanes {
        let bytes: Vec<u8> = (0..4).flat_map(|_| word.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        let v = self.b.ins().vconst(VEC, c);
        Lanes { v: [v; MAX_K] }
    }

    /// A constant vector of four words, the same in each of the `k` vectors.
    pub fn splat_words(&mut self, words: [u32; 4]) -> Value {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(VEC, c)
    }

    /// A constant vector of type `ty` holding `bytes`, read from the
    /// function's constant pool where it is used.
    pub fn constant(&mut self, ty: Type, bytes: [u8; 16]) -> Value {
        let c = self
            .b
            .func
            .dfg
            .constants
            .insert(ConstantData::from(bytes.to_vec()));
        self.b.ins().vconst(ty, c)
    }

    /// `x` in every lane of an `f32x4` constant.
    pub fn f32s(&mut self, x: f32) -> Value {
        let bytes = x.to_le_bytes();
        self.constant(FVEC, std::array::from_fn(|i| bytes[i % 4]))
    }

    /// A value with a scalar `i32` SSA value in every lane.
    pub fn splat_value(&mut self, scalar: Value) -> Lanes {
        let v = self.b.ins().splat(VEC, scalar);
        Lanes { v: [v; MAX_K] }
    }

    /// `mask ? a : b` per lane (mask lanes are all ones or zero).
    pub fn select(&mut self, mask: Lanes, a: Lanes, b: Lanes) -> Lanes {
        self.map3(mask, a, b, |b, m, x, y| b.ins().bitselect(m, x, y))
    }

    /// Bitwise and.
    pub fn and(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, super::peephole::and)
    }

    /// `a & !b`.
    pub fn and_not(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |b, x, y| b.ins().band_not(x, y))
    }

    /// Bitwise or.
    pub fn or(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |b, x, y| b.ins().bor(x, y))
    }

    /// Bitwise not.
    pub fn not(&mut self, a: Lanes) -> Lanes {
        self.map1(a, super::peephole::not)
    }

    /// A scalar `i8` that is nonzero when any lane of `mask` is set.
    pub fn any(&mut self, mask: Lanes) -> Value {
        let mut acc = mask.v[0];
        for j in 1..self.k {
            acc = self.b.ins().bor(acc, mask.v[j]);
        }
        self.b.ins().vany_true(acc)
    }

    /// Reinterprets integer vectors as floats.
    pub fn as_float(&mut self, a: Lanes) -> Lanes {
        self.map1(a, |b, x| retype(b, FVEC, x))
    }

    /// Reinterprets float vectors as integers.
    pub fn as_int(&mut self, a: Lanes) -> Lanes {
        self.map1(a, |b, x| retype(b, VEC, x))
    }

    /// Reads a component's variables.
    pub fn use_var(&mut self, var: LaneVar) -> Lanes {
        let mut out = Lanes {
            v: [Value::from_u32(0); MAX_K],
        };
        for j in 0..self.k {
            out.v[j] = self.b.use_var(var.v[j]);
        }
        out
    }

    /// Writes a component's variables.
    pub fn def_var(&mut self, var: LaneVar, val: Lanes) {
        for j in 0..self.k {
            self.b.def_var(var.v[j], val.v[j]);
        }
    }

    /// Declares the variables of one component.
    pub fn declare(&mut self) -> LaneVar {
        let first = self.b.declare_var(VEC);
        let mut var = LaneVar { v: [first; MAX_K] };
        for j in 1..self.k {
            var.v[j] = self.b.declare_var(VEC);
        }
        var
    }
}
