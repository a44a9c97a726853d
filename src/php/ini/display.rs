//! How phpinfo() and `php --ri` show the ini entries whose raw value must
//! not be printed as is: a password in `ratelimit.redis_url`, a NUL byte in
//! `ratelimit.key_prefix`. The settings name these displayers; the engine
//! calls them.

use std::ffi::c_int;

use ext_php_rs::ffi::{ext_php_rs_sapi_module, zend_ini_entry};
use ext_php_rs::types::ZendStr;

use crate::php::engine::symbols::{php_html_puts, php_output_write};

/// Zend/zend_ini.h `ZEND_INI_DISPLAY_ORIG`: show the master value.
const DISPLAY_ORIG: c_int = 1;

/// The displayer of `ratelimit.redis_url`: the value as `ini_get()` returns
/// it, except a password, shown as `***` (phpinfo pages get shared; the
/// password stays readable through `ini_get()`). Otherwise what the engine's
/// own displayer prints: the value, HTML-escaped on an HTML page, or "no value".
///
/// # Safety
/// Called by the engine's phpinfo() with one of its ini entries.
pub unsafe extern "C" fn redis_url_displayer(entry: *mut zend_ini_entry, ty: c_int) {
    // SAFETY: this function's contract is `display`'s.
    unsafe { display(entry, ty, |bytes| crate::redis::words::redact::redact_dsn(&String::from_utf8_lossy(bytes))) }
}

/// The displayer of `ratelimit.key_prefix`: a NUL byte shown as `\0`, not written raw.
///
/// # Safety
/// Called by the engine's phpinfo() with one of its ini entries.
pub unsafe extern "C" fn key_prefix_displayer(entry: *mut zend_ini_entry, ty: c_int) {
    // SAFETY: this function's contract is `display`'s.
    unsafe { display(entry, ty, |bytes| String::from_utf8_lossy(bytes).replace('\0', "\\0")) }
}

/// Writes an ini entry's value (or its original one) as `shown` renders it,
/// in phpinfo()'s text or HTML form.
///
/// # Safety
/// `entry` is null or one of the engine's ini entries, during phpinfo().
unsafe fn display(entry: *mut zend_ini_entry, ty: c_int, shown: impl Fn(&[u8]) -> String) {
    // SAFETY: null or a live ini entry (this function's contract); only read.
    let Some(entry) = (unsafe { entry.as_ref() }) else { return };
    // `modified` is a uint8_t before PHP 8.6 and a bool from 8.6 (build.rs's flag).
    #[cfg(zend_ini_modified_bool)]
    let modified = entry.modified;
    #[cfg(not(zend_ini_modified_bool))]
    let modified = entry.modified != 0;
    let value = if ty == DISPLAY_ORIG && modified { entry.orig_value } else { entry.value };
    // SAFETY: an entry's value and original value are null or zend_strings it owns.
    let text = unsafe { value.cast::<ZendStr>().as_ref() }.map(|s| shown(s.as_bytes())).unwrap_or_default();
    // SAFETY: the SAPI's module struct, alive for the process; only read.
    let as_text = unsafe { ext_php_rs_sapi_module().as_ref() }.is_none_or(|s| s.phpinfo_as_text != 0);
    match (text.is_empty(), as_text) {
        (true, true) => write("no value"),
        (true, false) => write("<i>no value</i>"),
        (false, true) => write(&text),
        // SAFETY: `text` outlives the call, which copies it to the output.
        (false, false) => unsafe { php_html_puts(text.as_ptr().cast(), text.len()) },
    }
}

fn write(text: &str) {
    // SAFETY: `text` outlives the call, which copies it to the output.
    unsafe { php_output_write(text.as_ptr().cast(), text.len()) };
}
