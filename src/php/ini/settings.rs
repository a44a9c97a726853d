//! The `ratelimit.*` ini settings. Each entry has an `on_modify` handler that
//! parses the new value once and stores it here, so the hot path reads a
//! thread-local value instead of looking the setting up by name on every call. A value that does not
//! parse is refused (`ini_set()` returns false and the old value stays); one
//! given in php.ini, `-d` or a pool's `php_admin_value` is also reported as a PHP
//! warning naming the setting, the value given and the value kept
//! (`startup_warning`), since the engine would drop it in silence.

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
    /// `ratelimit.local_share`, 0..=1.
    static LOCAL_SHARE: Cell<f64> = const { Cell::new(0.1) };
}

pub fn on_error() -> OnError {
    match ON_ERROR.get() {
        1 => OnError::Allow,
        2 => OnError::Deny,
        3 => OnError::Local,
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
/// `ratelimit.local_share`: with `on_error = local`, the share of a limit one process admits by itself.
pub fn local_share() -> f64 {
    LOCAL_SHARE.get()
}
/// Keys a process may hold for `on_error = local` per target: the block cache's bound.
pub fn local_keys() -> usize {
    BLOCK_CACHE_SIZE.get() as usize
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

/// Takes a value, or says in plain words what the setting expects.
type Apply = fn(&[u8]) -> Result<(), String>;

/// The bytes as text, or what a setting says of bytes that are not.
fn text(v: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(v).map_err(|_| "expected UTF-8 text".to_string())
}

/// `Ok` when `parsed` is `Some`, after `store` took it; else `expected`.
fn take<T>(parsed: Option<T>, store: impl FnOnce(T), expected: &str) -> Result<(), String> {
    let value = parsed.ok_or_else(|| expected.to_string())?;
    store(value);
    Ok(())
}

fn apply_redis_url(v: &[u8]) -> Result<(), String> {
    let s = text(v)?;
    // Empty: the default (an ini line "${RATELIMIT_REDIS_URL}" with that variable unset).
    if s.trim().is_empty() {
        REDIS_URL.set(String::new());
        return Ok(());
    }
    let parsed = match crate::backend::memory::parse_dsn(s) {
        Some(name) => name.map(|_| ()),
        None => crate::redis::target::dsn::parse_dsn(s).map(|_| ()),
    };
    // The DSN parser speaks of the `$connection` argument; here it is the setting.
    parsed.map_err(|e| e.to_string().trim_start_matches("$connection ").to_string())?;
    REDIS_URL.set(s.to_string());
    Ok(())
}
const SECONDS: &str = "expected seconds, a number above 0 and at most 86400";
fn apply_connect_timeout(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(parse_seconds), |d| CONNECT_TIMEOUT_US.set(d.as_micros() as u64), SECONDS)
}
fn apply_timeout(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(parse_seconds), |d| TIMEOUT_US.set(d.as_micros() as u64), SECONDS)
}
/// A boolean as php.ini writes one.
pub fn parse_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "on" | "yes" | "true" => Some(true),
        "0" | "off" | "no" | "false" | "" => Some(false),
        _ => None,
    }
}
const BOOL: &str = "expected 1, on, yes or true, or 0, off, no or false";
fn apply_block_cache(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(parse_bool), |on| BLOCK_CACHE.set(on), BOOL)
}
/// Entries per process: 1 to 10 million.
fn apply_block_cache_size(v: &[u8]) -> Result<(), String> {
    let n = text(v).ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|n| (1..=10_000_000).contains(n));
    take(n, |n| BLOCK_CACHE_SIZE.set(n), "expected a whole number of entries from 1 to 10000000")
}
fn apply_on_error(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(OnError::parse), |p| ON_ERROR.set(p as u8), "expected throw, allow, deny or local")
}
/// A share of a limit: a number from 0 to 1.
pub fn parse_share(s: &str) -> Option<f64> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && (0.0..=1.0).contains(&v)).then_some(v)
}
fn apply_local_share(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(parse_share), |share| LOCAL_SHARE.set(share), "expected a share of the limit, a number from 0 to 1")
}
/// Seconds a breaker stays open: 0 (no breaker) up to an hour.
pub fn parse_interval(s: &str) -> Option<Duration> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && (0.0..=3600.0).contains(&v)).then(|| Duration::from_micros((v * 1e6).round() as u64))
}
fn apply_retry_interval(v: &[u8]) -> Result<(), String> {
    take(
        text(v).ok().and_then(parse_interval),
        crate::redis::pool::breaker::set_retry_interval,
        "expected seconds, a number from 0 (no breaker) to 3600",
    )
}
fn apply_key_prefix(v: &[u8]) -> Result<(), String> {
    KEY_PREFIX.set(v.to_vec());
    Ok(())
}
fn apply_max_connections(v: &[u8]) -> Result<(), String> {
    let n = text(v).ok().and_then(parse_count);
    take(n, |n| crate::redis::pool::set_max_connections(n as usize), "expected a whole number of connections from 1 to 65536")
}
/// `auto` or `off`. php.ini and `-d` hand a bare `off` over as "" (and `on`
/// as "1"), so those count too.
fn apply_server_module(v: &[u8]) -> Result<(), String> {
    let auto = match text(v).map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Ok("auto" | "on" | "1") => Some(true),
        Ok("off" | "" | "0") => Some(false),
        _ => None,
    };
    take(auto, |auto| SERVER_MODULE.set(auto), "expected auto or off")
}

