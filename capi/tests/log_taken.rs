//! A Rust host that installed its own logger keeps it: the C log callback
//! cannot replace it and says so. (Its own test binary: the process's
//! logger can be set only once.)

use dxjit_capi::log::{dxjit_set_log_callback, LogLevel};
use dxjit_capi::status::Status;

struct HostLogger;

impl log::Log for HostLogger {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }
    fn log(&self, _: &log::Record<'_>) {}
    fn flush(&self) {}
}

static HOST: HostLogger = HostLogger;

#[test]
fn a_host_logger_is_kept_and_the_callback_is_refused() {
    log::set_logger(&HOST).expect("the first logger");
    let status = dxjit_set_log_callback(None, LogLevel::Warn, std::ptr::null_mut());
    assert_eq!(status, Status::LogUnavailable);
    assert!(std::ptr::addr_eq(log::logger(), &HOST as &dyn log::Log));
}
