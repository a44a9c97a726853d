//! A limiter bound to its target: a policy, where it decides (`Backend`: a
//! Redis target's pool slot, or a `memory://` store) and its full key prefix.
//! Builds the key, runs the policy there, and concludes the answer
//! (`conclude`: dry run, the `on_error` policy, the counters of
//! `ratelimit.metrics`). No Zval and no ini setting here: the PHP
//! layer passes the prefix, timeouts, `on_error`, dry run and metrics in.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use ratelimit_core::Algorithm;

use crate::backend::{Backend, Reach};
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::Ints;
use crate::error::{Error, Result};
use crate::limiter::algorithms::calendar::{self, Calendar};
use crate::limiter::decide::adjust::Adjust;
use crate::limiter::decide::block_cache::with_cache;
use crate::limiter::decide::conclude::Conclude;
use crate::limiter::decide::local::{self, LocalShare};
use crate::limiter::decide::lockout;
use crate::limiter::params::{self, MAX_KEY_BYTES};
use crate::limiter::{Algorithm as Kind, OnError, Op, Outcome, Policy, Source};
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
    /// `withLockout()`'s block in ms on a denial; 0: none.
    lockout_ms: i64,
    /// The lockout, the algorithm's name and arguments: every call's (`EntryCall::args`).
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
    /// On a cluster, the empty id's block key (found by a search: `lockout`).
    bare_block: OnceLock<Vec<u8>>,
    /// `withCalendar()`: the windows' edges, sent with each call (`calendar`).
    calendar: Option<Arc<Calendar>>,
}

/// The words every call of a policy sends: the lockout, the algorithm's name, its arguments.
fn policy_args(policy: &Policy, lockout_ms: i64) -> PolicyArgs {
    let mut words = vec![lockout_ms.to_string().into_bytes(), policy.algorithm.name().as_bytes().to_vec()];
    words.extend(policy.args.iter().cloned());
    PolicyArgs::new(words)
}

/// Tells a policy's block-cache entries from another's (its lockout and calendar included).
fn fingerprint(policy: &Policy, lockout_ms: i64, calendar: Option<&Calendar>) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (policy.algorithm, &policy.args, lockout_ms, calendar.map(|c| (format!("{:?}", c.unit), &c.zone_name))).hash(&mut hasher);
    hasher.finish()
}

impl Limiter {
    /// `key_prefix` is the user's (validated here); `global_prefix` is
    /// `ratelimit.key_prefix` as it was at construction.
    pub fn new(policy: Policy, backend: Backend, global_prefix: &[u8], key_prefix: &[u8]) -> Result<Self> {
        params::key_prefix(key_prefix)?;
        let prefix = [global_prefix, key_prefix].concat();
        let args = policy_args(&policy, 0);
        // What the module and a `memory://` store will read: refused here, not on every call.
        let words: Vec<&[u8]> = policy.args.iter().map(Vec::as_slice).collect();
        Algorithm::parse(policy.algorithm.name().as_bytes(), &words).map_err(|e| Error::Redis(e.0))?;
        let hash_tag = backend.is_cluster();
        Ok(Limiter {
            fingerprint: fingerprint(&policy, 0, None),
            policy,
            lockout_ms: 0,
            args,
            backend,
            prefix,
            hash_tag,
            global_prefix: global_prefix.to_vec(),
            counters: OnceLock::new(),
            metrics_bases: OnceLock::new(),
            bare_block: OnceLock::new(),
            calendar: None,
        })
    }

    /// This limiter's target and keys with another policy, lockout or calendar.
    fn copy(&self, policy: Policy, lockout_ms: i64, calendar: Option<Arc<Calendar>>) -> Limiter {
        Limiter {
            args: policy_args(&policy, lockout_ms),
            fingerprint: fingerprint(&policy, lockout_ms, calendar.as_deref()),
            policy,
            lockout_ms,
            backend: self.backend.clone(),
            prefix: self.prefix.clone(),
            hash_tag: self.hash_tag,
            global_prefix: self.global_prefix.clone(),
            counters: OnceLock::new(),
            metrics_bases: OnceLock::new(),
            bare_block: OnceLock::new(),
            calendar,
        }
    }

