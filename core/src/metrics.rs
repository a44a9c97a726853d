//! Decision counters kept in the keyspace, inside the decision's own call
//! (`ratelimit.metrics = redis`): lua/metrics.lua's twin, for the server
//! module and the `memory://` store.
//!
//!   key     `<base>:<minute>`: `base` is the caller's (the extension's
//!           `ratelimit.key_prefix` . `ratelimit-metrics`, with a hash tag of
//!           the decision key's slot on a Redis Cluster), `minute` =
//!           floor(now in µs / 60e6) on the decision's clock
//!   fields  `<outcome>:<limiter>` -> count, outcomes as in `OUTCOMES`
//!   expiry  the instant (minute + 60) × 60 s, written by the call that
//!           creates a field: no key outlives its minute by more than an hour
//!
//! A counted call's arguments start with three of their own (`Counting`):
//! the limiter's name, `1` in dry run (else `0`), and the counts the client
//! made without a round trip since its last counted call (`""`, or five
//! integers: denied, would_deny, errors, on_error, block_cache).

use crate::effect::Effect;
use crate::keyspace::Keyspace;
use crate::numbers::redis_int;
use crate::view::Read;

/// Every outcome a limiter is counted under, in the order the extension lists them.
pub const OUTCOMES: [&str; 6] = ["allowed", "denied", "would_deny", "errors", "on_error", "block_cache"];

/// The outcomes a client sends as pending counts, in their order.
pub const PENDING: [&str; 5] = ["denied", "would_deny", "errors", "on_error", "block_cache"];

/// A minute's counters stay at most this long after the minute ends.
pub const KEEP_MINUTES: i64 = 59;

/// How many arguments a counted call puts before the entry's own.
pub const NARGS: usize = 3;

/// The counting arguments of a call.
#[derive(Debug, Clone, PartialEq)]
pub struct Counting<'a> {
    pub name: &'a [u8],
    pub dry_run: bool,
    pub pending: [i64; 5],
}

impl<'a> Counting<'a> {
    /// The first `NARGS` arguments of a counted call. Pending counts are read
    /// as Lua's `gmatch('%d+')` reads them: the runs of digits, in order.
    pub fn parse(args: &[&'a [u8]]) -> Option<Counting<'a>> {
        let [name, dry, pending] = args.get(..NARGS)? else { return None };
        let mut counts = [0i64; 5];
        for (slot, digits) in counts.iter_mut().zip(pending.split(|b| !b.is_ascii_digit()).filter(|d| !d.is_empty())) {
            *slot = redis_int(digits).unwrap_or(0);
        }
        Some(Counting { name, dry_run: *dry == b"1", pending: counts })
    }
}

/// The minute `now_us` falls in.
pub fn minute(now_us: f64) -> i64 {
    (now_us / 60_000_000.0).floor() as i64
}

/// The key of `minute`'s counters under `base`.
pub fn key(base: &[u8], minute: i64) -> Vec<u8> {
    let mut key = base.to_vec();
    key.push(b':');
    key.extend_from_slice(minute.to_string().as_bytes());
    key
}

/// The field of `outcome` for the limiter `name`.
pub fn field(outcome: &str, name: &[u8]) -> Vec<u8> {
    [outcome.as_bytes(), b":", name].concat()
}

/// Counts a call's decisions (`allowed` and `denied` of them; a denial in
/// dry run is a would_deny) and its pending counts under `base`, at `now_us`
/// (0: no algorithm of the call read the clock, so the keyspace's is read).
pub fn count<K: Keyspace + ?Sized>(ks: &mut K, base: &[u8], c: &Counting, now_us: f64, allowed: i64, denied: i64) -> Read<()> {
    let now = if now_us == 0.0 { ks.now_us() } else { now_us };
    let minute = minute(now);
    let key = key(base, minute);
    let mut adds: Vec<(&str, i64)> = vec![("allowed", allowed), (if c.dry_run { "would_deny" } else { "denied" }, denied)];
    adds.extend(PENDING.iter().copied().zip(c.pending));
    let adds: Vec<(Vec<u8>, i64)> = adds.into_iter().filter(|&(_, n)| n > 0).map(|(o, n)| (field(o, c.name), n)).collect();
    if adds.is_empty() {
        return Ok(());
    }
    // A field this call creates: what HINCRBY answering its own increment tells the Lua code.
    let view = ks.view(&key);
    let mut creates = false;
    for (f, _) in &adds {
        if view.hget(f)?.is_none() {
            creates = true;
            break;
        }
    }
    drop(view);
    let mut effects: Vec<Effect> = adds.into_iter().map(|(f, n)| Effect::HIncrBy(f, n)).collect();
    if creates {
        effects.push(Effect::PExpireAt((minute + 1 + KEEP_MINUTES) * 60_000));
    }
    ks.apply(&key, &effects)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, Value};

    fn clock() -> i64 {
        crate::store::wall_clock_us()
    }

    #[test]
    fn arguments_are_read_as_the_lua_code_reads_them() {
        let c = Counting::parse(&[b"api", b"1", b"0 2 0 0 7", b"next"]).unwrap();
        assert_eq!(c, Counting { name: b"api", dry_run: true, pending: [0, 2, 0, 0, 7] });
        assert_eq!(Counting::parse(&[b"api", b"0", b""]).unwrap().pending, [0; 5]);
        assert!(Counting::parse(&[b"api", b"0"]).is_none());
    }

    #[test]
    fn counts_land_in_the_minute_with_an_expiry_instant() {
        let mut s = Store::with_clock(clock);
        let now = clock() as f64;
        let c = Counting { name: b"login", dry_run: false, pending: [0, 0, 1, 1, 0] };
        count(&mut s, b"m", &c, now, 1, 0).unwrap();
        count(&mut s, b"m", &Counting { dry_run: true, pending: [0; 5], ..c.clone() }, now, 0, 2).unwrap();
        let key = key(b"m", minute(now));
        let Some(Value::Hash(h)) = s.value(&key) else { panic!("no hash at {key:?}") };
        let get = |f: &str| h.get(f.as_bytes()).map(|v| v.as_slice());
        assert_eq!(
            (get("allowed:login"), get("would_deny:login"), get("errors:login"), get("on_error:login")),
            (Some(&b"1"[..]), Some(&b"2"[..]), Some(&b"1"[..]), Some(&b"1"[..]))
        );
        assert_eq!(get("denied:login"), None, "nothing was denied: no field");
        let left = s.pttl(&key);
        assert!(left > 58 * 60_000 && left <= 60 * 60_000, "expires within the hour after its minute: {left} ms");
    }
}
