//! Token bucket: a bucket of `capacity` tokens starts full and refills
//! continuously at `refill_rate` tokens per second; a request takes `cost`
//! tokens if they are there. Fractions of a token are kept in Redis, so slow
//! refills add up exactly. The key expires when the bucket would be full.

use once_cell::sync::Lazy;

use super::params::{self, arg};
use super::Algorithm;
use crate::error::Result;
use crate::redis::script::LuaScript;

static SCRIPT: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(include_str!("../../lua/token_bucket.lua")));

#[derive(Debug)]
pub struct TokenBucket {
    capacity: i64,
    args: Vec<Vec<u8>>,
}

impl TokenBucket {
    /// `capacity` tokens (also the burst), refilled at `refill_rate` tokens per second.
    pub fn new(capacity: i64, refill_rate: f64) -> Result<Self> {
        let capacity = params::count("capacity", capacity)?;
        let rate = params::rate("refillRate", refill_rate)?;
        params::flow_seconds("refillRate", capacity, rate)?;
        // f64's Display is the shortest exact decimal, never an exponent: Lua's tonumber reads it back.
        Ok(TokenBucket { capacity, args: vec![arg(capacity), arg(rate)] })
    }
}

impl Algorithm for TokenBucket {
    fn script(&self) -> &'static LuaScript {
        &SCRIPT
    }
    fn args(&self) -> &[Vec<u8>] {
        &self.args
    }
    fn limit(&self) -> i64 {
        self.capacity
    }
    fn check_cost(&self, cost: i64) -> Result<()> {
        params::check_cost(cost, self.capacity, "the capacity")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::limiter::Outcome;

    fn value_error<T: std::fmt::Debug>(r: Result<T>) -> String {
        match r {
            Err(Error::Value(m)) => m,
            other => panic!("expected ValueError, got {other:?}"),
        }
    }

    #[test]
    fn parameters_become_script_arguments() {
        let tb = TokenBucket::new(5, 10.0).unwrap();
        assert_eq!(tb.args(), &[b"5".to_vec(), b"10".to_vec()]);
        assert_eq!(tb.limit(), 5);
        let slow = TokenBucket::new(100, 0.001).unwrap();
        assert_eq!(slow.args(), &[b"100".to_vec(), b"0.001".to_vec()]);
        // Tiny rates are written out in full, which Lua's tonumber reads.
        let tiny = TokenBucket::new(1, 1e-7).unwrap();
        assert_eq!(tiny.args()[1], b"0.0000001".to_vec());
    }

    #[test]
    fn bad_parameters_name_themselves() {
        assert_eq!(value_error(TokenBucket::new(0, 1.0)), "$capacity must be greater than or equal to 1");
        assert_eq!(value_error(TokenBucket::new(-3, 1.0)), "$capacity must be greater than or equal to 1");
        assert_eq!(value_error(TokenBucket::new(5, 0.0)), "$refillRate must be greater than 0");
        assert_eq!(value_error(TokenBucket::new(5, -1.0)), "$refillRate must be greater than 0");
        assert_eq!(value_error(TokenBucket::new(5, f64::NAN)), "$refillRate must be a finite number");
        assert_eq!(value_error(TokenBucket::new(5, f64::INFINITY)), "$refillRate must be a finite number");
        assert!(value_error(TokenBucket::new(1000, 1e-6)).starts_with("$refillRate must be at least 1000/315360000"));
    }

    #[test]
    fn cost_is_checked_against_the_capacity() {
        let tb = TokenBucket::new(5, 1.0).unwrap();
        assert!(tb.check_cost(1).is_ok());
        assert!(tb.check_cost(5).is_ok());
        assert_eq!(value_error(tb.check_cost(6)), "$cost must be at most 5 (the capacity), 6 given");
        assert_eq!(value_error(tb.check_cost(0)), "$cost must be greater than or equal to 1");
    }

    #[test]
    fn replies_map_to_outcomes() {
        let tb = TokenBucket::new(5, 10.0).unwrap();
        let allowed = tb.outcome(&[1, 4, 0, 100_000, 0]).unwrap();
        assert_eq!(allowed, Outcome { allowed: true, limit: 5, remaining: 4, retry_after: 0.0, reset_after: 0.1, delay: 0.0 });
        let denied = tb.outcome(&[0, 0, 50_000, 450_000, 0]).unwrap();
        assert_eq!((denied.allowed, denied.remaining, denied.retry_after, denied.reset_after), (false, 0, 0.05, 0.45));
    }
}
