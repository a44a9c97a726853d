//! A limiter bound to its target: a policy, where it decides (`Backend`: a
//! Redis target's pool slot, or a `memory://` store) and its full key prefix.
//! Builds the key, runs the policy there, and concludes the answer
//! (`conclude`: dry run, the `on_error` policy, the counters of
//! `ratelimit.metrics`). No Zval and no ini setting here: the PHP
//! layer passes the prefix, timeouts, `on_error`, dry run and metrics in.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use ratelimit_core::Algorithm;

use crate::backend::{Answer, Backend, Reach};
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::Ints;
use crate::error::{Error, Result};
use crate::limiter::adjust::Adjust;
use crate::limiter::block_cache::with_cache;
use crate::limiter::conclude::Conclude;
use crate::limiter::local::{self, LocalShare};
use crate::limiter::params::{self, MAX_KEY_BYTES};
use crate::limiter::{OnError, Op, Outcome, Policy, Source};
use crate::metrics::{self, layout, Counters, Mode};
use crate::redis::pool::Timeouts;

/// What one call needs besides its arguments, read by the caller when the call is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CallOptions {
    pub timeouts: Timeouts,
    pub on_error: OnError,
    /// `ratelimit.block_cache_size` when `ratelimit.block_cache` is on, else 0.
    pub block_cache: usize,
    /// `ratelimit.server_module = auto`: the server module's commands decide
    /// where the server has them.
    pub server_module: bool,
    /// `ratelimit.dry_run`, or the limiter's own `withDryRun()`.
    pub dry_run: bool,
    /// `ratelimit.metrics`.
    pub metrics: Mode,
    /// `ratelimit.local_share` and the local store's bound, for `on_error = local`.
    pub local: LocalShare,
}

impl CallOptions {
    /// How the call reaches Redis (`Backend`'s methods take nothing else of these).
    pub fn reach(&self) -> Reach {
        Reach { timeouts: self.timeouts, server_module: self.server_module }
    }
}

pub struct Limiter {
    policy: Policy,
    /// The algorithm's name and arguments: every call's (`EntryCall::args`).
    args: PolicyArgs,
    backend: Backend,
    /// `ratelimit.key_prefix . $keyPrefix`, fixed at construction.
    prefix: Vec<u8>,
    /// Tells this policy's block-cache entries from another's on the same key.
    fingerprint: u64,
    /// On a Redis Cluster the id is a hash tag, `prefix:{id}`, so that the
    /// keys of one id under different prefixes (a compound limiter's
    /// members) share a slot; used alone or in a compound, a limiter keeps one layout.
    hash_tag: bool,
    /// `ratelimit.key_prefix` at construction (the counters' base key starts with it).
    global_prefix: Vec<u8>,
    /// This limiter's counters (`ratelimit.metrics`), found on its first counted call.
    counters: OnceLock<Arc<Counters>>,
    /// On a cluster, the counters' base key of every slot (`ratelimit.metrics = redis`).
    metrics_bases: OnceLock<Arc<layout::Bases>>,
}

impl Limiter {
    /// `key_prefix` is the user's (validated here); `global_prefix` is
    /// `ratelimit.key_prefix` as it was at construction.
    pub fn new(policy: Policy, backend: Backend, global_prefix: &[u8], key_prefix: &[u8]) -> Result<Self> {
        params::key_prefix(key_prefix)?;
        let prefix = [global_prefix, key_prefix].concat();
        let mut name_and_args = vec![policy.algorithm.name().as_bytes().to_vec()];
        name_and_args.extend(policy.args.iter().cloned());
        let args = PolicyArgs::new(name_and_args);
        // What the module and a `memory://` store will read: refused here, not on every call.
        let words: Vec<&[u8]> = policy.args.iter().map(Vec::as_slice).collect();
        Algorithm::parse(policy.algorithm.name().as_bytes(), &words).map_err(|e| Error::Redis(e.0))?;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (policy.algorithm, &policy.args).hash(&mut hasher);
        let hash_tag = backend.is_cluster();
        Ok(Limiter {
            policy,
            args,
            backend,
            prefix,
            fingerprint: hasher.finish(),
            hash_tag,
            global_prefix: global_prefix.to_vec(),
            counters: OnceLock::new(),
            metrics_bases: OnceLock::new(),
        })
    }

