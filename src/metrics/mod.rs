//! Decision metrics (`ratelimit.metrics`): per limiter (its key prefix, or a
//! compound's members' prefixes joined by `+`), how many consumes were
//! allowed, denied, would have been denied (dry run), failed (errors), were
//! answered by `on_error`, and were answered from the block cache.
//!
//! - `local`: counted in this process (`Counters`, atomics: a thread-safe PHP
//!   counts from every thread into the same ones);
//! - `redis`: also counted in Redis (or the `memory://` store) inside the
//!   decision's own call (lua/metrics.lua, `ratelimit_core::metrics`), per
//!   limiter per minute (`layout` says where), read back by `fleet`.
//!   What a process counts without a round trip (block-cache answers,
//!   errors) is sent with its next counted call of the same limiter.
//!
//! `prometheus` renders either as Prometheus text. Peeks and resets are not
//! decisions and are not counted.

pub mod fleet;
pub mod layout;
pub mod prometheus;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use once_cell::sync::Lazy;
use parking_lot::RwLock;
pub use ratelimit_core::metrics::{OUTCOMES, PENDING};

/// `ratelimit.metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Off,
    Local,
    Redis,
}

impl Mode {
    /// As php.ini writes it: `off` (also "" and "0", what a bare `off` becomes), `local`, `redis`.
    pub fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "off" | "" | "0" => Some(Mode::Off),
            "local" => Some(Mode::Local),
            "redis" => Some(Mode::Redis),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::Local => "local",
            Mode::Redis => "redis",
        }
    }
}

/// Indexes into `OUTCOMES`.
pub const ALLOWED: usize = 0;
pub const DENIED: usize = 1;
pub const WOULD_DENY: usize = 2;
pub const ERRORS: usize = 3;
pub const ON_ERROR: usize = 4;
pub const BLOCK_CACHE: usize = 5;

/// What one decision was, for the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Allowed,
    /// `cached`: answered from the block cache.
    Denied {
        cached: bool,
    },
    WouldDeny {
        cached: bool,
    },
    /// Redis failed; `answered`: `on_error` answered instead of throwing.
    Failed {
        answered: bool,
    },
}

impl Event {
    /// The outcomes it adds one to.
    fn outcomes(self) -> &'static [usize] {
        match self {
            Event::Allowed => &[ALLOWED],
            Event::Denied { cached: false } => &[DENIED],
            Event::Denied { cached: true } => &[DENIED, BLOCK_CACHE],
            Event::WouldDeny { cached: false } => &[WOULD_DENY],
            Event::WouldDeny { cached: true } => &[WOULD_DENY, BLOCK_CACHE],
            Event::Failed { answered: false } => &[ERRORS],
            Event::Failed { answered: true } => &[ERRORS, ON_ERROR],
        }
    }
}

/// One limiter's counters in this process.
pub struct Counters {
    /// The fork generation they count for: a child starts from zero.
    generation: AtomicU32,
    counts: [AtomicU64; 6],
    /// What `ratelimit.metrics = redis` has counted here and not yet sent
    /// (PENDING order): it goes with this limiter's next counted call.
    unsent: [AtomicU64; 5],
    /// Answers by what gave them (`limiter::Source` order: redis, memory,
    /// cache, local, on_error, lease), in this process only.
    sources: [AtomicU64; SOURCES.len()],
}

/// What answers are counted by (`RateLimitMetrics::local()`'s `sources`), in `limiter::Source` order.
pub const SOURCES: [&str; 6] = ["redis", "memory", "cache", "local", "on_error", "lease"];

impl Counters {
    fn new() -> Self {
        Counters {
            generation: AtomicU32::new(crate::fork::generation()),
            counts: Default::default(),
            unsent: Default::default(),
            sources: Default::default(),
        }
    }

    /// After a `fork()`, the child's counters start again from zero: each
    /// process counts its own decisions, and sends only those.
    fn current(&self) -> &Self {
        let now = crate::fork::generation();
        if self.generation.load(Ordering::Relaxed) != now && self.generation.swap(now, Ordering::Relaxed) != now {
            self.counts.iter().chain(&self.unsent).chain(&self.sources).for_each(|c| c.store(0, Ordering::Relaxed));
        }
        self
    }

