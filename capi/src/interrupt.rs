//! Cancellation handles: a caller stops a running call from another thread.

use crate::guard::call_quietly;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// An interrupt flag shared with the calls whose bindings name it. Setting
/// it (from any thread) stops them at their next loop back edge with
/// `DXJIT_STATUS_INTERRUPTED`; it stays set until cleared.
#[derive(Debug, Default)]
pub struct Interrupt(pub(crate) Arc<AtomicU32>);

/// A new, clear interrupt flag; free it with `dxjit_interrupt_free`.
/// Null only if memory ran out.
#[no_mangle]
pub extern "C" fn dxjit_interrupt_create() -> *mut Interrupt {
    let mut handle = std::ptr::null_mut();
    call_quietly(|| handle = Box::into_raw(Box::default()));
    handle
}

/// Sets the flag: calls running with it stop, and calls started with it
/// return at once. Null is ignored.
///
/// # Safety
/// `interrupt` is null or a live handle from `dxjit_interrupt_create`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_interrupt_set(interrupt: *const Interrupt) {
    // SAFETY: null or live (contract).
    if let Some(i) = unsafe { interrupt.as_ref() } {
        i.0.store(1, Ordering::Relaxed);
    }
}

/// Clears the flag, so that calls with it run again. Null is ignored.
///
/// # Safety
/// As `dxjit_interrupt_set`.
#[no_mangle]
pub unsafe extern "C" fn dxjit_interrupt_clear(interrupt: *const Interrupt) {
    // SAFETY: null or live (contract).
    if let Some(i) = unsafe { interrupt.as_ref() } {
        i.0.store(0, Ordering::Relaxed);
    }
}

/// Frees an interrupt flag. Null is ignored.
///
/// # Safety
/// `interrupt` is null or a handle from `dxjit_interrupt_create`, not yet
/// freed, that no running call's bindings name.
#[no_mangle]
pub unsafe extern "C" fn dxjit_interrupt_free(interrupt: *mut Interrupt) {
    call_quietly(|| {
        if !interrupt.is_null() {
            // SAFETY: made by `Box::into_raw`, freed once (contract).
            drop(unsafe { Box::from_raw(interrupt) });
        }
    });
}
