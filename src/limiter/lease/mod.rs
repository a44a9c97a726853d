//! Leases (`withLease()` on the token bucket, GCRA and the fixed window): a
//! process takes up to `units` of a hot key's limit from Redis in one atomic
//! call (the `adjust` entry's lease mode, `ratelimit_core::lease`: never more
//! than is there, at most a quarter of what is left, at least the asking
//! call's cost) and answers the calls after it from them without a round
//! trip (`source` 'lease'), until they run out. What is left goes back as a
//! refund (`Adjust::Refund`) when the lease is older than `maxAge` (seen at
//! the limiter's next call for the key and at each request's end), on
//! `reset()`, and when the thread or the process ends (`give_back_all`, from
//! the module's globals' shutdown). A fixed window's lease ends with its
//! window: its units are void then, never refunded into the next window.
//!
//! Units in a lease are already taken in Redis, so what every process admits
//! never exceeds the limit; a call may be denied while other processes hold
//! unused units, at most the units held in leases (`counts`).
//!
//! Per thread (`table`): a request runs on one thread, and a lease is spent
//! only by the thread that took it. A child made by `fork()` inherits the
//! table but not the units: it spends and returns none of them.

pub mod counts;
mod decide;
pub mod table;

use std::time::Duration;

use crate::error::{Error, Result};
use crate::limiter::params::MAX_COUNT;
use crate::limiter::Algorithm;

pub use decide::decide;
pub use table::{give_back_aged, give_back_all, give_back_key};

/// A limiter's lease terms: up to `units` per lease, given back after `max_age`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Terms {
    pub units: i64,
    pub max_age: Duration,
}

/// The longest `$maxAge`: a day (a lease older than that only locks units away).
pub const MAX_AGE: f64 = 86_400.0;

impl Terms {
    /// `withLease($units, $maxAge)`'s arguments, checked before anything
    /// touches Redis; `algorithm`: the limiter's (a lease needs an algorithm
    /// whose units can be taken ahead: token bucket, GCRA, fixed window,
    /// on the calendar or not).
    pub fn new(algorithm: Algorithm, units: i64, max_age: f64) -> Result<Terms> {
        if !matches!(
            algorithm,
            Algorithm::TokenBucket | Algorithm::Gcra | Algorithm::FixedWindow | Algorithm::AnchoredWindow | Algorithm::CalendarWindow
        ) {
            return Err(Error::value("units", "a lease is taken on a token bucket, GCRA or a fixed window"));
        }
        if units < 1 {
            return Err(Error::value("units", "must be greater than or equal to 1"));
        }
        if units > MAX_COUNT {
            return Err(Error::value("units", format!("must be at most {MAX_COUNT}, {units} given")));
        }
        if !(max_age.is_finite() && max_age > 0.0 && max_age <= MAX_AGE) {
            return Err(Error::value("maxAge", format!("must be a number of seconds greater than 0 and at most {MAX_AGE}, {max_age} given")));
        }
        Ok(Terms { units, max_age: Duration::from_secs_f64(max_age) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_terms_are_value_errors_naming_the_parameter() {
        assert_eq!(Terms::new(Algorithm::Gcra, 0, 1.0).unwrap_err().to_string(), "$units must be greater than or equal to 1");
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 86_401.0] {
            assert!(Terms::new(Algorithm::TokenBucket, 5, bad).unwrap_err().to_string().starts_with("$maxAge must be"), "{bad}");
        }
        assert!(Terms::new(Algorithm::SlidingLog, 5, 1.0).is_err());
        assert_eq!(Terms::new(Algorithm::FixedWindow, 50, 0.5).unwrap(), Terms { units: 50, max_age: Duration::from_millis(500) });
    }
}
