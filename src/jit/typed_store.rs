//! Typed stores to views of one 32-bit word per texel (`r32_uint`,
//! `r32_sint`, `r32_float`), the commonest typed UAV formats, written by
//! compiled code without calling the runtime.
//!
//! The format is the bound view's, known only when the shader runs, so the
//! code tests it once per store: an r32 view takes the inline path, any
//! other the runtime's per-lane helper. The inline path follows the
//! helper's rules exactly: texel (x, y, z) of mip 0 is written when the
//! lane is active, x < width, y < max(height, 1), z < max(depth, 1) and
//! the texel's 4 bytes end inside the view; the word is stored as is.
//! Lanes that fail write the frame's sink slot instead. Coordinates the
//! same in every lane (scalar temps, constants) are checked once.

use super::lane_addr::{pair_addrs, widen_half, Extend};
use super::lanes::Lanes;
use super::state::Tr;
use super::JitError;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;
use dxjit_runtime::abi::{Frame, View};
use dxjit_runtime::format::Format;
use std::mem::offset_of;

/// The r32 formats share consecutive ids starting here.
const FIRST_R32: Format = Format::R32Uint;
const _: () = assert!(
    Format::R32Sint as u32 == FIRST_R32 as u32 + 1
        && Format::R32Float as u32 == FIRST_R32 as u32 + 2
);

