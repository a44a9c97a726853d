//! What this process decided by itself for a target that could not answer
//! (`ratelimit.on_error = local`): a store of the algorithms' state like a
//! `memory://` one (`ratelimit_core::store`), one per target, so that the
//! same key on two servers stays two keys. Bounded like the block cache: at
//! most as many keys as the caller allows (`ratelimit.block_cache_size`),
//! the oldest dropped first. Dropped whole when the target answers again
//! (`outage`: `TargetConnections::answered`), and in a forked child (each
//! process answers for its own share).

use ratelimit_core::store::Store;
use std::collections::{HashSet, VecDeque};

pub struct LocalStore {
    generation: u32,
    store: Store,
    /// Keys in the order they were first decided here, for dropping the oldest.
    order: VecDeque<Vec<u8>>,
    known: HashSet<Vec<u8>>,
}

impl Default for LocalStore {
    fn default() -> Self {
        LocalStore::new()
    }
}

impl LocalStore {
    pub fn new() -> Self {
        LocalStore { generation: crate::fork::generation(), store: Store::default(), order: VecDeque::new(), known: HashSet::new() }
    }

    /// Counts `keys` in, dropping the oldest keys beyond `bound`.
    pub fn admit<K: AsRef<[u8]>>(&mut self, keys: &[K], bound: usize) {
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

    /// Whether it was made in this process (not inherited across a fork).
    pub fn current(&self) -> bool {
        self.generation == crate::fork::generation()
    }

    /// Keys it holds.
    pub fn keys(&self) -> usize {
        self.known.len()
    }

    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }
}
