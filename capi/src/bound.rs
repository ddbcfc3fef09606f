//! Checking a caller's bindings and converting them to the runtime's.

use crate::bindings::{Bindings, BufferBinding, SamplerBinding, BINDINGS_V1_SIZE};
use crate::checks::{in_range, invalid, optional_grown, versioned_slice};
use crate::class::{class_instances, ClassRows};
use crate::enums::{
    address, buffer_kind, compare, filter, format, mag_filter, mip_filter, reduction, BufferKind,
};
use crate::sampler_array::sampler_bindings;
use crate::shader::Shader;
use crate::status::{Failure, Outcome, Status};
use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::Bindings as RuntimeBindings;
use dxjit_runtime::sampler::SamplerState;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicU32;
use std::time::Duration;

/// The runtime's bindings and the constant-buffer copies they point to.
pub(crate) struct Bound {
    /// What compiled code sees.
    pub(crate) bindings: RuntimeBindings,
    /// Owns the constant-buffer memory `bindings.cbs` points to.
    _constants: Vec<Vec<u128>>,
    /// Owns the class-instance rows `bindings.cbs` points to.
    _classes: Option<ClassRows>,
    /// How long the call may run.
    timeout: Option<Duration>,
}

impl Bound {
    /// Checks `b` (null: nothing bound) and builds the runtime's bindings.
    ///
    /// # Safety
    /// `b` is null or a readable `dxjit_bindings` whose arrays hold their
    /// counts of entries, whose buffers are valid for their sizes, and whose
    /// textures are live, all for as long as the result is used.
    pub(crate) unsafe fn new(shader: &Shader, b: *const Bindings) -> Outcome<Bound> {
        let mut bindings = RuntimeBindings::default();
        let mut constants = BTreeMap::new();
        let mut timeout = None;
        let mut validate = false;
        let mut classes = None;
        // SAFETY: forwarded contract.
        if let Some(g) = unsafe { optional_grown(b, "bindings", &[BINDINGS_V1_SIZE]) }? {
            let g = &g;
            if !g.interrupt.is_null() {
                if !g.interrupt.is_aligned() {
                    return Err(Failure::new(Status::NullPointer, "interrupt is misaligned"));
                }
                // SAFETY: non-null and aligned; a live handle (contract).
                bindings.interrupt = unsafe { &*g.interrupt }.0.clone();
            }
            timeout = (g.timeout_ms > 0).then(|| Duration::from_millis(g.timeout_ms.into()));
            validate = g.validate != 0;
            // SAFETY: forwarded contract.
            constants = unsafe { constant_bytes(g) }?;
            // SAFETY: forwarded contract.
            unsafe { bind_views(g, &mut bindings) }?;
            // SAFETY: forwarded contract.
            unsafe { bind_counters(g, &mut bindings) }?;
            // SAFETY: forwarded contract.
            classes = unsafe { class_instances(g) }?;
        }
        apply_definitions(shader, &mut constants)?;
        let mut owned = Vec::new();
        for (slot, bytes) in constants {
            let (view, block) = constant_view(&bytes)?;
            bindings.cbs[slot] = view;
            owned.push(block);
        }
        let classes = ClassRows::bind(shader, classes, &mut bindings)?;
        if validate {
            dxjit::api::validate_bindings(shader.shader.program(), &bindings);
        }
        Ok(Bound {
            bindings,
            _constants: owned,
            _classes: classes,
            timeout,
        })
    }

    /// Runs `call` of `shader` on the bindings, under the timeout; a call
    /// stopped by the interrupt flag, the timeout or the shader's `abort`
    /// or `debug_break` is a failure that says which.
    pub(crate) fn run<R>(
        &self,
        shader: &dxjit::Shader,
        call: impl FnOnce(&RuntimeBindings) -> R,
    ) -> Outcome<R> {
        let flag = &self.bindings.interrupt;
        let (result, expired) = match self.timeout {
            Some(limit) => dxjit::api::within_deadline(flag, limit, || call(&self.bindings)),
            None => (call(&self.bindings), false),
        };
        if expired {
            let ms = self.timeout.unwrap_or_default().as_millis();
            return Err(Failure::new(
                Status::DeadlineExceeded,
                format!("stopped at its timeout of {ms} ms"),
            ));
        }
        match dxjit::api::stop_reason(flag, shader) {
            Some(stop) => Err(stop.into()),
            None => Ok(result),
        }
    }
}

/// Copies of the constant buffers `g` binds, by slot.
///
/// # Safety
/// As [`Bound::new`].
unsafe fn constant_bytes(g: &Bindings) -> Outcome<BTreeMap<usize, Vec<u8>>> {
    let mut constants = BTreeMap::new();
    // SAFETY: the array holds its count of entries (contract).
    let cbs = unsafe {
        versioned_slice(
            g.constant_buffers,
            g.constant_buffer_count,
            "constant_buffers",
        )
    }?;
    for cb in cbs {
        let slot = in_range(
            cb.slot,
            dxjit_runtime::abi::CB_SLOTS,
            "constant buffer slot",
        )?;
        if buffer_kind(cb.kind)? != BufferKind::Raw {
            return invalid(format!("constant buffer {slot} is not raw"));
        }
        // SAFETY: a binding's memory is `size` readable bytes (contract).
        let bytes = unsafe { buffer_bytes(cb) }?;
        if constants.insert(slot, bytes.to_vec()).is_some() {
            return invalid(format!("constant buffer slot {slot} is bound twice"));
        }
    }
    Ok(constants)
}

