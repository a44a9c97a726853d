//! Giving back, charging and booking ahead (`refund()`, `charge()`,
//! `reserve()`): one entry call, `adjust`, with a mode (lua/entries.lua and
//! `ratelimit_core::entries::adjust`), made by `instance::Limiter::adjust_at`
//! and `compound::Compound::adjust_at`. Here: what each mode is called with,
//! and the checks of its arguments before anything touches Redis.

use crate::error::{Error, Result};
use crate::limiter::algorithms::sliding_window::MAX_LOG_COST;
use crate::limiter::params::{MAX_COUNT, MAX_SECONDS};
use crate::limiter::{Algorithm, Policy};

/// What an `adjust` call does, as PHP asked it: in PHP's units (a wait in
/// seconds, a lease's cost in whole units) and checked with PHP's words
/// (`check`, `reserve`). It is the sending side of the entry's mode:
/// `call_args` writes it as the entry's arguments, which Lua and
/// `ratelimit_core::command` (for the module and `memory://`) read back into
/// core's `ratelimit_core::algorithm::Adjust`, in the wire's µs. Two types,
/// one on each side of the call, as the entry's other arguments are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Adjust {
    /// Give back up to the units.
    Refund,
    /// Take the units even past the limit.
    Charge,
    /// Book the units when the wait for them is at most this many seconds.
    Reserve(f64),
    /// Take a lease of up to the units, at least this cost (`limiter::lease`):
    /// the outcome's `delay_us` holds the units taken, which
    /// `lease::take` moves out before anyone sees it.
    Lease(i64),
}

impl Adjust {
    /// `mode units max_wait_us [now_us]`: the entry's arguments after the policies'.
    pub fn call_args(self, units: i64, now_us: Option<i64>) -> ([i64; 4], usize) {
        let (mode, wait_us) = match self {
            Adjust::Refund => (0, 0),
            Adjust::Charge => (1, 0),
            // Whole µs, rounded down: a booking never waits longer than asked.
            Adjust::Reserve(s) => (2, (s * 1e6).floor() as i64),
            // The asking call's cost rides in the wait's slot.
            Adjust::Lease(need) => (3, need),
        };
        ([mode, units, wait_us, now_us.unwrap_or(0)], if now_us.is_some() { 4 } else { 3 })
    }

    /// A reservation's `$cost` is checked as `policy` checks a cost. A
    /// refund's and a charge's `$units` only from 1 to 2^40: a refund gives
    /// back at most what was used, and a charge may take more than the
    /// limit (a debt each algorithm bounds), except on an exact log, where
    /// each unit is a member: at most 1,000 per call, as a consume.
    pub fn check(self, policy: &Policy, units: i64) -> Result<()> {
        let most = match (self, policy.algorithm) {
            (Adjust::Reserve(_), _) => return policy.check_cost(units),
            (Adjust::Lease(need), _) => {
                policy.check_cost(need)?;
                MAX_COUNT
            }
            (Adjust::Charge, Algorithm::SlidingLog) => MAX_LOG_COST,
            _ => MAX_COUNT,
        };
        if units < 1 {
            return Err(Error::value("units", "must be greater than or equal to 1"));
        }
        if units > most {
            return Err(Error::value("units", format!("must be at most {most}, {units} given")));
        }
        Ok(())
    }

    /// `$maxWait`: from 0 to 10 years, finite.
    pub fn reserve(max_wait: f64) -> Result<Adjust> {
        if !(0.0..=MAX_SECONDS).contains(&max_wait) {
            return Err(Error::value("maxWait", format!("must be a number of seconds from 0 to {MAX_SECONDS}, {max_wait} given")));
        }
        Ok(Adjust::Reserve(max_wait))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_follow_the_policies() {
        assert_eq!(Adjust::Refund.call_args(3, None), ([0, 3, 0, 0], 3));
        assert_eq!(Adjust::Charge.call_args(2, Some(7)), ([1, 2, 0, 7], 4));
        assert_eq!(Adjust::Reserve(0.25).call_args(1, None), ([2, 1, 250_000, 0], 3));
        assert_eq!(Adjust::Lease(2).call_args(50, None), ([3, 50, 2, 0], 3));
    }

    #[test]
    fn bad_units_and_waits_are_value_errors() {
        let p = crate::limiter::algorithms::token_bucket::policy(5, 1.0).unwrap();
        assert_eq!(Adjust::Refund.check(&p, 0).unwrap_err().to_string(), "$units must be greater than or equal to 1");
        assert!(Adjust::Refund.check(&p, 50).is_ok(), "a refund gives back at most what was used");
        assert!(Adjust::Charge.check(&p, 6).is_ok(), "a charge may take more than the capacity: a debt");
        assert_eq!(Adjust::Charge.check(&p, 0).unwrap_err().to_string(), "$units must be greater than or equal to 1");
        let log = crate::limiter::algorithms::sliding_window::policy(60.0, 5000, 0).unwrap();
        assert_eq!(Adjust::Charge.check(&log, 1001).unwrap_err().to_string(), "$units must be at most 1000, 1001 given");
        assert_eq!(Adjust::Reserve(0.0).check(&p, 0).unwrap_err().to_string(), "$cost must be greater than or equal to 1");
        assert!(Adjust::reserve(-0.5).is_err() && Adjust::reserve(f64::NAN).is_err() && Adjust::reserve(f64::INFINITY).is_err());
        assert_eq!(Adjust::reserve(2.0).unwrap(), Adjust::Reserve(2.0));
    }
}
