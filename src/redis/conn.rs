//! One connection to a target, whatever its shape: a single server's (our
//! own socket and reply reader, `mux`, which the threads of a process may
//! share: then a caller's commands are pipelined with theirs), or a Redis
//! Cluster's (redis-rs's sync `ClusterConnection`, which keeps the slot map
//! and one socket per node it has talked to, routed and redirected here).
//!
//! Every call has a deadline (`retry::Deadline`, set by the pool): each round
//! trip of the call waits only for what is left of it, so a call that needs
//! several (a library loaded first, a redirection) still ends within its
//! `ratelimit.timeout`.
//!
//! The script runner and the fixed window's pipeline talk to `Conn` through
//! redis-rs's `ConnectionLike`. The one difference they must know of: a
//! single server takes commands as RESP bytes, a cluster as redis-rs `Cmd`s
//! (it routes each by its keys), so the script runner sends an entry call to
//! a cluster as a `Cmd` to its first key's master (`req_command_for_key`),
//! and a pipeline over keys of different slots as separate calls
//! (`is_cluster`).
//!
//! On a cluster, redis-rs is told never to send a command again itself
//! (`retries(0)`): it would send one that timed out again on the same node,
//! and a stalled node runs every copy once it wakes. The redirections are
//! followed here (`ClusterLink::send`), and only those `retry` says did not
//! run: MOVED (sent to the named node, and that slot remembered there until
//! the slot map is read again), ASK (ASKING and the command at the named
//! node), TRYAGAIN, CLUSTERDOWN, LOADING, MASTERDOWN (sent again a few ms
//! later), READONLY and a refused or closed node connection (a failover: the
//! slot map read again first), until the call's deadline. During a live
//! reshard a command over several keys of one slot (a compound, its reset) is
//! refused while some of its keys have moved and others not yet (TRYAGAIN);
//! that lasts until the slot's migration has moved the rest. One still
//! refused at the deadline says where its slot stands (`whereabouts`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use ::redis::cluster::{ClusterClient, ClusterConnection};
use ::redis::cluster_routing::{MultipleNodeRoutingInfo, ResponsePolicy, Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use ::redis::{Cmd, ConnectionLike, ErrorKind, RedisError, RedisResult, Value};

use crate::redis::retry::{self, as_result, Allows};
use crate::redis::single::mux::Mux;
use crate::redis::time::Deadline;

/// One server's connection or a cluster's, for one call (its deadline).
pub struct Conn {
    link: Link,
    /// When the current call must have its replies.
    deadline: Deadline,
}

/// A process holds a few of these at most, so the cluster variant's larger
/// size is not worth a box.
#[allow(clippy::large_enum_variant)]
enum Link {
    /// One server (TCP, TLS or a unix socket), possibly shared by threads.
    Single(Arc<Mux>),
    Cluster(ClusterLink),
}

/// A cluster connection, how to open it again, and what it learnt since.
pub struct ClusterLink {
    conn: ClusterConnection,
    client: ClusterClient,
    /// The reply timeout its sockets have for a call's first round trip.
    reply: Duration,
    /// Whether the sockets' timeouts were lowered to what was left of a call.
    shortened: bool,
    /// Slots a MOVED named a new master for since the slot map was read.
    moved: HashMap<usize, (String, u16)>,
    /// What it learnt of its masters (`Conn::module`, `Conn::peeks_by_script`).
    module: Option<bool>,
    peeks_by_script: bool,
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
    pub fn new(conn: ClusterConnection, client: ClusterClient, reply: Duration) -> ClusterLink {
        ClusterLink { conn, client, reply, shortened: false, moved: HashMap::new(), module: None, peeks_by_script: false }
    }

    /// `cmd`, whose first key is `key` when it has keys, to the node that
    /// owns that key's slot, redirected and sent again only as `retry`
    /// allows, until `deadline`.
    fn send(&mut self, cmd: &Cmd, key: Option<&[u8]>, deadline: &Deadline) -> RedisResult<Value> {
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
                done => return done,
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
    fn reopen(&mut self, left: Duration) -> RedisResult<()> {
        self.conn = self.client.get_connection()?;
        self.moved.clear();
        self.shortened = true;
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
    fn restore(&mut self) -> RedisResult<()> {
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

/// The first word of `ROLE`: master, slave (a replica) or sentinel: what
/// the Sentinel code checks of the master it was given, and what `fallback`
/// asks before loading the library on a server that may be a replica.
pub fn role_of(conn: &mut impl ::redis::ConnectionLike) -> RedisResult<String> {
    Ok(role_in(&::redis::cmd("ROLE").query(conn)?))
}

/// `role_of`'s reading of the reply, the one reading of ROLE (public for the
/// fuzz target that feeds it any reply, fuzz/fuzz_targets/resp_replies.rs).
pub fn role_in(reply: &Value) -> String {
    let first = match reply {
        Value::Array(items) => items.first(),
        _ => None,
    };
    match first {
        Some(Value::BulkString(b)) => String::from_utf8_lossy(b).into_owned(),
        Some(Value::SimpleString(s)) => s.clone(),
        _ => "server that does not answer ROLE as Redis does".to_string(),
    }
}

impl Conn {
    /// A single server's connection, shared by threads or not.
    pub fn single(mux: Arc<Mux>, deadline: Deadline) -> Self {
        Conn { link: Link::Single(mux), deadline }
    }

    pub fn cluster(c: ClusterLink, deadline: Deadline) -> Self {
        Conn { link: Link::Cluster(c), deadline }
    }

    /// Whether the server has the ratelimit module's commands (on a cluster,
    /// every master): `None` until asked, once per connection (`script`).
    /// Kept where the connection lives, so every caller of a shared one
    /// (`mux`) knows it at once.
    pub fn module(&self) -> Option<bool> {
        match &self.link {
            Link::Single(mux) => mux.module(),
            Link::Cluster(c) => c.module,
        }
    }

    pub fn set_module(&mut self, module: bool) {
        match &mut self.link {
            Link::Single(mux) => mux.set_module(module),
            Link::Cluster(c) => c.module = Some(module),
        }
    }

    /// Whether a peek found no function library here (a read-only replica
    /// whose master has not loaded it): peeks use the script form read-only
    /// from then on, for the connection's life (`script`).
    pub fn peeks_by_script(&self) -> bool {
        match &self.link {
            Link::Single(mux) => mux.peeks_by_script(),
            Link::Cluster(c) => c.peeks_by_script,
        }
    }

    pub fn set_peeks_by_script(&mut self) {
        match &mut self.link {
            Link::Single(mux) => mux.set_peeks_by_script(),
            Link::Cluster(c) => c.peeks_by_script = true,
        }
    }

    pub fn is_cluster(&self) -> bool {
        matches!(self.link, Link::Cluster(..))
    }

    /// The deadline of the call about to run on this connection; a cluster's
    /// sockets get their whole reply timeout back.
    pub fn set_deadline(&mut self, deadline: Deadline) -> RedisResult<()> {
        self.deadline = deadline;
        match &mut self.link {
            Link::Cluster(c) => c.restore(),
            Link::Single(..) => Ok(()),
        }
    }

    /// The replies of `want` commands packed in `cmd`, within the call's deadline.
    fn single_call(mux: &Mux, cmd: &[u8], want: usize, deadline: &Deadline) -> RedisResult<Vec<Value>> {
        if deadline.left().is_zero() {
            return Err(Deadline::passed());
        }
        let values = mux.call(cmd, want, deadline.instant())?;
        if values.len() != want {
            return Err(RedisError::from((ErrorKind::Parse, "unexpected pipeline reply")));
        }
        Ok(values)
    }

    /// `cmd` over keys of one slot (their first `key`), sent to that slot's
    /// master as one command (on a single server: as is). redis-rs would split
    /// a multi-key DEL by slot and send the parts without following a
    /// redirection; routed as one command it is redirected whole.
    pub fn req_command_for_key(&mut self, cmd: &Cmd, key: &[u8]) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(..) => self.req_command(cmd),
            Link::Cluster(c) => c.send(cmd, Some(key), &self.deadline),
        }
    }

    /// Every master's reply to `cmd` (on a single server: its one reply).
    pub fn on_every_master(&mut self, cmd: &Cmd) -> RedisResult<Vec<Value>> {
        match &mut self.link {
            Link::Single(..) => cmd.query::<Value>(self).map(|v| vec![v]),
            Link::Cluster(c) => {
                let all = RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, Some(ResponsePolicy::CombineArrays)));
                match c.conn.route_command(cmd, all)? {
                    Value::Array(replies) => Ok(replies),
                    other => Ok(vec![other]),
                }
            }
        }
    }

    /// Commands over keys of any slots in one round trip per node (a cluster
    /// sends each node its share, following MOVED), replies in order; for
    /// reads such as `RateLimitMetrics::fleet()`'s.
    pub fn pipeline_by_key(&mut self, cmds: Vec<Cmd>) -> RedisResult<Vec<Value>> {
        match &mut self.link {
            Link::Single(..) => {
                let mut pipe = ::redis::pipe();
                cmds.into_iter().for_each(|cmd| {
                    pipe.add_command(cmd);
                });
                pipe.query(self)
            }
            Link::Cluster(c) => {
                let mut pipe = ::redis::cluster::cluster_pipe();
                cmds.into_iter().for_each(|cmd| {
                    pipe.add_command(cmd);
                });
                // Reads only, so sent again after a redirection; redis-rs
                // routes them by its slot map, which a MOVED made stale.
                if !c.moved.is_empty() {
                    c.reopen(self.deadline.left())?;
                }
                match pipe.query(&mut c.conn) {
                    Err(e) if e.is_cluster_error() => {
                        c.reopen(self.deadline.left())?;
                        pipe.query(&mut c.conn)
                    }
                    done => done,
                }
            }
        }
    }

    /// The reply timeout of a cluster's sockets (a single server's calls each
    /// wait for their deadline).
    pub fn set_timeouts(&mut self, reply: Duration) -> RedisResult<()> {
        match &mut self.link {
            Link::Cluster(c) => {
                c.reply = reply;
                c.shortened = true;
                c.restore()
            }
            Link::Single(..) => Ok(()),
        }
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(mux) => Self::single_call(mux, cmd, 1, &self.deadline).map(|mut v| v.remove(0)),
            // Nothing sends one: a cluster is given commands it can route.
            Link::Cluster(_) => Err(RedisError::from((ErrorKind::Client, "a cluster connection sends commands, not packed bytes"))),
        }
    }

    fn req_packed_commands(&mut self, cmd: &[u8], offset: usize, count: usize) -> RedisResult<Vec<Value>> {
        match &mut self.link {
            Link::Single(mux) => Self::single_call(mux, cmd, offset + count, &self.deadline).map(|mut v| v.split_off(offset)),
            Link::Cluster(c) => c.conn.req_packed_commands(cmd, offset, count),
        }
    }

    // `ClusterConnection` routes a `Cmd` (FUNCTION LOAD goes to every master)
    // rather than its packed bytes: keep that.
    fn req_command(&mut self, cmd: &Cmd) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(..) => self.req_packed_command(&cmd.get_packed_command()),
            // Routed by redis-rs, which knows where a command's keys are (and
            // sends FUNCTION LOAD to every master); an entry call comes with
            // its key (`req_command_for_key`).
            Link::Cluster(c) => c.send(cmd, None, &self.deadline),
        }
    }

    fn get_db(&self) -> i64 {
        match &self.link {
            Link::Single(mux) => mux.db,
            Link::Cluster(c) => c.conn.get_db(),
        }
    }

    fn check_connection(&mut self) -> bool {
        match &mut self.link {
            Link::Single(..) => ::redis::cmd("PING").query::<String>(self).is_ok(),
            Link::Cluster(c) => c.conn.check_connection(),
        }
    }

    fn is_open(&self) -> bool {
        match &self.link {
            Link::Single(mux) => !mux.is_broken(),
            Link::Cluster(c) => c.conn.is_open(),
        }
    }
}