fn apply_dry_run(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(parse_bool), |on| DRY_RUN.set(on), BOOL)
}
/// `off`, `local` or `redis` (php.ini hands a bare `off` over as "").
fn apply_metrics(v: &[u8]) -> Result<(), String> {
    take(text(v).ok().and_then(MetricsMode::parse), |mode| METRICS.set(mode), "expected off, local or redis")
}
/// `ratelimit.multiplex`: `auto`, `off` (php.ini hands a bare `off` over as
/// ""), or how many shared connections per target, 1 to `multiplex::PLACES`.
pub fn parse_multiplex(s: &str) -> Option<crate::redis::pool::multiplex::Multiplex> {
    use crate::redis::pool::multiplex::{Multiplex, PLACES};
    let s = s.trim().to_ascii_lowercase();
    match s.as_str() {
        "auto" => Some(Multiplex::Auto),
        "off" | "" | "0" => Some(Multiplex::Off),
        n => n.parse::<usize>().ok().filter(|n| (1..=PLACES).contains(n) && s.bytes().all(|b| b.is_ascii_digit())).map(Multiplex::Shared),
    }
}
fn apply_multiplex(v: &[u8]) -> Result<(), String> {
    take(
        text(v).ok().and_then(parse_multiplex),
        crate::redis::pool::multiplex::set_multiplex,
        "expected auto, off or a number of shared connections from 1 to 8",
    )
}

/// Zend/zend_ini.h: the stages at which the engine sets a value.
const STAGE_STARTUP: c_int = 1 << 0;
const STAGE_ACTIVATE: c_int = 1 << 2;
const STAGE_RUNTIME: c_int = 1 << 4;
const STAGE_DEACTIVATE: c_int = 1 << 3;

/// The engine's `on_modify` hook: `mh_arg1` carries the index of the entry.
/// Runs outside any PHP call, so a panic must be caught here (it would abort otherwise).
unsafe extern "C" fn on_modify(
    entry: *mut zend_ini_entry,
    new_value: *mut zend_string,
    mh_arg1: *mut c_void,
    _mh_arg2: *mut c_void,
    _mh_arg3: *mut c_void,
    stage: c_int,
) -> c_int {
    const SUCCESS: c_int = 0;
    const FAILURE: c_int = -1;
    // SAFETY: the engine passes null or the new value's zend_string, alive for this call.
    let bytes: &[u8] = if new_value.is_null() { b"" } else { unsafe { (*(new_value as *const ZendStr)).as_bytes() } };
    let index = mh_arg1 as usize;
    match std::panic::catch_unwind(|| check(index, bytes)) {
        Ok(Ok(())) => SUCCESS,
        Ok(Err(why)) => {
            // ini_set() says false and the caller sees it; restoring a value at
            // request end never fails. Anywhere else (php.ini, -d, a pool's
            // php_admin_value, .htaccess) nobody would learn of it: the engine
            // keeps the old value in silence.
            if stage != STAGE_RUNTIME && stage != STAGE_DEACTIVATE {
                // At startup the entry has no value yet: the engine falls back to the default.
                // SAFETY: the engine passes the entry being modified, alive for this call.
                let current = if stage == STAGE_STARTUP { None } else { unsafe { entry.as_ref() }.and_then(|e| unsafe { e.value.as_ref() }) };
                let kept = current.map_or_else(|| default_of(index).to_vec(), |v| v.as_bytes().to_vec());
                let _ = std::panic::catch_unwind(|| warn_refused(index, bytes, &kept, &why, stage == STAGE_ACTIVATE));
            }
            FAILURE
        }
        Err(_) => FAILURE,
    }
}

