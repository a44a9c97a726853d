//! `SlidingWindowRateLimiter`: `($connection, $keyPrefix, $windowSize, $maxRequests, $blocks = 0)`
//! or `($key, $window, $limit, $blocks = 0)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use crate::limiter::sliding_window::SlidingWindow;
use crate::php::forms::{Form, Signature};
use crate::php::interface::rate_limiter_interface;
use crate::php::debug_info::Policy;
use crate::php::state::LimiterState;
use crate::rate_limiter_impl;

static SIGNATURE: Signature = Signature {
    class: "SlidingWindowRateLimiter",
    long: Form {
        slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("windowSize", "windowSize"), ("maxRequests", "maxRequests"), ("blocks", "blocks")],
        required: 4,
    },
    short: Form { slots: &[("key", "keyPrefix"), ("window", "windowSize"), ("limit", "maxRequests"), ("blocks", "blocks")], required: 3 },
};

#[php_class]
#[php(name = "SlidingWindowRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct SlidingWindowRateLimiter {
    state: LimiterState,
    policy: Policy,
}

rate_limiter_impl!(SlidingWindowRateLimiter {
    #[php(optional = windowSize)]
    pub fn __construct(
        connection: &Zval,
        keyPrefix: &Zval,
        windowSize: Option<&Zval>,
        maxRequests: Option<&Zval>,
        blocks: Option<&Zval>,
    ) -> PhpResult<Self> {
        let given = [Some(connection), Some(keyPrefix), windowSize, maxRequests, blocks];
        let state = LimiterState::construct(&SIGNATURE, &given, |a| {
            Ok(Box::new(SlidingWindow::new(a.float("windowSize")?, a.int("maxRequests")?, a.int_or("blocks", 0)?)?))
        })?;
        Ok(SlidingWindowRateLimiter { state, policy: Policy::read(&SIGNATURE, &given) })
    }
});
