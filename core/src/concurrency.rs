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
//!          The member "" (a token is never empty), scored -n, counts the n
//!          callers waiting for a slot of the key (never counted as a permit:
//!          its score is below 0), so that a release tells its caller whether
//!          anyone is to be woken.
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
    Acquire { max: f64, ttl: f64, token: &'a [u8], waiting: Waiting },
    Release { token: &'a [u8] },
    Renew { ttl: f64, token: &'a [u8] },
    Count,
}

/// Where an acquire stands among the key's waiters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// 0: a caller that will not wait.
    No,
    /// 1: a first try of a caller that will wait when denied: counted as a waiter then.
    First,
    /// 2: a waiter's try after a wake-up: no longer counted once granted.
    Again,
    /// 3: a waiter's last try: no longer counted, granted or not.
    Last,
}

impl Waiting {
    pub fn from_number(n: f64) -> Option<Waiting> {
        [Waiting::No, Waiting::First, Waiting::Again, Waiting::Last].get(n as usize).copied().filter(|_| n == n.floor() && n >= 0.0)
    }
}

/// The waiters' member.
const WAITERS: &[u8] = b"";

/// One waiter more (`by` -1) or fewer (+1); the member goes at 0. One fewer
/// only where it was counted: a key deleted meanwhile (a reset, its leases
/// ended) has none, and an expiry-less key is never left behind.
fn count_waiter(view: &dyn View, by: f64, now: f64, effects: &mut Vec<Effect>) -> Read<()> {
    let was = view.zscore(WAITERS)?;
    if by > 0.0 && !was.is_some_and(|w| w < 0.0) {
        return Ok(());
    }
    effects.push(Effect::ZIncrBy(by, WAITERS.to_vec()));
    if was.unwrap_or(0.0) + by == 0.0 {
        effects.push(Effect::ZRemRangeByScore(0.0, now));
    }
    Ok(())
}

/// Runs `op` on `key` at the keyspace's clock (or a test's): the reply's
/// bytes, its writes applied.
pub fn run<K: Keyspace + ?Sized>(ks: &mut K, key: &[u8], op: &InflightOp, injected: Option<f64>) -> Read<Vec<u8>> {
    let now = injected.unwrap_or_else(|| ks.now_us());
    let mut effects = Vec::new();
    let reply = {
        let view = ks.view(key);
        match *op {
            InflightOp::Acquire { max, ttl, token, waiting } => {
                let mut out = Vec::with_capacity(24);
                acquire(&*view, max, ttl, token, waiting, now, &mut effects)?.write_to(&mut out);
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
/// where wait is the time until the earliest lease ends. `waiting` counts
/// the caller in or out of the key's waiters.
pub fn acquire(view: &dyn View, max: f64, ttl: f64, token: &[u8], waiting: Waiting, now: f64, effects: &mut Vec<Effect>) -> Read<Answer> {
    let live = view.zcount_above(now)?;
    if (live as f64) < max {
        let expiry = now + ttl;
        let top = view.zmax_score()?.unwrap_or(0.0).max(expiry);
        drop_expired(view, live, now, effects)?;
        effects.push(Effect::ZAdd(vec![(expiry, token.to_vec())]));
        effects.push(Effect::PExpire(key_ttl_ms(top, now)));
        if matches!(waiting, Waiting::Again | Waiting::Last) {
            count_waiter(view, 1.0, now, effects)?;
        }
        return Ok(Answer::new(max - live as f64 - 1.0, ttl, None, 0.0));
    }
    let wait = view.znth_score_above(now, 0)?.unwrap_or(now + 1.0) - now;
    drop_expired(view, live, now, effects)?;
    match waiting {
        Waiting::First => count_waiter(view, -1.0, now, effects)?,
        Waiting::Last => count_waiter(view, 1.0, now, effects)?,
        _ => {}
    }
    Ok(Answer::new(0.0, wait, Some(wait), 0.0))
}

/// `inflight_release`: frees `token`'s slot. Reply {live after, 1 when this
/// call freed a live permit else 0, callers waiting}.
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
    let waiters = view.zscore(WAITERS)?.map_or(0.0, |w| (-w).max(0.0));
    let mut out = Vec::with_capacity(24);
    doubles(&mut out, &[(live - freed) as f64, freed as f64, waiters]);
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
        let a = acquire(&*s.view(b"k"), 2.0, 1e6, token, Waiting::No, now, &mut e).unwrap();
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
            assert_eq!(ints(&release(&*s.view(b"k"), b"a", t + 6e5, &mut e).unwrap()), [0.0, freed, 0.0]);
            s.apply(b"k", &e).unwrap();
        }
        assert_eq!(s.value(b"k"), None, "the last release deletes the key");
        assert_eq!(ints(&renew(&*s.view(b"k"), 1e6, b"a", t, &mut Vec::new()).unwrap()), [0.0, 0.0]);
    }

    #[test]
    fn a_release_says_how_many_wait_and_waiters_count_in_and_out() {
        let mut s = Store::with_clock(|| 1_000_000_000);
        let t = 1_000_000_000.0;
        let mut go = |token: &[u8], waiting, now| {
            let mut e = Vec::new();
            let a = acquire(&*s.view(b"k"), 1.0, 1e6, token, waiting, now, &mut e).unwrap();
            s.apply(b"k", &e).unwrap();
            a.allowed()
        };
        assert!(go(b"a", Waiting::No, t));
        assert!(!go(b"b", Waiting::First, t + 1.0));
        assert!(!go(b"c", Waiting::First, t + 2.0));
        assert!(!go(b"c", Waiting::Last, t + 3.0), "c gives up");
        let waiters = |s: &Store| ints(&release(&*s.view(b"k"), b"zz", t + 4.0, &mut Vec::new()).unwrap())[2];
        assert_eq!(waiters(&s), 1.0);
        let mut e = Vec::new();
        release(&*s.view(b"k"), b"a", t + 5.0, &mut e).unwrap();
        s.apply(b"k", &e).unwrap();
        let mut e = Vec::new();
        assert!(acquire(&*s.view(b"k"), 1.0, 1e6, b"b", Waiting::Again, t + 6.0, &mut e).unwrap().allowed());
        s.apply(b"k", &e).unwrap();
        assert_eq!(waiters(&s), 0.0);
        let Some(crate::store::Value::Zset(z)) = s.value(b"k") else { panic!() };
        assert_eq!(z.entries().map(|(m, _)| m.to_vec()).collect::<Vec<_>>(), [b"b".to_vec()], "no waiters' member left");
    }
}
