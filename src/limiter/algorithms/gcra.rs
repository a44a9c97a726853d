//! GCRA, the generic cell rate algorithm, with redis-cell's semantics
//! (`CL.THROTTLE key maxBurst count period quantity`).
//!
//! Vocabulary, as redis-cell speaks it:
//! - the *emission interval* is the spacing of requests at the nominal rate,
//!   `period / count`;
//! - the *delay variation tolerance* is how far ahead of that schedule a client
//!   may run: `interval × (maxBurst + 1)`, so an idle key takes a burst of
//!   `maxBurst + 1` (the limit);
//! - the *TAT* (theoretical arrival time), the only state, is when the
//!   schedule of accepted requests is used up. `lua/gcra.lua` keeps it.
//!
//! `throttle()` answers exactly what `CL.THROTTLE` answers; the mapping from
//! the script's microsecond reply to that tuple is `cl_throttle` below.

use crate::error::{Error, Result};
use crate::limiter::algorithms::policy::{Algorithm, Op, Policy};
use crate::limiter::outcome::Outcome;
use crate::limiter::params::{self, arg, MAX_SECONDS};

/// The longest tolerance (and so key TTL) we accept: keeps every time in the
/// script an integer below 2^53, where Lua's doubles are exact.
const MAX_TOLERANCE_US: i64 = (MAX_SECONDS as i64) * 1_000_000;

/// `max_burst` requests beyond the first may come at once; `count` per
/// `period` seconds is the sustained rate. The script's arguments are the
/// emission interval and the tolerance, in whole microseconds.
pub fn policy(max_burst: i64, count: i64, period: f64) -> Result<Policy> {
    let max_burst = params::count_or_zero("maxBurst", max_burst)?;
    let count = params::count("count", count)?;
    let period_us = params::seconds_to_us("period", period)?;
    // Truncated like redis-cell truncates it (to nanoseconds there): the
    // interval is whole microseconds, so the state stays an integer.
    let interval_us = period_us / count;
    if interval_us < 1 {
        return Err(Error::value("count", format!("must be at most {period_us} (one request per microsecond of $period)")));
    }
    let limit = max_burst + 1;
    let tolerance_us = interval_us.checked_mul(limit).filter(|&t| t <= MAX_TOLERANCE_US).ok_or_else(|| {
        Error::value(
            "maxBurst",
            format!(
                "must be at most {} for this $count and $period (($maxBurst + 1) × $period / $count must be at most {MAX_SECONDS} seconds)",
                MAX_TOLERANCE_US / interval_us - 1
            ),
        )
    })?;
    Ok(Policy::new(Algorithm::Gcra, vec![arg(interval_us), arg(tolerance_us)], limit, "the limit"))
}

/// What `throttle($quantity)` asks the script. Quantity 0 peeks; a quantity
/// above the limit can never be accepted, so it only needs the current state
/// (a peek too): redis-cell answers it as limited with the current remaining.
pub fn throttle_op(quantity: i64, limit: i64) -> Result<Op> {
    match quantity {
        q if q < 0 => Err(Error::value("quantity", "must be greater than or equal to 0")),
        0 => Ok(Op::Peek),
        q if q <= limit => Ok(Op::Consume(q)),
        _ => Ok(Op::Peek),
    }
}

/// Microseconds → whole seconds as `CL.THROTTLE` reports them: truncated, plus
/// one when at least a millisecond is left over (redis-cell rounds up so a
/// fast caller does not retry too early, but looks only at whole milliseconds).
pub fn whole_seconds(us: i64) -> i64 {
    let seconds = us / 1_000_000;
    if (us % 1_000_000) / 1000 > 0 {
        seconds + 1
    } else {
        seconds
    }
}

