//! Redis Cluster's slots: which slot a key hashes to (`slot`), and where a
//! slot stands in the cluster's own view (`whereabouts`), so that a call
//! that still fails while a slot is moving can say which nodes it is
//! between.

/// How many slots a Redis Cluster has.
pub const SLOTS: usize = 16_384;

/// CRC16/XMODEM, Redis Cluster's key hash.
fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

/// The part of `key` Redis Cluster hashes: the text between the first `{`
/// and the first `}` after it when that is not empty, else the whole key.
pub fn hashed(key: &[u8]) -> &[u8] {
    let Some(open) = key.iter().position(|&b| b == b'{') else { return key };
    match key[open + 1..].iter().position(|&b| b == b'}') {
        Some(0) | None => key,
        Some(len) => &key[open + 1..open + 1 + len],
    }
}

/// The cluster slot of `key`.
pub fn slot(key: &[u8]) -> usize {
    usize::from(crc16(hashed(key))) % SLOTS
}

/// Where `slot` is, from a node's `CLUSTER NODES` reply: "slot 6093 is on
/// 127.0.0.1:7000 (moving to 127.0.0.1:7001)". `None` when no master there
/// claims it (the reply names its owner's slots as `N` or `A-B`, and a slot
/// being moved as `[N->-<node id>]` on the node it leaves and `[N-<-<node
/// id>]` on the node it is coming to; only the node asked shows the latter).
pub fn whereabouts(nodes: &str, slot: usize) -> Option<String> {
    struct Node<'a> {
        id: &'a str,
        addr: &'a str,
        fields: Vec<&'a str>,
    }
    let nodes: Vec<Node> = nodes
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            // id addr flags master ping pong epoch link-state slots...
            let addr = f.get(1)?.split('@').next()?;
            Some(Node { id: f.first()?, addr, fields: f.get(8..).map(<[&str]>::to_vec).unwrap_or_default() })
        })
        .collect();
    let addr_of = |id: &str| nodes.iter().find(|n| n.id == id).map_or_else(|| format!("node {id}"), |n| n.addr.to_string());
    let owns = |field: &str| match field.split_once('-') {
        _ if field.starts_with('[') => false,
        Some((a, b)) => a.parse::<usize>().ok().zip(b.parse::<usize>().ok()).is_some_and(|(a, b)| (a..=b).contains(&slot)),
        None => field.parse::<usize>().ok() == Some(slot),
    };
    let owner = nodes.iter().find(|n| n.fields.iter().any(|f| owns(f)))?;
    let mut text = format!("slot {slot} is on {}", owner.addr);
    if let Some(to) = owner.fields.iter().find_map(|f| moving(f, "->-", slot)) {
        text += &format!(" (moving to {})", addr_of(to));
    } else if let Some(node) = nodes.iter().find(|n| n.fields.iter().any(|f| moving(f, "-<-", slot).is_some())) {
        text += &format!(" (being imported by {})", node.addr);
    }
    Some(text)
}

/// The node id of a `[N->-id]` (`arrow` "->-") or `[N-<-id]` ("-<-") field
/// of `CLUSTER NODES` when N is `slot`.
fn moving<'a>(field: &'a str, arrow: &str, slot: usize) -> Option<&'a str> {
    let (n, id) = field.strip_prefix('[')?.strip_suffix(']')?.split_once(arrow)?;
    (n.parse::<usize>().ok() == Some(slot)).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_redis_clusters() {
        // The examples of the Redis Cluster specification and CLUSTER KEYSLOT.
        assert_eq!(crc16(b"123456789"), 0x31C3);
        assert_eq!(slot(b"foo"), 12182);
        assert_eq!(slot(b"{user1000}.following"), slot(b"{user1000}.followers"));
        assert_eq!(slot(b"foo{}{bar}"), usize::from(crc16(b"foo{}{bar}")) % SLOTS);
        assert_eq!(slot(b"foo{{bar}}zap"), usize::from(crc16(b"{bar")) % SLOTS);
        assert_eq!(slot(b"foo{bar}{zap}"), slot(b"bar"));
    }

    // A CLUSTER NODES reply as Redis 7 writes it (asked of the node that
    // is giving slot 6093 away), one replica included.
    const NODES: &str = "\
a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [6093->-b2]
b2 127.0.0.1:7001@17001,host.example master - 0 1 2 connected 5461-6092 6094-10922
c3 127.0.0.1:7002@17002 master - 0 1 3 connected 10923-16383 6093
d4 127.0.0.1:7003@17003 slave a1 0 1 1 connected
";

    #[test]
    fn whereabouts_name_the_owner_and_where_a_slot_goes() {
        assert_eq!(whereabouts(NODES, 6093).as_deref(), Some("slot 6093 is on 127.0.0.1:7002"));
        assert_eq!(whereabouts(NODES, 100).as_deref(), Some("slot 100 is on 127.0.0.1:7000"));
        assert_eq!(whereabouts(NODES, 16383).as_deref(), Some("slot 16383 is on 127.0.0.1:7002"));
        let moving = NODES.replace(" 10923-16383 6093", " 10923-16383").replace("0-5460 [6093->-b2]", "0-5460 6093 [6093->-b2]");
        assert_eq!(whereabouts(&moving, 6093).as_deref(), Some("slot 6093 is on 127.0.0.1:7000 (moving to 127.0.0.1:7001)"));
        let importing = moving.replace(" [6093->-b2]", "").replace("6094-10922", "6094-10922 [6093-<-a1]");
        assert_eq!(whereabouts(&importing, 6093).as_deref(), Some("slot 6093 is on 127.0.0.1:7000 (being imported by 127.0.0.1:7001)"));
        assert_eq!(whereabouts("", 5), None);
        assert_eq!(whereabouts(&NODES.replace("0-5460", "1-5460"), 0), None);
    }
}
