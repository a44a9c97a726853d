//! `RateLimiterException` and the one mapping from `Error` to PHP exceptions.
//!
//! The exception class is built with `ClassBuilder` on top of SPL's
//! `RuntimeException`, so it inherits the engine's exception object handlers
//! and gets the right file, line and trace (a `#[php_class]` would not).

use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::builders::ClassBuilder;
use ext_php_rs::exception::PhpException;
use ext_php_rs::zend::{ce, ClassEntry};

use crate::error::Error;

pub const EXCEPTION_CLASS: &str = "RateLimiterException";

extern "C" {
    fn dlsym(handle: *mut std::ffi::c_void, symbol: *const std::ffi::c_char) -> *mut std::ffi::c_void;
}

/// SPL's `RuntimeException`. At MINIT the class lookup API is not usable yet,
/// and `spl_ce_RuntimeException` is not among ext-php-rs's bindings, so the
/// engine's own global is found by name in the running binary.
fn runtime_exception() -> &'static ClassEntry {
    // RTLD_DEFAULT (null on glibc): search the PHP binary and everything it loaded.
    let global = unsafe { dlsym(std::ptr::null_mut(), c"spl_ce_RuntimeException".as_ptr()) } as *const *const ClassEntry;
    let ce = if global.is_null() { std::ptr::null() } else { unsafe { *global } };
    if ce.is_null() {
        // Never seen: SPL is part of every PHP 8 build. Fall back to Exception.
        return ce::exception();
    }
    unsafe { &*ce }
}

/// The registered class entry, set once at MINIT.
static EXCEPTION_CE: AtomicPtr<ClassEntry> = AtomicPtr::new(std::ptr::null_mut());

/// Registers `RateLimiterException extends RuntimeException`; called at MINIT.
pub fn register() -> ext_php_rs::error::Result<()> {
    ClassBuilder::new(EXCEPTION_CLASS)
        .extends((runtime_exception, "RuntimeException"))
        .registration(|ce, _arg_info| EXCEPTION_CE.store(ce, Ordering::Release))
        .register()
}

fn rate_limiter_exception() -> &'static ClassEntry {
    let ce = EXCEPTION_CE.load(Ordering::Acquire);
    if ce.is_null() { ce::exception() } else { unsafe { &*ce } }
}

impl From<Error> for PhpException {
    fn from(e: Error) -> Self {
        let (message, class) = match e {
            Error::Value(m) => (m, ce::value_error()),
            Error::Type(m) => (m, ce::type_error()),
            Error::ArgumentCount(m) => (m, ce::argument_count_error()),
            Error::Redis(m) => (m, rate_limiter_exception()),
        };
        // A NUL byte cannot cross into PHP's C-string message: escape it, so
        // the right class is thrown whatever the input was.
        let message = message.replace('\0', "\\0");
        // PHP code we called threw or exited: that goes first (see `pending`).
        super::pending::defer_to_pending(class, &message);
        PhpException::new(message, 0, class)
    }
}

/// Puts a parameter error in PHP's own words: `$window must be …` raised by
/// `Foo::__construct()` for its 3rd argument becomes
/// `Foo::__construct(): Argument #3 ($window) must be …`.
pub fn in_call(e: Error, function: &str, params: &[&str]) -> Error {
    e.map_message(|m| {
        for (i, p) in params.iter().enumerate() {
            if let Some(rest) = m.strip_prefix('$').and_then(|r| r.strip_prefix(*p)).and_then(|r| r.strip_prefix(' ')) {
                return format!("{function}(): Argument #{} (${p}) {rest}", i + 1);
            }
        }
        format!("{function}(): {m}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_errors_read_like_php() {
        let e = in_call(Error::Value("$window must be greater than 0".into()), "X::__construct", &["connection", "keyPrefix", "window"]);
        assert_eq!(e, Error::Value("X::__construct(): Argument #3 ($window) must be greater than 0".into()));
        let e = in_call(Error::Value("$windowSize x".into()), "X::f", &["window", "windowSize"]);
        assert_eq!(e, Error::Value("X::f(): Argument #2 ($windowSize) x".into()));
        let e = in_call(Error::Type("something else".into()), "X::f", &["a"]);
        assert_eq!(e, Error::Type("X::f(): something else".into()));
        let e = in_call(Error::Redis("down".into()), "X::f", &["a"]);
        assert_eq!(e, Error::Redis("down".into()));
    }
}