/// Binds the SRVs, UAVs and samplers of `g`.
///
/// # Safety
/// As [`Bound::new`].
unsafe fn bind_views(g: &Bindings, bindings: &mut RuntimeBindings) -> Outcome<()> {
    // SAFETY: the arrays hold their counts of entries (contract).
    let srvs = unsafe { versioned_slice(g.buffers, g.buffer_count, "buffers") }?;
    // SAFETY: as above.
    let textures = unsafe { versioned_slice(g.textures, g.texture_count, "textures") }?;
    // SAFETY: as above.
    let uavs = unsafe { versioned_slice(g.uavs, g.uav_count, "uavs") }?;
    // SAFETY: as above.
    let samplers = unsafe { sampler_bindings(g.samplers, g.sampler_count) }?;
    let mut srv_bound = vec![false; bindings.srvs.len()];
    for srv in srvs {
        let slot = in_range(srv.slot, bindings.srvs.len(), "buffer slot")?;
        if buffer_kind(srv.kind)? == BufferKind::Typed {
            return invalid(format!("buffer {slot}: bind typed SRVs as textures"));
        }
        claim(&mut srv_bound, slot, "SRV")?;
        bindings.srvs[slot] = buffer_view(srv)?;
    }
    for t in textures {
        let slot = in_range(t.slot, bindings.srvs.len(), "texture slot")?;
        claim(&mut srv_bound, slot, "SRV")?;
        if t.texture.is_null() || !t.texture.is_aligned() {
            return Err(Failure::new(
                Status::NullPointer,
                format!("texture {slot} is null or misaligned"),
            ));
        }
        // SAFETY: a non-null, aligned texture is a live handle for the call (contract).
        bindings.srvs[slot] = unsafe { &(*t.texture).0 }.view();
    }
    let mut uav_bound = vec![false; bindings.uavs.len()];
    for u in uavs {
        let slot = in_range(u.slot, bindings.uavs.len(), "UAV slot")?;
        claim(&mut uav_bound, slot, "UAV")?;
        bindings.uavs[slot] = buffer_view(u)?;
    }
    let mut sampler_bound = vec![false; bindings.samplers.len()];
    for s in &samplers {
        let slot = in_range(s.slot, bindings.samplers.len(), "sampler slot")?;
        claim(&mut sampler_bound, slot, "sampler")?;
        bindings.samplers[slot] = sampler(s)?;
    }
    Ok(())
}

/// Binds the UAV counters of `g`: each points at the caller's word.
///
/// # Safety
/// As [`Bound::new`]: each counter is a 4-byte aligned word that only the
/// call touches while it runs.
unsafe fn bind_counters(g: &Bindings, bindings: &mut RuntimeBindings) -> Outcome<()> {
    // SAFETY: the array holds its count of entries (contract).
    let counters = unsafe { versioned_slice(g.uav_counters, g.uav_counter_count, "uav_counters") }?;
    let mut bound = vec![false; bindings.uav_counters.len()];
    for c in counters {
        let slot = in_range(c.slot, bindings.uav_counters.len(), "UAV counter slot")?;
        claim(&mut bound, slot, "UAV counter")?;
        if c.counter.is_null() || !c.counter.is_aligned() {
            return Err(Failure::new(
                Status::NullPointer,
                format!("counter of UAV {slot} is null or misaligned"),
            ));
        }
        // `AtomicU32` has the size and alignment of `u32`: the runtime
        // updates the caller's word in place.
        bindings.uav_counters[slot] = c.counter.cast_const().cast::<AtomicU32>();
    }
    Ok(())
}

