//! Fixed window: the articles' INCR + EXPIRE, made atomic. A window opens at
//! the key's first accepted request and lasts `window`; the key's TTL is the
//! window, so the Redis server's clock ends it.

use crate::error::Result;
use crate::limiter::algorithms::policy::{Algorithm, Policy};
use crate::limiter::params::{self, arg};

/// `window` in seconds (at least 1 ms, Redis expiries are milliseconds), `limit` per window.
pub fn policy(window: f64, limit: i64) -> Result<Policy> {
    let window_ms = params::seconds_to_ms("window", window)?;
    let limit = params::count("limit", limit)?;
    Ok(Policy::new(Algorithm::FixedWindow, vec![arg(window_ms), arg(limit)], limit, "the limit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_become_script_arguments() {
        let fw = policy(1.5, 10).unwrap();
        assert_eq!(fw.args, [b"1500".to_vec(), b"10".to_vec()]);
        assert_eq!((fw.algorithm, fw.limit), (Algorithm::FixedWindow, 10));
    }

    #[test]
    fn bad_parameters_name_themselves() {
        for (w, l, p) in [(0.0, 1, "window"), (f64::NAN, 1, "window"), (0.0001, 1, "window"), (1.0, 0, "limit"), (1.0, -5, "limit")] {
            let e = policy(w, l).unwrap_err();
            assert_eq!(e.param(), Some(p), "{e}");
        }
    }

    #[test]
    fn cost_is_checked_against_the_limit() {
        let fw = policy(1.0, 3).unwrap();
        assert!(fw.check_cost(3).is_ok());
        assert!(fw.check_cost(4).is_err());
        assert!(fw.check_cost(0).is_err());
    }
}
