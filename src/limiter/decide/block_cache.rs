//! The block cache (`ratelimit.block_cache`): a denial remembered in process
//! memory until its `retryAfter` has passed, so an id that keeps knocking on a
//! full limit costs no round trip. Denied calls consume nothing in Redis, so
//! the answer from memory is the one Redis would give (times counting down)
//! as long as nobody else frees the key: a `reset()` in this process forgets
//! the key's entries; one in another process is seen only when they expire.
//!
//! An entry answers for the same key and policy and any cost at least as
//! large as the denied one (a larger cost cannot fit sooner; its own
//! retryAfter may be later than the one remembered). Memory is bounded: at
//! most `size` entries, expired ones dropped first, then the oldest.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use once_cell::sync::Lazy;
use parking_lot::Mutex;

use crate::limiter::outcome::Outcome;

#[derive(Debug, Clone, Copy)]
struct Entry {
    cost: i64,
    outcome: Outcome,
    stored: Instant,
    until: Instant,
}

/// Key of an entry: the Redis key and a fingerprint of the policy (two
/// limiters with different policies on one key must not answer for each other).
type CacheKey = (Vec<u8>, u64);

#[derive(Debug, Default)]
pub struct BlockCache {
    entries: HashMap<CacheKey, Entry>,
    /// Insertion order, for evicting the oldest; may hold slots already gone.
    order: VecDeque<CacheKey>,
    hits: u64,
}

impl BlockCache {
    /// A remembered denial for `cost`, with its times counted down to `now`.
    pub fn lookup(&mut self, key: &[u8], policy: u64, cost: i64, now: Instant) -> Option<Outcome> {
        let slot = (key.to_vec(), policy);
        let entry = *self.entries.get(&slot)?;
        if now >= entry.until {
            self.entries.remove(&slot);
            return None;
        }
        if cost < entry.cost {
            return None;
        }
        self.hits += 1;
        let elapsed = now.duration_since(entry.stored).as_micros() as i64;
        let o = entry.outcome;
        Some(Outcome { retry_after_us: (o.retry_after_us - elapsed).max(1), reset_after_us: (o.reset_after_us - elapsed).max(0), ..o })
    }

    /// Remembers a denial of `cost` (anything else is ignored), within `size` entries.
    pub fn remember(&mut self, key: &[u8], policy: u64, cost: i64, outcome: &Outcome, now: Instant, size: usize) {
        if outcome.allowed || outcome.retry_after_us <= 0 || size == 0 {
            return;
        }
        let slot = (key.to_vec(), policy);
        if let Some(old) = self.entries.get(&slot) {
            if now < old.until && old.cost < cost {
                return; // the smaller denied cost answers for more calls
            }
        } else {
            self.make_room(now, size);
            self.order.push_back(slot.clone());
        }
        let until = now + Duration::from_micros(outcome.retry_after_us as u64);
        self.entries.insert(slot, Entry { cost, outcome: *outcome, stored: now, until });
    }

    fn make_room(&mut self, now: Instant, size: usize) {
        if self.entries.len() < size {
            return;
        }
        self.entries.retain(|_, e| now < e.until);
        let entries = &self.entries;
        self.order.retain(|slot| entries.contains_key(slot));
        while self.entries.len() >= size {
            let Some(oldest) = self.order.pop_front() else { break };
            self.entries.remove(&oldest);
        }
    }

