//! `withLease(int $units, float $maxAge = 1.0): static` on the token bucket,
//! GCRA and the fixed window: a copy of the limiter (as `withDryRun()` makes
//! one: the same target, keys, policy and `$remaining`, the original
//! unchanged) whose consumes are answered from leases (`limiter::lease`).
//! Its arguments are checked here, before anything touches Redis.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::php::args::values;
use crate::php::classes::shared::dry_run;
use crate::php::classes::shared::remaining::LimiterClass;
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::zend_api::{self, MAY_BE_DOUBLE, MAY_BE_LONG};

/// The copy of `object` under the lease terms given; `make` builds the
/// class's value from the original's and the copy's state.
pub fn copy<T: LimiterClass>(
    object: &mut ZendClassObject<T>,
    class: &str,
    units: &Zval,
    max_age: Option<&Zval>,
    make: impl FnOnce(&T, LimiterState) -> T,
) -> PhpResult<ZBox<ZendClassObject<T>>> {
    let read = || -> crate::error::Result<LimiterState> {
        let units = values::int_param("units", units)?;
        let max_age = max_age.map_or(Ok(1.0), |z| values::float_param("maxAge", z))?;
        object.state().with_lease(units, max_age)
    };
    let state = read().map_err(|e| in_call(e, &format!("{class}::withLease"), &["units", "maxAge"]))?;
    Ok(dry_run::copy(object, |c| make(c, state)))
}

/// What Reflection shows of the method (MINIT): `int $units, float $maxAge = 1.0`, returning `static`.
pub fn declare(ce: &ClassEntry) -> Result<(), String> {
    zend_api::set_parameter(ce, "withlease", 0, "units", MAY_BE_LONG, None)?;
    zend_api::set_parameter(ce, "withlease", 1, "maxAge", MAY_BE_DOUBLE, Some(c"1.0"))?;
    zend_api::set_return_static(ce, "withlease")
}
