//! Bindings that borrow what they bind: read-only views from `&[u8]` and
//! `&Texture`, writable ones from `&mut [u8]` and `&mut Texture`, so no view
//! outlives its memory and nothing bound read-only can be written.

use super::error::BindError;
use crate::ir::class;
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::Bindings as RawBindings;
use dxjit_runtime::sampler::SamplerState;
use dxjit_runtime::texture::Texture;
use std::marker::PhantomData;
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

/// How a buffer's bytes are addressed by the shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferLayout {
    /// Byte-addressed (`ByteAddressBuffer`, `ld_raw`/`store_raw`).
    Raw,
    /// Structures of this many bytes (`StructuredBuffer`).
    Structured(u32),
}

/// The resources a call reads and writes, borrowed for `'a`.
///
/// ```
/// use dxjit::{BufferLayout, Bindings};
/// let constants = [0u8; 16];
/// let mut out = vec![0u8; 256];
/// let mut b = Bindings::new();
/// b.constant_buffer(0, &constants)?.rw_buffer(0, &mut out, BufferLayout::Raw)?;
/// # Ok::<(), dxjit::BindError>(())
/// ```
///
/// A view cannot outlive the memory it views:
///
/// ```compile_fail
/// use dxjit::{BufferLayout, Bindings};
/// let mut b = Bindings::new();
/// {
///     let mut out = vec![0u8; 256];
///     b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
/// }
/// drop(b);
/// ```
///
/// and memory bound read-only cannot be written while it is bound:
///
/// ```compile_fail
/// use dxjit::{BufferLayout, Bindings};
/// let mut data = vec![0u8; 256];
/// let mut b = Bindings::new();
/// b.buffer(0, &data, BufferLayout::Raw).unwrap();
/// b.rw_buffer(1, &mut data, BufferLayout::Raw).unwrap();
/// drop(b);
/// ```
///
/// nor can a texture bound for reading:
///
/// ```compile_fail
/// use dxjit::Bindings;
/// use dxjit_runtime::texture::Texture;
/// fn bind(tex: &mut Texture) {
///     let mut b = Bindings::new();
///     b.texture(0, tex).unwrap();
///     b.rw_texture(0, tex).unwrap();
///     drop(b);
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Bindings<'a> {
    raw: RawBindings,
    samplers_bound: u32,
    class_instances: Vec<Option<(u32, [u32; 4])>>,
    class_rows: Arc<Vec<[u32; 4]>>,
    _borrows: PhantomData<&'a mut [u8]>,
}