/// Writes the constants the shader defines itself (D3D9 `def`) over the
/// caller's, as Direct3D 9 does.
fn apply_definitions(shader: &Shader, constants: &mut BTreeMap<usize, Vec<u8>>) -> Outcome<()> {
    for (slot, row, words) in shader.shader.defined_constants() {
        let s = in_range(*slot, dxjit_runtime::abi::CB_SLOTS, "defined constant slot")?;
        let cb = constants.entry(s).or_default();
        let at = *row as usize * 16;
        if cb.len() < at + 16 {
            cb.resize(at + 16, 0);
        }
        for (i, w) in words.iter().enumerate() {
            cb[at + 4 * i..at + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    Ok(())
}

/// A 16-byte aligned copy of a constant buffer and the view of it.
fn constant_view(bytes: &[u8]) -> Outcome<(View, Vec<u128>)> {
    let size = u32::try_from(bytes.len())
        .map_err(|_| Failure::new(Status::OutOfRange, "a constant buffer is 4 GiB or more"))?;
    let mut block = vec![0u128; bytes.len().div_ceil(16).max(1)];
    for (chunk, word) in bytes.chunks(16).zip(block.iter_mut()) {
        let mut b = [0u8; 16];
        b[..chunk.len()].copy_from_slice(chunk);
        *word = u128::from_le_bytes(b);
    }
    let view = View {
        ptr: block.as_mut_ptr().cast(),
        size,
        ..View::EMPTY
    };
    Ok((view, block))
}

/// Marks `slot` bound, failing if it already was.
pub(crate) fn claim(bound: &mut [bool], slot: usize, what: &str) -> Outcome<()> {
    if std::mem::replace(&mut bound[slot], true) {
        return invalid(format!("{what} slot {slot} is bound twice"));
    }
    Ok(())
}

/// The bytes a buffer binding describes.
///
/// # Safety
/// When `data` is non-null, it points to `size` readable bytes that nothing
/// writes while the slice lives.
unsafe fn buffer_bytes<'a>(b: &BufferBinding) -> Outcome<&'a [u8]> {
    if b.size == 0 {
        return Ok(&[]);
    }
    if b.data.is_null() {
        return Err(Failure::new(
            Status::NullPointer,
            format!("buffer in slot {} is null", b.slot),
        ));
    }
    // SAFETY: non-null, `size` readable bytes (contract), byte-aligned.
    Ok(unsafe { std::slice::from_raw_parts(b.data.cast::<u8>(), b.size) })
}

/// The view of a raw, structured or typed buffer binding.
fn buffer_view(b: &BufferBinding) -> Outcome<View> {
    let slot = b.slot;
    if b.data.is_null() && b.size != 0 {
        return Err(Failure::new(
            Status::NullPointer,
            format!("buffer in slot {slot} is null"),
        ));
    }
    let size = u32::try_from(b.size).map_err(|_| {
        Failure::new(
            Status::OutOfRange,
            format!("buffer in slot {slot} is 4 GiB or more"),
        )
    })?;
    let view = View {
        ptr: b.data.cast(),
        size,
        ..View::EMPTY
    };
    match buffer_kind(b.kind)? {
        BufferKind::Raw => Ok(view),
        BufferKind::Structured => {
            if b.stride == 0 || !b.stride.is_multiple_of(4) {
                return invalid(format!(
                    "buffer in slot {slot}: stride {} is not a non-zero multiple of 4",
                    b.stride
                ));
            }
            Ok(View {
                stride: b.stride,
                ..view
            })
        }
        BufferKind::Typed => typed_view(b, view),
    }
}

/// Completes `view` for a typed binding, checking its layout fits `size`.
fn typed_view(b: &BufferBinding, view: View) -> Outcome<View> {
    let fmt = format(b.format, "typed buffer")?;
    if !fmt.is_writable() {
        return invalid(format!(
            "typed buffer in slot {}: {fmt:?} cannot be written",
            b.slot
        ));
    }
    let bpt = fmt.bytes_per_texel();
    if b.width == 0 || b.height == 0 || b.depth == 0 {
        return invalid(format!("typed buffer in slot {}: a size is 0", b.slot));
    }
    let packed_row = u64::from(b.width) * u64::from(bpt);
    let row = if b.row_pitch == 0 {
        packed_row
    } else {
        u64::from(b.row_pitch)
    };
    let slice = if b.slice_pitch == 0 {
        row * u64::from(b.height)
    } else {
        u64::from(b.slice_pitch)
    };
    let need = u64::from(b.depth - 1) * slice + u64::from(b.height - 1) * row + packed_row;
    if row < packed_row || slice < row * u64::from(b.height) || need > u64::from(view.size) {
        return invalid(format!(
            "typed buffer in slot {}: {}x{}x{} texels with pitches {row}/{slice} need {need} bytes, {} given",
            b.slot, b.width, b.height, b.depth, view.size
        ));
    }
    let pitch =
        |p: u64| u32::try_from(p).map_err(|_| Failure::new(Status::OutOfRange, "pitch too large"));
    Ok(View {
        stride: bpt,
        width: b.width,
        height: b.height,
        depth: b.depth,
        mips: 1,
        format: fmt as u32,
        row_pitch: pitch(row)?,
        slice_pitch: pitch(slice)?,
        ..view
    })
}

/// The runtime state of a sampler binding.
fn sampler(s: &SamplerBinding) -> Outcome<SamplerState> {
    Ok(SamplerState {
        filter: filter(s.filter)?,
        mip_filter: mip_filter(s.mip_filter)?,
        address: [
            address(s.address[0])?,
            address(s.address[1])?,
            address(s.address[2])?,
        ],
        compare: compare(s.compare)?,
        border: s.border,
        lod_bias: s.lod_bias,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        mag_filter: mag_filter(s.mag_filter)?,
        max_anisotropy: s.max_anisotropy.clamp(1, 16),
        reduction: reduction(s.reduction)?,
        srgb: s.srgb,
        shadow_map: s.shadow_map,
    })
}
