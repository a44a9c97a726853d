//! `LeakyBucketRateLimiter`: `($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize = 1)`
//! or `($key, $rate, $capacity)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use crate::php::args::values::{Id, Int};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::limiter::algorithms::leaky_bucket;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::limiter_class::{self, Param, OPTIONAL_FLOAT, OPTIONAL_INT, STRING_OR_FLOAT};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::register::Finish;

// The short form puts the rate before the capacity, the long form after it.
static SIGNATURE: Signature = Signature {
    class: "LeakyBucketRateLimiter",
    long: Form {
        slots: &[
            ("connection", "connection"),
            ("keyPrefix", "keyPrefix"),
            ("bucketCapacity", "bucketCapacity"),
            ("leakRate", "leakRate"),
            ("requestSize", "requestSize"),
        ],
        required: 4,
    },
    short: Form { slots: &[("key", "keyPrefix"), ("rate", "leakRate"), ("capacity", "bucketCapacity")], required: 3 },
};

#[php_class]
#[php(name = "LeakyBucketRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct LeakyBucketRateLimiter {
    state: LimiterState,
    policy: GivenNumbers,
}

rate_limiter_impl!(LeakyBucketRateLimiter {
    #[php(optional = bucketCapacity)]
    pub fn __construct(
        connection: &Zval,
        keyPrefix: &Zval,
        bucketCapacity: Option<&Zval>,
        leakRate: Option<&Zval>,
        requestSize: Option<&Zval>,
    ) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), bucketCapacity, leakRate, requestSize], |a| {
            leaky_bucket::policy(a.int("bucketCapacity")?, a.float("leakRate")?, a.int_or("requestSize", 1)?)
        })?;
        crate::php::classes::shared::remaining::initialize::<Self>();
        Ok(LeakyBucketRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), bucketCapacity, leakRate, requestSize]) })
    }

    /// Books `cost` now, to be used after the result's `delay` seconds, when
    /// that is at most `maxWait`; otherwise books nothing (`allowed` false,
    /// `retryAfter` the wait). Bookings are served in the order made.
    #[php(optional = id, defaults(id = "\"\"", cost = 1))]
    pub fn reserve(self_: &mut ZendClassObject<LeakyBucketRateLimiter>, id: Id, cost: Int, maxWait: Option<&Zval>) -> PhpResult<crate::php::result::RateLimitResult> {
        crate::php::classes::shared::remaining::after_call(self_, |c| c.state.adjust("reserve", id, cost, maxWait))
    }
});

impl Finish for LeakyBucketRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::shared::give_back::declare_reserve(ce)?;
        limiter_class::finish::<Self>(
            ce,
            &[
                Param("keyPrefix", STRING_OR_FLOAT, None),
                Param("bucketCapacity", OPTIONAL_INT, None),
                Param("leakRate", OPTIONAL_FLOAT, None),
                Param("requestSize", OPTIONAL_INT, Some(c"1")),
            ],
        )
    }
}
