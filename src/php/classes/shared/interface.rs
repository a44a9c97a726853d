//! The `RateLimiterInterface` interface every limiter class implements, and the macro
//! that writes a class's `#[php_impl]` block: its own items (constructor,
//! extra methods) plus the interface methods, all forwarding to the class's
//! `state: LimiterState`, so the five classes share one implementation.
//!
//! The methods are not implemented through `#[php_impl_interface]`, because
//! that does not carry the parameter defaults (`$id = ''`, `$cost = 1`) to the
//! class and PHP then rejects the class as incompatible with the interface.

use ext_php_rs::class::RegisteredClass;
use ext_php_rs::prelude::*;
use ext_php_rs::zend::ClassEntry;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::types::ZendHashTable;

use crate::php::args::id_list::IdList;
use crate::php::args::values::{Id, Int};
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_LONG, MAY_BE_STRING};
use crate::php::result::RateLimitResult;

#[php_interface]
#[php(name = "RateLimiterInterface")]
pub trait RateLimiterInterface {
    /// Takes `cost` units for `id` if they fit; false (and nothing taken) otherwise.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn is_allowed(&mut self, id: Id, cost: Int) -> PhpResult<bool>;

    /// The same as `isAllowed()`, under the name some articles use.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn access(&mut self, id: Id, cost: Int) -> PhpResult<bool>;

    /// Like `isAllowed()`, with the whole decision.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn consume(&mut self, id: Id, cost: Int) -> PhpResult<RateLimitResult>;

    /// The state of `id`: would a request of cost 1 fit now? Nothing is consumed.
    #[php(defaults(id = "\"\""))]
    fn peek(&mut self, id: Id) -> PhpResult<RateLimitResult>;

    /// Deletes the key of `id`.
    #[php(defaults(id = "\"\""))]
    fn reset(&mut self, id: Id) -> PhpResult<()>;

    /// `consume()` for every id, in order, in one round trip: the results under the same keys.
    #[php(defaults(cost = 1))]
    fn consume_many(&mut self, ids: IdList, cost: Int) -> PhpResult<ZBox<ZendHashTable>>;
}

/// What Reflection shows of the interface methods' scalar parameters, on the
/// interface and on every class that implements it: `string $id = ''`, `int
/// $cost = 1`, not nullable. The binding declares them nullable, since `Id`
/// and `Int` take a null to apply PHP's rule for it themselves (see `values`).
/// The interface runs this before any class implements it, so a class's
/// registered parameters (nullable, then narrowed here) stay compatible.
pub fn declare_parameters(ce: &ClassEntry) -> Result<(), String> {
    for method in ["isallowed", "access", "consume", "peek", "reset"] {
        zend_api::set_parameter(ce, method, 0, "id", MAY_BE_STRING, None)?;
    }
    for (method, index) in [("isallowed", 1), ("access", 1), ("consume", 1), ("consumemany", 1)] {
        zend_api::set_parameter(ce, method, index, "cost", MAY_BE_LONG, None)?;
    }
    Ok(())
}

impl Finish for PhpInterfaceRateLimiterInterface {
    fn finish(ce: &mut ClassEntry) -> Result<(), String> {
        declare_parameters(ce)
    }
}

/// The interface's class entry, for `#[php(implements(ce = …))]` on the classes.
pub fn rate_limiter_interface() -> &'static ClassEntry {
    PhpInterfaceRateLimiterInterface::get_metadata().ce()
}

