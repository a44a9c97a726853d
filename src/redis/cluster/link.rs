//! A Redis Cluster connection (redis-rs's sync `ClusterConnection`, which
//! keeps the slot map and one socket per node it has talked to), routed and
//! redirected here: redis-rs is told never to send a command again itself
//! (`retries(0)`): it would send one that timed out again on the same node,
//! and a stalled node runs every copy once it wakes. `ClusterLink::send`
//! follows what `retry::allows` allows, until the call's deadline: MOVED
//! (sent to the named node, and that slot remembered there until the slot
//! map is read again), ASK (ASKING and the command at the named node),
//! TRYAGAIN, CLUSTERDOWN, LOADING, MASTERDOWN (sent again a few ms later),
//! READONLY and a refused or closed node connection (a failover: the slot
//! map read again first). During a live reshard a command over several keys
//! of one slot (a compound, its reset) is refused while some of its keys
//! have moved and others not yet (TRYAGAIN); that lasts until the slot's
//! migration has moved the rest. One still refused at the deadline says
//! where its slot stands (`whereabouts`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use ::redis::cluster::{ClusterClient, ClusterConnection};
use ::redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use ::redis::{Cmd, ConnectionLike, RedisError, RedisResult, Value};

use crate::entry::reply::as_result;
use crate::redis::cluster::owners::{Owners, SlotOwners};
use crate::redis::rules::retry::{self, Allows};
use crate::redis::rules::time::Deadline;

/// A cluster connection, how to open it again, and what it learnt since.
pub struct ClusterLink {
    pub(in crate::redis) conn: ClusterConnection,
    pub(in crate::redis) client: ClusterClient,
    /// The reply timeout its sockets have for a call's first round trip.
    pub(in crate::redis) reply: Duration,
    /// Whether the sockets' timeouts were lowered to what was left of a call.
    pub(in crate::redis) shortened: bool,
    /// Slots a MOVED named a new master for since the slot map was read.
    pub(in crate::redis) moved: HashMap<usize, (String, u16)>,
    /// What it learnt of its masters (`Conn::module`, `Conn::peeks_by_script`).
    pub(in crate::redis) module: Option<bool>,
    pub(in crate::redis) peeks_by_script: bool,
    /// Which master owns each slot, shared with the target's other
    /// connections (`owners_stale`).
    owners: Arc<Owners>,
    /// The link opened or read the slot map again since it last read the
    /// owners: it reads them after its next call a master answered, from
    /// that master (one round trip then; a node that may be down is not asked).
    owners_stale: bool,
}

/// How long a cluster connection waits before it sends again a command that
/// was refused for the moment (TRYAGAIN, CLUSTERDOWN, a failover under way).
const SETTLE_PAUSE: Duration = Duration::from_millis(10);

fn by_address((host, port): &(String, u16)) -> RoutingInfo {
    RoutingInfo::SingleNode(SingleNodeRoutingInfo::ByAddress { host: host.clone(), port: *port })
}

fn to_master_of(key: &[u8]) -> RoutingInfo {
    RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(key, SlotAddr::Master)))
}

impl ClusterLink {
    pub fn new(conn: ClusterConnection, client: ClusterClient, reply: Duration, owners: Arc<Owners>) -> ClusterLink {
        ClusterLink { conn, client, reply, shortened: false, moved: HashMap::new(), module: None, peeks_by_script: false, owners, owners_stale: true }
    }

    /// The slot owners as `at` says now (`CLUSTER SLOTS`), for the
    /// breakers; left as they were when it does not answer.
    fn read_owners(&mut self, at: RoutingInfo) {
        self.owners_stale = false;
        if let Some(owners) = self.conn.route_command(::redis::cmd("CLUSTER").arg("SLOTS"), at).ok().as_ref().and_then(SlotOwners::parse) {
            self.owners.set(owners);
        }
    }

