//! `RateLimiterException` and the one mapping from `Error` to PHP exceptions.
//!
//! The exception class is built with `ClassBuilder` on top of SPL's
//! `RuntimeException`, so it inherits the engine's exception object handlers
//! and gets the right file, line and trace (a `#[php_class]` would not).

use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::builders::ClassBuilder;
use ext_php_rs::exception::PhpException;
use ext_php_rs::zend::{ce, ClassEntry};

use crate::error::{Error, Kind};

pub const EXCEPTION_CLASS: &str = "RateLimiterException";

/// SPL's `RuntimeException`. At MINIT the class lookup API is not usable yet,
/// and `spl_ce_RuntimeException` is not among ext-php-rs's bindings, so the
/// engine's own global is found by name in the running binary.
fn runtime_exception() -> &'static ClassEntry {
    let global = crate::php::engine::symbols::lookup(c"spl_ce_RuntimeException") as *const *const ClassEntry;
    // SAFETY: the symbol is SPL's `zend_class_entry *spl_ce_RuntimeException`, set at its MINIT (before ours).
    let ce = if global.is_null() { std::ptr::null() } else { unsafe { *global } };
    if ce.is_null() {
        // Never seen: SPL is part of every PHP 8 build. Fall back to Exception.
        return ce::exception();
    }
    // SAFETY: a registered class entry, alive until shutdown.
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
    if ce.is_null() {
        ce::exception()
    } else {
        // SAFETY: the entry `register` stored, alive until shutdown.
        unsafe { &*ce }
    }
}

fn class_of(e: &Error) -> &'static ClassEntry {
    match e {
        Error::Param { invalid, .. } => match invalid.kind {
            Kind::Value => ce::value_error(),
            Kind::Type => ce::type_error(),
        },
        Error::ArgumentCount(_) => ce::argument_count_error(),
        Error::Redis(_) => rate_limiter_exception(),
    }
}

/// The exception to throw. A NUL byte cannot cross into PHP's C-string
/// message: it is escaped, so the right class is thrown whatever the input
/// was. When PHP code we called threw or exited, that goes first (`pending`).
fn throwable(message: String, class: &'static ClassEntry) -> PhpException {
    let message = message.replace('\0', "\\0");
    crate::php::engine::thrown::defer_to_pending(class, &message);
    PhpException::new(message, 0, class)
}

/// An error outside any PHP call's arguments, as it reads.
impl From<Error> for PhpException {
    fn from(e: Error) -> Self {
        throwable(e.to_string(), class_of(&e))
    }
}

/// The message of `e` raised by `function` whose parameters are `params`, in
/// PHP's own words: a bad `$window`, the 3rd parameter of
/// `Foo::__construct()`, reads `Foo::__construct(): Argument #3 ($window) must be …`.
/// Other errors are already complete sentences.
pub fn message_in_call(e: &Error, function: &str, params: &[&str]) -> String {
    match e {
        Error::Param { param, invalid } => match params.iter().position(|p| p == param) {
            Some(i) => format!("{function}(): Argument #{} (${param}) {}", i + 1, invalid.must),
            None => format!("{function}(): ${param} {}", invalid.must),
        },
        other => other.to_string(),
    }
}

/// The PHP exception for `e` raised by `function(params…)`.
pub fn in_call(e: Error, function: &str, params: &[&str]) -> PhpException {
    throwable(message_in_call(&e, function, params), class_of(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_errors_read_like_php() {
        let e = Error::value("window", "must be greater than 0");
        assert_eq!(
            message_in_call(&e, "X::__construct", &["connection", "keyPrefix", "window"]),
            "X::__construct(): Argument #3 ($window) must be greater than 0"
        );
        let e = Error::value("windowSize", "x");
        assert_eq!(message_in_call(&e, "X::f", &["window", "windowSize"]), "X::f(): Argument #2 ($windowSize) x");
        let e = Error::type_error("other", "is required");
        assert_eq!(message_in_call(&e, "X::f", &["a"]), "X::f(): $other is required");
        assert_eq!(message_in_call(&Error::Redis("down".into()), "X::f", &["a"]), "down");
        assert_eq!(message_in_call(&Error::ArgumentCount("X::f(): too many".into()), "X::f", &["a"]), "X::f(): too many");
    }
}
