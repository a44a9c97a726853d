//! Leaky bucket, the queue form: each accepted request adds `cost × request_size`
//! units to a bucket of `bucket_capacity` units that drains continuously at
//! `leak_rate` units per second. An accepted request's `delay` is the level
//! before it divided by the rate: when it leaks out, so callers that wait it
//! get a constant outflow. The key expires when the bucket would be empty.

use crate::error::{Error, Result};
use crate::limiter::algorithms::policy::{Algorithm, Policy};
use crate::limiter::params::{self, arg};

/// `bucket_capacity` units, draining at `leak_rate` units per second; a
/// request of cost 1 adds `request_size` units. `limit` and `remaining` are
/// in capacity units.
pub fn policy(bucket_capacity: i64, leak_rate: f64, request_size: i64) -> Result<Policy> {
    let capacity = params::count("bucketCapacity", bucket_capacity)?;
    let rate = params::rate("leakRate", leak_rate)?;
    params::flow_seconds("leakRate", capacity, rate)?;
    let request_size = params::count("requestSize", request_size)?;
    if request_size > capacity {
        return Err(Error::value("requestSize", format!("must be at most the bucket capacity ({capacity}), {request_size} given")));
    }
    // f64's Display is the shortest exact decimal, never an exponent: Lua's tonumber reads it back.
    let mut policy = Policy::new(Algorithm::LeakyBucket, vec![arg(capacity), arg(rate), arg(request_size)], capacity, "the capacity");
    // `cost × request_size` must fit the bucket: bounded by a quotient, so a
    // huge cost cannot overflow a product.
    if request_size > 1 {
        policy.max_cost = capacity / request_size;
        policy.max_cost_is = format!("the capacity {capacity} / the request size {request_size}");
    }
    Ok(policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::value_error;
    use crate::limiter::Outcome;

    #[test]
    fn parameters_become_script_arguments() {
        let lb = policy(10, 2.5, 1).unwrap();
        assert_eq!(lb.args, [b"10".to_vec(), b"2.5".to_vec(), b"1".to_vec()]);
        assert_eq!((lb.algorithm, lb.limit), (Algorithm::LeakyBucket, 10));
        let sized = policy(100, 0.001, 7).unwrap();
        assert_eq!(sized.args, [b"100".to_vec(), b"0.001".to_vec(), b"7".to_vec()]);
    }

    #[test]
    fn bad_parameters_name_themselves() {
        assert_eq!(value_error(policy(0, 1.0, 1)), "$bucketCapacity must be greater than or equal to 1");
        assert_eq!(value_error(policy(10, 0.0, 1)), "$leakRate must be greater than 0");
        assert_eq!(value_error(policy(10, -2.0, 1)), "$leakRate must be greater than 0");
        assert_eq!(value_error(policy(10, f64::NAN, 1)), "$leakRate must be a finite number");
        assert_eq!(value_error(policy(10, f64::NEG_INFINITY, 1)), "$leakRate must be a finite number");
        assert_eq!(value_error(policy(10, 1.0, 0)), "$requestSize must be greater than or equal to 1");
        assert_eq!(value_error(policy(10, 1.0, 11)), "$requestSize must be at most the bucket capacity (10), 11 given");
        assert!(value_error(policy(1000, 1e-6, 1)).starts_with("$leakRate must be at least 1000/315360000"));
    }

    #[test]
    fn cost_times_request_size_must_fit() {
        let lb = policy(10, 1.0, 1).unwrap();
        assert!(lb.check_cost(10).is_ok());
        assert_eq!(value_error(lb.check_cost(11)), "$cost must be at most 10 (the capacity), 11 given");
        let sized = policy(10, 1.0, 3).unwrap();
        assert!(sized.check_cost(1).is_ok()); // what peek() asks for
        assert!(sized.check_cost(3).is_ok());
        assert_eq!(value_error(sized.check_cost(4)), "$cost must be at most 3 (the capacity 10 / the request size 3), 4 given");
        assert!(sized.check_cost(i64::MAX).is_err());
        assert_eq!(value_error(sized.check_cost(0)), "$cost must be greater than or equal to 1");
    }

    #[test]
    fn replies_map_to_outcomes_with_delay() {
        let lb = policy(10, 2.0, 1).unwrap();
        let accepted = lb.outcome(&[7, 1_500_000, 0, 1_000_000]).unwrap();
        assert_eq!(
            accepted,
            Outcome {
                allowed: true,
                limit: 10,
                remaining: 7,
                retry_after_us: 0,
                reset_after_us: 1_500_000,
                delay_us: 1_000_000,
                would_deny: false,
                source: crate::limiter::Source::Redis
            }
        );
        let denied = lb.outcome(&[0, 5_000_000, 500_000]).unwrap();
        assert_eq!((denied.allowed, denied.retry_after(), denied.reset_after(), denied.delay()), (false, 0.5, 5.0, 0.0));
    }
}
