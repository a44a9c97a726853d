//! `ratelimit.on_error = local`: a call that Redis could not decide (it
//! failed, or its target's breaker is open) is decided in this process by
//! the same algorithm, on the target's local store (`redis::pool`'s, run by
//! the module's own code as a `memory://` store is), for a share of its
//! limit: `ratelimit.local_share` of it, rounded down, at least 1 (`scaled`).
//! Each process answering alone admits at most its share, so a fleet of
//! about 1 / share processes admits about the limit while Redis is away.
//! An answer's `limit` stays the limiter's own (headers and the framework
//! drop-ins keep speaking of the limit they configured); its `remaining` is
//! what is left of this process's share.
//!
//! Lock-outs: the call keeps its block keys and its limiters' lockouts, so
//! the local store reads and writes blocks of its own as Redis does: a
//! denial here blocks the id here (in this process, for the lockout), and a
//! blocked id is denied here. A block that Redis holds is not known here
//! (`block()` itself always needs Redis); the local store starts empty.
//!
//! The one way in is `or_local`: every operation that has a local meaning
//! hands it what Redis answered and how to decide locally; whatever it does
//! not answer goes on to `Conclude` (the `allow`/`deny` answer, or the
//! failure thrown).

use crate::backend::Backend;
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::Ints;
use crate::error::{Error, Result};
use crate::limiter::decide::adjust::Adjust;
use crate::limiter::params::arg;
use crate::limiter::{Algorithm, OnError, Op, Outcome, Policy, Source};

/// `ratelimit.local_share` and the local store's bound (`ratelimit.block_cache_size` keys).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalShare {
    pub share: f64,
    pub keys: usize,
}

impl Default for LocalShare {
    fn default() -> Self {
        LocalShare { share: 0.1, keys: 10_000 }
    }
}

/// What Redis decided, or, when it could not (`Error::Redis`) and
/// `on_error` says local (`CallOptions::on_error`, `CallOptions::local`), what `locally` decides in this process.
/// Any other answer, and a local decision that fails too, is returned as it
/// is, for `Conclude` (which throws the failure then).
pub fn or_local<T>(decided: Result<T>, on_error: OnError, share: LocalShare, locally: impl FnOnce(LocalShare) -> Result<T>) -> Result<T> {
    match decided {
        Err(Error::Redis(cause)) if on_error == OnError::Local => {
            locally(share).map_err(|e| Error::Redis(format!("{cause}; deciding in this process failed too: {e}")))
        }
        other => other,
    }
}

/// `n` × `share`, rounded down, at least 1.
fn share_of(n: i64, share: f64) -> i64 {
    ((n as f64 * share).floor() as i64).clamp(1, n.max(1))
}

fn num(word: &[u8]) -> f64 {
    std::str::from_utf8(word).ok().and_then(|s| s.parse().ok()).unwrap_or(0.0)
}

/// `policy` for one process's share of its limit: the same algorithm and
/// window, `share` of the limit (rounded down, at least 1); the buckets and
/// GCRA refill at the same share of their rate, so their time to refill
/// stays the same.
pub fn scaled(policy: &Policy, share: f64) -> Policy {
    let limit = share_of(policy.limit, share);
    let a = &policy.args;
    let mut p = policy.clone();
    p.limit = limit;
    match policy.algorithm {
        Algorithm::FixedWindow | Algorithm::SlidingLog | Algorithm::SlidingBlocks | Algorithm::AnchoredWindow => p.args[1] = arg(limit),
        Algorithm::CalendarWindow => p.args[0] = arg(limit),
        Algorithm::TokenBucket => {
            p.args[0] = arg(limit);
            p.args[1] = arg(num(&a[1]) * limit as f64 / policy.limit as f64);
        }
        Algorithm::LeakyBucket => {
            // The bucket keeps room for one request of the policy's size.
            let size = (num(&a[2]) as i64).max(1);
            let capacity = limit.max(size);
            p.limit = capacity;
            p.args[0] = arg(capacity);
            p.args[1] = arg(num(&a[1]) * capacity as f64 / policy.limit as f64);
            p.max_cost = (capacity / size).min(policy.max_cost);
            return p;
        }
        Algorithm::Gcra => {
            // The same tolerance (the burst's time), spread over fewer requests.
            let tolerance = num(&a[1]) as i64;
            p.args[0] = arg((tolerance / limit).max(1));
        }
    }
    p.max_cost = policy.max_cost.min(p.limit);
    p
}

