//! Lock-out: where an id's block lives and what a lockout may last.
//!
//! A block of an id (`block()`, or a `withLockout()` limiter's denial) is a
//! key of its own beside the limiter's key: the limiter's full key prefix,
//! then `!lockout`, then what follows the prefix in the limiter's key
//! (`prefix!lockout:id`, `prefix!lockout` for the empty id; on a cluster
//! `prefix!lockout:{id}`, so it shares the limiter key's hash tag and slot).
//! The Lua library and the core read it before every decision
//! (lua/lockout.lua, core/src/lockout.rs). On a cluster, where that name
//! would fall in another slot than the limiter's key (the empty id, whose
//! key has no hash tag, or a key prefix with an unclosed `{`), the block key
//! is `prefix!lockout:{N}` instead, N the smallest number that puts it in
//! the limiter key's slot.

use crate::error::Result;
use crate::limiter::params;
use crate::redis::cluster::slot::slot;

/// What goes between the prefix and the rest of the key.
pub const MARK: &[u8] = b"!lockout";

/// The block key of the limiter key `key`, whose first `prefix_len` bytes
/// are the limiter's full key prefix; `cluster`: in `key`'s slot.
pub fn block_key(key: &[u8], prefix_len: usize) -> Vec<u8> {
    let (prefix, rest) = key.split_at(prefix_len);
    [prefix, MARK, rest].concat()
}

/// `block_key`, in `key`'s slot on a cluster (see above).
pub fn block_key_in_slot(key: &[u8], prefix_len: usize) -> Vec<u8> {
    let plain = block_key(key, prefix_len);
    let want = slot(key);
    if slot(&plain) == want {
        return plain;
    }
    let base = [&key[..prefix_len], MARK].concat();
    (0u64..)
        .map(|n| [&base[..], b":{", n.to_string().as_bytes(), b"}"].concat())
        .find(|candidate| slot(candidate) == want)
        .expect("every slot is met")
}

/// `$seconds` of block() and withLockout(): finite, above 0, at most 10
/// years, in whole ms (at least 1).
pub fn seconds_to_ms(seconds: f64) -> Result<i64> {
    params::seconds_to_ms("seconds", seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_key_sits_beside_the_limiters() {
        assert_eq!(block_key(b"app:login:alice", 9), b"app:login!lockout:alice");
        assert_eq!(block_key(b"app:login", 9), b"app:login!lockout");
        // Another limiter's ids cannot reach it: no id of `app:login` makes it.
        assert!(!block_key(b"app:login:x", 9).starts_with(b"app:login:"));
    }

    #[test]
    fn on_a_cluster_it_shares_the_slot() {
        for (key, len) in [(&b"app:login:{alice}"[..], 9), (b"app:login", 9), (b"a{b:{id}", 3), (b"x}y", 3)] {
            let block = block_key_in_slot(key, len);
            assert_eq!(slot(&block), slot(key), "{}", String::from_utf8_lossy(&block));
            assert!(block.starts_with(&[&key[..len], MARK].concat()));
        }
        assert_eq!(block_key_in_slot(b"app:login:{alice}", 9), b"app:login!lockout:{alice}");
    }

    #[test]
    fn seconds_are_checked() {
        assert_eq!(seconds_to_ms(0.3).unwrap(), 300);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 315_360_001.0, 0.0001] {
            assert!(seconds_to_ms(bad).unwrap_err().to_string().starts_with("$seconds must be"), "{bad}");
        }
    }
}