    /// `withLockout()`: the same limiter (target, keys, policy) that blocks
    /// an id for `lockout_ms` whenever one of its consuming calls is denied.
    pub fn with_lockout(&self, lockout_ms: i64) -> Limiter {
        self.copy(self.policy.clone(), lockout_ms, self.calendar.clone())
    }

    /// `withAnchor()` and `withCalendar()` of a fixed window (`windows`):
    /// the same limiter on the same keys, its windows on the calendar.
    pub fn with_windows(&self, windows: Windows) -> Result<Limiter> {
        let limit = params::arg(self.policy.limit);
        let (algorithm, args, calendar) = match (windows, self.policy.algorithm) {
            (Windows::Anchored { anchor_ms }, Kind::FixedWindow | Kind::AnchoredWindow) => {
                (Kind::AnchoredWindow, vec![self.policy.args[0].clone(), limit, params::arg(anchor_ms)], None)
            }
            (Windows::Calendar(c), Kind::FixedWindow | Kind::AnchoredWindow | Kind::CalendarWindow) => {
                (Kind::CalendarWindow, vec![limit], Some(Arc::new(c)))
            }
            (Windows::Anchored { .. }, _) => return Err(Error::value("anchor", "cannot anchor windows that are calendar units")),
            _ => return Err(Error::Redis("calendar windows are a fixed window's only".into())),
        };
        let policy = Policy { algorithm, args, ..self.policy.clone() };
        if algorithm == Kind::AnchoredWindow {
            // What the module and a `memory://` store will read: refused here, not on every call.
            let words: Vec<&[u8]> = policy.args.iter().map(Vec::as_slice).collect();
            Algorithm::parse(algorithm.name().as_bytes(), &words).map_err(|_| Error::value("anchor", "must be an instant from 1970 to 2112"))?;
        }
        Ok(self.copy(policy, self.lockout_ms, calendar))
    }

