//! Lines for the PHP error log that no user error handler sees: a
//! framework that turns warnings into exceptions (Laravel, Symfony's debug
//! mode) would otherwise turn a breaker's opening into a failed request,
//! where the point of the breaker is that requests still get an answer.

use std::ffi::CString;

use crate::php::engine::symbols::{php_log_err_with_severity, zend_ini_long};

/// syslog's LOG_WARNING, for the error log's severity.
const LOG_WARNING: std::ffi::c_int = 4;

/// Logs `message` as a PHP warning line in the error log, when PHP logs
/// errors (`log_errors`, as PHP's own warnings).
pub fn warning(message: &str) {
    const LOG_ERRORS: &std::ffi::CStr = c"log_errors";
    // SAFETY: a NUL-terminated name and its length; the engine only reads it.
    if unsafe { zend_ini_long(LOG_ERRORS.as_ptr(), LOG_ERRORS.to_bytes().len(), 0) } == 0 {
        return;
    }
    let Ok(line) = CString::new(format!("PHP Warning:  {message}")) else { return };
    // SAFETY: a NUL-terminated string alive for the call; the engine copies it.
    unsafe { php_log_err_with_severity(line.as_ptr(), LOG_WARNING) };
}

/// Logs the breaker opening this thread's last call caused, if any: once per opening.
#[inline]
pub fn breaker_opened() {
    if let Some(words) = crate::redis::pool::breaker::take_opened() {
        warning(&words);
    }
}
