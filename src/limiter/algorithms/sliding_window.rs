//! Sliding window: at most `maxRequests` units in ANY interval of `windowSize`.
//!
//! Two shapes, one guarantee:
//! - `blocks = 0`: an exact log, one sorted-set member per accepted unit
//!   (`lua/sliding_log.lua`). Exact to the microsecond, memory grows with the limit.
//! - `blocks > 0`: a counter per `windowSize / blocks` slice in a small hash
//!   (`lua/sliding_blocks.lua`). Memory depends on `blocks` only; every slice that
//!   overlaps the window counts, so it may deny up to one slice early, never late.

use crate::error::{Error, Result};
use crate::limiter::algorithms::policy::{Algorithm, Policy};
use crate::limiter::params::{self, arg};

/// The largest cost one call may add to an exact log: each unit is a member,
/// so a call's work and memory in Redis grow with its cost. Blocks mode takes
/// any cost up to the limit in constant work.
pub const MAX_LOG_COST: i64 = 1000;
/// The most slices per window: every call reads the whole hash of slices.
pub const MAX_BLOCKS: i64 = 1000;

/// The shortest slice in blocks mode. Redis expiries are milliseconds, and a
/// slice shorter than that buys nothing over the exact log but a bigger hash.
pub const MIN_SLICE_US: i64 = 1000;

/// `window_size` in seconds (at least 1 ms), `max_requests` per window,
/// `blocks` = 0 for the exact log, else the number of slices per window
/// (each slice at least 1 ms).
pub fn policy(window_size: f64, max_requests: i64, blocks: i64) -> Result<Policy> {
    params::seconds_to_ms("windowSize", window_size)?; // at least one millisecond
    let window_us = params::seconds_to_us("windowSize", window_size)?;
    let limit = params::count("maxRequests", max_requests)?;
    let most = (window_us / MIN_SLICE_US).min(MAX_BLOCKS);
    if blocks < 0 {
        return Err(Error::value("blocks", format!("must be greater than or equal to 0, {blocks} given")));
    }
    if blocks > most {
        return Err(Error::value(
            "blocks",
            if most < MAX_BLOCKS {
                format!("must be at most {most}, so that each slice of the window lasts at least 1 ms; {blocks} given")
            } else {
                format!("must be at most {MAX_BLOCKS}, {blocks} given")
            },
        ));
    }
    if blocks == 0 {
        // The log's key lives one window (rounded up to whole ms) after its newest entry.
        let ttl_ms = (window_us + 999) / 1000;
        let mut policy = Policy::new(Algorithm::SlidingLog, vec![arg(window_us), arg(limit), arg(ttl_ms)], limit, "the limit");
        if limit > MAX_LOG_COST {
            policy.max_cost = MAX_LOG_COST;
            policy.max_cost_is = "the most one call may add to an exact log; $blocks > 0 takes larger costs".into();
        }
        Ok(policy)
    } else {
        // Whole microseconds; the script counts every slice overlapping the
        // window, so a slice a little shorter than window / blocks is still exact.
        Ok(Policy::new(Algorithm::SlidingBlocks, vec![arg(window_us), arg(limit), arg(window_us / blocks)], limit, "the limit"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::value_error as msg;

    fn args(sw: &Policy) -> Vec<String> {
        sw.args.iter().map(|a| String::from_utf8(a.clone()).unwrap()).collect()
    }

    #[test]
    fn log_mode_arguments() {
        let sw = policy(60.0, 100, 0).unwrap();
        assert_eq!(args(&sw), ["60000000", "100", "60000"]);
        assert_eq!((sw.limit, sw.algorithm), (100, Algorithm::SlidingLog));
        // The TTL is the window rounded UP to whole milliseconds.
        assert_eq!(args(&policy(0.0015, 1, 0).unwrap()), ["1500", "1", "2"]);
        assert_eq!(args(&policy(0.001, 1, 0).unwrap()), ["1000", "1", "1"]);
    }

    #[test]
    fn blocks_mode_arguments() {
        let sw = policy(60.0, 120, 3).unwrap();
        assert_eq!(args(&sw), ["60000000", "120", "20000000"]);
        assert_eq!(sw.algorithm, Algorithm::SlidingBlocks);
        // A slice that does not divide the window is floored to whole µs.
        assert_eq!(args(&policy(1.0, 5, 3).unwrap()), ["1000000", "5", "333333"]);
        // The finest allowed: 1 ms slices, and at most 1000 of them.
        assert_eq!(args(&policy(1.0, 5, 1000).unwrap()), ["1000000", "5", "1000"]);
        assert_eq!(msg(policy(3600.0, 5, 1001)), "$blocks must be at most 1000, 1001 given");
    }

    #[test]
    fn bad_window_and_limit_name_themselves() {
        assert_eq!(msg(policy(0.0, 1, 0)), "$windowSize must be greater than 0");
        assert_eq!(msg(policy(-3.0, 1, 0)), "$windowSize must be greater than 0");
        assert_eq!(msg(policy(f64::NAN, 1, 0)), "$windowSize must be a finite number of seconds");
        assert_eq!(msg(policy(f64::INFINITY, 1, 0)), "$windowSize must be a finite number of seconds");
        assert_eq!(msg(policy(0.0005, 1, 0)), "$windowSize must be at least 0.001 (one millisecond)");
        assert!(msg(policy(1e10, 1, 0)).starts_with("$windowSize must be at most"));
        assert_eq!(msg(policy(1.0, 0, 0)), "$maxRequests must be greater than or equal to 1");
        assert_eq!(msg(policy(1.0, -1, 0)), "$maxRequests must be greater than or equal to 1");
    }

    #[test]
    fn bad_blocks_name_themselves() {
        assert_eq!(msg(policy(1.0, 1, -1)), "$blocks must be greater than or equal to 0, -1 given");
        assert_eq!(msg(policy(1.0, 1, 1001)), "$blocks must be at most 1000, 1001 given");
        assert_eq!(msg(policy(0.5, 1, 501)), "$blocks must be at most 500, so that each slice of the window lasts at least 1 ms; 501 given");
        assert_eq!(msg(policy(0.001, 1, 2)), "$blocks must be at most 1, so that each slice of the window lasts at least 1 ms; 2 given");
        // The window is checked before blocks: its message wins.
        assert!(msg(policy(0.0, 1, -1)).starts_with("$windowSize"));
    }

    #[test]
    fn a_log_takes_at_most_1000_units_per_call() {
        let big = policy(60.0, 1 << 40, 0).unwrap();
        assert!(big.check_cost(1000).is_ok());
        assert_eq!(
            msg(big.check_cost(1001)),
            "$cost must be at most 1000 (the most one call may add to an exact log; $blocks > 0 takes larger costs), 1001 given"
        );
        assert!(policy(60.0, 1 << 40, 10).unwrap().check_cost(1_000_000).is_ok());
    }

    #[test]
    fn cost_is_checked_against_max_requests() {
        let sw = policy(1.0, 3, 0).unwrap();
        assert!(sw.check_cost(3).is_ok());
        assert_eq!(msg(sw.check_cost(4)), "$cost must be at most 3 (the limit), 4 given");
        assert!(sw.check_cost(0).is_err());
    }
}
