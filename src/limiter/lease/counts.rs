//! What leases did in this process, per limiter (its key prefix): units
//! `leased` (taken into leases), `returned` (given back to Redis: a refund,
//! or the key deleted by `reset()`), `expired` (void without going back: a
//! fixed window's lease whose window ended, a give-back that failed), and
//! `held` now (units taken and not yet spent or gone back, every thread of
//! the process). Counted always: `RateLimitMetrics::leases()` and
//! `php --ri ratelimit` read them whatever `ratelimit.metrics` says, since
//! the units held are what bounds the false denials of the limit.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use once_cell::sync::Lazy;
use parking_lot::RwLock;

/// The names of a limiter's lease counts, in `Counts::snapshot` order.
pub const NAMES: [&str; 4] = ["leased", "returned", "expired", "held"];

#[derive(Default)]
pub struct Counts {
    leased: AtomicI64,
    returned: AtomicI64,
    expired: AtomicI64,
    held: AtomicI64,
}

impl Counts {
    /// `units` taken into a lease.
    pub fn leased(&self, units: i64) {
        self.leased.fetch_add(units, Ordering::Relaxed);
        self.held.fetch_add(units, Ordering::Relaxed);
    }

    /// `units` of a lease spent by calls it answered.
    pub fn spent(&self, units: i64) {
        self.held.fetch_sub(units, Ordering::Relaxed);
    }

    /// `units` given back to Redis.
    pub fn returned(&self, units: i64) {
        self.returned.fetch_add(units, Ordering::Relaxed);
        self.held.fetch_sub(units, Ordering::Relaxed);
    }

    /// `units` void without going back.
    pub fn expired(&self, units: i64) {
        self.expired.fetch_add(units, Ordering::Relaxed);
        self.held.fetch_sub(units, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> [i64; 4] {
        [&self.leased, &self.returned, &self.expired, &self.held].map(|c| c.load(Ordering::Relaxed))
    }
}

/// Limiter names a process keeps lease counts for (as `metrics::MAX_NAMES`).
const MAX_NAMES: usize = 10_000;

static REGISTRY: Lazy<RwLock<HashMap<Vec<u8>, Arc<Counts>>>> = Lazy::new(Default::default);

/// The lease counts of the limiter `name`, made on first use.
pub fn of(name: &[u8]) -> Arc<Counts> {
    let _inside = crate::fork::enter();
    if let Some(c) = REGISTRY.read().get(name) {
        return c.clone();
    }
    let mut all = REGISTRY.write();
    let name = if all.len() >= MAX_NAMES && !all.contains_key(name) { crate::metrics::OVERFLOW } else { name };
    all.entry(name.to_vec()).or_default().clone()
}

/// Every limiter's lease counts, in `NAMES` order.
pub fn all() -> BTreeMap<Vec<u8>, [i64; 4]> {
    let _inside = crate::fork::enter();
    REGISTRY.read().iter().map(|(name, c)| (name.clone(), c.snapshot())).collect()
}

/// Every limiter's counts added up.
pub fn totals() -> [i64; 4] {
    all().values().fold([0; 4], |mut sum, c| {
        sum.iter_mut().zip(c).for_each(|(s, n)| *s += n);
        sum
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_held_are_leased_less_spent_returned_and_expired() {
        let c = of(b"lease-counts-test");
        c.leased(50);
        c.spent(20);
        c.returned(25);
        c.leased(10);
        c.expired(10);
        assert_eq!(c.snapshot(), [60, 25, 10, 5]);
        assert_eq!(all().get(&b"lease-counts-test"[..]), Some(&[60, 25, 10, 5]));
    }
}
