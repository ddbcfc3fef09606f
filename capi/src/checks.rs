//! Turning pointers from C into references and slices, after checking
//! them against the API's contracts.

use crate::status::{Failure, Outcome, Status};

/// A `#[repr(C)]` struct whose first field is `struct_size: usize`, set by
/// the caller to `sizeof` the struct, so that the struct can grow.
///
/// # Safety
/// Implementors are `#[repr(C)]` and start with a `usize` field; those read
/// with [`versioned`] accept every bit pattern in their fields.
pub unsafe trait Versioned: Sized {
    /// The struct's name in the header, for messages.
    const NAME: &'static str;
}

/// Fails with [`Status::NullPointer`] unless `ptr` is non-null and aligned.
fn usable<T>(ptr: *const T, what: &str) -> Outcome<()> {
    if ptr.is_null() {
        return Err(Failure::new(Status::NullPointer, format!("{what} is null")));
    }
    if !ptr.is_aligned() {
        return Err(Failure::new(
            Status::NullPointer,
            format!("{what} is misaligned"),
        ));
    }
    Ok(())
}

/// Fails unless `struct_size` (the first word at `ptr`) is `size_of::<T>()`.
///
/// # Safety
/// `ptr` is non-null, aligned and points to at least a readable `usize`.
unsafe fn check_size<T: Versioned>(ptr: *const T) -> Outcome<()> {
    // SAFETY: the caller guarantees a readable, aligned `usize` at `ptr`
    // (T is `#[repr(C)]` starting with one, so alignment suffices).
    let size = unsafe { ptr.cast::<usize>().read() };
    if size != std::mem::size_of::<T>() {
        return Err(Failure::new(
            Status::StructSize,
            format!(
                "{}.struct_size is {size}, expected {}",
                T::NAME,
                std::mem::size_of::<T>()
            ),
        ));
    }
    Ok(())
}

/// The struct at `ptr`, after checking it is non-null, aligned and of the
/// expected `struct_size`.
///
/// # Safety
/// When non-null and aligned, `ptr` points to a readable struct of
/// `struct_size` bytes that nothing writes while the reference lives.
pub unsafe fn versioned<'a, T: Versioned>(ptr: *const T, what: &str) -> Outcome<&'a T> {
    usable(ptr, what)?;
    // SAFETY: checked non-null and aligned; the caller guarantees the size word.
    unsafe { check_size(ptr) }?;
    // SAFETY: the struct is `struct_size` = `size_of::<T>()` readable bytes
    // (caller's contract), and any bit pattern is a valid T (`Versioned`).
    Ok(unsafe { &*ptr })
}

/// Like [`versioned`], for an optional struct: null gives `None`.
///
/// # Safety
/// As [`versioned`].
pub unsafe fn optional<'a, T: Versioned>(ptr: *const T, what: &str) -> Outcome<Option<&'a T>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    unsafe { versioned(ptr, what) }.map(Some)
}

/// Like [`optional`], for a struct that has grown: `struct_size` may also
/// be one of the `older` sizes, each a prefix of the struct, whose fields
/// past it read as zero. Gives a copy.
///
/// # Safety
/// When non-null and aligned, `ptr` points to a readable struct of
/// `struct_size` bytes that nothing writes meanwhile.
pub unsafe fn optional_grown<T: Versioned + Copy>(
    ptr: *const T,
    what: &str,
    older: &[usize],
) -> Outcome<Option<T>> {
    if ptr.is_null() {
        return Ok(None);
    }
    usable(ptr, what)?;
    // SAFETY: checked non-null and aligned; the caller guarantees the size word.
    let size = unsafe { ptr.cast::<usize>().read() };
    if !older.contains(&size) || size >= std::mem::size_of::<T>() {
        // SAFETY: forwarded contract.
        return unsafe { versioned(ptr, what) }.map(|t| Some(*t));
    }
    // SAFETY: every bit pattern, zero included, is a valid T (`Versioned`).
    let mut value: T = unsafe { std::mem::zeroed() };
    // SAFETY: `size` readable bytes at `ptr` (contract), less than the size
    // of `value`, which they do not overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), (&mut value as *mut T).cast::<u8>(), size)
    };
    Ok(Some(value))
}

/// Writes `value` to an out-struct the caller sized with `struct_size`.
///
/// # Safety
/// When non-null and aligned, `ptr` points to writable memory of
/// `struct_size` bytes.
pub unsafe fn write_versioned<T: Versioned>(ptr: *mut T, value: T, what: &str) -> Outcome<()> {
    usable(ptr, what)?;
    // SAFETY: checked non-null and aligned; the caller guarantees the size word.
    unsafe { check_size(ptr) }?;
    // SAFETY: the memory is `size_of::<T>()` writable bytes (caller's contract).
    unsafe { ptr.write(value) };
    Ok(())
}

/// Writes `value` to a plain out-parameter.
///
/// # Safety
/// When non-null and aligned, `ptr` points to a writable `T`.
pub unsafe fn write_out<T>(ptr: *mut T, value: T, what: &str) -> Outcome<()> {
    usable(ptr, what)?;
    // SAFETY: checked non-null and aligned; writable by the caller's contract.
    unsafe { ptr.write(value) };
    Ok(())
}

/// The `len` elements at `ptr`; `len` 0 gives an empty slice whatever `ptr`.
///
/// # Safety
/// When `len` > 0 and `ptr` is non-null and aligned, `ptr` points to `len`
/// readable, initialised elements that nothing writes while the slice lives.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Outcome<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    usable(ptr, what)?;
    if len
        .checked_mul(std::mem::size_of::<T>())
        .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(Failure::new(
            Status::OutOfRange,
            format!("{what}: {len} elements is too many"),
        ));
    }
    // SAFETY: non-null, aligned, size within isize::MAX, and readable for
    // `len` elements by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Like [`slice()`] for an array of versioned structs: each element's
/// `struct_size` must be the expected one.
///
/// # Safety
/// As [`slice()`].
pub unsafe fn versioned_slice<'a, T: Versioned>(
    ptr: *const T,
    len: usize,
    what: &str,
) -> Outcome<&'a [T]> {
    // SAFETY: forwarded contract.
    let items = unsafe { slice(ptr, len, what) }?;
    for (i, item) in items.iter().enumerate() {
        // SAFETY: `item` is a reference to a whole T, so its first word is readable.
        unsafe { check_size(item as *const T) }
            .map_err(|f| Failure::new(f.status, format!("{what}[{i}]: {}", f.message)))?;
    }
    Ok(items)
}

/// Fails with [`Status::OutOfRange`] unless `slot` < `count`.
pub fn in_range(slot: u32, count: usize, what: &str) -> Outcome<usize> {
    let s = slot as usize;
    if s >= count {
        return Err(Failure::new(
            Status::OutOfRange,
            format!("{what} {slot} is out of range (0..{count})"),
        ));
    }
    Ok(s)
}

/// Fails with [`Status::InvalidArgument`] carrying `message`.
pub fn invalid<T>(message: impl Into<String>) -> Outcome<T> {
    Err(Failure::new(Status::InvalidArgument, message))
}