/// A call's words (`call`: per policy its lockout, its algorithm's name,
/// its arguments, then any words of the call's own, a calendar window's
/// edges) with each policy's arguments replaced by its scaled one's in
/// `local`, in order.
pub fn args_of(local: &[Policy], call: &PolicyArgs) -> Result<PolicyArgs> {
    let words = call.words();
    let mut out = Vec::with_capacity(words.len());
    let mut at = 0;
    for p in local {
        let name = words.get(at + 1).ok_or_else(|| Error::Redis("a call without a member's words".into()))?;
        let n = ratelimit_core::Algorithm::nargs(name).ok_or_else(|| Error::Redis("a call with an unknown algorithm".into()))?;
        out.extend_from_slice(&words[at..at + 2]);
        out.extend(p.args.iter().cloned());
        out.extend_from_slice(&words[at + 2 + p.args.len()..at + 2 + n]);
        at += 2 + n;
    }
    Ok(PolicyArgs::new(out))
}

/// A cost larger than the local share can hold can never be admitted here:
/// denied, as `on_error = deny` denies (`limit` the limiter's own).
fn too_large(policy: &Policy) -> Outcome {
    Outcome {
        allowed: false,
        limit: policy.limit,
        remaining: 0,
        retry_after_us: 1_000_000,
        reset_after_us: 1_000_000,
        delay_us: 0,
        would_deny: false,
        source: Source::Local,
    }
}

/// One limiter's `op` on `key` (and its block key), decided in this process
/// for its share; `args`: the words the call to Redis had. `now_us` as
/// `Limiter::decide_at` takes it (tests).
pub fn decide(
    backend: &Backend,
    policy: &Policy,
    args: &PolicyArgs,
    key_and_block: [&[u8]; 2],
    op: Op,
    now_us: Option<i64>,
    share: LocalShare,
) -> Result<Outcome> {
    let local = scaled(policy, share.share);
    if op.cost() > local.max_cost {
        return Ok(too_large(policy));
    }
    let (per_call, n) = Policy::call_args(op, now_us);
    let args = args_of(std::slice::from_ref(&local), args)?;
    let entry = if op.is_peek() { Entry::Peek } else { Entry::Take };
    let call = EntryCall { entry, keys: &key_and_block, counting: &[], args: &args, per_call: &per_call[..n] };
    let ints = backend.decide_locally(&call, share.keys)?;
    // The limiter's own limit: headers and the framework drop-ins keep
    // speaking of the limit they configured; `remaining` is the share's.
    Ok(Outcome { source: Source::Local, ..policy.outcome(ints.as_slice())? })
}

/// A compound's `op` on its members' `keys` (then their block keys), all or
/// nothing, decided in this process with each member at its share: every
/// member's own outcome, in order (`None` when a cost is larger than a
/// member's share). `args`: the words the call to Redis had.
pub fn decide_compound(
    backend: &Backend,
    policies: &[&Policy],
    args: &PolicyArgs,
    keys: &[Vec<u8>],
    op: Op,
    share: LocalShare,
) -> Result<Vec<Outcome>> {
    let local: Vec<Policy> = policies.iter().map(|p| scaled(p, share.share)).collect();
    if local.iter().any(|p| op.cost() > p.max_cost) {
        return Ok(policies.iter().map(|p| too_large(p)).collect());
    }
    let (per_call, n) = Policy::call_args(op, None);
    let entry = if op.is_peek() { Entry::CompoundPeek } else { Entry::Compound };
    per_member(backend, policies, &local, args, keys, entry, &per_call[..n], share)
}

/// `entry` on `keys` (the members' keys, then their block keys) with the
/// `local` (scaled) policies in the words of `args`, in one call of the
/// target's local store: a record per member, read with its own `policies`'
/// limit, each marked as a local answer.
#[allow(clippy::too_many_arguments)]
fn per_member<K: AsRef<[u8]>>(
    backend: &Backend,
    policies: &[&Policy],
    local: &[Policy],
    args: &PolicyArgs,
    keys: &[K],
    entry: Entry,
    per_call: &[i64],
    share: LocalShare,
) -> Result<Vec<Outcome>> {
    let args = args_of(local, args)?;
    let call = EntryCall { entry, keys, counting: &[], args: &args, per_call };
    let ints: Ints = backend.decide_locally(&call, share.keys)?;
    let reply = ints.as_slice();
    if reply.len() != 4 * policies.len() {
        return Err(Error::Redis(format!("unexpected local reply {reply:?}")));
    }
    reply
        .chunks_exact(4)
        .zip(policies)
        .map(|(r, p)| Ok(Outcome { source: Source::Local, ..p.outcome(Ints::of_record(r[0], r[1], r[2], r[3]).as_slice())? }))
        .collect()
}