    /// The counters of this limiter's key prefix in this process.
    pub fn counters(&self) -> &Counters {
        self.counters.get_or_init(|| metrics::counters(&self.prefix))
    }

    /// Where `ratelimit.metrics = redis` counts a decision on `key`: in its
    /// slot on a cluster (`metrics::layout`).
    pub fn metrics_base(&self, key: &[u8]) -> Vec<u8> {
        if self.hash_tag {
            self.metrics_bases.get_or_init(|| layout::bases(&self.global_prefix)).for_key(key)
        } else {
            layout::single_base(&self.global_prefix)
        }
    }

    /// How a call's answers are concluded: counted when it consumes and metrics are on.
    fn conclude(&self, op: Op, opts: CallOptions) -> Conclude<'_> {
        let counted = !op.is_peek() && opts.metrics != Mode::Off;
        Conclude {
            dry_run: opts.dry_run,
            on_error: opts.on_error,
            limit: self.limit(),
            counters: counted.then(|| self.counters()),
            metrics: opts.metrics,
        }
    }

    /// Tells this policy from another on the same key (the block cache's, the leases' tables).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    pub fn limit(&self) -> i64 {
        self.policy.limit
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The algorithm's name and arguments, as every call sends them.
    pub fn args(&self) -> &PolicyArgs {
        &self.args
    }

    /// `ratelimit.key_prefix . $keyPrefix`.
    pub fn prefix(&self) -> &[u8] {
        &self.prefix
    }

    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// Whether `other` decides in the same place (one connection slot, one store).
    pub fn same_target(&self, other: &Limiter) -> bool {
        self.backend.same(&other.backend)
    }

    /// Drops the block cache's entries of `key` (its state changed here).
    pub fn forget(&self, key: &[u8]) {
        with_cache(|c| c.forget(key));
    }

    /// The Redis key for `id`: `prefix:id`, or the bare prefix for the empty
    /// id; on a cluster `prefix:{id}` (the empty id stays the bare prefix).
    pub fn key(&self, id: &[u8]) -> Result<Vec<u8>> {
        key_of(&self.prefix, self.hash_tag, id)
    }

    /// A decision for `op` on the Redis server's clock, with `opts.on_error`
    /// applied to a Redis failure. Arguments are checked first: a bad one never
    /// reaches Redis.
    pub fn decide(&self, id: &[u8], op: Op, opts: CallOptions) -> Result<Outcome> {
        self.decide_at(id, op, opts, None)
    }

    /// `decide`, with the script's clock replaced by `now_us` (microseconds)
    /// when given: for replaying an algorithm against a table of instants in
    /// tests. The PHP API never passes it. It is safe to have: the clock only
    /// changes what the script computes for a key that the same client can
    /// already write or delete at will.
    pub fn decide_at(&self, id: &[u8], op: Op, opts: CallOptions, now_us: Option<i64>) -> Result<Outcome> {
        self.policy.check_cost(op.cost())?;
        let key = self.key(id)?;
        let conclude = self.conclude(op, opts);
        // `ratelimit.metrics = redis`: the call counts its decision itself,
        // and carries what this process counted without a round trip.
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        // The block cache answers for Redis only (a memory store is as near as the cache).
        let cached = opts.block_cache > 0 && now_us.is_none() && self.backend.is_remote();
        if cached {
            if let Some(o) = with_cache(|c| c.lookup(&key, self.fingerprint, op.cost(), Instant::now())) {
                return conclude.one(Ok(o), true);
            }
        }
        let (per_call, n) = Policy::call_args(op, now_us);
        let taken = counted.map(Counters::take_unsent);
        // Counted: the counting arguments first, and the counters' base as a second key.
        let counting = taken.map(|t| metrics::counting_args(&self.prefix, opts.dry_run, t));
        let base = counting.as_ref().map(|_| self.metrics_base(&key));
        let both = [key.as_slice(), base.as_deref().unwrap_or_default()];
        let keys = &both[..1 + usize::from(base.is_some())];
        let entry = match (&counting, op.is_peek()) {
            (Some(_), _) => Entry::TakeCounted,
            (None, true) => Entry::Peek,
            (None, false) => Entry::Take,
        };
        let call = EntryCall { entry, keys, counting: counting.as_ref().map_or(&[][..], |c| &c[..]), args: &self.args, per_call: &per_call[..n] };
        // A fixed window's cost-1 consume is three plain commands on every
        // path (the module's command would be no faster, and counts the
        // same), except on a Redis Cluster (`counter`: a pipeline cannot be
        // redirected command by command there), where it is the library's
        // or the module's one call, as for any other cost; and unless the
        // decision must count itself (a pipeline cannot count what it does
        // not know the answer of yet).
        let counter = match (self.policy.counter_window_ms, op, now_us, counted) {
            (Some(window_ms), Op::Consume(1), None, None) => Some(window_ms),
            _ => None,
        };
        let decided = self.backend.decide_or_hit(&call, counter, opts.reach()).and_then(|answer| self.outcome(answer));
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        if let (true, Ok(o)) = (cached, &decided) {
            self.remember(&key, op.cost(), o, opts);
        }
        let decided =
            local::or_local(decided, opts.on_error, opts.local, |share| local::decide(&self.backend, &self.policy, &key, op, now_us, share));
        conclude.one(decided, false)
    }

    /// An answer of either kind as an outcome.
    fn outcome(&self, answer: Answer) -> Result<Outcome> {
        let o = match answer {
            Answer::Count((count, ttl_ms)) => Outcome::from_count(self.limit(), count, ttl_ms),
            Answer::Ints(ints) => self.policy.outcome(ints.as_slice())?,
        };
        Ok(Outcome { source: self.source(), ..o })
    }

    /// What decides this limiter's calls: Redis or a `memory://` store.
    pub fn source(&self) -> Source {
        match self.backend.is_remote() {
            true => Source::Redis,
            false => Source::Memory,
        }
    }

    /// A denial from Redis, for the block cache (only when it is on; a
    /// memory store is as near as the cache).
    fn remember(&self, key: &[u8], cost: i64, o: &Outcome, opts: CallOptions) {
        if opts.block_cache > 0 && !o.allowed && self.backend.is_remote() {
            with_cache(|c| c.remember(key, self.fingerprint, cost, o, Instant::now(), opts.block_cache));
        }
    }

    /// `decide(id, Op::Consume(cost))` for every id, in order, in one round
    /// trip. Arguments are checked first (an id that makes a bad key is a
    /// `ValueError` naming its position); the answers are exactly those of
    /// single calls made in this order. `opts.on_error` answers for an id whose
    /// call failed, or for all when the round trip failed; when it says throw,
    /// the first failure is the batch's error (the calls after it ran too).
    pub fn decide_many(&self, ids: &[&[u8]], cost: i64, opts: CallOptions) -> Result<Vec<Outcome>> {
        self.decide_many_at(ids, cost, opts, None)
    }

    /// `decide_many` at the instant `now_us` when given (tests, as `decide_at`;
    /// the block cache and the fixed window's counter are then left out).
    pub fn decide_many_at(&self, ids: &[&[u8]], cost: i64, opts: CallOptions, now_us: Option<i64>) -> Result<Vec<Outcome>> {
        self.policy.check_cost(cost)?;
        let opts = if now_us.is_some() { CallOptions { block_cache: 0, ..opts } } else { opts };
        let keys =
            ids.iter().enumerate().map(|(i, id)| self.key(id).map_err(|e| e.in_entry(&format!("at position {i}:")))).collect::<Result<Vec<_>>>()?;
        let conclude = self.conclude(Op::Consume(cost), opts);
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        // Ids the block cache answers need no round trip; the others go in
        // order (a cached answer changes nothing in Redis). A memory store
        // is as near as the cache.
        let memory = !self.backend.is_remote();
        let cached: Vec<Option<Outcome>> = keys
            .iter()
            .map(|key| (opts.block_cache > 0 && !memory).then(|| with_cache(|c| c.lookup(key, self.fingerprint, cost, Instant::now()))).flatten())
            .collect();
        let mut answers: Vec<Option<Result<Outcome>>> = cached.into_iter().map(|o| o.map(|o| conclude.one(Ok(o), true))).collect();
        let keys: Vec<&[u8]> = keys.iter().zip(&answers).filter(|(_, a)| a.is_none()).map(|(k, _)| k.as_slice()).collect();
        if keys.is_empty() {
            return answers.into_iter().map(|a| a.expect("every id answered")).collect();
        }
        let counter = self.policy.counter_window_ms.filter(|_| cost == 1 && now_us.is_none() && counted.is_none());
        let (per_call, n) = Policy::call_args(Op::Consume(cost), now_us);
        // Counted: on a single server (and a memory store) one call counts
        // every decision and carries what is pending, the counters' base its
        // last key; on a cluster each id's call counts its own in its slot,
        // and what is pending waits for a single consume.
        let cluster = self.backend.is_cluster();
        let taken = counted.filter(|_| !cluster).map(Counters::take_unsent);
        let counting = counted.map(|_| metrics::counting_args(&self.prefix, opts.dry_run, taken.unwrap_or_default()));
        let base = counting.as_ref().map(|_| self.metrics_base(keys[0]));
        let all: Vec<&[u8]> = keys.iter().copied().chain(base.as_deref()).collect();
        let many = EntryCall {
            entry: if counting.is_some() { Entry::TakeManyCounted } else { Entry::TakeMany },
            keys: &all,
            counting: counting.as_ref().map_or(&[][..], |c| &c[..]),
            args: &self.args,
            per_call: &per_call[..n],
        };
        let decided: Result<Vec<Result<Outcome>>> = match &counting {
            // Counted on a cluster: each id's call counts its own decision in its slot.
            Some(counting) if cluster => {
                let bases: Vec<Vec<u8>> = keys.iter().map(|k| self.metrics_base(k)).collect();
                let calls: Vec<[&[u8]; 2]> = keys.iter().zip(&bases).map(|(k, b)| [*k, b.as_slice()]).collect();
                self.backend
                    .decide_each(Entry::TakeCounted, &calls, counting, &self.args, &per_call[..n], opts.reach())
                    .map(|all| all.into_iter().map(|r| r.map(Answer::Ints)).collect())
            }
            _ => self.backend.decide_many(&many, counter, opts.reach()),
        }
        .map(|all| all.into_iter().map(|r| r.and_then(|answer| self.outcome(answer))).collect());
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        // Only Redis's own denials are remembered, not answers of `on_error`.
        let decided: Result<Vec<Result<Outcome>>> =
            decided.map(|each| each.into_iter().zip(&keys).map(|(r, key)| r.inspect(|o| self.remember(key, cost, o, opts))).collect());
        // `on_error = local`: each id Redis could not decide, decided here, in order.
        let decided = match decided {
            Err(e) => Ok(keys.iter().map(|_| Err(e.clone())).collect()),
            Ok(each) => Ok(each),
        }
        .map(|each: Vec<Result<Outcome>>| {
            each.into_iter()
                .zip(&keys)
                .map(|(r, key)| {
                    local::or_local(r, opts.on_error, opts.local, |share| {
                        local::decide(&self.backend, &self.policy, key, Op::Consume(cost), now_us, share)
                    })
                })
                .collect()
        });
        let mut fresh = conclude.batch(decided, keys.len())?.into_iter().map(Ok);
        for a in answers.iter_mut().filter(|a| a.is_none()) {
            *a = fresh.next();
        }
        answers.into_iter().map(|a| a.expect("every id answered")).collect()
    }

    /// `refund()`, `charge()` or `reserve()` of `units` for `id` (`adjust`),
    /// in one call that decides and writes; `now_us` as for `decide_at`.
    /// Concluded as a consume (dry run, `on_error`, metrics); the block
    /// cache is never asked, and its entry of the key is dropped (a refund
    /// may have made room that a remembered denial would hide).
    pub fn adjust_at(&self, id: &[u8], mode: Adjust, units: i64, opts: CallOptions, now_us: Option<i64>) -> Result<Outcome> {
        mode.check(&self.policy, units)?;
        let key = self.key(id)?;
        let conclude = self.conclude(Op::Consume(units), opts);
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        let (per_call, n) = mode.call_args(units, now_us);
        let taken = counted.map(Counters::take_unsent);
        let counting = taken.map(|t| metrics::counting_args(&self.prefix, opts.dry_run, t));
        let base = counting.as_ref().map(|_| self.metrics_base(&key));
        let both = [key.as_slice(), base.as_deref().unwrap_or_default()];
        let call = EntryCall {
            entry: if counting.is_some() { Entry::AdjustCounted } else { Entry::Adjust },
            keys: &both[..1 + usize::from(base.is_some())],
            counting: counting.as_ref().map_or(&[][..], |c| &c[..]),
            args: &self.args,
            per_call: &per_call[..n],
        };
        let decided = self.backend.decide(&call, opts.reach()).and_then(|ints| match *ints.as_slice() {
            [remaining, reset, retry, delay] => {
                Ok(Outcome { source: self.source(), ..self.policy.outcome(Ints::of_record(remaining, reset, retry, delay).as_slice())? })
            }
            ref other => Err(Error::Redis(format!("unexpected script reply {other:?}"))),
        });
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        self.forget(&key);
        let decided = local::or_local(decided, opts.on_error, opts.local, |share| match mode {
            // A lease Redis could not give is this call's cost decided here, nothing held.
            Adjust::Lease(need) => local::decide(&self.backend, &self.policy, &key, Op::Consume(need), now_us, share),
            _ => local::adjust(&self.backend, &[&self.policy], &[&key], mode, units, now_us, share).map(|mut o| o.remove(0)),
        });
        conclude.one(decided, false)
    }

    /// Deletes the key of `id`. Always fails on a Redis failure: a lost reset is a lost write.
    pub fn reset(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let key = self.key(id)?;
        with_cache(|c| c.forget(&key));
        self.backend.delete(&[&key], timeouts)
    }
}

/// The Redis key for `id` under `prefix` (`Limiter::key`; an in-flight limit's too).
pub fn key_of(prefix: &[u8], hash_tag: bool, id: &[u8]) -> Result<Vec<u8>> {
    let tag = hash_tag && !id.is_empty();
    let len = prefix.len() + if id.is_empty() { 0 } else { id.len() + 1 } + if tag { 2 } else { 0 };
    if len > MAX_KEY_BYTES {
        return Err(Error::value("id", format!("makes a Redis key of {len} bytes; keys are limited to {MAX_KEY_BYTES}")));
    }
    let mut key = Vec::with_capacity(len);
    key.extend_from_slice(prefix);
    if !id.is_empty() {
        key.push(b':');
        if tag {
            key.push(b'{');
        }
        key.extend_from_slice(id);
        if tag {
            key.push(b'}');
        }
    }
    Ok(key)
}
