//! `FixedWindowRateLimiter`: `($connection, $keyPrefix, $window, $limit)` or `($key, $window, $limit)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use crate::limiter::fixed_window::FixedWindow;
use crate::php::forms::{Form, Signature};
use crate::php::interface::rate_limiter_interface;
use crate::php::debug_info::Policy;
use crate::php::state::LimiterState;
use crate::rate_limiter_impl;

static SIGNATURE: Signature = Signature {
    class: "FixedWindowRateLimiter",
    long: Form { slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("window", "window"), ("limit", "limit")], required: 4 },
    short: Form { slots: &[("key", "keyPrefix"), ("window", "window"), ("limit", "limit")], required: 3 },
};

#[php_class]
#[php(name = "FixedWindowRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct FixedWindowRateLimiter {
    state: LimiterState,
    policy: Policy,
}

rate_limiter_impl!(FixedWindowRateLimiter {
    #[php(optional = window)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, window: Option<&Zval>, limit: Option<&Zval>) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit], |a| {
            Ok(Box::new(FixedWindow::new(a.float("window")?, a.int("limit")?)?))
        })?;
        Ok(FixedWindowRateLimiter { state, policy: Policy::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit]) })
    }
});
