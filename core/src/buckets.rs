//! What the token and the leaky bucket share (lua/buckets.lua): the state
//! format, the amount at an instant packed as two little-endian doubles, and
//! how amounts turn into times. Each function mirrors its Lua twin operation
//! for operation, so both paths round the same way.

use crate::view::Refused;

/// Float noise guard: 0.1 + 0.9 may come out as 0.99999999999999989, which
/// must still count as one whole unit.
pub const EPS: f64 = 1e-9;

const TWO_53: f64 = 9_007_199_254_740_992.0;

/// `(amount, ts)` from a stored state, or the refusal of what the library
/// never writes (other lengths, NaN, infinities, amounts of -2^53 or less).
/// A token bucket's amount is negative while it owes (a charge past the
/// limit, a booking that waits: `token_bucket::charge`, `reserve`); an
/// extension older than those refuses such a state as foreign.
pub fn unpack_state(raw: &[u8], what: &str) -> Result<(f64, f64), Refused> {
    let refuse = || Refused::foreign(&format!("a value that is not a {what}"));
    if raw.len() != 16 {
        return Err(refuse());
    }
    let v = f64::from_le_bytes(raw[..8].try_into().expect("8 bytes"));
    let ts = f64::from_le_bytes(raw[8..].try_into().expect("8 bytes"));
    // NaN is in no range, as it fails Lua's comparisons.
    if !(v > -TWO_53 && v < TWO_53 && (0.0..TWO_53).contains(&ts)) {
        return Err(refuse());
    }
    Ok((v, ts))
}

/// struct.pack('<dd', amount, ts).
pub fn pack_state(amount: f64, ts: f64) -> Vec<u8> {
    [amount.to_le_bytes(), ts.to_le_bytes()].concat()
}

/// Microseconds for `n` units to flow at `rate` per second, rounded up.
pub fn us_for(n: f64, rate: f64) -> f64 {
    if n <= EPS {
        return 0.0;
    }
    (n * 1_000_000.0 / rate - 1e-6).ceil()
}

/// A TTL for state that stops mattering in `us` µs: whole ms, rounded up, at least 1.
pub fn expire_ms(us: f64) -> i64 {
    ((us / 1000.0).ceil() as i64).max(1)
}

/// The deepest a bucket may owe: what `rate` pays back in MAX_SECONDS, so
/// the time to pay it off stays within what the arithmetic keeps exact.
pub fn most_owed(rate: f64) -> f64 {
    rate * crate::limits::MAX_SECONDS
}

/// math.floor(x + EPS).
pub fn whole(x: f64) -> f64 {
    (x + EPS).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_and_foreign_ones_are_refused() {
        let bytes = pack_state(2.5, 1_700_000_000_000_000.0);
        assert_eq!(unpack_state(&bytes, "token bucket"), Ok((2.5, 1_700_000_000_000_000.0)));
        assert_eq!(unpack_state(&pack_state(-3.5, 7.0), "token bucket"), Ok((-3.5, 7.0)), "a debt");
        for bad in [pack_state(f64::NAN, 0.0), pack_state(-TWO_53, 0.0), pack_state(1.0, -1.0), pack_state(1.0, f64::INFINITY), b"12".to_vec()] {
            assert_eq!(unpack_state(&bad, "token bucket").unwrap_err().0, "ERR ratelimit: the key holds a value that is not a token bucket");
        }
    }

    #[test]
    fn times_round_up() {
        for (n, rate, us) in [(0.0, 10.0, 0.0), (1e-10, 10.0, 0.0), (1.0, 10.0, 100_000.0), (1.0, 3.0, 333_334.0), (0.5, 1.0, 500_000.0)] {
            assert_eq!(us_for(n, rate), us, "us_for({n}, {rate})");
        }
        assert_eq!((expire_ms(0.0), expire_ms(1.0), expire_ms(1000.0), expire_ms(1001.0)), (1, 1, 1, 2));
        assert_eq!(whole(0.999_999_999_999_999_9), 1.0);
    }
}
