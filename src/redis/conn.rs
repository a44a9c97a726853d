//! One connection to a target, whatever its shape: a single server, a
//! Redis Cluster (redis-rs's sync `ClusterConnection`, which routes each
//! command to the node owning its key's slot, follows MOVED/ASK, and keeps
//! one socket per node it has talked to), or one caller's handle on a single
//! server's connection shared by the threads of the process (`mux`: its
//! commands pipelined with theirs, with this caller's reply timeout).
//!
//! The script runner and the fixed window's pipeline talk to `Conn` through
//! redis-rs's `ConnectionLike`. The one difference they must know of: a
//! cluster routes a pipeline by its first command, so a pipeline over keys of
//! different slots is sent as separate calls there (`is_cluster`). And
//! redis-rs routes a command it does not know (the server module's) by its
//! first argument, which for those is the key count: they are sent to the
//! key's master explicitly (`req_packed_for_key`).
//!
//! During a live reshard a command over several keys of one slot (a compound,
//! its reset) is refused while some of its keys have moved and others not
//! yet, or none exists on either side: TRYAGAIN at the source or at the
//! target it is sent to with ASKING, so redis-rs's own few retries can end on
//! any of TRYAGAIN, ASK or MOVED. That lasts until the slot's migration has
//! moved the rest (a moment, or as long as the migration of a slot with many
//! keys). Nothing ran, so a cluster connection sends it again, a few ms
//! apart, until its reply timeout has passed since the first try
//! (`until_settled`). One still refused then says where its slot stands
//! (`whereabouts`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use ::redis::cluster::ClusterConnection;
use ::redis::cluster_routing::{MultipleNodeRoutingInfo, ResponsePolicy, Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use ::redis::{Cmd, Connection, ConnectionLike, ErrorKind, RedisError, RedisResult, Value};

use super::mux::Mux;

/// A connection whose stream can no longer be trusted to be in step.
pub fn is_broken(e: &RedisError) -> bool {
    e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_unrecoverable_error()
}

/// One server's connection or a cluster's, and what this connection has
/// learnt of its server.
pub struct Conn {
    link: Link,
    /// Whether the server has the ratelimit module's commands: `None` until
    /// asked (once per connection, on its first decision that may use them).
    pub module: Option<bool>,
    /// Whether a peek found no function library here (a read-only replica
    /// whose master has not loaded it): peeks use the script form read-only
    /// from then on (`script`).
    pub peeks_by_script: bool,
}

/// A process holds a few of these at most, so the cluster variant's larger
/// size is not worth a box.
#[allow(clippy::large_enum_variant)]
enum Link {
    Single(Connection),
    /// With the reply timeout, the time a refused (TRYAGAIN) command is retried for.
    Cluster(ClusterConnection, Duration),
    /// A shared connection, and how long this caller waits for a reply.
    Shared(Arc<Mux>, Duration),
}

/// How long a cluster connection waits before it sends again a command that
/// redis-rs gave up on while the slot was moving.
const SETTLE_PAUSE: Duration = Duration::from_millis(10);

/// Runs `f` on the cluster connection `c` again while it ends redirected or
/// refused for the moment (MOVED, ASK, TRYAGAIN, CLUSTERDOWN: nothing ran),
/// until `patience` has passed since the first try.
/// A call that is still refused when that time is up fails with the
/// cluster's words and, when its `key` is known, where the key's slot
/// stands (`whereabouts`).
fn until_settled<T>(
    c: &mut ClusterConnection,
    patience: Duration,
    key: Option<&[u8]>,
    mut f: impl FnMut(&mut ClusterConnection) -> RedisResult<T>,
) -> RedisResult<T> {
    let deadline = Instant::now() + patience;
    loop {
        match f(c) {
            Err(e) if e.is_cluster_error() && Instant::now() + SETTLE_PAUSE < deadline => std::thread::sleep(SETTLE_PAUSE),
            Err(e) if e.is_cluster_error() => return Err(key.map_or(e.clone(), |key| whereabouts(c, e, key, patience))),
            result => return result,
        }
    }
}

/// `e` (MOVED, ASK, TRYAGAIN or CLUSTERDOWN, its kind kept) with where
/// `key`'s slot stands as the cluster says, asked of the slot's master as
/// this connection knows it: "TRYAGAIN Multiple keys request during
/// rehashing of slot; slot 6093 is on 127.0.0.1:7000 (moving to
/// 127.0.0.1:7001), still so after 1000 ms". This costs a round trip on a
/// call that has failed already; when that node does not answer either, the
/// error stays as it was.
fn whereabouts(c: &mut ClusterConnection, e: RedisError, key: &[u8], patience: Duration) -> RedisError {
    let slot = super::cluster_slot::slot(key);
    let route = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(key, SlotAddr::Master)));
    let nodes = match c.route_command(::redis::cmd("CLUSTER").arg("NODES"), route) {
        Ok(Value::BulkString(b)) => String::from_utf8_lossy(&b).into_owned(),
        Ok(Value::VerbatimString { text, .. }) => text,
        _ => return e,
    };
    let Some(place) = super::cluster_slot::whereabouts(&nodes, slot) else { return e };
    let said = e.detail().map_or(String::new(), |d| d.to_string());
    RedisError::from((e.kind(), "cluster", format!("{said}; {place}, still so after {} ms", patience.as_millis())))
}