impl Tr<'_, '_> {
    /// Emits `inline` (given the view's data pointer) when the view at
    /// `view` is a bound r32 view, else `slow`, which emits the runtime's
    /// path.
    pub fn typed_store_r32_or(
        &mut self,
        view: Value,
        inline: impl FnOnce(&mut Self, Value),
        slow: impl FnOnce(&mut Self) -> Result<(), JitError>,
    ) -> Result<(), JitError> {
        let flags = MemFlagsData::trusted();
        let format = self
            .b
            .ins()
            .load(types::I32, flags, view, offset_of!(View, format) as i32);
        let index = self
            .b
            .ins()
            .iadd_imm_s(format, -i64::from(FIRST_R32 as u32));
        let is_r32 = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, index, 3);
        let ptr = self
            .b
            .ins()
            .load(types::I64, flags, view, offset_of!(View, ptr) as i32);
        let bound = self.b.ins().icmp_imm_u(IntCC::NotEqual, ptr, 0);
        let fast = self.b.ins().band(is_r32, bound);
        let inline_block = self.b.create_block();
        let runtime = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(fast, inline_block, &[], runtime, &[]);
        self.b.switch_to_block(inline_block);
        inline(self, ptr);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(runtime);
        slow(self)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// The inline store for coordinates the same in every lane (`xyz`,
    /// scalars): one bounds check and address, then each active lane's
    /// word stored there in lane order (the last active lane's stays),
    /// the others' to the sink.
    pub fn store_r32_uniform(
        &mut self,
        view: Value,
        ptr: Value,
        xyz: [Value; 3],
        value: &Lanes,
        exec: &Lanes,
    ) {
        let [width, height, depth] = self.r32_limits(view);
        let b = &mut self.b;
        let mut ok = b.ins().icmp(IntCC::UnsignedLessThan, xyz[0], width);
        for (coord, limit) in [(xyz[1], height), (xyz[2], depth)] {
            let inside = b.ins().icmp(IntCC::UnsignedLessThan, coord, limit);
            ok = b.ins().band(ok, inside);
        }
        let wide = xyz.map(|c| b.ins().uextend(types::I64, c));
        let field = |b: &mut FunctionBuilder, offset: usize| {
            let p = b
                .ins()
                .load(types::I32, MemFlagsData::trusted(), view, offset as i32);
            b.ins().uextend(types::I64, p)
        };
        let row_pitch = field(b, offset_of!(View, row_pitch));
        let slice_pitch = field(b, offset_of!(View, slice_pitch));
        let size = field(b, offset_of!(View, size));
        let x = b.ins().ishl_imm_u(wide[0], 2);
        let y = b.ins().imul(wide[1], row_pitch);
        let z = b.ins().imul(wide[2], slice_pitch);
        let byte = b.ins().iadd(x, y);
        let byte = b.ins().iadd(byte, z);
        let end = b.ins().iadd_imm_s(byte, 4);
        let fits = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, size);
        let ok = b.ins().band(ok, fits);
        let addr = b.ins().iadd(ptr, byte);
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let b = &mut self.b;
        let addr = b.ins().select(ok, addr, sink);
        for j in 0..self.k {
            for l in 0..4u8 {
                let active = b.ins().extractlane(exec.v[j], l);
                let lane_addr = b.ins().select(active, addr, sink);
                let word = b.ins().extractlane(value.v[j], l);
                b.ins().store(MemFlagsData::trusted(), word, lane_addr, 0);
            }
        }
    }

    /// Width, max(height, 1) and max(depth, 1) of the view at `view`.
    fn r32_limits(&mut self, view: Value) -> [Value; 3] {
        let field = |tr: &mut Self, offset: usize| {
            tr.b.ins()
                .load(types::I32, MemFlagsData::trusted(), view, offset as i32)
        };
        let width = field(self, offset_of!(View, width));
        let height = field(self, offset_of!(View, height));
        let depth = field(self, offset_of!(View, depth));
        let one = self.b.ins().iconst(types::I32, 1);
        let height = self.b.ins().umax(height, one);
        let depth = self.b.ins().umax(depth, one);
        [width, height, depth]
    }

    /// The inline store for per-lane coordinates `c` (x, y, z).
    pub fn store_r32_lanes(
        &mut self,
        view: Value,
        ptr: Value,
        c: &[Lanes],
        value: &Lanes,
        exec: &Lanes,
    ) {
        let field = |tr: &mut Self, offset: usize| {
            tr.b.ins()
                .load(types::I32, MemFlagsData::trusted(), view, offset as i32)
        };
        let limits = self
            .r32_limits(view)
            .map(|l| self.b.ins().splat(types::I32X4, l));
        let pitch = |tr: &mut Self, offset: usize| {
            let p = field(tr, offset);
            let p = tr.b.ins().uextend(types::I64, p);
            tr.b.ins().splat(types::I64X2, p)
        };
        let row_pitch = pitch(self, offset_of!(View, row_pitch));
        let slice_pitch = pitch(self, offset_of!(View, slice_pitch));
        let size = field(self, offset_of!(View, size));
        let size = self.b.ins().uextend(types::I64, size);
        let last = self.word_bound_i64(size);
        let last = self.b.ins().splat(types::I64X2, last);
        let ptr = self.b.ins().splat(types::I64X2, ptr);
        let sink = self.frame_addr(offset_of!(Frame, sink));
        let sink = self.b.ins().splat(types::I64X2, sink);
        for j in 0..self.k {
            let b = &mut self.b;
            let mut ok = exec.v[j];
            for (axis, limit) in limits.iter().enumerate() {
                let inside = b.ins().icmp(IntCC::UnsignedLessThan, c[axis].v[j], *limit);
                ok = b.ins().band(ok, inside);
            }
            for half in 0..2 {
                let [x, y, z] = [0, 1, 2].map(|a| widen_half(b, c[a].v[j], half, Extend::Zero));
                let x = b.ins().ishl_imm_u(x, 2);
                let y = b.ins().imul(y, row_pitch);
                let z = b.ins().imul(z, slice_pitch);
                let byte = b.ins().iadd(x, y);
                let byte = b.ins().iadd(byte, z);
                let fits = b.ins().icmp(IntCC::UnsignedLessThan, byte, last);
                let ok = widen_half(b, ok, half, Extend::Sign);
                let ok = b.ins().band(ok, fits);
                let addrs = pair_addrs(b, byte, ok, ptr, sink);
                for (i, addr) in addrs.into_iter().enumerate() {
                    let word = b.ins().extractlane(value.v[j], (2 * half + i) as u8);
                    b.ins().store(MemFlagsData::trusted(), word, addr, 0);
                }
            }
        }
    }

    /// `max(size - 3, 0)` as an `i64`: a 4-byte access at byte `o` ends
    /// inside `size` bytes exactly when `o` is (unsigned) below it.
    fn word_bound_i64(&mut self, size: Value) -> Value {
        let t = self.b.ins().iadd_imm_s(size, -3);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().smax(t, zero)
    }
}
