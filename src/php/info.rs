//! `php --ri ratelimit` / phpinfo(): a support line and the version, the ini
//! table the way every PHP extension shows it (Directive / Local Value /
//! Master Value, from the engine's `display_ini_entries()`), and the
//! connection pool of this process.

use std::ffi::{c_char, c_int};

use ext_php_rs::ffi::{ext_php_rs_sapi_module, zend_ini_entry};
use ext_php_rs::types::ZendStr;
use ext_php_rs::zend::ModuleEntry;
use ext_php_rs::{info_table_end, info_table_header, info_table_row, info_table_start};

use super::zend_api::display_ini_entries;
use crate::redis::pool;
use crate::settings;

/// Called by the engine outside any PHP call: must not panic (it would abort).
/// `module` is the engine's own entry of this module, handed back to it.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub extern "C" fn module_info(module: *mut ModuleEntry) {
    let _ = std::panic::catch_unwind(|| {
        info_table_start!();
        info_table_row!("ratelimit support", "enabled");
        info_table_row!("version", env!("CARGO_PKG_VERSION"));
        info_table_row!("scripts", "fixed window, sliding window (log, blocks), token bucket, leaky bucket, gcra");
        info_table_end!();

        unsafe { display_ini_entries(module) };

        let slots = pool::state();
        let stats = pool::stats();
        info_table_start!();
        info_table_header!("Connection pool (this process)", "State");
        info_table_row!("max connections", stats.max_connections.to_string());
        info_table_row!("targets", slots.len().to_string());
        info_table_row!("open connections", slots.iter().filter(|s| s.connected).count().to_string());
        info_table_row!("closed by the bound (least recently used)", stats.closed_by_bound.to_string());
        info_table_row!("dropped (no connection, no limiter)", stats.dropped.to_string());
        for s in &slots {
            let path = s.path.map(|p| format!(", decided by {p}")).unwrap_or_default();
            info_table_row!(
                s.target.as_str(),
                format!("{}, opened {} time(s), {} failure(s){path}", if s.connected { "open" } else { "closed" }, s.opened, s.failures)
            );
        }
        info_table_row!("server module", if settings::server_module() { "auto (used where the server has it)" } else { "off (Lua only)" });
        for (name, keys) in crate::memory::targets() {
            info_table_row!(format!("{}{name}", crate::memory::SCHEME).as_str(), format!("in this process's memory, {keys} key(s)"));
        }
        info_table_end!();

        let (entries, hits) = crate::limiter::block_cache::stats();
        info_table_start!();
        info_table_header!("Block cache (this process)", "State");
        info_table_row!("enabled", if settings::block_cache() > 0 { "yes" } else { "no" });
        info_table_row!("entries", entries.to_string());
        info_table_row!("hits", hits.to_string());
        info_table_end!();
    });
}

extern "C" {
    fn php_html_puts(s: *const c_char, len: usize);
    fn php_output_write(s: *const c_char, len: usize) -> usize;
}

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
    unsafe { display(entry, ty, |bytes| crate::redis::redact::redact_dsn(&String::from_utf8_lossy(bytes))) }
}

/// The displayer of `ratelimit.key_prefix`: a NUL byte shown as `\0`, not written raw.
///
/// # Safety
/// Called by the engine's phpinfo() with one of its ini entries.
pub unsafe extern "C" fn key_prefix_displayer(entry: *mut zend_ini_entry, ty: c_int) {
    unsafe { display(entry, ty, |bytes| String::from_utf8_lossy(bytes).replace('\0', "\\0")) }
}

/// Writes an ini entry's value (or its original one) as `shown` renders it,
/// in phpinfo()'s text or HTML form.
unsafe fn display(entry: *mut zend_ini_entry, ty: c_int, shown: impl Fn(&[u8]) -> String) {
    let Some(entry) = (unsafe { entry.as_ref() }) else { return };
    let value = if ty == DISPLAY_ORIG && entry.modified != 0 { entry.orig_value } else { entry.value };
    let text = unsafe { value.cast::<ZendStr>().as_ref() }.map(|s| shown(s.as_bytes())).unwrap_or_default();
    let as_text = unsafe { ext_php_rs_sapi_module().as_ref() }.is_none_or(|s| s.phpinfo_as_text != 0);
    match (text.is_empty(), as_text) {
        (true, true) => write("no value"),
        (true, false) => write("<i>no value</i>"),
        (false, true) => write(&text),
        (false, false) => unsafe { php_html_puts(text.as_ptr().cast(), text.len()) },
    }
}

fn write(text: &str) {
    unsafe { php_output_write(text.as_ptr().cast(), text.len()) };
}
