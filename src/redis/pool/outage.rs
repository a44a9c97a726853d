//! What a target's calls meet while it cannot answer, on the pool's side:
//! the local store of `ratelimit.on_error = local` (`local`), reached by
//! `with_local`, and what an answer from the target does (`answered`: its
//! breakers close, the local store is dropped). The breaker itself is
//! `breaker`'s, which one a call goes through `breakers`'; when it opens, `failure`'s.

use std::sync::atomic::Ordering;

use ratelimit_core::store::Store;

use crate::redis::pool::breakers::Gate;
use crate::redis::pool::local::LocalStore;
use crate::redis::pool::TargetConnections;

impl TargetConnections {
    /// `f` on this target's local store, after `keys` (the call's) are
    /// counted in within `bound` keys.
    pub fn with_local<K: AsRef<[u8]>, T>(&self, keys: &[K], bound: usize, f: impl FnOnce(&mut Store) -> T) -> T {
        let _inside = crate::fork::enter();
        let mut local = self.local.lock();
        let store = match local.as_mut() {
            Some(s) if s.current() => s,
            _ => local.insert(LocalStore::new()),
        };
        store.admit(keys, bound);
        self.local_held.store(true, Ordering::Release);
        f(store.store())
    }

    /// Keys held by the local store (`php --ri`).
    pub(super) fn local_keys(&self) -> usize {
        self.local.lock().as_ref().filter(|s| s.current()).map_or(0, LocalStore::keys)
    }

    /// The target answered a call through `gate`: the breakers it went
    /// through close, and once none is open (a cluster's other masters may
    /// still be out), what this process decided by itself meanwhile is
    /// dropped (Redis decides again).
    #[inline]
    pub(super) fn answered(&self, gate: &Gate) {
        self.breakers.answered(gate);
        if self.local_held.load(Ordering::Relaxed) {
            self.drop_local();
        }
    }

    #[cold]
    fn drop_local(&self) {
        if self.breakers.any_open() {
            return;
        }
        let _inside = crate::fork::enter();
        self.local_held.store(false, Ordering::Release);
        self.local.lock().take();
    }
}
