//! The library's log (validation warnings, cache problems) delivered to a
//! C callback. Nothing in the library prints; without a callback the
//! messages are dropped.

use crate::guard::call_quietly;
use crate::status::Status;
use std::ffi::{c_char, c_void, CString};
use std::sync::{OnceLock, RwLock};

/// How severe a log message is; a callback receives the messages at its
/// level and the more severe ones.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// Deliver nothing.
    Off = 0,
    /// Errors.
    Error = 1,
    /// Warnings, such as the validation layer's.
    Warn = 2,
    /// Information.
    Info = 3,
    /// Debugging detail.
    Debug = 4,
    /// Tracing detail.
    Trace = 5,
}

/// A log callback: the message's level, the message (NUL-terminated, valid
/// only during the call) and the `user` pointer given with the callback.
/// It may be called from any thread, several at a time.
pub type LogCallback =
    Option<unsafe extern "C" fn(level: LogLevel, message: *const c_char, user: *mut c_void)>;

/// The installed callback and its user pointer (kept as an address: the
/// caller promises it may be used from any thread).
struct Sink {
    callback: unsafe extern "C" fn(LogLevel, *const c_char, *mut c_void),
    user: usize,
}

static SINK: RwLock<Option<Sink>> = RwLock::new(None);

/// Forwards `log` records to the installed callback.
struct CallbackLogger;

static LOGGER: CallbackLogger = CallbackLogger;

/// Whether [`LOGGER`] became the process's logger (decided at the first
/// `dxjit_set_log_callback`).
static INSTALLED: OnceLock<bool> = OnceLock::new();

impl log::Log for CallbackLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let Ok(sink) = SINK.read() else {
            return;
        };
        let Some(sink) = sink.as_ref() else {
            return;
        };
        let level = match record.level() {
            log::Level::Error => LogLevel::Error,
            log::Level::Warn => LogLevel::Warn,
            log::Level::Info => LogLevel::Info,
            log::Level::Debug => LogLevel::Debug,
            log::Level::Trace => LogLevel::Trace,
        };
        let text = record.args().to_string().replace('\0', " ");
        if let Ok(text) = CString::new(text) {
            // SAFETY: the callback was given by the caller of
            // `dxjit_set_log_callback` for exactly this use, with `user`.
            unsafe { (sink.callback)(level, text.as_ptr(), sink.user as *mut c_void) };
        }
    }

    fn flush(&self) {}
}

fn filter(level: LogLevel) -> log::LevelFilter {
    match level {
        LogLevel::Off => log::LevelFilter::Off,
        LogLevel::Error => log::LevelFilter::Error,
        LogLevel::Warn => log::LevelFilter::Warn,
        LogLevel::Info => log::LevelFilter::Info,
        LogLevel::Debug => log::LevelFilter::Debug,
        LogLevel::Trace => log::LevelFilter::Trace,
    }
}

/// Delivers the library's log messages at `max_level` and more severe to
/// `callback` with `user`; a null callback (or `DXJIT_LOG_LEVEL_OFF`)
/// stops delivery. The callback replaces any earlier one and may be called
/// from any thread until it is replaced. Returns
/// `DXJIT_STATUS_LOG_UNAVAILABLE` when another logger already owns the
/// process's Rust log (a Rust host that installed its own).
#[no_mangle]
pub extern "C" fn dxjit_set_log_callback(
    callback: LogCallback,
    max_level: LogLevel,
    user: *mut c_void,
) -> Status {
    let mut status = Status::Internal;
    call_quietly(|| {
        if !*INSTALLED.get_or_init(|| log::set_logger(&LOGGER).is_ok()) {
            status = Status::LogUnavailable;
            return;
        }
        let sink = callback.map(|callback| Sink {
            callback,
            user: user as usize,
        });
        let level = if sink.is_some() {
            max_level
        } else {
            LogLevel::Off
        };
        if let Ok(mut slot) = SINK.write() {
            *slot = sink;
            log::set_max_level(filter(level));
            status = Status::Ok;
        }
    });
    status
}