/// The startup warning for a refused value: the setting, the value given, why, and the value kept.
/// `activating`: set as a request is about to start, not at startup (a php-fpm pool's
/// `php_admin_value`/`php_value`, which a worker applies once it is forked, before its first
/// request; Apache's, as each request starts): the engine would drop a warning given then
/// (php-fpm's worker never logs it), so it is given by the next request (`ini_warnings`).
fn warn_refused(index: usize, given: &[u8], kept: &[u8], why: &str, activating: bool) {
    let message = refused_message(index, given, kept, why);
    if activating {
        crate::php::ini::warnings::defer(message);
    } else {
        // E_CORE_WARNING, as PHP's own startup problems ("Module … already loaded").
        ext_php_rs::error::php_error(&ext_php_rs::flags::ErrorType::CoreWarning, &message);
    }
}

fn refused_message(index: usize, given: &[u8], kept: &[u8], why: &str) -> String {
    let name = NAMES.get(index).map_or("ratelimit.?".into(), |(name, _)| name.to_string_lossy());
    // The DSN's password is not printed (logs are shared); nor is a NUL byte.
    let show = |v: &[u8]| {
        if index == REDIS_URL_INDEX {
            crate::redis::words::redact::shown_dsn(&String::from_utf8_lossy(v))
        } else {
            crate::redis::words::redact::shown_bytes(v)
        }
    };
    if index == REDIS_URL_INDEX {
        // The DSN parser's words already show the value: "is not a valid Redis DSN (…): \"…\"".
        return format!("{name} {why}; keeping \"{}\"", show(kept));
    }
    format!("{name}: \"{}\" is not a valid value ({why}); keeping \"{}\"", show(given), show(kept))
}

/// The default of the entry at `index`, as the ini table declares it.
fn default_of(index: usize) -> &'static [u8] {
    NAMES.get(index).map_or(b"", |(_, default)| default.to_bytes())
}

/// The entry at `index` of the ini table takes `value`, as its `on_modify`
/// hook applies it: whether it was taken (when not, the old value stays).
/// Public for the fuzz target that gives every entry any bytes
/// (fuzz/fuzz_targets/ini_values.rs).
pub fn apply(index: usize, value: &[u8]) -> bool {
    check(index, value).is_ok()
}

/// `apply`, saying why a value was refused.
fn check(index: usize, value: &[u8]) -> Result<(), String> {
    APPLIERS.get(index).map_or(Err("unknown setting".to_string()), |f| f(value))
}

const REDIS_URL_INDEX: usize = 0;

/// How many entries the ini table has.
pub const ENTRIES: usize = APPLIERS.len();

/// The parsers of the entries, in table order; `mh_arg1` holds the index.
static APPLIERS: [Apply; 14] = [
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
    apply_local_share,
    apply_retry_interval,
];

const fn entry(index: usize) -> IniEntryDef {
    let mut def = IniEntryDef::new(NAMES[index].0, NAMES[index].1, IniEntryPermission::All);
    def.on_modify = Some(on_modify);
    def.mh_arg1 = std::ptr::without_provenance_mut(index);
    def
}

/// phpinfo() shows the entry through `displayer` instead of its raw value.
const fn with_displayer(mut def: IniEntryDef, displayer: unsafe extern "C" fn(*mut zend_ini_entry, c_int)) -> IniEntryDef {
    def.displayer = Some(displayer);
    def
}

