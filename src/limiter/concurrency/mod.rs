//! An in-flight limit bound to its target (`ConcurrencyLimiter`): at most
//! `max` permits per id at once, each a lease of `ttl` on the server's clock
//! (the state and its arithmetic: `ratelimit_core::concurrency` and
//! lua/concurrency.lua). Acquires, releases, renews and counts permits as
//! entry calls on its `Backend`; a waiter blocks until a release wakes it
//! (`backend::wake`). The permits a request holds are listed in `held`, which
//! frees them at the request's end whatever happened in it: a room of its
//! own beside the rate limiters, since a permit is held and given back, not
//! consumed.

pub mod held;

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::backend::{Backend, Reach};
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::error::Result;
use crate::limiter::decide::conclude::Conclude;
use crate::limiter::decide::instance::{key_of, CallOptions};
use crate::limiter::params::{self, arg};
use crate::limiter::Outcome;
use crate::metrics::{self, Counters, Mode};
use crate::redis::pool::Timeouts;

pub struct Concurrency {
    backend: Backend,
    /// `ratelimit.key_prefix . $keyPrefix`, fixed at construction.
    prefix: Vec<u8>,
    max: i64,
    ttl_us: i64,
    /// On a cluster the id is a hash tag, as a rate limiter's.
    hash_tag: bool,
    counters: OnceLock<Arc<Counters>>,
}

/// A permit granted: its key and token, what was left when it was granted,
/// and whether Redis holds it (`false`: a dry run's would-be denial, or an
/// `on_error = allow` answer, which nothing counts and nothing need free).
#[derive(Debug, Clone)]
pub struct Grant {
    pub key: Vec<u8>,
    pub token: Vec<u8>,
    pub remaining: i64,
    pub would_deny: bool,
    pub held: bool,
}

/// A token no other permit anywhere has: this process's random seed, its
/// pid and a counter.
fn new_token() -> Vec<u8> {
    static SEED: OnceLock<u64> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seed = *SEED.get_or_init(|| RandomState::new().build_hasher().finish());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{seed:016x}.{:x}.{n:x}", std::process::id()).into_bytes()
}

impl Concurrency {
    /// `key_prefix` is the user's (validated here), `global_prefix` `ratelimit.key_prefix`.
    pub fn new(backend: Backend, global_prefix: &[u8], key_prefix: &[u8], max: i64, ttl: f64) -> Result<Self> {
        let max = params::count("max", max)?;
        let ttl_ms = params::seconds_to_ms("ttl", ttl)?;
        params::key_prefix(key_prefix)?;
        let hash_tag = backend.is_cluster();
        Ok(Concurrency { backend, prefix: [global_prefix, key_prefix].concat(), max, ttl_us: ttl_ms * 1000, hash_tag, counters: OnceLock::new() })
    }

    pub fn max(&self) -> i64 {
        self.max
    }

    pub fn ttl(&self) -> Duration {
        Duration::from_micros(self.ttl_us as u64)
    }

    pub fn key(&self, id: &[u8]) -> Result<Vec<u8>> {
        key_of(&self.prefix, self.hash_tag, id)
    }

    fn call(&self, entry: Entry, key: &[u8], words: Vec<Vec<u8>>, reach: Reach) -> Result<Vec<i64>> {
        let args = PolicyArgs::new(words);
        let call = EntryCall { entry, keys: &[key], counting: &[], args: &args, per_call: &[] };
        self.backend.decide(&call, reach).map(|ints| ints.as_slice().to_vec())
    }

    /// One try: the answer of `inflight_acquire` for `token`; `waiting`
    /// counts the caller in or out of the key's waiters
    /// (`ratelimit_core::concurrency::Waiting`: 0 to 3).
    fn try_acquire(&self, key: &[u8], token: &[u8], waiting: u8, reach: Reach) -> Result<Outcome> {
        let reply = self.call(Entry::InflightAcquire, key, vec![arg(self.max), arg(self.ttl_us), token.to_vec(), arg(waiting)], reach)?;
        Outcome::from_reply(self.max, &reply)
    }