/// `CL.THROTTLE`'s reply `[limited, limit, remaining, retry_after, reset_after]`
/// for `quantity`, from the decision on `throttle_op(quantity)` (the script's,
/// or the one `ratelimit.on_error` gave).
pub fn cl_throttle(quantity: i64, o: &Outcome) -> [i64; 5] {
    let limited = match quantity {
        0 => false,               // a peek is never limited
        q if q > o.limit => true, // can never fit
        _ => !o.allowed,
    };
    // redis-cell gives a retry time only to a limited request that could ever fit.
    let retry_after = if limited && quantity <= o.limit { whole_seconds(o.retry_after_us) } else { -1 };
    [limited as i64, o.limit, o.remaining, retry_after, whole_seconds(o.reset_after_us)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::value_error as msg;
    use crate::limiter::OnError;

    /// (interval, tolerance) as the script receives them.
    fn times(p: &Policy) -> (String, String) {
        let s = |a: &Vec<u8>| String::from_utf8(a.clone()).unwrap();
        (s(&p.args[0]), s(&p.args[1]))
    }

    #[test]
    fn parameters_become_script_arguments() {
        // The seed example: (14, 30, 60) → 2 s apart, a tolerance of 15 of them.
        let g = policy(14, 30, 60.0).unwrap();
        assert_eq!((g.algorithm, g.limit), (Algorithm::Gcra, 15));
        assert_eq!(times(&g), ("2000000".into(), "30000000".into()));
        // maxBurst 0 is valid in redis-cell: one request at a time.
        let g = policy(0, 1, 1.0).unwrap();
        assert_eq!((g.limit, times(&g).1.as_str()), (1, "1000000"));
        // The interval is truncated to whole microseconds.
        assert_eq!(times(&policy(2, 3, 1.0).unwrap()).0, "333333");
        assert_eq!(times(&policy(0, 4, 0.000004).unwrap()).0, "1");
    }

    #[test]
    fn bad_parameters_name_themselves() {
        assert_eq!(msg(policy(-1, 30, 60.0)), "$maxBurst must be greater than or equal to 0");
        assert_eq!(msg(policy(1 << 40, 30, 60.0)), "$maxBurst must be at most 1099511627775");
        assert_eq!(msg(policy(14, 0, 60.0)), "$count must be greater than or equal to 1");
        assert_eq!(msg(policy(14, -2, 60.0)), "$count must be greater than or equal to 1");
        assert_eq!(msg(policy(14, 30, 0.0)), "$period must be greater than 0");
        assert_eq!(msg(policy(14, 30, -60.0)), "$period must be greater than 0");
        assert_eq!(msg(policy(14, 30, f64::NAN)), "$period must be a finite number of seconds");
        assert_eq!(msg(policy(14, 30, f64::INFINITY)), "$period must be a finite number of seconds");
        assert_eq!(msg(policy(0, 2_000_000, 1.0)), "$count must be at most 1000000 (one request per microsecond of $period)");
        assert_eq!(
            msg(policy(10, 1, 86_400.0 * 365.0)),
            "$maxBurst must be at most 9 for this $count and $period (($maxBurst + 1) × $period / $count must be at most 315360000 seconds)"
        );
        assert!(policy(9, 1, 86_400.0 * 365.0).is_ok());
    }

    #[test]
    fn cost_is_checked_against_the_limit() {
        let g = policy(4, 1, 1.0).unwrap();
        assert!(g.check_cost(5).is_ok());
        assert!(g.check_cost(6).is_err());
        assert!(g.check_cost(0).is_err());
    }

    #[test]
    fn throttle_quantities() {
        assert_eq!(throttle_op(0, 5), Ok(Op::Peek));
        assert_eq!(throttle_op(1, 5), Ok(Op::Consume(1)));
        assert_eq!(throttle_op(5, 5), Ok(Op::Consume(5)));
        assert_eq!(throttle_op(6, 5), Ok(Op::Peek));
        assert_eq!(throttle_op(i64::MAX, 5), Ok(Op::Peek));
        assert_eq!(msg(throttle_op(-1, 5)), "$quantity must be greater than or equal to 0");
    }

    #[test]
    fn whole_seconds_round_up_from_a_millisecond() {
        for (us, s) in [
            (0, 0),
            (999, 0), // less than a millisecond left over: not counted
            (1_000, 1),
            (999_999, 1),
            (1_000_000, 1),
            (1_000_999, 1),
            (1_001_000, 2),
            (2_000_000, 2),
            (3_900_000, 4),
            (-1_000_000, -1), // redis-cell's "no value"
            (-500_000, 0),
        ] {
            assert_eq!(whole_seconds(us), s, "{us} µs");
        }
    }

    /// redis-cell's own table (src/cell/mod.rs, `it_rate_limits`: limit 5,
    /// 1 per second), as the script's replies at each step → the CL.THROTTLE
    /// tuple its command would send: (quantity, script reply) → tuple. The
    /// same table runs against Redis in tests/algorithms.rs.
    #[test]
    #[rustfmt::skip]
    fn script_replies_map_to_cl_throttle_tuples() {
        let s = 1_000_000;
        let cases: &[(i64, &[i64], [i64; 5])] = &[
            // a request larger than the limit never fits: peeked, limited, no retry time
            (6, &[5, 0],           [1, 5, 5, -1, 0]),
            // a burst of five, the sixth is limited for a second
            (1, &[4, s],       [0, 5, 4, -1, 1]),
            (1, &[3, 2 * s],       [0, 5, 3, -1, 2]),
            (1, &[0, 5 * s],       [0, 5, 0, -1, 5]),
            (1, &[0, 5 * s, s],   [1, 5, 0, 1, 5]),
            // partial seconds round up
            (1, &[1, 3_900_000],   [0, 5, 1, -1, 4]),
            // the clock moved a few µs between calls: still the whole second
            (1, &[4, 999_990],     [0, 5, 4, -1, 1]),
            // quantity 0 peeks and is never limited, even when full
            (0, &[4, s],       [0, 5, 4, -1, 1]),
            (0, &[0, 5 * s, s],   [0, 5, 0, -1, 5]),
            // more than one unit at once
            (2, &[2, 3 * s],       [0, 5, 2, -1, 3]),
            (5, &[2, 3 * s, 3 * s],   [1, 5, 2, 3, 3]),
            (5, &[2, 3 * s, 2_500_000], [1, 5, 2, 3, 3]),
            // above the limit with some state: current remaining and reset
            (9, &[2, 3 * s, s],   [1, 5, 2, -1, 3]),
        ];
        for (quantity, reply, tuple) in cases {
            let outcome = Outcome::from_reply(5, reply).unwrap();
            assert_eq!(cl_throttle(*quantity, &outcome), *tuple, "quantity {quantity}, reply {reply:?}");
        }
    }

    #[test]
    fn seed_example() {
        // (…, 'tom', 14, 30, 60): the first throttle('reply') on an idle key.
        let g = policy(14, 30, 60.0).unwrap();
        let outcome = g.outcome(&[14, 2_000_000]).unwrap();
        assert_eq!(cl_throttle(1, &outcome), [0, 15, 14, -1, 2]);
    }

    #[test]
    fn on_error_answers_as_tuples() {
        let allow = Outcome::on_error(OnError::Allow, 15).unwrap();
        assert_eq!(cl_throttle(1, &allow), [0, 15, 15, -1, 0]);
        assert_eq!(cl_throttle(16, &allow), [1, 15, 15, -1, 0]);
        let deny = Outcome::on_error(OnError::Deny, 15).unwrap();
        assert_eq!(cl_throttle(1, &deny), [1, 15, 0, 1, 1]);
        assert_eq!(cl_throttle(0, &deny), [0, 15, 0, -1, 1]);
    }
}
