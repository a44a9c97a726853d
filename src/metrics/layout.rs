//! Where `ratelimit.metrics = redis` keeps its counters: one hash per minute
//! under a base key (`ratelimit_core::metrics`), the base being
//! `ratelimit.key_prefix . "ratelimit-metrics"` on a single server.
//!
//! On a Redis Cluster a decision's script or module command may touch only
//! keys of its own key's slot, so each slot has a base of its own:
//! `ratelimit.key_prefix . "ratelimit-metrics:{N}"`, N the smallest number
//! whose hash tag lands in that slot (a table made once per process), and
//! `fleet()` adds up the bases of all 16,384 slots. A key prefix that itself
//! holds a hash tag puts every limiter key in that tag's slot; its base is
//! then the bare one, in that slot too.

use std::collections::HashMap;
use std::sync::Arc;

use once_cell::sync::Lazy;
use parking_lot::Mutex;

/// The base key's name after `ratelimit.key_prefix`.
pub const BASE: &[u8] = b"ratelimit-metrics";

use crate::redis::cluster::slot::{hashed, slot, SLOTS};

/// The base of a single server (and of a key prefix holding a hash tag).
pub fn single_base(key_prefix: &[u8]) -> Vec<u8> {
    [key_prefix, BASE].concat()
}

/// The bases of one key prefix on a cluster.
pub enum Bases {
    /// The key prefix holds a hash tag: every key in one slot, one base.
    One(Vec<u8>),
    /// Per slot, the base in it.
    PerSlot(Vec<Vec<u8>>),
}

/// Per key prefix, made once per process (a few ms: about 160,000 hashes).
static TABLES: Lazy<Mutex<HashMap<Vec<u8>, Arc<Bases>>>> = Lazy::new(Default::default);

/// The bases of `key_prefix` on a cluster (a limiter keeps them: one lock per limiter, not per call).
pub fn bases(key_prefix: &[u8]) -> Arc<Bases> {
    let _inside = crate::fork::enter();
    let mut tables = TABLES.lock();
    if let Some(b) = tables.get(key_prefix) {
        return b.clone();
    }
    let single = single_base(key_prefix);
    let made = if hashed(&single).len() != single.len() {
        Bases::One(single)
    } else {
        // The smallest N per slot. Without a tag in the prefix the slot is
        // N's own; with an unclosed `{` or an empty `{}` in it, N still moves
        // the hashed text, so every slot is met (after about 16,384 × ln 16,384 tries).
        let mut per_slot: Vec<Vec<u8>> = vec![Vec::new(); SLOTS];
        let mut found = 0;
        let mut n: u64 = 0;
        while found < SLOTS && n < 50_000_000 {
            let candidate = [&single[..], b":{", n.to_string().as_bytes(), b"}"].concat();
            let s = slot(&candidate);
            if per_slot[s].is_empty() {
                per_slot[s] = candidate;
                found += 1;
            }
            n += 1;
        }
        Bases::PerSlot(per_slot)
    };
    let made = Arc::new(made);
    tables.insert(key_prefix.to_vec(), made.clone());
    made
}

impl Bases {
    /// The base for a decision on `key`: in `key`'s slot.
    pub fn for_key(&self, key: &[u8]) -> Vec<u8> {
        match self {
            Bases::One(base) => base.clone(),
            Bases::PerSlot(per_slot) => per_slot[slot(key)].clone(),
        }
    }
}

/// The base for a decision on `key` under `ratelimit.key_prefix` `key_prefix`
/// on a cluster: in `key`'s slot.
pub fn cluster_base(key_prefix: &[u8], key: &[u8]) -> Vec<u8> {
    bases(key_prefix).for_key(key)
}

/// Every base `fleet()` reads on a cluster.
pub fn cluster_bases(key_prefix: &[u8]) -> Vec<Vec<u8>> {
    match &*bases(key_prefix) {
        Bases::One(base) => vec![base.clone()],
        Bases::PerSlot(per_slot) => per_slot.iter().filter(|b| !b.is_empty()).cloned().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_has_a_base_in_it() {
        for prefix in [&b""[..], b"app:", b"odd{", b"empty{}:"] {
            let all = cluster_bases(prefix);
            assert_eq!(all.len(), SLOTS, "{prefix:?}");
            for key in [&b"login:{alice}"[..], b"api:{42}", b"x"] {
                let key = [prefix, key].concat();
                let base = cluster_base(prefix, &key);
                assert_eq!(slot(&base), slot(&key), "{prefix:?} {key:?}");
                assert!(base.starts_with(prefix));
            }
        }
    }

    #[test]
    fn a_prefix_with_a_hash_tag_has_one_base() {
        assert_eq!(cluster_bases(b"{app}:"), vec![b"{app}:ratelimit-metrics".to_vec()]);
        assert_eq!(slot(&cluster_base(b"{app}:", b"{app}:login:{bob}")), slot(b"app"));
    }
}