/// The first key of a script call (EVAL, EVALSHA, FCALL and their _RO
/// forms: name, key count, keys…), for `whereabouts`.
fn script_key<'a>(args: &[&'a [u8]]) -> Option<&'a [u8]> {
    let command = args.first()?.to_ascii_uppercase();
    let scripted = [&b"EVALSHA"[..], b"EVAL", b"EVALSHA_RO", b"EVAL_RO", b"FCALL", b"FCALL_RO"].contains(&command.as_slice());
    (scripted && args.get(2)? != b"0").then(|| args.get(3).copied()).flatten()
}

impl Conn {
    pub fn single(c: Connection) -> Self {
        Conn { link: Link::Single(c), module: None, peeks_by_script: false }
    }

    /// `reply`: the reply timeout the pool sets on it (`set_timeouts`).
    pub fn cluster(c: ClusterConnection, reply: Duration) -> Self {
        Conn { link: Link::Cluster(c, reply), module: None, peeks_by_script: false }
    }

    /// One caller's handle on a shared connection; what the connection knows
    /// of its server (`module`, `peeks_by_script`) is the shared one's, which
    /// the pool keeps (`mux::Mux::module`, `mux::Mux::peeks_by_script`).
    pub fn shared(mux: Arc<Mux>, reply: Duration) -> Self {
        let (module, peeks_by_script) = (mux.module(), mux.peeks_by_script());
        Conn { link: Link::Shared(mux, reply), module, peeks_by_script }
    }

    pub fn is_cluster(&self) -> bool {
        matches!(self.link, Link::Cluster(..))
    }

    /// The replies of `want` commands packed in `cmd`, on a shared connection.
    fn shared_call(mux: &Mux, cmd: &[u8], want: usize, reply: Duration) -> RedisResult<Vec<Value>> {
        let values = mux.call(cmd, want, reply)?;
        if values.len() != want {
            return Err(RedisError::from((ErrorKind::Parse, "unexpected pipeline reply")));
        }
        Ok(values)
    }

