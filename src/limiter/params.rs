//! Parameter checks shared by every algorithm and the rooms above them
//! (lock-outs, leases, the in-flight limit). Each error is a `ValueError`
//! naming the PHP parameter, raised before anything touches Redis.

use crate::error::{Error, Result};

/// Longest time we accept (10 years): keeps microsecond arithmetic in Lua's
/// doubles exact (< 2^53) and TTLs within what Redis takes.
pub const MAX_SECONDS: f64 = 315_360_000.0;
/// Largest limit/capacity: counts stay exact in Lua doubles.
pub const MAX_COUNT: i64 = 1 << 40;
/// Longest Redis key we build (API: "a key longer than 8 KiB" is a ValueError).
pub const MAX_KEY_BYTES: usize = 8192;

/// A duration in seconds (float) → whole microseconds, > 0.
pub fn seconds_to_us(param: &str, seconds: f64) -> Result<i64> {
    if !seconds.is_finite() {
        return Err(Error::value(param, "must be a finite number of seconds"));
    }
    if seconds <= 0.0 {
        return Err(Error::value(param, "must be greater than 0"));
    }
    if seconds > MAX_SECONDS {
        return Err(Error::value(param, format!("must be at most {MAX_SECONDS} seconds (10 years)")));
    }
    let us = (seconds * 1e6).round() as i64;
    if us < 1 {
        return Err(Error::value(param, "must be at least 0.000001 (one microsecond)"));
    }
    Ok(us)
}

/// A duration that Redis stores as a millisecond expiry: at least 1 ms.
pub fn seconds_to_ms(param: &str, seconds: f64) -> Result<i64> {
    let us = seconds_to_us(param, seconds)?;
    if us < 1000 {
        return Err(Error::value(param, "must be at least 0.001 (one millisecond)"));
    }
    Ok((us + 500) / 1000)
}

/// A rate in units per second: finite and > 0.
pub fn rate(param: &str, per_second: f64) -> Result<f64> {
    if !per_second.is_finite() {
        return Err(Error::value(param, "must be a finite number"));
    }
    if per_second <= 0.0 {
        return Err(Error::value(param, "must be greater than 0"));
    }
    if per_second > MAX_COUNT as f64 {
        return Err(Error::value(param, format!("must be at most {MAX_COUNT}")));
    }
    Ok(per_second)
}

/// A count (limit, capacity): 1..=MAX_COUNT.
pub fn count(param: &str, n: i64) -> Result<i64> {
    if n < 1 {
        return Err(Error::value(param, "must be greater than or equal to 1"));
    }
    if n > MAX_COUNT {
        return Err(Error::value(param, format!("must be at most {MAX_COUNT}")));
    }
    Ok(n)
}

/// A bucket of `units` filling or draining at `per_second` must do so within
/// `MAX_SECONDS`: the key's TTL is that time, and it must stay within what
/// Redis takes. Returns the seconds; the error names the rate parameter.
pub fn flow_seconds(rate_param: &str, units: i64, per_second: f64) -> Result<f64> {
    let seconds = units as f64 / per_second;
    if seconds > MAX_SECONDS {
        return Err(Error::value(
            rate_param,
            format!("must be at least {units}/{MAX_SECONDS} per second (a bucket must fill or empty within 10 years)"),
        ));
    }
    Ok(seconds)
}

/// A count that may be 0 (GCRA's `maxBurst`: 0 extra requests is a valid burst): 0..MAX_COUNT.
pub fn count_or_zero(param: &str, n: i64) -> Result<i64> {
    if n < 0 {
        return Err(Error::value(param, "must be greater than or equal to 0"));
    }
    if n >= MAX_COUNT {
        return Err(Error::value(param, format!("must be at most {}", MAX_COUNT - 1)));
    }
    Ok(n)
}

/// `cost` must be at least 1 and at most what the policy can ever allow.
pub fn check_cost(cost: i64, max: i64, what: &str) -> Result<()> {
    if cost < 1 {
        return Err(Error::value("cost", "must be greater than or equal to 1"));
    }
    if cost > max {
        return Err(Error::value("cost", format!("must be at most {max} ({what}), {cost} given")));
    }
    Ok(())
}

/// The key prefix of a limiter: non-empty and short enough to leave room for ids.
pub fn key_prefix(prefix: &[u8]) -> Result<()> {
    if prefix.is_empty() {
        return Err(Error::value("keyPrefix", "must not be empty"));
    }
    if prefix.len() > MAX_KEY_BYTES {
        return Err(Error::value("keyPrefix", format!("must be at most {MAX_KEY_BYTES} bytes, {} given", prefix.len())));
    }
    Ok(())
}

/// Integer ARGV as Redis reads them.
pub fn arg(n: impl ToString) -> Vec<u8> {
    n.to_string().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::value_error as msg;

    #[test]
    fn seconds() {
        assert_eq!(seconds_to_us("window", 1.5), Ok(1_500_000));
        assert_eq!(seconds_to_us("window", 0.000001), Ok(1));
        assert_eq!(seconds_to_ms("window", 0.0015), Ok(2));
        assert_eq!(msg(seconds_to_us("window", 0.0)), "$window must be greater than 0");
        assert_eq!(msg(seconds_to_us("window", -1.0)), "$window must be greater than 0");
        assert!(msg(seconds_to_us("window", f64::NAN)).contains("finite"));
        assert!(msg(seconds_to_us("window", f64::INFINITY)).contains("finite"));
        assert!(msg(seconds_to_us("window", 1e12)).contains("at most"));
        assert!(msg(seconds_to_us("window", 1e-9)).contains("microsecond"));
        assert!(msg(seconds_to_ms("window", 0.0004)).contains("millisecond"));
    }

    #[test]
    fn counts_rates_costs() {
        assert_eq!(count("limit", 1), Ok(1));
        assert_eq!(msg(count("limit", 0)), "$limit must be greater than or equal to 1");
        assert!(msg(count("limit", i64::MAX)).contains("at most"));
        assert_eq!(rate("refillRate", 0.5), Ok(0.5));
        assert!(msg(rate("refillRate", 0.0)).starts_with("$refillRate"));
        assert!(msg(rate("refillRate", f64::NAN)).contains("finite"));
        assert_eq!(check_cost(3, 3, "the limit"), Ok(()));
        assert!(msg(check_cost(0, 3, "the limit")).starts_with("$cost"));
        assert!(msg(check_cost(4, 3, "the limit")).contains("at most 3"));
    }

    #[test]
    fn flow_times() {
        assert_eq!(flow_seconds("refillRate", 5, 10.0), Ok(0.5));
        assert_eq!(flow_seconds("leakRate", 100, 0.001), Ok(100_000.0));
        assert_eq!(
            msg(flow_seconds("leakRate", 100, 1e-7)),
            "$leakRate must be at least 100/315360000 per second (a bucket must fill or empty within 10 years)"
        );
    }

    #[test]
    fn counts_from_zero() {
        assert_eq!(count_or_zero("maxBurst", 0), Ok(0));
        assert_eq!(msg(count_or_zero("maxBurst", -1)), "$maxBurst must be greater than or equal to 0");
        assert_eq!(msg(count_or_zero("maxBurst", MAX_COUNT)), "$maxBurst must be at most 1099511627775");
    }

    #[test]
    fn prefixes() {
        assert_eq!(msg(key_prefix(b"")), "$keyPrefix must not be empty");
        assert!(key_prefix(&vec![b'k'; MAX_KEY_BYTES + 1]).is_err());
        assert!(key_prefix(b"a\0b{c}").is_ok());
    }
}
