//! The `ratelimit.*` ini settings. Each entry has an `on_modify` handler that
//! parses the new value once and stores it here, so the hot path reads a
//! thread-local value instead of looking the setting up by name on every call. A value that does not
//! parse is refused (`ini_set()` returns false and the old value stays).

use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_void};
use std::time::Duration;

use ext_php_rs::ffi::{zend_ini_entry, zend_string};
use ext_php_rs::flags::IniEntryPermission;
use ext_php_rs::types::ZendStr;
use ext_php_rs::zend::{IniEntryDef, IniEntryDefs};

pub use crate::limiter::OnError;
pub use crate::metrics::Mode as MetricsMode;

pub const DEFAULT_REDIS_URL: &str = "redis://127.0.0.1:6379";

// Per thread, because PHP's ini values are per thread: a thread-safe (ZTS)
// PHP keeps each thread's own copy, calls `on_modify` in every new thread
// with php.ini's values (`zend_ini_refresh_caches` at thread start), and an
// `ini_set()` and its undoing at request end run on the thread of that
// request. A process-wide copy would let one thread's `ini_set()` change
// the requests of every other thread. Without threads there is one thread,
// and this is the plain per-process value.
thread_local! {
    static ON_ERROR: Cell<u8> = const { Cell::new(OnError::Throw as u8) };
    static CONNECT_TIMEOUT_US: Cell<u64> = const { Cell::new(1_000_000) };
    static TIMEOUT_US: Cell<u64> = const { Cell::new(1_000_000) };
    static REDIS_URL: RefCell<String> = const { RefCell::new(String::new()) };
    static KEY_PREFIX: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static BLOCK_CACHE: Cell<bool> = const { Cell::new(false) };
    static BLOCK_CACHE_SIZE: Cell<u64> = const { Cell::new(10_000) };
    /// `ratelimit.server_module`: true auto, false off.
    static SERVER_MODULE: Cell<bool> = const { Cell::new(true) };
    static DRY_RUN: Cell<bool> = const { Cell::new(false) };
    static METRICS: Cell<MetricsMode> = const { Cell::new(MetricsMode::Off) };
}

pub fn on_error() -> OnError {
    match ON_ERROR.get() {
        1 => OnError::Allow,
        2 => OnError::Deny,
        _ => OnError::Throw,
    }
}
pub fn connect_timeout() -> Duration {
    Duration::from_micros(CONNECT_TIMEOUT_US.get())
}
pub fn timeout() -> Duration {
    Duration::from_micros(TIMEOUT_US.get())
}
pub fn redis_url() -> String {
    REDIS_URL.with_borrow(|url| if url.is_empty() { DEFAULT_REDIS_URL.to_string() } else { url.clone() })
}
/// Whether a call may use the server module's commands where the server has
/// them (`ratelimit.server_module = auto`) rather than the Lua library.
pub fn server_module() -> bool {
    SERVER_MODULE.get()
}
/// Entries the block cache may hold, 0 when `ratelimit.block_cache` is off.
pub fn block_cache() -> usize {
    if BLOCK_CACHE.get() {
        BLOCK_CACHE_SIZE.get() as usize
    } else {
        0
    }
}
/// `ratelimit.dry_run`: limiters without a `withDryRun()` of their own decide but never deny.
pub fn dry_run() -> bool {
    DRY_RUN.get()
}
/// `ratelimit.metrics`.
pub fn metrics() -> MetricsMode {
    METRICS.get()
}
pub fn key_prefix() -> Vec<u8> {
    KEY_PREFIX.with_borrow(|p| p.clone())
}

/// A connection count as written in php.ini: a whole number 1..=65536.
pub fn parse_count(s: &str) -> Option<u64> {
    let s = s.trim();
    let n: u64 = s.parse().ok().filter(|_| s.bytes().all(|b| b.is_ascii_digit()))?;
    (1..=65_536).contains(&n).then_some(n)
}

/// A timeout in seconds as written in php.ini: finite and > 0 (at most a day).
pub fn parse_seconds(s: &str) -> Option<Duration> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && v > 0.0 && v <= 86_400.0).then(|| Duration::from_micros((v * 1e6).round().max(1.0) as u64))
}

type Apply = fn(&[u8]) -> bool;