    /// A permit for `id`, waiting up to `max_wait` seconds for a slot, or
    /// `None`. Dry run grants what it would deny (not held); `on_error`
    /// answers a failure (allow: a permit not held; deny: `None`).
    pub fn acquire(&self, id: &[u8], max_wait: f64, opts: CallOptions) -> Result<Option<Grant>> {
        if !max_wait.is_finite() || max_wait < 0.0 {
            return Err(crate::error::Error::value("maxWait", "must be a finite number of seconds, 0 or more"));
        }
        let key = self.key(id)?;
        let token = new_token();
        let reach = opts.reach();
        let until = Instant::now() + Duration::from_secs_f64(max_wait.min(params::MAX_SECONDS));
        // Not waiting (0); a first try that will wait (1); a waiter's try (2), its last (3).
        let mut waiting = if max_wait > 0.0 { 1 } else { 0 };
        let decided = loop {
            let mark = self.backend.wake_mark();
            match self.try_acquire(&key, &token, waiting, reach) {
                Ok(o) if !o.allowed => {
                    let left = until.saturating_duration_since(Instant::now());
                    if waiting == 0 || waiting == 3 {
                        break Ok(o);
                    }
                    if left.is_zero() {
                        // Counted among the waiters: the last try says it no longer waits.
                        waiting = 3;
                        continue;
                    }
                    waiting = 2;
                    // Until a release wakes us, and no longer than the earliest lease.
                    let lease = Duration::from_micros(o.retry_after_us.max(1000) as u64);
                    if let Err(e) = self.backend.wait(&key, left.min(lease), mark, opts.timeouts) {
                        break Err(e);
                    }
                }
                other => break other,
            }
        };
        let held = matches!(decided, Ok(o) if o.allowed);
        let conclude = Conclude {
            dry_run: opts.dry_run,
            on_error: opts.on_error,
            limit: self.max,
            counters: (opts.metrics != Mode::Off).then(|| &**self.counters.get_or_init(|| metrics::counters(&self.prefix))),
            // Counted in this process only: no in-flight call carries counters.
            metrics: Mode::Local,
        };
        let o = conclude.one(decided, false)?;
        Ok(o.allowed.then_some(Grant { key, token, remaining: o.remaining, would_deny: o.would_deny, held }))
    }

    /// Frees `token`'s slot on `key` and wakes a waiter if any waits: whether it was held.
    pub fn release(&self, key: &[u8], token: &[u8], opts: CallOptions) -> Result<bool> {
        let reply = self.call(Entry::InflightRelease, key, vec![token.to_vec()], opts.reach())?;
        let freed = reply.get(1) == Some(&1);
        if freed && reply.get(2).is_some_and(|&waiters| waiters > 0) {
            self.backend.wake(key, self.max, self.ttl(), opts.timeouts)?;
        }
        Ok(freed)
    }

    /// The lease of `token` again `ttl` from now: whether it was still live.
    pub fn renew(&self, key: &[u8], token: &[u8], opts: CallOptions) -> Result<bool> {
        let reply = self.call(Entry::InflightRenew, key, vec![arg(self.ttl_us), token.to_vec()], opts.reach())?;
        Ok(reply.first() == Some(&1))
    }

    /// Permits held now for `id`.
    pub fn in_flight(&self, id: &[u8], opts: CallOptions) -> Result<i64> {
        let reply = self.call(Entry::InflightCount, &self.key(id)?, vec![], opts.reach())?;
        Ok(reply.first().copied().unwrap_or(0).max(0))
    }

    /// Deletes `id`'s permits and its waiters' list (a failure is an error,
    /// whatever `on_error` says).
    pub fn reset(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let key = self.key(id)?;
        let wake = crate::backend::wake::wake_key(&key);
        // Apart: on a cluster the empty id's two keys are in different slots.
        self.backend.delete(&[&key], timeouts)?;
        self.backend.delete(&[&wake], timeouts)
    }
}