    /// Forgets every entry of `key` (after a `reset()` of it in this process).
    pub fn forget(&mut self, key: &[u8]) {
        self.entries.retain(|(k, _), _| k != key);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn hits(&self) -> u64 {
        self.hits
    }
}

/// This process's cache, shared by its threads (a thread-safe PHP runs many
/// requests at once in one process): a `reset()` in one thread is seen by
/// every other at once, as the module docs promise for "this process". Held
/// only for a lookup or an update, never across a round trip.
static CACHE: Lazy<Mutex<BlockCache>> = Lazy::new(Default::default);

/// Runs `f` on this process's cache.
pub fn with_cache<T>(f: impl FnOnce(&mut BlockCache) -> T) -> T {
    let _inside = crate::fork::enter();
    f(&mut CACHE.lock())
}

/// (entries, hits) of this process's cache, for `php --ri`.
pub fn stats() -> (usize, u64) {
    with_cache(|c| (c.len(), c.hits()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denied(retry_ms: i64) -> Outcome {
        Outcome {
            allowed: false,
            limit: 5,
            remaining: 0,
            retry_after_us: retry_ms * 1000,
            reset_after_us: 2 * retry_ms * 1000,
            delay_us: 0,
            would_deny: false,
            source: crate::limiter::Source::Redis,
        }
    }

    #[test]
    fn a_denial_answers_until_its_retry_after_counting_down() {
        let mut c = BlockCache::default();
        let t0 = Instant::now();
        c.remember(b"k", 1, 2, &denied(100), t0, 10);
        assert_eq!(c.lookup(b"k", 1, 1, t0), None, "a cheaper request is asked of Redis");
        let o = c.lookup(b"k", 1, 2, t0 + Duration::from_millis(40)).unwrap();
        assert_eq!((o.allowed, o.retry_after_us, o.reset_after_us), (false, 60_000, 160_000));
        assert!(c.lookup(b"k", 1, 3, t0 + Duration::from_millis(99)).is_some(), "a larger cost cannot fit sooner");
        assert_eq!(c.lookup(b"k", 2, 2, t0), None, "another policy on the same key");
        assert_eq!(c.lookup(b"k", 1, 2, t0 + Duration::from_millis(100)), None, "retryAfter has passed");
        assert!(c.is_empty(), "the expired entry is gone");
        assert_eq!(c.hits(), 2);
    }

    #[test]
    fn allowed_answers_are_not_remembered_and_reset_forgets() {
        let mut c = BlockCache::default();
        let t0 = Instant::now();
        let ok = Outcome { allowed: true, ..denied(100) };
        c.remember(b"k", 1, 1, &ok, t0, 10);
        assert!(c.is_empty());
        c.remember(b"k", 1, 1, &denied(100), t0, 10);
        c.remember(b"k", 2, 1, &denied(100), t0, 10);
        c.remember(b"other", 1, 1, &denied(100), t0, 10);
        c.forget(b"k");
        assert_eq!(c.len(), 1);
        c.remember(b"x", 1, 1, &denied(100), t0, 0);
        assert_eq!(c.len(), 1, "size 0 remembers nothing");
    }

    #[test]
    fn the_smallest_denied_cost_is_kept() {
        let mut c = BlockCache::default();
        let t0 = Instant::now();
        c.remember(b"k", 1, 1, &denied(100), t0, 10);
        c.remember(b"k", 1, 3, &denied(500), t0, 10);
        assert!(c.lookup(b"k", 1, 1, t0).is_some());
        assert_eq!(c.lookup(b"k", 1, 3, t0).unwrap().retry_after_us, 100_000);
    }

    #[test]
    fn memory_is_bounded_expired_first_then_oldest() {
        let mut c = BlockCache::default();
        let t0 = Instant::now();
        c.remember(b"short", 1, 1, &denied(1), t0, 3);
        c.remember(b"a", 1, 1, &denied(100), t0, 3);
        c.remember(b"b", 1, 1, &denied(100), t0, 3);
        let later = t0 + Duration::from_millis(5);
        c.remember(b"c", 1, 1, &denied(100), later, 3);
        assert_eq!(c.len(), 3);
        assert!(c.lookup(b"a", 1, 1, later).is_some(), "the expired one went first");
        c.remember(b"d", 1, 1, &denied(100), later, 3);
        assert_eq!(c.len(), 3);
        assert!(c.lookup(b"a", 1, 1, later).is_none(), "then the oldest");
        assert!(c.lookup(b"d", 1, 1, later).is_some());
    }
}
