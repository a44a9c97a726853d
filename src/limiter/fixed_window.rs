//! Fixed window: the articles' INCR + EXPIRE, made atomic. A window opens at
//! the key's first accepted request and lasts `window`; the key's TTL is the
//! window, so the Redis server's clock ends it.

use once_cell::sync::Lazy;

use super::params::{self, arg};
use super::Algorithm;
use crate::error::Result;
use crate::redis::script::LuaScript;

static SCRIPT: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(include_str!("../../lua/fixed_window.lua")));

#[derive(Debug)]
pub struct FixedWindow {
    limit: i64,
    args: Vec<Vec<u8>>,
}

impl FixedWindow {
    /// `window` in seconds (at least 1 ms, Redis expiries are milliseconds), `limit` per window.
    pub fn new(window: f64, limit: i64) -> Result<Self> {
        let window_ms = params::seconds_to_ms("window", window)?;
        let limit = params::count("limit", limit)?;
        Ok(FixedWindow { limit, args: vec![arg(window_ms), arg(limit)] })
    }
}

impl Algorithm for FixedWindow {
    fn script(&self) -> &'static LuaScript {
        &SCRIPT
    }
    fn args(&self) -> &[Vec<u8>] {
        &self.args
    }
    fn limit(&self) -> i64 {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn parameters_become_script_arguments() {
        let fw = FixedWindow::new(1.5, 10).unwrap();
        assert_eq!(fw.args(), &[b"1500".to_vec(), b"10".to_vec()]);
        assert_eq!(fw.limit(), 10);
    }

    #[test]
    fn bad_parameters_name_themselves() {
        for (w, l, p) in [(0.0, 1, "$window"), (f64::NAN, 1, "$window"), (0.0001, 1, "$window"), (1.0, 0, "$limit"), (1.0, -5, "$limit")] {
            match FixedWindow::new(w, l) {
                Err(Error::Value(m)) => assert!(m.starts_with(p), "{m}"),
                other => panic!("{w} {l}: {other:?}"),
            }
        }
    }

    #[test]
    fn cost_is_checked_against_the_limit() {
        let fw = FixedWindow::new(1.0, 3).unwrap();
        assert!(fw.check_cost(3).is_ok());
        assert!(fw.check_cost(4).is_err());
        assert!(fw.check_cost(0).is_err());
    }
}