    /// The words of a call made at `now_us` (a test's clock) or now: the
    /// policy's, and for calendar windows their edges around that instant.
    pub fn call_args(&self, now_us: Option<i64>) -> Result<Cow<'_, PolicyArgs>> {
        let Some(calendar) = &self.calendar else { return Ok(Cow::Borrowed(&self.args)) };
        let now_ms = now_us.map_or_else(calendar::now_ms, |us| us.div_euclid(1000));
        let mut words = vec![self.lockout_ms.to_string().into_bytes(), self.policy.algorithm.name().as_bytes().to_vec()];
        words.extend(self.policy.args.iter().cloned());
        words.extend(calendar.edges(now_ms)?.iter().map(|e| e.to_string().into_bytes()));
        Ok(Cow::Owned(PolicyArgs::new(words)))
    }

    /// Whether each call sends words of its own (calendar windows).
    pub fn has_call_args(&self) -> bool {
        self.calendar.is_some()
    }

    /// The lockout in ms (0: none).
    pub fn lockout_ms(&self) -> i64 {
        self.lockout_ms
    }

    /// The block key beside the limiter key `key` (`lockout`): in its slot on a cluster.
    pub fn block_key(&self, key: &[u8]) -> Vec<u8> {
        match self.hash_tag {
            false => lockout::block_key(key, self.prefix.len()),
            true if key.len() == self.prefix.len() => self.bare_block.get_or_init(|| lockout::block_key_in_slot(key, self.prefix.len())).clone(),
            true => lockout::block_key_in_slot(key, self.prefix.len()),
        }
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
        let block = self.block_key(&key);
        let all = [key.as_slice(), &block, base.as_deref().unwrap_or_default()];
        let keys = &all[..2 + usize::from(base.is_some())];
        let entry = match (&counting, op.is_peek()) {
            (Some(_), _) => Entry::TakeCounted,
            (None, true) => Entry::Peek,
            (None, false) => Entry::Take,
        };
        let args = self.call_args(now_us)?;
        let call = EntryCall { entry, keys, counting: counting.as_ref().map_or(&[][..], |c| &c[..]), args: &args, per_call: &per_call[..n] };
        // Every decision reads the id's block in the same call (a block
        // may come from any process at any time), so a fixed window's cost-1
        // consume is the library's or the module's call too: a pipeline of
        // plain commands cannot skip its INCRBY when the id is blocked, and
        // would count attempts the block denied.
        let decided = self.backend.decide(&call, opts.reach()).and_then(|ints| self.outcome(ints.as_slice()));
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        if let (true, Ok(o)) = (cached, &decided) {
            self.remember(&key, op.cost(), o, opts);
        }
        let decided = local::or_local(decided, opts.on_error, opts.local, |share| {
            local::decide(&self.backend, &self.policy, &args, [&key, &block], op, now_us, share)
        });
        conclude.one(decided, false)
    }

    /// An entry's answer (`Ints`) as an outcome, marked with what decided it.
    fn outcome(&self, ints: &[i64]) -> Result<Outcome> {
        Ok(Outcome { source: self.source(), ..self.policy.outcome(ints)? })
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
        let (per_call, n) = Policy::call_args(Op::Consume(cost), now_us);
        let blocks: Vec<Vec<u8>> = keys.iter().map(|k| self.block_key(k)).collect();
        // Counted: on a single server (and a memory store) one call counts
        // every decision and carries what is pending, the counters' base its
        // last key; on a cluster each id's call counts its own in its slot,
        // and what is pending waits for a single consume.
        let cluster = self.backend.is_cluster();
        let taken = counted.filter(|_| !cluster).map(Counters::take_unsent);
        let counting = counted.map(|_| metrics::counting_args(&self.prefix, opts.dry_run, taken.unwrap_or_default()));
        let base = counting.as_ref().map(|_| self.metrics_base(keys[0]));
        // The keys, then their block keys, then the counters' base.
        let all: Vec<&[u8]> = keys.iter().copied().chain(blocks.iter().map(Vec::as_slice)).chain(base.as_deref()).collect();
        let args = self.call_args(now_us)?;
        let many = EntryCall {
            entry: if counting.is_some() { Entry::TakeManyCounted } else { Entry::TakeMany },
            keys: &all,
            counting: counting.as_ref().map_or(&[][..], |c| &c[..]),
            args: &args,
            per_call: &per_call[..n],
        };
        let decided: Result<Vec<Result<Outcome>>> = match &counting {
            // Counted on a cluster: each id's call counts its own decision in its slot.
            Some(counting) if cluster => {
                let bases: Vec<Vec<u8>> = keys.iter().map(|k| self.metrics_base(k)).collect();
                let calls: Vec<[&[u8]; 3]> = keys.iter().zip(&blocks).zip(&bases).map(|((k, l), b)| [*k, l.as_slice(), b.as_slice()]).collect();
                self.backend.decide_each(Entry::TakeCounted, &calls, counting, &args, &per_call[..n], opts.reach())
            }
            _ => self.backend.decide_many(&many, opts.reach()),
        }
        .map(|all| all.into_iter().map(|r| r.and_then(|ints| self.outcome(ints.as_slice()))).collect());
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
                        local::decide(&self.backend, &self.policy, &args, [key, &self.block_key(key)], Op::Consume(cost), now_us, share)
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
    /// may have made room that a remembered denial would hide). The id's
    /// block key goes with the key: a charge or a booking on a blocked id
    /// is denied (a refund is not), as `lua/entries.lua`'s `adjust` says.
    pub fn adjust_at(&self, id: &[u8], mode: Adjust, units: i64, opts: CallOptions, now_us: Option<i64>) -> Result<Outcome> {
        mode.check(&self.policy, units)?;
        let key = self.key(id)?;
        let conclude = self.conclude(Op::Consume(units), opts);
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        let (per_call, n) = mode.call_args(units, now_us);
        let taken = counted.map(Counters::take_unsent);
        let counting = taken.map(|t| metrics::counting_args(&self.prefix, opts.dry_run, t));
        let base = counting.as_ref().map(|_| self.metrics_base(&key));
        let block = self.block_key(&key);
        let all = [key.as_slice(), &block, base.as_deref().unwrap_or_default()];
        let args = self.call_args(now_us)?;
        let call = EntryCall {
            entry: if counting.is_some() { Entry::AdjustCounted } else { Entry::Adjust },
            keys: &all[..2 + usize::from(base.is_some())],
            counting: counting.as_ref().map_or(&[][..], |c| &c[..]),
            args: &args,
            per_call: &per_call[..n],
        };
        let decided = self.backend.decide(&call, opts.reach()).and_then(|ints| match *ints.as_slice() {
            [remaining, reset, retry, delay] => self.outcome(Ints::of_record(remaining, reset, retry, delay).as_slice()),
            ref other => Err(Error::Redis(format!("unexpected script reply {other:?}"))),
        });
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        self.forget(&key);
        let decided = local::or_local(decided, opts.on_error, opts.local, |share| match mode {
            // A lease Redis could not give is this call's cost decided here, nothing held.
            Adjust::Lease(need) => local::decide(&self.backend, &self.policy, &args, [&key, &block], Op::Consume(need), now_us, share),
            _ => local::adjust(&self.backend, &[&self.policy], &args, &[&key, &block], mode, units, now_us, share).map(|mut o| o.remove(0)),
        });
        conclude.one(decided, false)
    }

    /// Deletes the key of `id` and its block. Always fails on a Redis
    /// failure: a lost reset is a lost write.
    pub fn reset(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let key = self.key(id)?;
        with_cache(|c| c.forget(&key));
        self.backend.delete(&[&key, &self.block_key(&key)], timeouts)
    }

    /// `block()`: denies every call for `id` for `ms` (a longer block
    /// already there is kept), at `now_us` when a test gives it. Always
    /// fails on a Redis failure, as `reset`.
    pub fn block(&self, id: &[u8], ms: i64, opts: CallOptions, now_us: Option<i64>) -> Result<()> {
        let key = self.key(id)?;
        block_keys(&self.backend, &[self.block_key(&key)], ms, opts, now_us)
    }

    /// `unblock()`: ends the block of `id` (and forgets this process's
    /// remembered denials of it). Always fails on a Redis failure, as `reset`.
    pub fn unblock(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let key = self.key(id)?;
        with_cache(|c| c.forget(&key));
        self.backend.delete(&[&self.block_key(&key)], timeouts)
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

/// The `block` entry over `blocks` (one id's block keys, one slot): each
/// blocked for `ms`, unless a longer block is there.
pub fn block_keys(backend: &Backend, blocks: &[Vec<u8>], ms: i64, opts: CallOptions, now_us: Option<i64>) -> Result<()> {
    let per_call = [ms, now_us.unwrap_or(0)];
    let call = EntryCall {
        entry: Entry::Block,
        keys: blocks,
        counting: &[],
        args: &PolicyArgs::default(),
        per_call: &per_call[..1 + usize::from(now_us.is_some())],
    };
    backend.decide(&call, opts.reach()).map(|_| ())
}

/// Where a fixed window's windows start (`Limiter::with_windows`).
pub enum Windows {
    /// `withAnchor()`: at `anchor_ms + k × window` (ms since the Unix epoch).
    Anchored { anchor_ms: i64 },
    /// `withCalendar()`: calendar units in a time zone.
    Calendar(Calendar),
}
