//! `RateLimitMetrics`: the decision counters of `ratelimit.metrics`, as PHP
//! arrays (`[limiter => [outcome => count]]`, outcomes in `OUTCOMES` order),
//! and their Prometheus text (`metrics`).
#![allow(non_snake_case)] // PHP parameter names are the Rust names

use ext_php_rs::boxed::ZBox;
use ext_php_rs::flags::ClassFlags;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ArrayKey, ZendHashTable, ZendStr, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::error::{Error, Result};
use crate::metrics::fleet::MAX_MINUTES;
use crate::metrics::{self, Table, OUTCOMES};
use crate::php::args::php_value::type_name;
use crate::php::args::values;
use crate::php::connection;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_ARRAY, MAY_BE_LONG, MAY_BE_NULL, MAY_BE_STRING};
use crate::php::ini::settings;
use crate::redis::pool::Timeouts;

pub const CLASS: &str = "RateLimitMetrics";

/// PHP's reading of an array key: a decimal integer in canonical form (no
/// leading zero, no `+`, not `-0`, within i64) is an integer key.
fn int_key(name: &[u8]) -> Option<i64> {
    let digits = name.strip_prefix(b"-").unwrap_or(name);
    let canonical = !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) && (digits[0] != b'0' || name == b"0");
    canonical.then(|| std::str::from_utf8(name).ok()?.parse().ok()).flatten()
}

/// `table` as `[limiter => [outcome => count]]`.
fn to_array(table: &Table) -> PhpResult<ZBox<ZendHashTable>> {
    let mut out = ZendHashTable::new();
    for (name, counts) in table {
        let mut row = ZendHashTable::new();
        for (outcome, n) in OUTCOMES.iter().zip(counts) {
            row.insert(*outcome, *n as i64)?;
        }
        match int_key(name) {
            Some(i) => out.insert_at_index(i, row)?,
            None => out.insert(ArrayKey::ZendString(&ZendStr::new(name, false)), row)?,
        }
    }
    Ok(out)
}

/// `$counters` as given to `prometheus()`: what `local()` or `fleet()` return
/// (an outcome left out counts 0; keys of no outcome are left out).
fn from_array(z: &Zval) -> Result<Table> {
    let z = z.dereference();
    let array = z.array().ok_or_else(|| Error::type_error("counters", format!("must be of type array, {} given", type_name(z))))?;
    let mut table = Table::new();
    // A limiter name is binary: keys read by `array_entries`.
    for (key, row) in crate::php::args::array_entries::entries(array) {
        let name = key.into_bytes();
        let shown = String::from_utf8_lossy(&name).into_owned();
        let row = row.dereference();
        let row = row.array().ok_or_else(|| {
            Error::type_error("counters", format!("must map each limiter to an array of counts, {} given for \"{shown}\"", type_name(row)))
        })?;
        let mut counts = [0u64; 6];
        for (slot, outcome) in counts.iter_mut().zip(OUTCOMES) {
            if let Some(v) = row.get(outcome) {
                let n = values::int("counters", v).map_err(|e| e.in_entry(&format!("\"{shown}\" {outcome}:")))?;
                *slot =
                    u64::try_from(n).map_err(|_| Error::value("counters", format!("must hold counts >= 0, {n} given for \"{shown}\" {outcome}")))?;
            }
        }
        table.insert(name, counts);
    }
    Ok(table)
}

#[php_class]
#[php(name = "RateLimitMetrics")]
#[php(flags = ClassFlags::Final)]
pub struct RateLimitMetrics;

#[php_impl]
impl RateLimitMetrics {
    /// Static methods only: no object to make.
    #[php(vis = "private")]
    pub fn __construct() -> Self {
        RateLimitMetrics
    }

