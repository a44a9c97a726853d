//! Token bucket: a bucket of `capacity` tokens starts full and refills
//! continuously at `refill_rate` tokens per second; a request takes `cost`
//! tokens if they are there. Fractions of a token are kept in Redis, so slow
//! refills add up exactly. The key expires when the bucket would be full.

use crate::error::Result;
use crate::limiter::algorithms::policy::{Algorithm, Policy};
use crate::limiter::params::{self, arg};

/// `capacity` tokens (also the burst), refilled at `refill_rate` tokens per second.
pub fn policy(capacity: i64, refill_rate: f64) -> Result<Policy> {
    let capacity = params::count("capacity", capacity)?;
    let rate = params::rate("refillRate", refill_rate)?;
    params::flow_seconds("refillRate", capacity, rate)?;
    // f64's Display is the shortest exact decimal, never an exponent: Lua's tonumber reads it back.
    Ok(Policy::new(Algorithm::TokenBucket, vec![arg(capacity), arg(rate)], capacity, "the capacity"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::value_error;
    use crate::limiter::Outcome;

    #[test]
    fn parameters_become_script_arguments() {
        let tb = policy(5, 10.0).unwrap();
        assert_eq!(tb.args, [b"5".to_vec(), b"10".to_vec()]);
        assert_eq!((tb.algorithm, tb.limit), (Algorithm::TokenBucket, 5));
        let slow = policy(100, 0.001).unwrap();
        assert_eq!(slow.args, [b"100".to_vec(), b"0.001".to_vec()]);
        // Tiny rates are written out in full, which Lua's tonumber reads.
        let tiny = policy(1, 1e-7).unwrap();
        assert_eq!(tiny.args[1], b"0.0000001".to_vec());
    }

    #[test]
    fn bad_parameters_name_themselves() {
        assert_eq!(value_error(policy(0, 1.0)), "$capacity must be greater than or equal to 1");
        assert_eq!(value_error(policy(-3, 1.0)), "$capacity must be greater than or equal to 1");
        assert_eq!(value_error(policy(5, 0.0)), "$refillRate must be greater than 0");
        assert_eq!(value_error(policy(5, -1.0)), "$refillRate must be greater than 0");
        assert_eq!(value_error(policy(5, f64::NAN)), "$refillRate must be a finite number");
        assert_eq!(value_error(policy(5, f64::INFINITY)), "$refillRate must be a finite number");
        assert!(value_error(policy(1000, 1e-6)).starts_with("$refillRate must be at least 1000/315360000"));
    }

    #[test]
    fn cost_is_checked_against_the_capacity() {
        let tb = policy(5, 1.0).unwrap();
        assert!(tb.check_cost(1).is_ok());
        assert!(tb.check_cost(5).is_ok());
        assert_eq!(value_error(tb.check_cost(6)), "$cost must be at most 5 (the capacity), 6 given");
        assert_eq!(value_error(tb.check_cost(0)), "$cost must be greater than or equal to 1");
    }

    #[test]
    fn replies_map_to_outcomes() {
        let tb = policy(5, 10.0).unwrap();
        let allowed = tb.outcome(&[4, 100_000]).unwrap();
        assert_eq!(
            allowed,
            Outcome {
                allowed: true,
                limit: 5,
                remaining: 4,
                retry_after_us: 0,
                reset_after_us: 100_000,
                delay_us: 0,
                would_deny: false,
                source: crate::limiter::Source::Redis
            }
        );
        let denied = tb.outcome(&[0, 450_000, 50_000]).unwrap();
        assert_eq!((denied.allowed, denied.remaining, denied.retry_after(), denied.reset_after()), (false, 0, 0.05, 0.45));
    }
}
