//! `RateLimitMetrics::fleet()`: the counters `ratelimit.metrics = redis`
//! kept in Redis (or a `memory://` store), added up over the last minutes
//! and, on a cluster, over every slot's base (`layout`): one pipelined
//! round trip per node. The minutes are the target's (its TIME): the current
//! one, partly over, and the `minutes - 1` before it.

use ::redis::{Cmd, Value};
use ratelimit_core::metrics as core;
use ratelimit_core::store::{wall_clock_us, Value as Stored};

use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::metrics::{layout, Table, OUTCOMES};
use crate::redis::pool::Timeouts;
use crate::redis::rules::retry::as_result;

/// The most minutes `fleet()` reads: a minute's counters live an hour.
pub const MAX_MINUTES: i64 = core::KEEP_MINUTES + 1;

/// Commands in one pipeline: 16,384 slots × 60 minutes are read in parts.
const PIPELINE: usize = 8192;

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
    match backend {
        Backend::Memory(store) => {
            let base = layout::single_base(key_prefix);
            store.with_store(|s| {
                for m in minutes(wall_clock_us(), n) {
                    if let Some(Stored::Hash(h)) = s.value(&core::key(&base, m)) {
                        h.iter().for_each(|(f, v)| add(&mut table, f, v));
                    }
                }
            });
        }
        Backend::Redis(conns) => {
            let replies = conns.run(timeouts, |conn| {
                let (secs, micros): (i64, i64) = ::redis::cmd("TIME").query(conn)?;
                let bases = if conn.is_cluster() { layout::cluster_bases(key_prefix) } else { vec![layout::single_base(key_prefix)] };
                let keys: Vec<Vec<u8>> = minutes(secs * 1_000_000 + micros, n).flat_map(|m| bases.iter().map(move |b| core::key(b, m))).collect();
                let mut replies = Vec::with_capacity(keys.len());
                for part in keys.chunks(PIPELINE) {
                    let cmds: Vec<Cmd> = part.iter().map(|k| ::redis::cmd("HGETALL").arg(k).clone()).collect();
                    replies.extend(conn.pipeline_by_key(cmds)?);
                }
                Ok(replies)
            })?;
            for reply in replies {
                match reply {
                    Value::Array(flat) => {
                        for pair in flat.chunks_exact(2) {
                            if let (Value::BulkString(f), Value::BulkString(v)) = (&pair[0], &pair[1]) {
                                add(&mut table, f, v);
                            }
                        }
                    }
                    Value::Map(pairs) => {
                        for (f, v) in pairs {
                            if let (Value::BulkString(f), Value::BulkString(v)) = (f, v) {
                                add(&mut table, &f, &v);
                            }
                        }
                    }
                    Value::ServerError(_) => {
                        let e = as_result(Ok(reply)).expect_err("an error reply");
                        return Err(Error::Redis(format!("reading the metrics: {}", e.detail().or(e.code()).unwrap_or_default())));
                    }
                    _ => {}
                }
            }
        }
    }
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
