//! `FixedWindowRateLimiter`: `($connection, $keyPrefix, $window, $limit)` or `($key, $window, $limit)`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::types::ZendClassObject;

use crate::limiter::algorithms::fixed_window;
use crate::limiter::decide::instance::Windows;
use crate::php::args::calendar_args;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::classes::shared::dry_run::copy;
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::limiter_class::{self, Param, OPTIONAL_INT, OPTIONAL_INT_OR_FLOAT, STRING_OR_FLOAT};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_DOUBLE, MAY_BE_LONG, MAY_BE_STRING};

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
        crate::php::classes::shared::lease::copy(self_, "FixedWindowRateLimiter", units, maxAge, |c, state| FixedWindowRateLimiter { state, policy: c.policy.clone() })
    }

    #[php(optional = window)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, window: Option<&Zval>, limit: Option<&Zval>) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit], |a| {
            fixed_window::policy(a.float("window")?, a.int("limit")?)
        })?;
        crate::php::classes::shared::remaining::initialize::<Self>();
        Ok(FixedWindowRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), window, limit]) })
    }

    /// A copy whose windows start at `anchor + k × window` (Unix seconds, or
    /// a `DateTimeInterface`) on the server's clock, not at a key's first request.
    pub fn with_anchor(self_: &mut ZendClassObject<FixedWindowRateLimiter>, anchor: &Zval) -> PhpResult<ZBox<ZendClassObject<FixedWindowRateLimiter>>> {
        let state = self_.state.with_windows("withAnchor", &["anchor"], || Ok(Windows::Anchored { anchor_ms: calendar_args::anchor_ms(anchor)? }))?;
        Ok(copy(self_, |c| FixedWindowRateLimiter { state, policy: c.policy.clone() }))
    }

    /// A copy whose every window is one calendar `unit` ('hour', 'day',
    /// 'week' from Monday, 'month') in `timeZone`, DST changes and month lengths included.
    #[php(optional = timeZone)]
    pub fn with_calendar(
        self_: &mut ZendClassObject<FixedWindowRateLimiter>,
        unit: &Zval,
        timeZone: Option<&Zval>,
    ) -> PhpResult<ZBox<ZendClassObject<FixedWindowRateLimiter>>> {
        let state = self_.state.with_windows("withCalendar", &["unit", "timeZone"], || calendar_args::calendar(unit, timeZone))?;
        Ok(copy(self_, |c| FixedWindowRateLimiter { state, policy: c.policy.clone() }))
    }
});

impl Finish for FixedWindowRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::shared::lease::declare(ce)?;
        limiter_class::finish::<Self>(
            ce,
            &[Param("keyPrefix", STRING_OR_FLOAT, None), Param("window", OPTIONAL_INT_OR_FLOAT, None), Param("limit", OPTIONAL_INT, None)],
        )?;
        // withAnchor(int|float|\DateTimeInterface $anchor): static, withCalendar(string $unit, string $timeZone = 'UTC'): static.
        zend_api::set_parameter_type(ce, "withanchor", 0, "anchor", &["DateTimeInterface"], MAY_BE_LONG | MAY_BE_DOUBLE, None)?;
        zend_api::set_return_static(ce, "withanchor")?;
        zend_api::set_parameter(ce, "withcalendar", 0, "unit", MAY_BE_STRING, None)?;
        zend_api::set_parameter(ce, "withcalendar", 1, "timeZone", MAY_BE_STRING, Some(c"'UTC'"))?;
        zend_api::set_return_static(ce, "withcalendar")
    }
}