    /// This process's counters, by limiter (its key prefix; a compound's
    /// members' prefixes joined by `+`): `allowed`, `denied`, `would_deny`
    /// (dry run), `errors`, `on_error` (errors answered by `ratelimit.on_error`),
    /// `block_cache` (denials answered from the block cache). Counted when
    /// `ratelimit.metrics` is `local` or `redis`; a limiter with no decision is left out.
    pub fn local() -> PhpResult<ZBox<ZendHashTable>> {
        to_array(&metrics::local())
    }

    /// This process's answers by what gave them, by limiter (as `local()`
    /// names them): `redis`, `memory` (a `memory://` target), `cache` (the
    /// block cache), `local` (this process, `ratelimit.on_error = local`),
    /// `on_error` (an `allow`/`deny` answer), `lease` (this process's lease,
    /// `withLease()`). Counted when `ratelimit.metrics`
    /// is `local` or `redis`.
    pub fn sources() -> PhpResult<ZBox<ZendHashTable>> {
        let mut out = ZendHashTable::new();
        for (name, counts) in metrics::sources() {
            let mut row = ZendHashTable::new();
            for (source, n) in metrics::SOURCES.iter().zip(counts) {
                row.insert(*source, n as i64)?;
            }
            match int_key(&name) {
                Some(i) => out.insert_at_index(i, row)?,
                None => out.insert(ArrayKey::ZendString(&ZendStr::new(&name, false)), row)?,
            }
        }
        Ok(out)
    }

    /// What leases (`withLease()`) did in this process, by limiter (its key
    /// prefix): `leased` (units taken into leases), `returned` (given back),
    /// `expired` (void without going back: a fixed window's lease whose
    /// window ended, a give-back that failed) and `held` (units in leases
    /// now, every thread). Counted whatever `ratelimit.metrics` says.
    pub fn leases() -> PhpResult<ZBox<ZendHashTable>> {
        let mut out = ZendHashTable::new();
        for (name, counts) in crate::limiter::lease::counts::all() {
            let mut row = ZendHashTable::new();
            for (what, n) in crate::limiter::lease::counts::NAMES.iter().zip(counts) {
                row.insert(*what, n)?;
            }
            match int_key(&name) {
                Some(i) => out.insert_at_index(i, row)?,
                None => out.insert(ArrayKey::ZendString(&ZendStr::new(&name, false)), row)?,
            }
        }
        Ok(out)
    }

    /// Every Redis target's breaker in this process, by target (its DSN,
    /// without a password): `state` (`closed` or `open`), `open_for`
    /// (seconds left, 0.0 when closed or while a call probes it), `opens`
    /// (times it opened), `refused` (calls answered without trying it),
    /// `cause` (the failure that opened it last), `local_keys` (keys this
    /// process decided by itself for it and holds, `ratelimit.on_error = local`).
    /// A Redis Cluster's row also has `masters`: by `host:port`, the same
    /// five fields for each master whose own breaker a failed call made.
    pub fn breakers() -> PhpResult<ZBox<ZendHashTable>> {
        let mut out = ZendHashTable::new();
        for t in crate::redis::pool::state() {
            let mut row = breaker_row(&t.breaker)?;
            row.insert("local_keys", t.local_keys as i64)?;
            if t.cluster {
                let mut masters = ZendHashTable::new();
                for (master, b) in &t.masters {
                    masters.insert(master.as_str(), breaker_row(b)?)?;
                }
                row.insert("masters", masters)?;
            }
            out.insert(t.target.as_str(), row)?;
        }
        Ok(out)
    }

