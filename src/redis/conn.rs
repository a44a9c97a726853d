//! One connection to a target, whatever its shape: a single server's (our
//! own socket and reply reader, `mux`, which the threads of a process may
//! share: then a caller's commands are pipelined with theirs), or a Redis
//! Cluster's (redis-rs's sync `ClusterConnection`, which keeps the slot map
//! and one socket per node it has talked to, routed and redirected here).
//!
//! Every call has a deadline (`time::Deadline`, set by the pool): each round
//! trip of the call waits only for what is left of it, so a call that needs
//! several (a library loaded first, a redirection) still ends within its
//! `ratelimit.timeout`.
//!
//! The runner (`decide`) and the fixed window's pipeline talk to `Conn` through
//! redis-rs's `ConnectionLike`. The one difference they must know of: a
//! single server takes commands as RESP bytes, a cluster as redis-rs `Cmd`s
//! (it routes each by its keys), so the runner sends an entry call to
//! a cluster as a `Cmd` to its first key's master (`req_command_for_key`),
//! and a pipeline over keys of different slots as separate calls
//! (`is_cluster`).
//!
//! A cluster's routing and redirections are its link's (`cluster::link`).

use std::sync::Arc;
use std::time::Duration;

use ::redis::cluster_routing::{MultipleNodeRoutingInfo, ResponsePolicy, RoutingInfo};
use ::redis::{Cmd, ConnectionLike, ErrorKind, RedisError, RedisResult, Value};

pub use crate::redis::cluster::link::ClusterLink;
use crate::redis::rules::time::Deadline;
use crate::redis::single::mux::Mux;

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
    /// every master): `None` until asked, once per connection (`decide`).
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
    /// from then on, for the connection's life (`decide`, `fallback`).
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
