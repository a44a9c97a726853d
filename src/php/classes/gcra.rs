//! `GcraRateLimiter`: `($connection, $keyPrefix, $maxBurst, $count, $period)` or
//! `($key, $maxBurst, $count, $period)`, plus redis-cell's `throttle()`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use crate::error::Result;
use crate::limiter::gcra::{self, Gcra};
use crate::php::exceptions::in_call;
use crate::php::forms::{Form, Signature};
use crate::php::interface::rate_limiter_interface;
use crate::php::debug_info::Policy;
use crate::php::state::LimiterState;
use crate::php::values::{Id, Int};
use crate::rate_limiter_impl;

static SIGNATURE: Signature = Signature {
    class: "GcraRateLimiter",
    long: Form {
        slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("maxBurst", "maxBurst"), ("count", "count"), ("period", "period")],
        required: 5,
    },
    short: Form { slots: &[("key", "keyPrefix"), ("maxBurst", "maxBurst"), ("count", "count"), ("period", "period")], required: 4 },
};

#[php_class]
#[php(name = "GcraRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct GcraRateLimiter {
    state: LimiterState,
    policy: Policy,
}

rate_limiter_impl!(GcraRateLimiter {
    #[php(optional = maxBurst)]
    pub fn __construct(
        connection: &Zval,
        keyPrefix: &Zval,
        maxBurst: Option<&Zval>,
        count: Option<&Zval>,
        period: Option<&Zval>,
    ) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), maxBurst, count, period], |a| {
            Ok(Box::new(Gcra::new(a.int("maxBurst")?, a.int("count")?, a.float("period")?)?))
        })?;
        Ok(GcraRateLimiter { state, policy: Policy::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), maxBurst, count, period]) })
    }

    /// redis-cell's `CL.THROTTLE key maxBurst count period quantity`:
    /// `[limited (0|1), limit, remaining, retryAfter (whole s, -1 when allowed), resetAfter (whole s)]`.
    /// Quantity 0 peeks; a quantity above the limit is limited with retryAfter -1.
    #[php(defaults(id = "\"\"", quantity = 1))]
    pub fn throttle(&mut self, id: Id, quantity: Int) -> PhpResult<Vec<i64>> {
        let limiter = self.state.limiter();
        let run = || -> Result<[i64; 5]> {
            let id = id.bytes()?;
            let quantity = quantity.value("quantity")?;
            let op = gcra::throttle_op(quantity, limiter.limit())?;
            let (outcome, reply) = limiter.decide_with_reply(&id, op)?;
            gcra::cl_throttle(limiter.limit(), quantity, &reply.unwrap_or_else(|| gcra::reply_of(&outcome).to_vec()))
        };
        let tuple = run().map_err(|e| in_call(e, "GcraRateLimiter::throttle", &["id", "quantity"]))?;
        self.state.set_remaining(Some(tuple[2]));
        Ok(tuple.to_vec())
    }
});