    /// A packed command whose first key is `key`, sent to that key's master
    /// (on a single server: sent as is).
    pub fn req_packed_for_key(&mut self, packed: &[u8], key: &[u8]) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(c) => c.req_packed_command(packed),
            Link::Shared(..) => self.req_packed_command(packed),
            Link::Cluster(c, patience) => {
                let mut cmd = Cmd::new();
                for part in super::resp::parts(packed) {
                    cmd.arg(part);
                }
                let route = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(key, SlotAddr::Master)));
                until_settled(c, *patience, Some(key), |c| c.route_command(&cmd, route.clone()))
            }
        }
    }

    /// `cmd` over keys of one slot (their first `key`), sent to that slot's
    /// master as one command (on a single server: as is). redis-rs would split
    /// a multi-key DEL by slot and send the parts without following a
    /// redirection; routed as one command it follows MOVED and ASK and waits
    /// out TRYAGAIN (a live reshard with the keys half moved).
    pub fn req_command_for_key(&mut self, cmd: &Cmd, key: &[u8]) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(c) => c.req_command(cmd),
            Link::Shared(..) => self.req_command(cmd),
            Link::Cluster(c, patience) => {
                let route = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(key, SlotAddr::Master)));
                until_settled(c, *patience, Some(key), |c| c.route_command(cmd, route.clone()))
            }
        }
    }

    /// Every master's reply to `cmd` (on a single server: its one reply).
    pub fn on_every_master(&mut self, cmd: &Cmd) -> RedisResult<Vec<Value>> {
        match &mut self.link {
            Link::Single(c) => cmd.query::<Value>(c).map(|v| vec![v]),
            Link::Shared(..) => cmd.query::<Value>(self).map(|v| vec![v]),
            Link::Cluster(c, _) => {
                let all = RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, Some(ResponsePolicy::CombineArrays)));
                match c.route_command(cmd, all)? {
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
            Link::Single(..) | Link::Shared(..) => {
                let mut pipe = ::redis::pipe();
                cmds.into_iter().for_each(|cmd| {
                    pipe.add_command(cmd);
                });
                pipe.query(self)
            }
            Link::Cluster(c, _) => {
                let mut pipe = ::redis::cluster::cluster_pipe();
                cmds.into_iter().for_each(|cmd| {
                    pipe.add_command(cmd);
                });
                pipe.query(c)
            }
        }
    }

    pub fn set_timeouts(&mut self, reply: Duration) -> RedisResult<()> {
        match &mut self.link {
            Link::Single(c) => c.set_read_timeout(Some(reply)).and_then(|_| c.set_write_timeout(Some(reply))),
            Link::Cluster(c, patience) => {
                *patience = reply;
                c.set_read_timeout(Some(reply)).and_then(|_| c.set_write_timeout(Some(reply)))
            }
            // Each call of a shared connection has its own deadline (`Conn::shared`).
            Link::Shared(..) => Ok(()),
        }
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(c) => c.req_packed_command(cmd),
            Link::Cluster(c, patience) => {
                let parts = super::resp::parts(cmd);
                until_settled(c, *patience, script_key(&parts), |c| c.req_packed_command(cmd))
            }
            Link::Shared(mux, reply) => Self::shared_call(mux, cmd, 1, *reply).map(|mut v| v.remove(0)),
        }
    }

    fn req_packed_commands(&mut self, cmd: &[u8], offset: usize, count: usize) -> RedisResult<Vec<Value>> {
        match &mut self.link {
            Link::Single(c) => c.req_packed_commands(cmd, offset, count),
            Link::Cluster(c, _) => c.req_packed_commands(cmd, offset, count),
            Link::Shared(mux, reply) => Self::shared_call(mux, cmd, offset + count, *reply).map(|mut v| v.split_off(offset)),
        }
    }

    // `ClusterConnection` routes a `Cmd` (FUNCTION LOAD goes to every master)
    // rather than its packed bytes: keep that.
    fn req_command(&mut self, cmd: &Cmd) -> RedisResult<Value> {
        match &mut self.link {
            Link::Single(c) => c.req_command(cmd),
            Link::Cluster(c, patience) => {
                let args: Vec<&[u8]> = cmd
                    .args_iter()
                    .filter_map(|a| match a {
                        ::redis::Arg::Simple(b) => Some(b),
                        _ => None,
                    })
                    .collect();
                until_settled(c, *patience, script_key(&args), |c| c.req_command(cmd))
            }
            Link::Shared(..) => self.req_packed_command(&cmd.get_packed_command()),
        }
    }

    fn get_db(&self) -> i64 {
        match &self.link {
            Link::Single(c) => c.get_db(),
            Link::Cluster(c, _) => c.get_db(),
            Link::Shared(mux, _) => mux.db,
        }
    }

    fn check_connection(&mut self) -> bool {
        match &mut self.link {
            Link::Single(c) => c.check_connection(),
            Link::Cluster(c, _) => c.check_connection(),
            Link::Shared(..) => ::redis::cmd("PING").query::<String>(self).is_ok(),
        }
    }

    fn is_open(&self) -> bool {
        match &self.link {
            Link::Single(c) => c.is_open(),
            Link::Cluster(c, _) => c.is_open(),
            Link::Shared(mux, _) => !mux.is_broken(),
        }
    }
}