/// `refund()`, `charge()` or `reserve()` (`mode`) of `units` on `keys`, one
/// per policy (one limiter, or a compound's members), then their block
/// keys, with the words of the call to Redis (`args`), decided in this
/// process with each policy at its share, in one call of the store, as
/// Redis decides it (`Limiter::adjust_at`): every member's own outcome, in
/// order. A booking larger than a share can hold is denied, as `decide` denies it.
#[allow(clippy::too_many_arguments)]
pub fn adjust<K: AsRef<[u8]>>(
    backend: &Backend,
    policies: &[&Policy],
    args: &PolicyArgs,
    keys: &[K],
    mode: Adjust,
    units: i64,
    now_us: Option<i64>,
    share: LocalShare,
) -> Result<Vec<Outcome>> {
    let local: Vec<Policy> = policies.iter().map(|p| scaled(p, share.share)).collect();
    if matches!(mode, Adjust::Reserve(_)) && local.iter().any(|p| units > p.max_cost) {
        return Ok(policies.iter().map(|p| too_large(p)).collect());
    }
    let (per_call, n) = mode.call_args(units, now_us);
    per_member(backend, policies, &local, args, keys, Entry::Adjust, &per_call[..n], share)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};

    fn words(p: &Policy) -> Vec<String> {
        p.args.iter().map(|a| String::from_utf8(a.clone()).unwrap()).collect()
    }

    #[test]
    fn a_share_is_rounded_down_and_at_least_one() {
        assert_eq!(share_of(1000, 0.1), 100);
        assert_eq!(share_of(15, 0.1), 1);
        assert_eq!(share_of(5, 0.0), 1);
        assert_eq!(share_of(7, 1.0), 7);
        assert_eq!(share_of(19, 0.5), 9);
    }

    #[test]
    fn every_algorithm_keeps_its_window_and_scales_its_limit() {
        let fw = scaled(&fixed_window::policy(60.0, 1000).unwrap(), 0.1);
        assert_eq!((words(&fw), fw.limit, fw.max_cost), (vec!["60000".into(), "100".into()], 100, 100));
        let sw = scaled(&sliding_window::policy(1.0, 50, 0).unwrap(), 0.1);
        assert_eq!((words(&sw), sw.limit), (vec!["1000000".into(), "5".into(), "1000".into()], 5));
        let sb = scaled(&sliding_window::policy(1.0, 50, 10).unwrap(), 0.5);
        assert_eq!(words(&sb), ["1000000", "25", "100000"]);
        let tb = scaled(&token_bucket::policy(100, 10.0).unwrap(), 0.1);
        assert_eq!((words(&tb), tb.limit), (vec!["10".into(), "1".into()], 10));
        let lb = scaled(&leaky_bucket::policy(100, 4.0, 20).unwrap(), 0.1);
        assert_eq!((words(&lb), lb.limit, lb.max_cost), (vec!["20".into(), "0.8".into(), "20".into()], 20, 1), "room for one request");
        // GCRA: 10 per second with a burst of 10: its share is 1 per second, burst 1.
        let g = gcra::policy(9, 10, 1.0).unwrap();
        let gs = scaled(&g, 0.1);
        assert_eq!((words(&g), words(&gs), gs.limit), (vec!["100000".into(), "1000000".into()], vec!["1000000".into(), "1000000".into()], 1));
        // What the core accepts: every scaled policy parses.
        for p in [fw, sw, sb, tb, lb, gs] {
            let w: Vec<&[u8]> = p.args.iter().map(Vec::as_slice).collect();
            assert!(ratelimit_core::Algorithm::parse(p.algorithm.name().as_bytes(), &w).is_ok(), "{p:?}");
        }
    }

    #[test]
    fn only_a_redis_failure_is_decided_locally_and_only_with_local() {
        let share = LocalShare::default();
        let down = || Err::<i32, _>(Error::Redis("down".into()));
        assert_eq!(or_local(down(), OnError::Local, share, |_| Ok(7)), Ok(7));
        assert_eq!(or_local(down(), OnError::Allow, share, |_| Ok(7)), down());
        assert_eq!(or_local(Ok(1), OnError::Local, share, |_| Ok(7)), Ok(1));
        let bad = Err::<i32, _>(Error::value("cost", "x"));
        assert_eq!(or_local(bad.clone(), OnError::Local, share, |_| Ok(7)), bad);
        let both = or_local(down(), OnError::Local, share, |_| Err(Error::Redis("full".into()))).unwrap_err().to_string();
        assert!(both.starts_with("down; deciding in this process failed too"), "{both}");
    }
}
