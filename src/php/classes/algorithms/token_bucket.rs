//! `TokenBucketRateLimiter`: `($connection, $keyPrefix, $capacity, $refillRate)` or `($key, $rate, $capacity)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use crate::php::args::values::{Id, Int};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::limiter::algorithms::token_bucket;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::limiter_class::{self, Param, OPTIONAL_FLOAT, OPTIONAL_INT, STRING_OR_FLOAT};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::register::Finish;

// The short form puts the rate before the capacity, the long form after it.
static SIGNATURE: Signature = Signature {
    class: "TokenBucketRateLimiter",
    long: Form {
        slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("capacity", "capacity"), ("refillRate", "refillRate")],
        required: 4,
    },
    short: Form { slots: &[("key", "keyPrefix"), ("rate", "refillRate"), ("capacity", "capacity")], required: 3 },
};

#[php_class]
#[php(name = "TokenBucketRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct TokenBucketRateLimiter {
    state: LimiterState,
    policy: GivenNumbers,
}

rate_limiter_impl!(TokenBucketRateLimiter {
    /// A copy of this limiter that takes up to `units` at once from Redis
    /// (never more than is there, fewer as the limit runs low), answers its
    /// consumes from them without a round trip (`source` 'lease'), and gives
    /// back what is left after `maxAge` seconds, on `reset()` and when the
    /// process or thread ends. This limiter is unchanged.
    #[php(optional = maxAge)]
    pub fn with_lease(
        self_: &mut ::ext_php_rs::types::ZendClassObject<TokenBucketRateLimiter>,
        units: &::ext_php_rs::types::Zval,
        maxAge: Option<&::ext_php_rs::types::Zval>,
    ) -> PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendClassObject<TokenBucketRateLimiter>>> {
        crate::php::classes::shared::lease::copy(self_, "TokenBucketRateLimiter", units, maxAge, |c, state| TokenBucketRateLimiter { state, policy: c.policy.clone() })
    }

    #[php(optional = capacity)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, capacity: Option<&Zval>, refillRate: Option<&Zval>) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), capacity, refillRate], |a| {
            token_bucket::policy(a.int("capacity")?, a.float("refillRate")?)
        })?;
        crate::php::classes::shared::remaining::initialize::<Self>();
        Ok(TokenBucketRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), capacity, refillRate]) })
    }

    /// Books `cost` now, to be used after the result's `delay` seconds, when
    /// that is at most `maxWait`; otherwise books nothing (`allowed` false,
    /// `retryAfter` the wait). Bookings are served in the order made.
    #[php(optional = id, defaults(id = "\"\"", cost = 1))]
    pub fn reserve(self_: &mut ZendClassObject<TokenBucketRateLimiter>, id: Id, cost: Int, maxWait: Option<&Zval>) -> PhpResult<crate::php::result::RateLimitResult> {
        crate::php::classes::shared::remaining::after_call(self_, |c| c.state.adjust("reserve", id, cost, maxWait))
    }
});

impl Finish for TokenBucketRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::shared::lease::declare(ce)?;
        crate::php::classes::shared::give_back::declare_reserve(ce)?;
        limiter_class::finish::<Self>(
            ce,
            &[Param("keyPrefix", STRING_OR_FLOAT, None), Param("capacity", OPTIONAL_INT, None), Param("refillRate", OPTIONAL_FLOAT, None)],
        )
    }
}
