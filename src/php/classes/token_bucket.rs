//! `TokenBucketRateLimiter`: `($connection, $keyPrefix, $capacity, $refillRate)` or `($key, $rate, $capacity)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use crate::limiter::token_bucket::TokenBucket;
use crate::php::forms::{Form, Signature};
use crate::php::interface::rate_limiter_interface;
use crate::php::debug_info::Policy;
use crate::php::state::LimiterState;
use crate::rate_limiter_impl;

// The short form puts the rate before the capacity, the long form after it.
static SIGNATURE: Signature = Signature {
    class: "TokenBucketRateLimiter",
    long: Form { slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("capacity", "capacity"), ("refillRate", "refillRate")], required: 4 },
    short: Form { slots: &[("key", "keyPrefix"), ("rate", "refillRate"), ("capacity", "capacity")], required: 3 },
};

#[php_class]
#[php(name = "TokenBucketRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct TokenBucketRateLimiter {
    state: LimiterState,
    policy: Policy,
}

rate_limiter_impl!(TokenBucketRateLimiter {
    #[php(optional = capacity)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, capacity: Option<&Zval>, refillRate: Option<&Zval>) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), capacity, refillRate], |a| {
            Ok(Box::new(TokenBucket::new(a.int("capacity")?, a.float("refillRate")?)?))
        })?;
        Ok(TokenBucketRateLimiter { state, policy: Policy::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), capacity, refillRate]) })
    }
});
