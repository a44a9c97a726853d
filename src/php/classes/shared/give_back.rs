//! `refund()` and `charge()` on every limiter class, and `reserve()` on the
//! token bucket, the leaky bucket and GCRA: what Reflection shows of their
//! parameters (`string $id = ''`, `int $units = 1`, `int $cost = 1`,
//! `float $maxWait = 0.0`; declared here for the reasons
//! `interface::declare_parameters` gives) and `$maxWait` read by PHP's rules.
//! The calls themselves are `LimiterState::adjust` (`limiter::decide::adjust`).

use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::error::Result;
use crate::limiter::decide::adjust::Adjust;
use crate::php::args::values;
use crate::php::engine::zend_api::{self, MAY_BE_DOUBLE, MAY_BE_LONG, MAY_BE_STRING};

/// `refund()` and `charge()`, on every limiter class.
pub fn declare(ce: &ClassEntry) -> std::result::Result<(), String> {
    for method in ["refund", "charge"] {
        zend_api::set_parameter(ce, method, 0, "id", MAY_BE_STRING, None)?;
        zend_api::set_parameter(ce, method, 1, "units", MAY_BE_LONG, None)?;
    }
    Ok(())
}

/// `reserve()`, on the classes that book ahead.
pub fn declare_reserve(ce: &ClassEntry) -> std::result::Result<(), String> {
    zend_api::set_parameter(ce, "reserve", 0, "id", MAY_BE_STRING, None)?;
    zend_api::set_parameter(ce, "reserve", 1, "cost", MAY_BE_LONG, None)?;
    zend_api::set_parameter(ce, "reserve", 2, "maxWait", MAY_BE_DOUBLE, Some(c"0.0"))
}

/// What `method` does; `max_wait`: `reserve()`'s `$maxWait` as given (0.0 when left out).
pub fn mode(method: &str, max_wait: Option<&Zval>) -> Result<Adjust> {
    Ok(match method {
        "refund" => Adjust::Refund,
        "charge" => Adjust::Charge,
        _ => Adjust::reserve(max_wait.map_or(Ok(0.0), |z| values::float_param("maxWait", z))?)?,
    })
}
