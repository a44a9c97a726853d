//! The `memory://[name]` target: decisions in this process's memory, by the
//! same algorithms as on Redis (`ratelimit_core`, which mirrors the Lua
//! library and is tested against it), for applications' unit tests without a
//! server and for single-process workers. Each name is one store, shared by
//! every limiter (and thread) of the process that names it, never by other
//! processes; the wall clock stands in for the server's.

use std::collections::HashMap;
use std::sync::Arc;

use once_cell::sync::Lazy;
use parking_lot::Mutex;
use ratelimit_core::entries::{self, CompoundAnswer};
use ratelimit_core::metrics::Counting;
use ratelimit_core::store::Store;
use ratelimit_core::{Algorithm, Answer, Refused};

use crate::error::{Error, Result};

/// The scheme of a memory target's DSN.
pub const SCHEME: &str = "memory://";

/// One named store.
pub struct MemoryTarget {
    name: String,
    store: Mutex<Store>,
}

static TARGETS: Lazy<Mutex<HashMap<String, Arc<MemoryTarget>>>> = Lazy::new(Default::default);

/// The name in `memory://name` (letters, digits, `_`, `-`, `.`; may be
/// empty), or `None` when `dsn` is not a memory DSN.
pub fn parse_dsn(dsn: &str) -> Option<Result<String>> {
    let name = dsn.strip_prefix(SCHEME)?;
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')) {
        Some(Ok(name.to_string()))
    } else {
        Some(Err(Error::value(
            "connection",
            format!("must be memory:// or memory://name with a name of letters, digits, '_', '-' and '.', {dsn:?} given"),
        )))
    }
}

/// The store named `name`, created on first use; the same one every time after.
pub fn target(name: &str) -> Arc<MemoryTarget> {
    let _inside = crate::fork::enter();
    TARGETS
        .lock()
        .entry(name.to_string())
        .or_insert_with(|| Arc::new(MemoryTarget { name: name.to_string(), store: Mutex::new(Store::default()) }))
        .clone()
}

impl MemoryTarget {
    /// A refusal, named as a Redis target's failures are ("Redis at …: ").
    fn failed(&self, e: Refused) -> Error {
        Error::Redis(format!("{SCHEME}{}: {}", self.name, e.0))
    }
}

/// Every store this process has, by name, with its live keys (for `php --ri`).
pub fn targets() -> Vec<(String, usize)> {
    let _inside = crate::fork::enter();
    let mut all: Vec<(String, usize)> = TARGETS.lock().values().map(|t| (t.name.clone(), t.store.lock().len())).collect();
    all.sort();
    all
}

/// The counting arguments as the core reads them (they are always three).
fn parse(counting: &[Vec<u8>; 3]) -> Counting<'_> {
    let args: Vec<&[u8]> = counting.iter().map(Vec::as_slice).collect();
    Counting::parse(&args).expect("three counting arguments")
}

/// An answer in the shape of the Lua library's reply (`Outcome::from_reply`).
pub fn reply(a: &Answer) -> Vec<i64> {
    let (remaining, reset) = (a.remaining as i64, a.reset_us as i64);
    match a.retry_us {
        Some(retry) => vec![remaining, reset, retry as i64],
        None if a.delay_us > 0.0 => vec![remaining, reset, 0, a.delay_us as i64],
        None => vec![remaining, reset],
    }
}

impl MemoryTarget {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `take` or `peek` on one key; `now_us` replaces the clock (tests).
    pub fn decide(&self, key: &[u8], algo: &Algorithm, cost: i64, peek: bool, now_us: Option<i64>) -> Result<Answer> {
        self.with_store(|store| entries::decide(store, key, algo, cost as f64, now_us.map(|n| n as f64), peek)).map_err(|e| self.failed(e))
    }

    /// `take` on every key in order, at one instant, as one step: no other
    /// thread's decision comes between them.
    pub fn take_many(&self, keys: &[&[u8]], algo: &Algorithm, cost: i64, now_us: Option<i64>) -> Vec<Result<Answer>> {
        self.with_store(|store| entries::take_many(store, keys, algo, cost as f64, now_us.map(|n| n as f64)))
            .into_iter()
            .map(|r| r.map_err(|e| self.failed(e)))
            .collect()
    }

    /// All members or none (`CompoundRateLimiter`).
    pub fn compound(&self, members: &[(&[u8], Algorithm)], cost: i64, peek: bool, now_us: Option<i64>) -> Result<CompoundAnswer> {
        self.with_store(|store| entries::compound(store, members, cost as f64, now_us.map(|n| n as f64), peek)).map_err(|e| self.failed(e))
    }

    /// `take`, its decision counted under `base` (`ratelimit.metrics = redis`;
    /// `counting`: `metrics::counting_args`), as the library's `take_counted`.
    pub fn take_counted(&self, key: &[u8], base: &[u8], counting: &[Vec<u8>; 3], algo: &Algorithm, cost: i64, now_us: Option<i64>) -> Result<Answer> {
        let c = parse(counting);
        self.with_store(|store| entries::take_counted(store, key, base, &c, algo, cost as f64, now_us.map(|n| n as f64))).map_err(|e| self.failed(e))
    }

    /// `take_many`, its decisions counted under `base`.
    pub fn take_many_counted(
        &self,
        keys: &[&[u8]],
        base: &[u8],
        counting: &[Vec<u8>; 3],
        algo: &Algorithm,
        cost: i64,
        now_us: Option<i64>,
    ) -> Vec<Result<Answer>> {
        let c = parse(counting);
        self.with_store(|store| entries::take_many_counted(store, keys, base, &c, algo, cost as f64, now_us.map(|n| n as f64)))
            .into_iter()
            .map(|r| r.map_err(|e| self.failed(e)))
            .collect()
    }

    /// `compound` (consuming), its decision counted under `base`.
    pub fn compound_counted(
        &self,
        members: &[(&[u8], Algorithm)],
        base: &[u8],
        counting: &[Vec<u8>; 3],
        cost: i64,
        now_us: Option<i64>,
    ) -> Result<CompoundAnswer> {
        let c = parse(counting);
        self.with_store(|store| entries::compound_counted(store, members, base, &c, cost as f64, now_us.map(|n| n as f64)))
            .map_err(|e| self.failed(e))
    }

    /// DEL.
    pub fn delete(&self, keys: &[&[u8]]) {
        self.with_store(|store| {
            for key in keys {
                store.delete(key);
            }
        });
    }

    /// The store itself (decisions; tests and phpinfo look at what they left),
    /// locked inside the fork gate (`crate::fork`).
    pub fn with_store<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let _inside = crate::fork::enter();
        f(&mut self.store.lock())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(parse_dsn("memory://").unwrap().unwrap(), "");
        assert_eq!(parse_dsn("memory://tests-1.a_b").unwrap().unwrap(), "tests-1.a_b");
        assert!(parse_dsn("redis://localhost").is_none());
        assert!(parse_dsn("memory://a/b").unwrap().unwrap_err().to_string().contains("must be memory://"));
    }

    #[test]
    fn one_store_per_name() {
        assert!(Arc::ptr_eq(&target("same"), &target("same")));
        assert!(!Arc::ptr_eq(&target("same"), &target("other")));
    }
}