fn apply_redis_url(v: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(v) else { return false };
    let valid = match crate::memory::parse_dsn(s) {
        Some(name) => name.is_ok(),
        None => crate::redis::dsn::parse_dsn(s).is_ok(),
    };
    if !valid {
        return false;
    }
    REDIS_URL.set(s.to_string());
    true
}
fn apply_connect_timeout(v: &[u8]) -> bool {
    store_seconds(&CONNECT_TIMEOUT_US, v)
}
fn apply_timeout(v: &[u8]) -> bool {
    store_seconds(&TIMEOUT_US, v)
}
fn store_seconds(slot: &'static std::thread::LocalKey<Cell<u64>>, v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(parse_seconds) {
        Some(d) => {
            slot.set(d.as_micros() as u64);
            true
        }
        None => false,
    }
}
/// A boolean as php.ini writes one.
pub fn parse_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "on" | "yes" | "true" => Some(true),
        "0" | "off" | "no" | "false" | "" => Some(false),
        _ => None,
    }
}
fn apply_block_cache(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(parse_bool) {
        Some(on) => {
            BLOCK_CACHE.set(on);
            true
        }
        None => false,
    }
}
/// Entries per process: 1 to 10 million.
fn apply_block_cache_size(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|n| (1..=10_000_000).contains(n)) {
        Some(n) => {
            BLOCK_CACHE_SIZE.set(n);
            true
        }
        None => false,
    }
}
fn apply_on_error(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(OnError::parse) {
        Some(p) => {
            ON_ERROR.set(p as u8);
            true
        }
        None => false,
    }
}
fn apply_key_prefix(v: &[u8]) -> bool {
    KEY_PREFIX.set(v.to_vec());
    true
}
fn apply_max_connections(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(parse_count) {
        Some(n) => {
            crate::redis::pool::set_max_connections(n as usize);
            true
        }
        None => false,
    }
}
/// `auto` or `off`. php.ini and `-d` hand a bare `off` over as "" (and `on`
/// as "1"), so those count too.
fn apply_server_module(v: &[u8]) -> bool {
    let auto = match std::str::from_utf8(v).map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Ok("auto" | "on" | "1") => true,
        Ok("off" | "" | "0") => false,
        _ => return false,
    };
    SERVER_MODULE.set(auto);
    true
}

fn apply_dry_run(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(parse_bool) {
        Some(on) => {
            DRY_RUN.set(on);
            true
        }
        None => false,
    }
}
/// `off`, `local` or `redis` (php.ini hands a bare `off` over as "").
fn apply_metrics(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(MetricsMode::parse) {
        Some(mode) => {
            METRICS.set(mode);
            true
        }
        None => false,
    }
}
/// `ratelimit.multiplex`: `auto`, `off` (php.ini hands a bare `off` over as
/// ""), or how many shared connections per target, 1 to `pool::LANES`.
pub fn parse_multiplex(s: &str) -> Option<crate::redis::pool::Multiplex> {
    use crate::redis::pool::{Multiplex, LANES};
    let s = s.trim().to_ascii_lowercase();
    match s.as_str() {
        "auto" => Some(Multiplex::Auto),
        "off" | "" | "0" => Some(Multiplex::Off),
        n => n.parse::<usize>().ok().filter(|n| (1..=LANES).contains(n) && s.bytes().all(|b| b.is_ascii_digit())).map(Multiplex::Shared),
    }
}
fn apply_multiplex(v: &[u8]) -> bool {
    match std::str::from_utf8(v).ok().and_then(parse_multiplex) {
        Some(m) => {
            crate::redis::pool::set_multiplex(m);
            true
        }
        None => false,
    }
}

/// The engine's `on_modify` hook: `mh_arg1` carries the `Apply` function of the entry.
/// Runs outside any PHP call, so a panic must be caught here (it would abort otherwise).
unsafe extern "C" fn on_modify(
    _entry: *mut zend_ini_entry,
    new_value: *mut zend_string,
    mh_arg1: *mut c_void,
    _mh_arg2: *mut c_void,
    _mh_arg3: *mut c_void,
    _stage: c_int,
) -> c_int {
    const SUCCESS: c_int = 0;
    const FAILURE: c_int = -1;
    // SAFETY: the engine passes null or the new value's zend_string, alive for this call.
    let bytes: &[u8] = if new_value.is_null() { b"" } else { unsafe { (*(new_value as *const ZendStr)).as_bytes() } };
    match std::panic::catch_unwind(|| apply(mh_arg1 as usize, bytes)) {
        Ok(true) => SUCCESS,
        _ => FAILURE,
    }
}

/// The entry at `index` of the ini table takes `value`, as its `on_modify`
/// hook applies it: whether it was taken (when not, the old value stays).
/// Public for the fuzz target that gives every entry any bytes
/// (fuzz/fuzz_targets/ini_values.rs).
pub fn apply(index: usize, value: &[u8]) -> bool {
    APPLIERS.get(index).is_some_and(|f| f(value))
}

/// How many entries the ini table has.
pub const ENTRIES: usize = APPLIERS.len();

/// The parsers of the entries, in table order; `mh_arg1` holds the index.
static APPLIERS: [Apply; 12] = [
    apply_redis_url,
    apply_connect_timeout,
    apply_timeout,
    apply_on_error,
    apply_key_prefix,
    apply_block_cache,
    apply_block_cache_size,
    apply_max_connections,
    apply_server_module,
    apply_dry_run,
    apply_metrics,
    apply_multiplex,
];

const fn entry(name: &'static std::ffi::CStr, default: &'static std::ffi::CStr, index: usize) -> IniEntryDef {
    let mut def = IniEntryDef::new(name, default, IniEntryPermission::All);
    def.on_modify = Some(on_modify);
    def.mh_arg1 = std::ptr::without_provenance_mut(index);
    def
}

