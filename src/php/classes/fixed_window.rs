//! `FixedWindowRateLimiter`: `($connection, $keyPrefix, $window, $limit)` or `($key, $window, $limit)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::limiter::fixed_window;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::classes::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::limiter_class::{self, Param, OPTIONAL_INT, OPTIONAL_INT_OR_FLOAT, STRING_OR_FLOAT};
use crate::php::classes::state::LimiterState;
use crate::php::engine::register::Finish;

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
    policy: GivenNumbers,
}

rate_limiter_impl!(FixedWindowRateLimiter {
    /// A copy of this limiter that takes up to `units` at once from Redis
    /// (never more than is there, fewer as the limit runs low), answers its
    /// consumes from them without a round trip (`source` 'lease'), and gives
    /// back what is left after `maxAge` seconds, on `reset()` and when the
    /// process or thread ends. This limiter is unchanged.
    #[php(optional = maxAge)]
    pub fn with_lease(
        self_: &mut ::ext_php_rs::types::ZendClassObject<FixedWindowRateLimiter>,
        units: &::ext_php_rs::types::Zval,
        maxAge: Option<&::ext_php_rs::types::Zval>,
    ) -> PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendClassObject<FixedWindowRateLimiter>>> {
        crate::php::classes::lease::copy(self_, "FixedWindowRateLimiter", units, maxAge, |c, state| FixedWindowRateLimiter { state, policy: c.policy.clone() })
    }

    #[php(optional = window)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, window: Option<&Zval>, limit: Option<&Zval>) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit], |a| {
            fixed_window::policy(a.float("window")?, a.int("limit")?)
        })?;
        crate::php::classes::remaining::initialize::<Self>();
        Ok(FixedWindowRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit]) })
    }
});

impl Finish for FixedWindowRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::lease::declare(ce)?;
        limiter_class::finish::<Self>(
            ce,
            &[Param("keyPrefix", STRING_OR_FLOAT, None), Param("window", OPTIONAL_INT_OR_FLOAT, None), Param("limit", OPTIONAL_INT, None)],
        )
    }
}
