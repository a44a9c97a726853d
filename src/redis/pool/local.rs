//! What this process decided by itself for a target that could not answer
//! (`ratelimit.on_error = local`): a store of the algorithms' state like a
//! `memory://` one (`ratelimit_core::store`), one per target, so that the
//! same key on two servers stays two keys. Bounded like the block cache: at
//! most as many keys as the caller allows (`ratelimit.block_cache_size`),
//! the oldest dropped first. Dropped whole when the target answers again
//! (`TargetConnections::answered`), and in a forked child (each process
//! answers for its own share).

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::Ordering;

use ratelimit_core::store::Store;

use crate::redis::pool::TargetConnections;

pub struct LocalStore {
    generation: u32,
    store: Store,
    /// Keys in the order they were first decided here, for dropping the oldest.
    order: VecDeque<Vec<u8>>,
    known: HashSet<Vec<u8>>,
}

impl LocalStore {
    fn new() -> Self {
        LocalStore { generation: crate::fork::generation(), store: Store::default(), order: VecDeque::new(), known: HashSet::new() }
    }

    /// Counts `keys` in, dropping the oldest keys beyond `bound`.
    fn admit<K: AsRef<[u8]>>(&mut self, keys: &[K], bound: usize) {
        for key in keys {
            let key = key.as_ref();
            if !self.known.contains(key) {
                self.known.insert(key.to_vec());
                self.order.push_back(key.to_vec());
            }
        }
        while self.known.len() > bound.max(keys.len()) {
            let Some(oldest) = self.order.pop_front() else { break };
            self.known.remove(&oldest);
            self.store.delete(&oldest);
        }
    }
}

impl TargetConnections {
    /// `f` on this target's local store, after `keys` (the call's) are
    /// counted in within `bound` keys.
    pub fn with_local<K: AsRef<[u8]>, T>(&self, keys: &[K], bound: usize, f: impl FnOnce(&mut Store) -> T) -> T {
        let _inside = crate::fork::enter();
        let mut local = self.local.lock();
        let generation = crate::fork::generation();
        let store = match local.as_mut() {
            Some(s) if s.generation == generation => s,
            _ => local.insert(LocalStore::new()),
        };
        store.admit(keys, bound);
        self.local_held.store(true, Ordering::Release);
        f(&mut store.store)
    }

    /// Keys held by the local store (`php --ri`).
    pub(super) fn local_keys(&self) -> usize {
        self.local.lock().as_ref().filter(|s| s.generation == crate::fork::generation()).map_or(0, |s| s.known.len())
    }

    /// The target answered a call: its breaker closes, and what this process
    /// decided by itself meanwhile is dropped (Redis decides again).
    #[inline]
    pub(super) fn answered(&self) {
        self.breaker.answered();
        if self.local_held.load(Ordering::Relaxed) {
            self.drop_local();
        }
    }

    #[cold]
    fn drop_local(&self) {
        let _inside = crate::fork::enter();
        self.local_held.store(false, Ordering::Release);
        self.local.lock().take();
    }
}