    /// `cmd`, whose first key is `key` when it has keys, to the node that
    /// owns that key's slot, redirected and sent again only as `retry`
    /// allows, until `deadline`.
    pub(in crate::redis) fn send(&mut self, cmd: &Cmd, key: Option<&[u8]>, deadline: &Deadline) -> RedisResult<Value> {
        let slot = key.map(crate::redis::cluster::slot::slot);
        let mut at: Option<((String, u16), bool)> = slot.and_then(|s| self.moved.get(&s)).map(|n| (n.clone(), false));
        loop {
            let sent = match (&at, key) {
                (Some((node, asking)), _) => {
                    let asked = match asking {
                        true => self.conn.route_command(&::redis::cmd("ASKING"), by_address(node)).map(|_| ()),
                        false => Ok(()),
                    };
                    asked.and_then(|()| self.conn.route_command(cmd, by_address(node)))
                }
                (None, Some(key)) => self.conn.route_command(cmd, to_master_of(key)),
                (None, None) => self.conn.req_command(cmd),
            };
            let e = match as_result(sent) {
                Err(e) => e,
                done => {
                    if self.owners_stale {
                        if let Some(key) = key {
                            self.read_owners(at.map_or_else(|| to_master_of(key), |(node, _)| by_address(&node)));
                        }
                    }
                    return done;
                }
            };
            // Only what `retry` says did not run is sent again; the runner
            // puts right what the server lacks (`Allows::Lacks`) itself.
            let allows = retry::allows(&e);
            let again = matches!(
                allows,
                Allows::NotSent | Allows::Redirect { .. } | Allows::Ask { .. } | Allows::ReadSlotsAgain | Allows::Wait | Allows::Demoted
            );
            if !again {
                return Err(e);
            }
            let left = deadline.left();
            if left <= SETTLE_PAUSE {
                return Err(match (e.is_cluster_error(), key) {
                    (true, Some(key)) => whereabouts(&mut self.conn, e, key, self.reply),
                    _ => e,
                });
            }
            at = None;
            match allows {
                Allows::Redirect { node, slot } => {
                    self.moved.insert(usize::from(slot), node.clone());
                    self.owners_stale = true;
                    at = Some((node, false));
                }
                Allows::Ask { node } => at = Some((node, true)),
                Allows::Wait => std::thread::sleep(SETTLE_PAUSE),
                // READONLY (a master demoted), a node that refused the
                // connection or closed it, a redirection we cannot read: the
                // slot map is read again.
                _ => {
                    std::thread::sleep(SETTLE_PAUSE);
                    self.reopen(deadline.left())?;
                }
            }
            self.shorten(deadline.left())?;
        }
    }

    /// A new connection (the slot map read again), its sockets waiting `left` at most.
    pub(in crate::redis) fn reopen(&mut self, left: Duration) -> RedisResult<()> {
        self.conn = self.client.get_connection()?;
        self.moved.clear();
        self.shortened = true;
        self.owners_stale = true;
        self.shorten(left)
    }

    /// The sockets' reply timeout lowered to `left`, what the call has left.
    fn shorten(&mut self, left: Duration) -> RedisResult<()> {
        if left < self.reply || self.shortened {
            let left = left.clamp(Duration::from_millis(1), self.reply);
            self.conn.set_read_timeout(Some(left))?;
            self.conn.set_write_timeout(Some(left))?;
            self.shortened = true;
        }
        Ok(())
    }

    /// The full reply timeout again, for the next call's first round trip.
    pub(in crate::redis) fn restore(&mut self) -> RedisResult<()> {
        if std::mem::take(&mut self.shortened) {
            self.conn.set_read_timeout(Some(self.reply))?;
            self.conn.set_write_timeout(Some(self.reply))?;
        }
        Ok(())
    }
}

/// `e` (MOVED, ASK, TRYAGAIN or CLUSTERDOWN, its kind kept) with where
/// `key`'s slot stands as the cluster says, asked of the slot's master as
/// this connection knows it: "TRYAGAIN Multiple keys request during
/// rehashing of slot; slot 6093 is on 127.0.0.1:7000 (moving to
/// 127.0.0.1:7001), still so after 1000 ms" (the call's timeout). This costs a round trip on a
/// call that has failed already; when that node does not answer either, the
/// error stays as it was.
fn whereabouts(c: &mut ClusterConnection, e: RedisError, key: &[u8], patience: Duration) -> RedisError {
    let slot = crate::redis::cluster::slot::slot(key);
    let route = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(key, SlotAddr::Master)));
    let nodes = match c.route_command(::redis::cmd("CLUSTER").arg("NODES"), route) {
        Ok(Value::BulkString(b)) => String::from_utf8_lossy(&b).into_owned(),
        Ok(Value::VerbatimString { text, .. }) => text,
        _ => return e,
    };
    let Some(place) = crate::redis::cluster::slot::whereabouts(&nodes, slot) else { return e };
    let said = e.detail().map_or(String::new(), |d| d.to_string());
    RedisError::from((e.kind(), "cluster", format!("{said}; {place}, still so after {} ms", patience.as_millis())))
}