/// phpinfo() shows the entry through `displayer` instead of its raw value.
const fn with_displayer(mut def: IniEntryDef, displayer: unsafe extern "C" fn(*mut zend_ini_entry, c_int)) -> IniEntryDef {
    def.displayer = Some(displayer);
    def
}

/// The ini table; `(name, default)` pairs are also what phpinfo and the shipped
/// `ratelimit.ini` list.
pub static INI_ENTRIES: IniEntryDefs<13> = IniEntryDefs::new([
    with_displayer(entry(c"ratelimit.redis_url", c"redis://127.0.0.1:6379", 0), crate::php::ini_display::redis_url_displayer),
    entry(c"ratelimit.connect_timeout", c"1.0", 1),
    entry(c"ratelimit.timeout", c"1.0", 2),
    entry(c"ratelimit.on_error", c"throw", 3),
    with_displayer(entry(c"ratelimit.key_prefix", c"", 4), crate::php::ini_display::key_prefix_displayer),
    entry(c"ratelimit.block_cache", c"0", 5),
    entry(c"ratelimit.block_cache_size", c"10000", 6),
    entry(c"ratelimit.max_connections", c"64", 7),
    entry(c"ratelimit.server_module", c"auto", 8),
    entry(c"ratelimit.dry_run", c"0", 9),
    entry(c"ratelimit.metrics", c"off", 10),
    entry(c"ratelimit.multiplex", c"auto", 11),
    IniEntryDef::end(),
]);

pub fn register(module_number: i32) {
    IniEntryDef::register(INI_ENTRIES.as_slice(), module_number);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_parse_like_php_ini_floats() {
        assert_eq!(parse_seconds("1.0"), Some(Duration::from_secs(1)));
        assert_eq!(parse_seconds(" 0.25 "), Some(Duration::from_millis(250)));
        assert_eq!(parse_seconds("0"), None);
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("nan"), None);
        assert_eq!(parse_seconds("inf"), None);
        assert_eq!(parse_seconds("abc"), None);
    }

    #[test]
    fn booleans_parse_like_php_ini() {
        for (s, b) in
            [("1", Some(true)), ("On", Some(true)), ("yes", Some(true)), ("0", Some(false)), ("off", Some(false)), ("", Some(false)), ("maybe", None)]
        {
            assert_eq!(parse_bool(s), b, "{s}");
        }
    }

    #[test]
    fn server_module_is_auto_or_off_as_ini_files_write_them() {
        for (v, auto) in [("auto", true), ("AUTO", true), ("on", true), ("1", true), ("off", false), ("", false), ("0", false)] {
            assert!(apply_server_module(v.as_bytes()), "{v:?}");
            assert_eq!(server_module(), auto, "{v:?}");
        }
        assert!(!apply_server_module(b"maybe"));
        apply_server_module(b"auto");
    }

    #[test]
    fn metrics_is_off_local_or_redis() {
        for (v, mode) in [
            ("off", MetricsMode::Off),
            ("", MetricsMode::Off),
            ("0", MetricsMode::Off),
            ("Local", MetricsMode::Local),
            (" redis ", MetricsMode::Redis),
        ] {
            assert!(apply_metrics(v.as_bytes()), "{v:?}");
            assert_eq!(metrics(), mode, "{v:?}");
        }
        assert!(!apply_metrics(b"on"));
        assert!(!apply_dry_run(b"maybe"));
        apply_metrics(b"off");
    }

    #[test]
    fn multiplex_is_auto_off_or_a_count_of_shared_connections() {
        use crate::redis::pool::Multiplex;
        for (v, m) in [("auto", Multiplex::Auto), (" AUTO ", Multiplex::Auto), ("off", Multiplex::Off), ("", Multiplex::Off), ("0", Multiplex::Off)] {
            assert_eq!(parse_multiplex(v), Some(m), "{v:?}");
        }
        assert_eq!(parse_multiplex("1"), Some(Multiplex::Shared(1)));
        assert_eq!(parse_multiplex("8"), Some(Multiplex::Shared(8)));
        for bad in ["9", "-1", "1.5", "+2", "on", "yes", "many"] {
            assert_eq!(parse_multiplex(bad), None, "{bad}");
        }
    }

    #[test]
    fn max_connections_is_a_whole_positive_count() {
        assert_eq!(parse_count("64"), Some(64));
        assert_eq!(parse_count(" 1 "), Some(1));
        assert_eq!(parse_count("65536"), Some(65_536));
        for bad in ["0", "-1", "1.5", "", "abc", "65537", "+3", "1e3"] {
            assert_eq!(parse_count(bad), None, "{bad}");
        }
        // The ini table's default (c"64") is the constant the pool starts with.
        assert_eq!(parse_count("64"), Some(crate::redis::pool::DEFAULT_MAX_CONNECTIONS as u64));
    }
}