/// Writes the `#[php_impl]` block of a limiter class: the given items, then
/// the `RateLimiterInterface` methods, each of which leaves the call's
/// remaining count in the object's readonly `$remaining` (see `remaining`),
/// and a `__clone` that makes the class uncloneable.
macro_rules! rate_limiter_impl {
    ($class:ident { $($items:tt)* }) => {
        #[::ext_php_rs::php_impl]
        impl $class {
            $($items)*

            /// What `var_dump()` shows: class, key prefix, policy, remaining; never a password.
            #[php(name = "__debugInfo")]
            pub fn debug_info(&self) -> ::ext_php_rs::prelude::PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendHashTable>> {
                $crate::php::classes::shared::debug_info::debug_info(&self.state, &self.policy)
            }

            /// Takes `cost` units for `id` if they fit; false (and nothing taken) otherwise.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn is_allowed(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id, cost: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<bool> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.is_allowed("isAllowed", id, cost))
            }

            /// The same as `isAllowed()`.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn access(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id, cost: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<bool> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.is_allowed("access", id, cost))
            }

            /// Like `isAllowed()`, with the whole decision.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn consume(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id, cost: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.consume(id, cost))
            }

            /// Would a request of cost 1 fit now? Nothing is consumed.
            #[php(defaults(id = "\"\""))]
            pub fn peek(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.peek(id))
            }

            /// `consume()` for every id, in order, in one round trip: the results under the same keys.
            #[php(defaults(cost = 1))]
            pub fn consume_many(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, ids: $crate::php::args::id_list::IdList, cost: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendHashTable>> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.consume_many(ids, cost))
            }

            /// Gives back up to `units` of what `id` used, never past the empty/full state.
            #[php(defaults(id = "\"\"", units = 1))]
            pub fn refund(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id, units: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.adjust("refund", id, units, None))
            }

            /// Takes `units` even past the limit: a debt that denies later calls until time pays it off.
            #[php(defaults(id = "\"\"", units = 1))]
            pub fn charge(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id, units: $crate::php::args::values::Int) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.adjust("charge", id, units, None))
            }

            /// Deletes the key of `id`.
            #[php(defaults(id = "\"\""))]
            pub fn reset(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: $crate::php::args::values::Id) -> ::ext_php_rs::prelude::PhpResult<()> {
                $crate::php::classes::shared::remaining::after_call(self_, |c| c.state.reset(id))
            }

            /// A copy of this limiter in dry run (`$on`: it decides, writes and
            /// counts as enforcing would, and never denies: a denial is answered
            /// as accepted with `wouldDeny`), or enforcing (`!$on`), whatever
            /// `ratelimit.dry_run` says. This limiter is unchanged.
            #[php(optional = on)]
            pub fn with_dry_run(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, on: Option<&::ext_php_rs::types::Zval>) -> ::ext_php_rs::prelude::PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendClassObject<$class>>> {
                let on = $crate::php::classes::shared::dry_run::on(stringify!($class), on)?;
                Ok($crate::php::classes::shared::dry_run::copy(self_, |c| $class { state: $crate::php::classes::shared::dry_run::state(&c.state, on), policy: c.policy.clone() }))
            }

            /// Denies every call for `id` for `seconds` (a longer block already there is kept).
            pub fn block(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: &::ext_php_rs::types::Zval, seconds: &::ext_php_rs::types::Zval) -> ::ext_php_rs::prelude::PhpResult<()> {
                self_.state.block(id, seconds)
            }

            /// Ends the block of `id`.
            pub fn unblock(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, id: &::ext_php_rs::types::Zval) -> ::ext_php_rs::prelude::PhpResult<()> {
                self_.state.unblock(id)
            }

            /// A copy of this limiter that blocks an id for `seconds` whenever
            /// one of its calls is denied (in the same atomic call). This limiter is unchanged.
            pub fn with_lockout(self_: &mut ::ext_php_rs::types::ZendClassObject<$class>, seconds: &::ext_php_rs::types::Zval) -> ::ext_php_rs::prelude::PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendClassObject<$class>>> {
                let state = self_.state.with_lockout(seconds)?;
                Ok($crate::php::classes::shared::dry_run::copy(self_, |c| $class { state, policy: c.policy.clone() }))
            }

            /// Protected and final, so `ReflectionClass::isCloneable()` is false
            /// and `clone` fails, for the class and any subclass: a limiter holds
            /// a bound target's connections and has nothing worth copying.
            #[php(vis = "protected", final)]
            pub fn __clone(&mut self) {}
        }

        impl $crate::php::classes::shared::remaining::LimiterClass for $class {
            fn state(&self) -> &$crate::php::classes::shared::state::LimiterState {
                &self.state
            }

            fn policy(&self) -> &$crate::php::args::given_numbers::GivenNumbers {
                &self.policy
            }
        }
    };
}

pub(crate) use rate_limiter_impl;