/// The settings' names and defaults, in table order (what phpinfo, the shipped
/// `ratelimit.ini` and the startup warnings name). A table of its own, so the
/// unit tests read it without the engine's hooks that `INI_ENTRIES` holds.
const NAMES: [(&std::ffi::CStr, &std::ffi::CStr); ENTRIES] = [
    (c"ratelimit.redis_url", c"redis://127.0.0.1:6379"),
    (c"ratelimit.connect_timeout", c"1.0"),
    (c"ratelimit.timeout", c"1.0"),
    (c"ratelimit.on_error", c"throw"),
    (c"ratelimit.key_prefix", c""),
    (c"ratelimit.block_cache", c"0"),
    (c"ratelimit.block_cache_size", c"10000"),
    (c"ratelimit.max_connections", c"64"),
    (c"ratelimit.server_module", c"auto"),
    (c"ratelimit.dry_run", c"0"),
    (c"ratelimit.metrics", c"off"),
    (c"ratelimit.multiplex", c"auto"),
    (c"ratelimit.local_share", c"0.1"),
    (c"ratelimit.retry_interval", c"1.0"),
];

/// The ini table; `(name, default)` pairs are also what phpinfo and the shipped
/// `ratelimit.ini` list.
pub static INI_ENTRIES: IniEntryDefs<15> = IniEntryDefs::new([
    with_displayer(entry(0), crate::php::ini::display::redis_url_displayer),
    entry(1),
    entry(2),
    entry(3),
    with_displayer(entry(4), crate::php::ini::display::key_prefix_displayer),
    entry(5),
    entry(6),
    entry(7),
    entry(8),
    entry(9),
    entry(10),
    entry(11),
    entry(12),
    entry(13),
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
            assert!(apply_server_module(v.as_bytes()).is_ok(), "{v:?}");
            assert_eq!(server_module(), auto, "{v:?}");
        }
        assert_eq!(apply_server_module(b"maybe"), Err("expected auto or off".to_string()));
        apply_server_module(b"auto").unwrap();
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
            assert!(apply_metrics(v.as_bytes()).is_ok(), "{v:?}");
            assert_eq!(metrics(), mode, "{v:?}");
        }
        assert!(apply_metrics(b"on").is_err());
        assert!(apply_dry_run(b"maybe").is_err());
        apply_metrics(b"off").unwrap();
    }

    #[test]
    fn multiplex_is_auto_off_or_a_count_of_shared_connections() {
        use crate::redis::pool::multiplex::Multiplex;
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
    fn local_share_and_retry_interval_have_their_ranges() {
        assert_eq!(parse_share("0.1"), Some(0.1));
        assert_eq!(parse_share("0"), Some(0.0));
        assert_eq!(parse_share(" 1 "), Some(1.0));
        for bad in ["-0.1", "1.5", "nan", "inf", "", "a lot"] {
            assert_eq!(parse_share(bad), None, "{bad}");
        }
        assert_eq!(parse_interval("1.0"), Some(Duration::from_secs(1)));
        assert_eq!(parse_interval("0"), Some(Duration::ZERO));
        assert_eq!(parse_interval("0.3"), Some(Duration::from_millis(300)));
        for bad in ["-1", "3601", "nan", "", "soon"] {
            assert_eq!(parse_interval(bad), None, "{bad}");
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

    #[test]
    fn a_refused_value_is_named_with_the_value_kept_and_no_password() {
        let why = check(REDIS_URL_INDEX, b"redis//u:secret@myredis:6379").unwrap_err();
        let m = refused_message(REDIS_URL_INDEX, b"redis//u:secret@myredis:6379", default_of(REDIS_URL_INDEX), &why);
        assert!(m.starts_with("ratelimit.redis_url is not a valid Redis DSN ("), "{m}");
        assert!(m.contains("\"***@myredis:6379\""), "{m}");
        assert!(m.ends_with("; keeping \"redis://127.0.0.1:6379\""), "{m}");
        assert!(!m.contains("secret") && !m.contains("$connection"), "{m}");
        let on_error = 3;
        let why = check(on_error, b"bogus").unwrap_err();
        assert_eq!(
            refused_message(on_error, b"bogus", default_of(on_error), &why),
            "ratelimit.on_error: \"bogus\" is not a valid value (expected throw, allow, deny or local); keeping \"throw\""
        );
        // Every entry refuses something except the key prefix, which takes any bytes.
        for index in (0..ENTRIES).filter(|&i| i != 4) {
            assert!(check(index, b"\xffbogus").is_err(), "{index}");
            assert!(check(index, default_of(index)).is_ok(), "{index}: its default");
        }
    }
}
