//! Running an exported function's body: panics become
//! [`Status::Internal`], failures become a status and an optional message.

use crate::status::{Failure, Outcome, Status};
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A caller's `char** message` out-parameter: null, or where to store the
/// message of a call.
pub struct Message(*mut *mut c_char);

impl Message {
    /// Wraps a caller's out-parameter.
    ///
    /// # Safety
    /// `ptr` is null or points to a `char*` writable for the whole call.
    pub unsafe fn from_raw(ptr: *mut *mut c_char) -> Message {
        Message(ptr)
    }
}

/// Runs `body`, catching any panic, and reports the outcome: the status is
/// returned and, when `message` is not null, `*message` is set to a new
/// string describing a failure (to free with `dxjit_string_free`) or to
/// null on success.
pub fn call(message: Message, body: impl FnOnce() -> Outcome<()>) -> Status {
    let message = message.0;
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        Err(Failure::new(
            Status::Internal,
            format!("internal error: {what}"),
        ))
    });
    let (status, text) = match outcome {
        Ok(()) => (Status::Ok, None),
        Err(failure) => (failure.status, Some(failure.message)),
    };
    if !message.is_null() && message.is_aligned() {
        let raw = text.map_or(std::ptr::null_mut(), |t| {
            CString::new(t.replace('\0', " ")).map_or(std::ptr::null_mut(), CString::into_raw)
        });
        // SAFETY: `message` is non-null and aligned, and writable as
        // `Message::from_raw` requires.
        unsafe { message.write(raw) };
    }
    status
}

/// Runs `body` for a function that returns nothing (the `free` functions),
/// swallowing any panic so that none crosses into C.
pub fn call_quietly(body: impl FnOnce()) {
    let _ = catch_unwind(AssertUnwindSafe(body));
}

/// Frees a message returned through a `char** message` out-parameter.
/// Null is ignored.
///
/// # Safety
/// `message` is null or a string this library returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn dxjit_string_free(message: *mut c_char) {
    call_quietly(|| {
        if !message.is_null() {
            // SAFETY: the caller passes a string made by `CString::into_raw`
            // in `call`, freed only here and only once.
            drop(unsafe { CString::from_raw(message) });
        }
    });
}
