//! Reading the caller's sampler array, whose elements may be of the first
//! version of `dxjit_sampler_binding` (ending at `max_lod`) or the current
//! one: the first element's `struct_size` says which, and every element
//! must agree. Fields an older caller does not have read 0.

use crate::bindings::{SamplerBinding, SAMPLER_BINDING_V1_SIZE};
use crate::checks::slice;
use crate::status::{Failure, Outcome, Status};
use std::mem::size_of;

/// The `count` sampler bindings at `ptr` (null allowed when `count` is 0).
///
/// # Safety
/// When `count` > 0, `ptr` points to `count` readable elements of the
/// `struct_size` its first element gives, that nothing writes meanwhile.
pub(crate) unsafe fn sampler_bindings(
    ptr: *const SamplerBinding,
    count: usize,
) -> Outcome<Vec<SamplerBinding>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the first element's size word is readable (contract); `slice`
    // checks the pointer for null and alignment.
    let first = unsafe { slice(ptr.cast::<usize>(), 1, "samplers") }?[0];
    let stride = match first {
        s if s == size_of::<SamplerBinding>() || s == SAMPLER_BINDING_V1_SIZE => s,
        s => {
            return Err(Failure::new(
                Status::StructSize,
                format!(
                    "dxjit_sampler_binding.struct_size is {s}, expected {} (or {SAMPLER_BINDING_V1_SIZE})",
                    size_of::<SamplerBinding>()
                ),
            ))
        }
    };
    if count
        .checked_mul(stride)
        .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(Failure::new(
            Status::OutOfRange,
            format!("samplers: {count} elements is too many"),
        ));
    }
    let base = ptr.cast::<u8>();
    (0..count)
        .map(|i| {
            let mut binding = SamplerBinding {
                struct_size: 0,
                slot: 0,
                filter: 0,
                mip_filter: 0,
                address: [0; 3],
                compare: 0,
                border: [0.0; 4],
                lod_bias: 0.0,
                min_lod: 0.0,
                max_lod: 0.0,
                mag_filter: 0,
                max_anisotropy: 0,
                reduction: 0,
                srgb: 0,
                shadow_map: 0,
            };
            // SAFETY: element `i` is `stride` readable bytes at `base + i *
            // stride` (contract; the product was checked above), and
            // `binding` has room for `stride` <= size_of::<SamplerBinding>()
            // bytes; every byte pattern is a valid SamplerBinding prefix
            // (integers and floats).
            unsafe {
                std::ptr::copy_nonoverlapping(
                    base.add(i * stride),
                    (&mut binding as *mut SamplerBinding).cast::<u8>(),
                    stride,
                );
            }
            if binding.struct_size != stride {
                return Err(Failure::new(
                    Status::StructSize,
                    format!(
                        "samplers[{i}]: dxjit_sampler_binding.struct_size is {}, expected {stride}",
                        binding.struct_size
                    ),
                ));
            }
            Ok(binding)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    /// Writes `value` at byte `at` of `words`.
    fn put(words: &mut [u64], at: usize, value: &[u8]) {
        let bytes: &mut [u8] = as_bytes(words);
        bytes[at..at + value.len()].copy_from_slice(value);
    }

    /// The bytes of `words`.
    fn as_bytes(words: &mut [u64]) -> &mut [u8] {
        // SAFETY: u64s are plain bytes; the slice covers exactly their memory.
        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() * 8) }
    }

    #[test]
    fn first_version_arrays_read_with_new_fields_zero() {
        let mut words = [0u64; 2 * SAMPLER_BINDING_V1_SIZE / 8];
        for (i, slot) in [3u32, 5].into_iter().enumerate() {
            let base = i * SAMPLER_BINDING_V1_SIZE;
            put(&mut words, base, &SAMPLER_BINDING_V1_SIZE.to_ne_bytes());
            put(
                &mut words,
                base + offset_of!(SamplerBinding, slot),
                &slot.to_ne_bytes(),
            );
            put(
                &mut words,
                base + offset_of!(SamplerBinding, filter),
                &2u32.to_ne_bytes(),
            );
        }
        // SAFETY: two first-version elements of 64 bytes each.
        let read = unsafe { sampler_bindings(words.as_ptr().cast(), 2) }.expect("v1 array");
        assert_eq!(read.iter().map(|s| s.slot).collect::<Vec<_>>(), [3, 5]);
        assert!(read.iter().all(|s| s.filter == 2));
        assert!(read
            .iter()
            .all(|s| (s.mag_filter, s.max_anisotropy, s.reduction) == (0, 0, 0)));
    }

    #[test]
    fn sizes_must_be_known_and_agree() {
        let mut words = [0u64; 2 * size_of::<SamplerBinding>() / 8];
        put(&mut words, 0, &size_of::<SamplerBinding>().to_ne_bytes());
        put(
            &mut words,
            size_of::<SamplerBinding>(),
            &SAMPLER_BINDING_V1_SIZE.to_ne_bytes(),
        );
        // SAFETY: two current-size elements' worth of memory.
        let mixed = unsafe { sampler_bindings(words.as_ptr().cast(), 2) };
        assert!(mixed.is_err());
        put(&mut words, 0, &12usize.to_ne_bytes());
        // SAFETY: as above.
        let unknown = unsafe { sampler_bindings(words.as_ptr().cast(), 1) };
        assert!(unknown.is_err());
    }
}
