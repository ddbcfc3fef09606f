//! No panic crosses into C: the guard every exported function runs its
//! body in turns one into `Status::Internal` with the panic's text.

use dxjit_capi::guard::{call, dxjit_string_free, Message};
use dxjit_capi::status::Failure;
use dxjit_capi::Status;
use std::ffi::{c_char, CStr};

/// `slot` as the guard's out-parameter.
fn out(slot: &mut *mut c_char) -> Message {
    // SAFETY: `slot` is a writable `char*` that outlives the call.
    unsafe { Message::from_raw(slot) }
}

/// The text of a message the guard returned, freed after reading.
fn take(message: *mut c_char) -> String {
    assert!(!message.is_null());
    // SAFETY: a non-null message is a NUL-terminated string from the library.
    let text = unsafe { CStr::from_ptr(message) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: freed once, as the API says.
    unsafe { dxjit_string_free(message) };
    text
}

#[test]
fn a_panic_becomes_an_internal_error() {
    let mut message = std::ptr::null_mut();
    let status = call(out(&mut message), || panic!("boom"));
    assert_eq!(status, Status::Internal);
    assert!(take(message).contains("boom"));
}

#[test]
fn a_failure_carries_its_status_and_message() {
    let mut message = std::ptr::null_mut();
    let status = call(out(&mut message), || {
        Err(Failure::new(Status::OutOfRange, "slot 9"))
    });
    assert_eq!(status, Status::OutOfRange);
    assert_eq!(take(message), "slot 9");
    assert_eq!(call(out(&mut message), || Ok(())), Status::Ok);
    assert!(message.is_null());
}
