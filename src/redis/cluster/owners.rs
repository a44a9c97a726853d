//! Which master owns each slot, as the cluster said when a connection to it
//! opened (`CLUSTER SLOTS`): what lets a cluster target keep a breaker per
//! master (`pool::breakers`), so that one master that cannot answer does not
//! stop the calls to the others. redis-rs keeps its own slot map but does
//! not show it; this one is read once per connection opened (a round trip
//! then, none per call) and shared by the target's connections (`Owners`).

use std::sync::Arc;

use ::redis::Value;
use parking_lot::RwLock;

use crate::redis::cluster::slot::SLOTS;

/// A master's address, as `CLUSTER SLOTS` names it.
pub type Node = (String, u16);

/// The owner of every slot (an index into `nodes`, `NONE` for a slot no master serves).
pub struct SlotOwners {
    nodes: Vec<Node>,
    owner: Box<[u16]>,
}

const NONE: u16 = u16::MAX;

impl SlotOwners {
    /// From a `CLUSTER SLOTS` reply: an array of `[start, end, [host, port, id, ...], replicas...]`.
    /// `None` when the reply is not that shape (nothing is guessed).
    pub fn parse(reply: &Value) -> Option<SlotOwners> {
        let Value::Array(ranges) = reply else { return None };
        let mut owners = SlotOwners { nodes: Vec::new(), owner: vec![NONE; SLOTS].into_boxed_slice() };
        for range in ranges {
            let Value::Array(fields) = range else { return None };
            let (Some(start), Some(end), Some(Value::Array(master))) = (int(fields.first()), int(fields.get(1)), fields.get(2)) else {
                return None;
            };
            let host = match master.first()? {
                Value::BulkString(b) => String::from_utf8_lossy(b).into_owned(),
                Value::SimpleString(s) => s.clone(),
                _ => return None,
            };
            let port = u16::try_from(int(master.get(1))?).ok()?;
            if start > end || end >= SLOTS as i64 || start < 0 {
                return None;
            }
            let node = (host, port);
            let index = match owners.nodes.iter().position(|n| *n == node) {
                Some(i) => i,
                None => {
                    owners.nodes.push(node);
                    owners.nodes.len() - 1
                }
            };
            owners.owner[start as usize..=end as usize].fill(index as u16);
        }
        Some(owners)
    }

    /// The master that owns `slot`, if one does.
    pub fn owner_of(&self, slot: usize) -> Option<&Node> {
        match self.owner.get(slot) {
            Some(&i) if i != NONE => self.nodes.get(usize::from(i)),
            _ => None,
        }
    }
}

fn int(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

/// The slot owners a target's cluster connections last read, shared by
/// them: written when one opens (or reads the slot map again after a
/// failover), read before each call to find the breaker of the master it goes to.
#[derive(Default)]
pub struct Owners(RwLock<Option<Arc<SlotOwners>>>);

impl Owners {
    pub fn set(&self, owners: SlotOwners) {
        *self.0.write() = Some(Arc::new(owners));
    }

    /// The master `key`'s slot is on, as last read; `None` before a read, or for a slot no master serves.
    pub fn node_of(&self, key: &[u8]) -> Option<Node> {
        self.with_node_of(key, Node::clone)
    }

    /// `f` of the master `key`'s slot is on, borrowed: what a keyed call's
    /// breaker lookup uses, so that it copies no address (one read lock and
    /// a slot's hash per call).
    #[inline]
    pub fn with_node_of<R>(&self, key: &[u8], f: impl FnOnce(&Node) -> R) -> Option<R> {
        let owners = self.0.read();
        owners.as_ref()?.owner_of(crate::redis::cluster::slot::slot(key)).map(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &str) -> Value {
        Value::BulkString(s.as_bytes().to_vec())
    }

    fn range(start: i64, end: i64, host: &str, port: i64) -> Value {
        Value::Array(vec![
            Value::Int(start),
            Value::Int(end),
            Value::Array(vec![bulk(host), Value::Int(port), bulk("id")]),
            Value::Array(vec![bulk(host), Value::Int(port + 100), bulk("replica")]),
        ])
    }

    #[test]
    fn each_slot_has_the_master_its_range_names() {
        let reply = Value::Array(vec![
            range(0, 5460, "127.0.0.1", 7000),
            range(5461, 10922, "127.0.0.1", 7001),
            range(10923, 16000, "127.0.0.1", 7002),
            range(16001, 16383, "127.0.0.1", 7000),
        ]);
        let owners = SlotOwners::parse(&reply).unwrap();
        assert_eq!(owners.owner_of(0), Some(&("127.0.0.1".to_string(), 7000)));
        assert_eq!(owners.owner_of(5461), Some(&("127.0.0.1".to_string(), 7001)));
        assert_eq!(owners.owner_of(16383), Some(&("127.0.0.1".to_string(), 7000)));
        assert_eq!(owners.nodes.len(), 3);
        assert_eq!(owners.owner_of(SLOTS), None);
    }

    #[test]
    fn a_slot_no_range_names_has_no_owner_and_a_strange_reply_is_not_read() {
        let owners = SlotOwners::parse(&Value::Array(vec![range(0, 99, "10.0.0.1", 6379)])).unwrap();
        assert_eq!(owners.owner_of(100), None);
        assert!(SlotOwners::parse(&Value::Array(vec![range(5, 2, "h", 1)])).is_none());
        assert!(SlotOwners::parse(&Value::Array(vec![range(0, 16384, "h", 1)])).is_none());
        assert!(SlotOwners::parse(&bulk("ERR")).is_none());
        let cell = Owners::default();
        assert_eq!(cell.node_of(b"k"), None, "nothing read yet");
        cell.set(owners);
        let keys: Vec<Vec<u8>> = (0..100_000).map(|i| format!("k{i}").into_bytes()).collect();
        let inside = keys.iter().find(|k| crate::redis::cluster::slot::slot(k) < 100).unwrap();
        let outside = keys.iter().find(|k| crate::redis::cluster::slot::slot(k) >= 100).unwrap();
        assert_eq!(cell.node_of(inside), Some(("10.0.0.1".to_string(), 6379)));
        assert_eq!(cell.node_of(outside), None);
    }
}