    /// Counts one decision. `unsent`: it is not counted in Redis yet, and
    /// `ratelimit.metrics = redis` must send it with a later call.
    pub fn record(&self, event: Event, unsent: bool) {
        let me = self.current();
        for &o in event.outcomes() {
            me.counts[o].fetch_add(1, Ordering::Relaxed);
            if unsent && o != ALLOWED {
                me.unsent[o - 1].fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Counts an answer given by the source at `index` (`SOURCES`).
    pub fn record_source(&self, index: usize) {
        if let Some(slot) = self.current().sources.get(index) {
            slot.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Answers by source, in `SOURCES` order.
    pub fn sources(&self) -> [u64; SOURCES.len()] {
        let me = self.current();
        std::array::from_fn(|i| me.sources[i].load(Ordering::Relaxed))
    }

    /// The counts not yet sent, taken (zeroed here) for a counted call.
    pub fn take_unsent(&self) -> [u64; 5] {
        let me = self.current();
        std::array::from_fn(|i| me.unsent[i].swap(0, Ordering::Relaxed))
    }

    /// Gives back counts taken for a call that failed: the next one sends them.
    /// (A call whose reply timed out may have counted them already: at worst
    /// they are counted twice, never lost.)
    pub fn give_back(&self, taken: [u64; 5]) {
        let me = self.current();
        for (slot, n) in me.unsent.iter().zip(taken) {
            slot.fetch_add(n, Ordering::Relaxed);
        }
    }

    pub fn snapshot(&self) -> [u64; 6] {
        let me = self.current();
        std::array::from_fn(|i| me.counts[i].load(Ordering::Relaxed))
    }
}

/// The counting arguments of a counted call (lua/metrics.lua): the name,
/// `1`/`0` for dry run, and the pending counts (`""` when all are 0).
pub fn counting_args(name: &[u8], dry_run: bool, pending: [u64; 5]) -> [Vec<u8>; 3] {
    let pending =
        if pending.iter().all(|&n| n == 0) { Vec::new() } else { pending.iter().map(u64::to_string).collect::<Vec<_>>().join(" ").into_bytes() };
    [name.to_vec(), if dry_run { b"1".to_vec() } else { b"0".to_vec() }, pending]
}

/// Limiter names a process keeps counters for; the decisions of any more
/// are counted under `OVERFLOW` (a key prefix made per user would otherwise
/// grow the table without bound).
pub const MAX_NAMES: usize = 10_000;
pub const OVERFLOW: &[u8] = b"(other)";

static REGISTRY: Lazy<RwLock<HashMap<Vec<u8>, Arc<Counters>>>> = Lazy::new(Default::default);

/// The counters of the limiter `name`, made on first use.
pub fn counters(name: &[u8]) -> Arc<Counters> {
    // The table's lock is taken inside the fork gate (`crate::fork`).
    let _inside = crate::fork::enter();
    if let Some(c) = REGISTRY.read().get(name) {
        return c.clone();
    }
    let mut all = REGISTRY.write();
    let name = if all.len() >= MAX_NAMES && !all.contains_key(name) { OVERFLOW } else { name };
    all.entry(name.to_vec()).or_insert_with(|| Arc::new(Counters::new())).clone()
}

/// Counts by limiter name, each in `OUTCOMES` order.
pub type Table = std::collections::BTreeMap<Vec<u8>, [u64; 6]>;

/// This process's counters (limiters with no decision left out).
pub fn local() -> Table {
    let _inside = crate::fork::enter();
    REGISTRY.read().iter().map(|(name, c)| (name.clone(), c.snapshot())).filter(|(_, counts)| counts.iter().any(|&n| n > 0)).collect()
}

/// This process's answers by source, by limiter name, each in `SOURCES` order
/// (limiters with no answer left out).
pub fn sources() -> std::collections::BTreeMap<Vec<u8>, [u64; SOURCES.len()]> {
    let _inside = crate::fork::enter();
    REGISTRY.read().iter().map(|(name, c)| (name.clone(), c.sources())).filter(|(_, counts)| counts.iter().any(|&n| n > 0)).collect()
}

/// Every limiter's counts added up.
pub fn totals(table: &Table) -> [u64; 6] {
    table.values().fold([0; 6], |mut sum, counts| {
        sum.iter_mut().zip(counts).for_each(|(s, c)| *s += c);
        sum
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_count_locally_and_what_redis_lacks_is_kept_for_later() {
        let c = counters(b"metrics-test");
        c.record(Event::Allowed, false);
        c.record(Event::Denied { cached: true }, true);
        c.record(Event::WouldDeny { cached: false }, false);
        c.record(Event::Failed { answered: true }, true);
        assert_eq!(c.snapshot(), [1, 1, 1, 1, 1, 1]);
        assert_eq!(c.take_unsent(), [1, 0, 1, 1, 1], "denied from the cache, the error and its on_error answer");
        assert_eq!(c.take_unsent(), [0; 5], "taken once");
        c.give_back([0, 0, 2, 0, 0]);
        assert_eq!(c.take_unsent(), [0, 0, 2, 0, 0]);
        assert_eq!(local().get(&b"metrics-test"[..]), Some(&[1, 1, 1, 1, 1, 1]));
    }

    #[test]
    fn counting_arguments_leave_out_nothing_pending() {
        assert_eq!(counting_args(b"api", true, [0; 5]), [b"api".to_vec(), b"1".to_vec(), Vec::new()]);
        assert_eq!(counting_args(b"api", false, [1, 0, 0, 0, 12])[2], b"1 0 0 0 12".to_vec());
    }

    #[test]
    fn modes_parse_as_ini_files_write_them() {
        assert_eq!(Mode::parse("Redis"), Some(Mode::Redis));
        assert_eq!(Mode::parse(""), Some(Mode::Off));
        assert_eq!(Mode::parse("yes"), None);
    }
}
