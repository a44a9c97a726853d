//! `SlidingWindowRateLimiter`: `($connection, $keyPrefix, $windowSize, $maxRequests, $blocks = 0)`
//! or `($key, $window, $limit, $blocks = 0)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::limiter::algorithms::sliding_window;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::limiter_class::{self, Param, OPTIONAL_INT, OPTIONAL_INT_OR_FLOAT, STRING_OR_FLOAT};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::register::Finish;

static SIGNATURE: Signature = Signature {
    class: "SlidingWindowRateLimiter",
    long: Form {
        slots: &[
            ("connection", "connection"),
            ("keyPrefix", "keyPrefix"),
            ("windowSize", "windowSize"),
            ("maxRequests", "maxRequests"),
            ("blocks", "blocks"),
        ],
        required: 4,
    },
    short: Form { slots: &[("key", "keyPrefix"), ("window", "windowSize"), ("limit", "maxRequests"), ("blocks", "blocks")], required: 3 },
};

#[php_class]
#[php(name = "SlidingWindowRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
pub struct SlidingWindowRateLimiter {
    state: LimiterState,
    policy: GivenNumbers,
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
            sliding_window::policy(a.float("windowSize")?, a.int("maxRequests")?, a.int_or("blocks", 0)?)
        })?;
        crate::php::classes::shared::remaining::initialize::<Self>();
        Ok(SlidingWindowRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &given) })
    }
});

impl Finish for SlidingWindowRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        limiter_class::finish::<Self>(
            ce,
            &[
                Param("keyPrefix", STRING_OR_FLOAT, None),
                Param("windowSize", OPTIONAL_INT_OR_FLOAT, None),
                Param("maxRequests", OPTIONAL_INT, None),
                Param("blocks", OPTIONAL_INT, Some(c"0")),
            ],
        )
    }
}