impl Default for Bindings<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Bindings<'a> {
    /// Nothing bound: every read of an unbound slot gives 0 and every
    /// write to one is dropped, as D3D defines; samplers are D3D's defaults.
    pub fn new() -> Self {
        Bindings {
            raw: RawBindings::default(),
            samplers_bound: 0,
            class_instances: Vec::new(),
            class_rows: Arc::new(Vec::new()),
            _borrows: PhantomData,
        }
    }

    /// Binds constant buffer `slot` (`cb#`; D3D9's `c#`, `i#`, `b#` files
    /// are slots 0, 1, 2).
    pub fn constant_buffer(&mut self, slot: u32, data: &'a [u8]) -> Result<&mut Self, BindError> {
        let view = bytes_view(data.as_ptr().cast_mut(), data.len(), BufferLayout::Raw)?;
        *slot_mut(&mut self.raw.cbs, slot, "constant buffer")? = view;
        Ok(self)
    }

    /// Binds a raw or structured buffer as SRV `t#slot`.
    pub fn buffer(
        &mut self,
        slot: u32,
        data: &'a [u8],
        layout: BufferLayout,
    ) -> Result<&mut Self, BindError> {
        let view = bytes_view(data.as_ptr().cast_mut(), data.len(), layout)?;
        *slot_mut(&mut self.raw.srvs, slot, "SRV")? = view;
        Ok(self)
    }

    /// Binds a texture or typed buffer as SRV `t#slot`.
    pub fn texture(&mut self, slot: u32, texture: &'a Texture) -> Result<&mut Self, BindError> {
        let view = texture.view();
        size_u32(texture.data().len())?;
        *slot_mut(&mut self.raw.srvs, slot, "SRV")? = view;
        Ok(self)
    }

    /// Binds a raw or structured buffer as UAV `u#slot`.
    pub fn rw_buffer(
        &mut self,
        slot: u32,
        data: &'a mut [u8],
        layout: BufferLayout,
    ) -> Result<&mut Self, BindError> {
        let view = bytes_view(data.as_mut_ptr(), data.len(), layout)?;
        *slot_mut(&mut self.raw.uavs, slot, "UAV")? = view;
        Ok(self)
    }

    /// Binds a texture or typed buffer as UAV `u#slot`.
    pub fn rw_texture(
        &mut self,
        slot: u32,
        texture: &'a mut Texture,
    ) -> Result<&mut Self, BindError> {
        size_u32(texture.data().len())?;
        let view = texture.view_mut();
        *slot_mut(&mut self.raw.uavs, slot, "UAV")? = view;
        Ok(self)
    }

    /// Binds `counter` as the hidden counter of UAV `u#slot` (append and
    /// consume buffers, `IncrementCounter` / `DecrementCounter`):
    /// `imm_atomic_alloc` adds 1 and returns the value before,
    /// `imm_atomic_consume` subtracts 1 (wrapping below 0) and returns the
    /// value after. Store the initial value before the call and load the
    /// final one after it. A UAV without a counter gives 0 and counts
    /// nothing.
    pub fn uav_counter(
        &mut self,
        slot: u32,
        counter: &'a AtomicU32,
    ) -> Result<&mut Self, BindError> {
        *slot_mut(&mut self.raw.uav_counters, slot, "UAV counter")? = counter;
        Ok(self)
    }

    /// Sets sampler `s#slot`.
    pub fn sampler(&mut self, slot: u32, state: SamplerState) -> Result<&mut Self, BindError> {
        *slot_mut(&mut self.raw.samplers, slot, "sampler")? = state;
        self.samplers_bound |= 1 << slot;
        Ok(self)
    }

    /// Binds a class instance to interface slot `slot` (SM5 class linkage,
    /// `fp#` numbering: `fp2[1]` is slot 3): the function table of its
    /// class and where its data lies. Every slot the shader declares must
    /// be bound, to a table its interface lists, or the call fails, as
    /// D3D11 disables such a shader.
    pub fn class_instance(
        &mut self,
        slot: u32,
        instance: ClassInstance,
    ) -> Result<&mut Self, BindError> {
        let n = class::MAX_SLOTS;
        if slot >= n {
            return Err(BindError::SlotOutOfRange {
                what: "interface",
                slot,
                slots: n as usize,
            });
        }
        if self.class_instances.len() <= slot as usize {
            self.class_instances.resize(slot as usize + 1, None);
        }
        let this = [
            instance.cb,
            instance.cb_offset,
            instance.texture,
            instance.sampler,
        ];
        self.class_instances[slot as usize] = Some((instance.table, this));
        self.class_rows = Arc::new(class::rows(&self.class_instances));
        self.raw.cbs[class::CLASS_CB_SLOT as usize] = View {
            ptr: self.class_rows.as_ptr().cast_mut().cast(),
            size: class::ROWS * 16,
            ..View::EMPTY
        };
        Ok(self)
    }

    /// The class instances bound, by interface slot: function table and
    /// `this` data (constant buffer, offset, texture, sampler).
    pub fn class_instances(&self) -> &[Option<(u32, [u32; 4])>] {
        &self.class_instances
    }

    /// Uses `flag` as the interrupt flag: storing a nonzero value in it,
    /// from any thread, stops a running call at its next loop back edge
    /// with [`super::RunError::Interrupted`]. It stays set; clear it before
    /// the next call.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicU32>) -> &mut Self {
        self.raw.interrupt = flag;
        self
    }

    /// The interrupt flag (a fresh one unless [`Bindings::set_interrupt`]
    /// replaced it).
    pub fn interrupt(&self) -> &Arc<AtomicU32> {
        &self.raw.interrupt
    }

    /// Whether sampler `slot` was set.
    pub fn sampler_bound(&self, slot: u32) -> bool {
        slot < 32 && self.samplers_bound & (1 << slot) != 0
    }

    /// The runtime's view of these bindings.
    pub fn raw(&self) -> &RawBindings {
        &self.raw
    }
}

/// A class instance bound to an interface slot
/// ([`Bindings::class_instance`]), as `ID3D11ClassLinkage::CreateClassInstance`
/// describes one, with its class given by function table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassInstance {
    /// The function table (`ft#`) of the instance's class.
    pub table: u32,
    /// The constant buffer slot holding the instance's data (`this[].x`).
    pub cb: u32,
    /// Where the data starts in it, in 16-byte rows (`this[].y`).
    pub cb_offset: u32,
    /// The first texture slot of the instance (`this[].z`).
    pub texture: u32,
    /// The first sampler slot of the instance (`this[].w`).
    pub sampler: u32,
}

fn slot_mut<'s, T>(
    slots: &'s mut [T],
    slot: u32,
    what: &'static str,
) -> Result<&'s mut T, BindError> {
    let n = slots.len();
    slots
        .get_mut(slot as usize)
        .ok_or(BindError::SlotOutOfRange {
            what,
            slot,
            slots: n,
        })
}

fn size_u32(len: usize) -> Result<u32, BindError> {
    u32::try_from(len)
        .ok()
        .filter(|&n| n < u32::MAX)
        .ok_or(BindError::TooLarge(len))
}

fn bytes_view(ptr: *mut u8, len: usize, layout: BufferLayout) -> Result<View, BindError> {
    let size = size_u32(len)?;
    let stride = match layout {
        BufferLayout::Raw => 0,
        BufferLayout::Structured(s) if s != 0 && s.is_multiple_of(4) => s,
        BufferLayout::Structured(s) => return Err(BindError::BadStride(s)),
    };
    Ok(View {
        ptr,
        size,
        stride,
        ..View::EMPTY
    })
}
