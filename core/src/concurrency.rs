//! In-flight limits (lua/concurrency.lua, the same operations in Lua): at most
//! `max` permits per key at once, each a lease on the server's clock.
//!
//! Key      a sorted set {permit token -> lease expiry in µs}; a member
//!          counts while its expiry is after now. Expired members (a
//!          process killed before it released) are dropped by the next
//!          call that writes, so a slot comes back after its lease and
//!          never before; the count is never below 0, and a grant is made
//!          only below `max`, so never above it.
//!          The key's TTL is the latest lease (rounded up to the next ms).
//!
//! Every operation reads first and returns its writes as `Effect`s, in the
//! order the Lua code makes them, so both leave the same bytes.

use crate::answer::{doubles, Answer};
use crate::effect::Effect;
use crate::keyspace::Keyspace;
use crate::view::{Read, View};

/// What an in-flight call does; times in µs.
#[derive(Debug, Clone, PartialEq)]
pub enum InflightOp<'a> {
    Acquire { max: f64, ttl: f64, token: &'a [u8] },
    Release { token: &'a [u8] },
    Renew { ttl: f64, token: &'a [u8] },
    Count,
}

/// Runs `op` on `key` at the keyspace's clock (or a test's): the reply's
/// bytes, its writes applied.
pub fn run<K: Keyspace + ?Sized>(ks: &mut K, key: &[u8], op: &InflightOp, injected: Option<f64>) -> Read<Vec<u8>> {
    let now = injected.unwrap_or_else(|| ks.now_us());
    let mut effects = Vec::new();
    let reply = {
        let view = ks.view(key);
        match *op {
            InflightOp::Acquire { max, ttl, token } => {
                let mut out = Vec::with_capacity(24);
                acquire(&*view, max, ttl, token, now, &mut effects)?.write_to(&mut out);
                out
            }
            InflightOp::Release { token } => release(&*view, token, now, &mut effects)?,
            InflightOp::Renew { ttl, token } => renew(&*view, ttl, token, now, &mut effects)?,
            InflightOp::Count => count(&*view, now)?,
        }
    };
    ks.apply(key, &effects)?;
    Ok(reply)
}

/// The key's TTL in ms when its latest lease ends at `top` (µs).
fn key_ttl_ms(top: f64, now: f64) -> i64 {
    ((top - now) / 1000.0).floor() as i64 + 1
}

/// ZREMRANGEBYSCORE 0 now, when some member has expired.
fn drop_expired(view: &dyn View, live: i64, now: f64, effects: &mut Vec<Effect>) -> Read<()> {
    if view.zcount_above(-1.0)? > live {
        effects.push(Effect::ZRemRangeByScore(0.0, now));
    }
    Ok(())
}

/// `inflight_acquire`: a permit `token` for `ttl` µs when fewer than `max`
/// are live. Granted: {max - live after, ttl}; denied: {0, wait, wait},
/// where wait is the time until the earliest lease ends.
pub fn acquire(view: &dyn View, max: f64, ttl: f64, token: &[u8], now: f64, effects: &mut Vec<Effect>) -> Read<Answer> {
    let live = view.zcount_above(now)?;
    if (live as f64) < max {
        let expiry = now + ttl;
        let top = view.zmax_score()?.unwrap_or(0.0).max(expiry);
        drop_expired(view, live, now, effects)?;
        effects.push(Effect::ZAdd(vec![(expiry, token.to_vec())]));
        effects.push(Effect::PExpire(key_ttl_ms(top, now)));
        return Ok(Answer::new(max - live as f64 - 1.0, ttl, None, 0.0));
    }
    let wait = view.znth_score_above(now, 0)?.unwrap_or(now + 1.0) - now;
    drop_expired(view, live, now, effects)?;
    Ok(Answer::new(0.0, wait, Some(wait), 0.0))
}

/// `inflight_release`: frees `token`'s slot. Reply {live after, 1 when this
/// call freed a live permit else 0}.
pub fn release(view: &dyn View, token: &[u8], now: f64, effects: &mut Vec<Effect>) -> Read<Vec<u8>> {
    let live = view.zcount_above(now)?;
    let freed = match view.zscore(token)? {
        Some(expiry) if expiry > now => {
            // No ZREM among the effects: the permit is moved to score 0 and
            // dropped with the expired ones.
            effects.push(Effect::ZAdd(vec![(0.0, token.to_vec())]));
            effects.push(Effect::ZRemRangeByScore(0.0, now));
            1
        }
        Some(_) => {
            effects.push(Effect::ZRemRangeByScore(0.0, now));
            0
        }
        None => 0,
    };
    let mut out = Vec::with_capacity(16);
    doubles(&mut out, &[(live - freed) as f64, freed as f64]);
    Ok(out)
}

/// `inflight_renew`: `token`'s lease again `ttl` from now, if it is still
/// live (an expired lease's slot may already be someone else's). Reply
/// {1, ttl} or {0, 0}.
pub fn renew(view: &dyn View, ttl: f64, token: &[u8], now: f64, effects: &mut Vec<Effect>) -> Read<Vec<u8>> {
    let mut out = Vec::with_capacity(16);
    match view.zscore(token)? {
        Some(expiry) if expiry > now => {
            let at = now + ttl;
            let top = view.zmax_score()?.unwrap_or(0.0).max(at);
            effects.push(Effect::ZAdd(vec![(at, token.to_vec())]));
            effects.push(Effect::PExpire(key_ttl_ms(top, now)));
            doubles(&mut out, &[1.0, ttl]);
        }
        _ => doubles(&mut out, &[0.0, 0.0]),
    }
    Ok(out)
}

/// `inflight_count` (read-only): {live permits, µs until the earliest ends or 0}.
pub fn count(view: &dyn View, now: f64) -> Read<Vec<u8>> {
    let live = view.zcount_above(now)?;
    let first = if live > 0 { view.znth_score_above(now, 0)?.unwrap_or(now) - now } else { 0.0 };
    let mut out = Vec::with_capacity(16);
    doubles(&mut out, &[live as f64, first]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn ints(bytes: &[u8]) -> Vec<f64> {
        bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()
    }

    fn acquire_at(s: &mut Store, token: &[u8], now: f64) -> Answer {
        let mut e = Vec::new();
        let a = acquire(&*s.view(b"k"), 2.0, 1e6, token, now, &mut e).unwrap();
        s.apply(b"k", &e).unwrap();
        a
    }

    #[test]
    fn at_most_max_and_a_lease_frees_its_slot_when_it_ends() {
        let mut s = Store::with_clock(|| 1_000_000_000);
        let t = 1_000_000_000.0;
        assert_eq!(acquire_at(&mut s, b"a", t).remaining, 1.0);
        assert_eq!(acquire_at(&mut s, b"b", t + 10.0).remaining, 0.0);
        let denied = acquire_at(&mut s, b"c", t + 20.0);
        assert_eq!(denied.retry_us, Some(1e6 - 20.0), "until a's lease ends");
        // Not one µs before the lease ends; at its end, the slot is back.
        assert!(!acquire_at(&mut s, b"c", t + 1e6 - 1.0).allowed());
        assert!(acquire_at(&mut s, b"c", t + 1e6).allowed());
        assert_eq!(ints(&count(&*s.view(b"k"), t + 1e6).unwrap()), [2.0, 10.0]);
    }

    #[test]
    fn release_is_idempotent_and_renew_only_a_live_lease() {
        let mut s = Store::with_clock(|| 1_000_000_000);
        let t = 1_000_000_000.0;
        acquire_at(&mut s, b"a", t);
        let mut e = Vec::new();
        assert_eq!(ints(&renew(&*s.view(b"k"), 1e6, b"a", t + 5e5, &mut e).unwrap()), [1.0, 1e6]);
        s.apply(b"k", &e).unwrap();
        assert_eq!(ints(&count(&*s.view(b"k"), t + 1.2e6).unwrap()), [1.0, 3e5], "renewed past its first end");
        for freed in [1.0, 0.0] {
            let mut e = Vec::new();
            assert_eq!(ints(&release(&*s.view(b"k"), b"a", t + 6e5, &mut e).unwrap()), [0.0, freed]);
            s.apply(b"k", &e).unwrap();
        }
        assert_eq!(s.value(b"k"), None, "the last release deletes the key");
        assert_eq!(ints(&renew(&*s.view(b"k"), 1e6, b"a", t, &mut Vec::new()).unwrap()), [0.0, 0.0]);
    }
}