    /// The whole fleet's counters over the last `$minutes` minutes (1 to 60:
    /// the current minute and those before it, on the server's clock), as
    /// every process with `ratelimit.metrics = redis` wrote them into Redis
    /// (the `$connection` forms of a limiter; `null`: `ratelimit.redis_url`),
    /// under the current `ratelimit.key_prefix`. On a Redis Cluster, every
    /// slot's counters are read (one pipelined round trip per master).
    #[php(optional = connection)]
    pub fn fleet(connection: Option<&Zval>, minutes: Option<&Zval>) -> PhpResult<ZBox<ZendHashTable>> {
        let run = || -> Result<Table> {
            let minutes = match minutes {
                Some(z) => values::int_param("minutes", z)?,
                None => 5,
            };
            if !(1..=MAX_MINUTES).contains(&minutes) {
                return Err(Error::value("minutes", format!("must be between 1 and {MAX_MINUTES}, {minutes} given")));
            }
            let (backend, overrides) = connection::resolve(connection)?;
            let timeouts = Timeouts {
                connect: overrides.connect.unwrap_or_else(settings::connect_timeout),
                reply: overrides.reply.unwrap_or_else(settings::timeout),
            };
            metrics::fleet::read(&backend, timeouts, &settings::key_prefix(), minutes)
        };
        let table = run().map_err(|e| in_call(e, &format!("{CLASS}::fleet"), &["connection", "minutes"]))?;
        to_array(&table)
    }

    /// `$counters` (what `local()` or `fleet()` returned) in the Prometheus
    /// text exposition format. `$minutes` = 0: `local()`'s counts, as counters
    /// (`ratelimit_decisions_total{limiter, outcome}`,
    /// `ratelimit_on_error_answers_total{limiter}`,
    /// `ratelimit_block_cache_answers_total{limiter}`); 1 to 60: `fleet()`'s
    /// over that many minutes, as gauges (`ratelimit_recent_decisions{limiter,
    /// outcome, minutes}`, …).
    pub fn prometheus(counters: &Zval, minutes: Option<&Zval>) -> PhpResult<String> {
        let run = || -> Result<String> {
            let minutes = match minutes {
                Some(z) => values::int_param("minutes", z)?,
                None => 0,
            };
            if !(0..=MAX_MINUTES).contains(&minutes) {
                return Err(Error::value(
                    "minutes",
                    format!("must be 0 (counters of local()) or fleet()'s minutes, 1 to {MAX_MINUTES}, {minutes} given"),
                ));
            }
            Ok(metrics::prometheus::render(&from_array(counters)?, minutes))
        };
        run().map_err(|e| in_call(e, &format!("{CLASS}::prometheus"), &["counters", "minutes"]))
    }
}

impl Finish for RateLimitMetrics {
    /// What Reflection shows: `fleet(Redis|RedisCluster|array|string|null
    /// $connection = null, int $minutes = 5)`, `prometheus(array $counters, int $minutes = 0)`.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        zend_api::set_parameter_type(
            ce,
            "fleet",
            0,
            "connection",
            &["Redis", "RedisCluster"],
            MAY_BE_ARRAY | MAY_BE_STRING | MAY_BE_NULL,
            Some(c"null"),
        )?;
        zend_api::set_parameter(ce, "fleet", 1, "minutes", MAY_BE_LONG, Some(c"5"))?;
        zend_api::set_parameter(ce, "prometheus", 0, "counters", MAY_BE_ARRAY, None)?;
        zend_api::set_parameter(ce, "prometheus", 1, "minutes", MAY_BE_LONG, Some(c"0"))
    }
}

/// One breaker's fields as `RateLimitMetrics::breakers()` gives them.
fn breaker_row(b: &crate::redis::pool::breaker::BreakerState) -> PhpResult<ZBox<ZendHashTable>> {
    let mut row = ZendHashTable::new();
    row.insert("state", if b.open_for.is_some() { "open" } else { "closed" })?;
    row.insert("open_for", b.open_for.unwrap_or(0.0))?;
    row.insert("opens", b.opens as i64)?;
    row.insert("refused", b.refused as i64)?;
    row.insert("cause", b.cause.as_str())?;
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_names_become_integer_keys_as_php_makes_them() {
        assert_eq!(int_key(b"123"), Some(123));
        assert_eq!(int_key(b"-7"), Some(-7));
        assert_eq!(int_key(b"0"), Some(0));
        for s in [&b"007"[..], b"-0", b"+1", b"1.0", b"", b"api", b"99999999999999999999"] {
            assert_eq!(int_key(s), None, "{s:?}");
        }
    }
}
