//! `RateLimitMetrics::fleet()`: the counters `ratelimit.metrics = redis`
//! kept in Redis (or a `memory://` store), added up over the last minutes
//! and, on a cluster, over every slot's base (`layout`): one pipelined
//! round trip per node. The minutes are the target's (its TIME): the current
//! one, partly over, and the `minutes - 1` before it.

use ratelimit_core::metrics as core;

use crate::backend::Backend;
use crate::error::Result;
use crate::metrics::{layout, Table, OUTCOMES};
use crate::redis::pool::Timeouts;

/// The most minutes `fleet()` reads: a minute's counters live an hour.
pub const MAX_MINUTES: i64 = core::KEEP_MINUTES + 1;

/// Adds `count` of `field` (`<outcome>:<limiter>`) to `table`; fields of
/// another outcome (a later version's) are left out.
fn add(table: &mut Table, field: &[u8], count: &[u8]) {
    let Some(colon) = field.iter().position(|&b| b == b':') else { return };
    let Some(o) = OUTCOMES.iter().position(|o| o.as_bytes() == &field[..colon]) else { return };
    let Some(n) = std::str::from_utf8(count).ok().and_then(|c| c.parse::<u64>().ok()) else { return };
    table.entry(field[colon + 1..].to_vec()).or_insert([0; 6])[o] += n;
}

/// The minutes to read, the last one `now_us`'s.
fn minutes(now_us: i64, n: i64) -> std::ops::RangeInclusive<i64> {
    let last = core::minute(now_us as f64);
    last - n + 1..=last
}

/// The counters under `ratelimit.key_prefix` `key_prefix` over the last `n`
/// minutes (1 to `MAX_MINUTES`; checked by the caller).
pub fn read(backend: &Backend, timeouts: Timeouts, key_prefix: &[u8], n: i64) -> Result<Table> {
    let mut table = Table::new();
    let keys_at = |now_us: i64, cluster: bool| -> Vec<Vec<u8>> {
        let bases = if cluster { layout::cluster_bases(key_prefix) } else { vec![layout::single_base(key_prefix)] };
        minutes(now_us, n).flat_map(|m| bases.iter().map(move |b| core::key(b, m))).collect()
    };
    backend.read_hashes(timeouts, keys_at, |field, count| add(&mut table, field, count))?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_outcome_then_limiter() {
        let mut t = Table::new();
        add(&mut t, b"allowed:api:v1", b"3");
        add(&mut t, b"would_deny:api:v1", b"2");
        add(&mut t, b"allowed:api:v1", b"1");
        add(&mut t, b"sideways:api", b"9");
        add(&mut t, b"denied:x", b"not a number");
        assert_eq!(t.len(), 1);
        assert_eq!(t[&b"api:v1"[..]], [4, 0, 2, 0, 0, 0]);
    }

    #[test]
    fn the_last_minutes_end_with_the_current_one() {
        assert_eq!(minutes(125 * 1_000_000, 3), 0..=2);
        assert_eq!(minutes(60_000_000, 1), 1..=1);
    }
}
