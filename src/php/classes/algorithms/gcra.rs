//! `GcraRateLimiter`: `($connection, $keyPrefix, $maxBurst, $count, $period)` or
//! `($key, $maxBurst, $count, $period)`, plus redis-cell's `throttle()`.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::error::Result;
use crate::limiter::algorithms::gcra;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::given_numbers::GivenNumbers;
use crate::php::args::values::{Id, Int};
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::limiter_class::{self, Param, OPTIONAL_FLOAT, OPTIONAL_INT, OPTIONAL_INT_OR_FLOAT, STRING_OR_INT};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_LONG, MAY_BE_STRING};

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
    policy: GivenNumbers,
}

rate_limiter_impl!(GcraRateLimiter {
    /// A copy of this limiter that takes up to `units` at once from Redis
    /// (never more than is there, fewer as the limit runs low), answers its
    /// consumes from them without a round trip (`source` 'lease'), and gives
    /// back what is left after `maxAge` seconds, on `reset()` and when the
    /// process or thread ends. This limiter is unchanged.
    #[php(optional = maxAge)]
    pub fn with_lease(
        self_: &mut ::ext_php_rs::types::ZendClassObject<GcraRateLimiter>,
        units: &::ext_php_rs::types::Zval,
        maxAge: Option<&::ext_php_rs::types::Zval>,
    ) -> PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendClassObject<GcraRateLimiter>>> {
        crate::php::classes::shared::lease::copy(self_, "GcraRateLimiter", units, maxAge, |c, state| GcraRateLimiter { state, policy: c.policy.clone() })
    }

    #[php(optional = maxBurst)]
    pub fn __construct(
        connection: &Zval,
        keyPrefix: &Zval,
        maxBurst: Option<&Zval>,
        count: Option<&Zval>,
        period: Option<&Zval>,
    ) -> PhpResult<Self> {
        let state = LimiterState::construct(&SIGNATURE, &[Some(connection), Some(keyPrefix), maxBurst, count, period], |a| {
            gcra::policy(a.int("maxBurst")?, a.int("count")?, a.float("period")?)
        })?;
        crate::php::classes::shared::remaining::initialize::<Self>();
        Ok(GcraRateLimiter { state, policy: GivenNumbers::read(&SIGNATURE, &[Some(connection), Some(keyPrefix), maxBurst, count, period]) })
    }

    /// redis-cell's `CL.THROTTLE key maxBurst count period quantity`:
    /// `[limited (0|1), limit, remaining, retryAfter (whole s, -1 when allowed), resetAfter (whole s)]`.
    /// Quantity 0 peeks; a quantity above the limit is limited with retryAfter -1.
    #[php(defaults(id = "\"\"", quantity = 1))]
    pub fn throttle(self_: &mut ZendClassObject<GcraRateLimiter>, id: Id, quantity: Int) -> PhpResult<Vec<i64>> {
        let state = &self_.state;
        let run = || -> Result<[i64; 5]> {
            let id = id.bytes()?;
            let quantity = quantity.value("quantity")?;
            let op = gcra::throttle_op(quantity, state.limiter().limit())?;
            let opts = state.options();
            let outcome = state.limiter().decide(&id, op, opts)?;
            let mut tuple = gcra::cl_throttle(quantity, &outcome);
            // A dry run never limits, not even a quantity that can never fit
            // (a peek, which enforcing would refuse).
            if opts.dry_run && tuple[0] == 1 {
                tuple[0] = 0;
                tuple[3] = -1;
            }
            Ok(tuple)
        };
        let ran = run();
        crate::php::engine::log::breaker_opened();
        let tuple = ran.map_err(|e| in_call(e, "GcraRateLimiter::throttle", &["id", "quantity"]))?;
        self_.state.set_remaining(Some(tuple[2]));
        crate::php::classes::shared::remaining::publish(self_);
        Ok(tuple.to_vec())
    }

    /// Books `cost` now, to be used after the result's `delay` seconds, when
    /// that is at most `maxWait`; otherwise books nothing (`allowed` false,
    /// `retryAfter` the wait). Bookings are served in the order made.
    #[php(optional = id, defaults(id = "\"\"", cost = 1))]
    pub fn reserve(self_: &mut ZendClassObject<GcraRateLimiter>, id: Id, cost: Int, maxWait: Option<&Zval>) -> PhpResult<crate::php::result::RateLimitResult> {
        crate::php::classes::shared::remaining::after_call(self_, |c| c.state.adjust("reserve", id, cost, maxWait))
    }
});

impl Finish for GcraRateLimiter {
    /// What Reflection shows: the union of both forms' types at each position.
    /// `throttle(string $id = '', int $quantity = 1)`: not nullable (see `values::Id`).
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::shared::lease::declare(ce)?;
        crate::php::classes::shared::give_back::declare_reserve(ce)?;
        zend_api::set_parameter(ce, "throttle", 0, "id", MAY_BE_STRING, None)?;
        zend_api::set_parameter(ce, "throttle", 1, "quantity", MAY_BE_LONG, None)?;
        limiter_class::finish::<Self>(
            ce,
            &[
                Param("keyPrefix", STRING_OR_INT, None),
                Param("maxBurst", OPTIONAL_INT, None),
                Param("count", OPTIONAL_INT_OR_FLOAT, None),
                Param("period", OPTIONAL_FLOAT, None),
            ],
        )
    }
}
