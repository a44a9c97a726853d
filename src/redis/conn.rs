//! One connection to a target, whatever its shape: a single server, or a
//! Redis Cluster (redis-rs's sync `ClusterConnection`, which routes each
//! command to the node owning its key's slot, follows MOVED/ASK, and keeps
//! one socket per node it has talked to).
//!
//! The script runner and the fixed window's pipeline talk to `Conn` through
//! redis-rs's `ConnectionLike`. The one difference they must know of: a
//! cluster routes a pipeline by its first command, so a pipeline over keys of
//! different slots is sent as separate calls there (`is_cluster`).

use std::time::Duration;

use ::redis::cluster::ClusterConnection;
use ::redis::{Cmd, Connection, ConnectionLike, RedisError, RedisResult, Value};

/// A connection whose stream can no longer be trusted to be in step.
pub fn is_broken(e: &RedisError) -> bool {
    e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_unrecoverable_error()
}

/// One server's connection or a cluster's. A process holds a few of these at
/// most, so the cluster variant's larger size is not worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Conn {
    Single(Connection),
    Cluster(ClusterConnection),
}

impl Conn {
    pub fn is_cluster(&self) -> bool {
        matches!(self, Conn::Cluster(_))
    }

    pub fn set_timeouts(&self, reply: Duration) -> RedisResult<()> {
        match self {
            Conn::Single(c) => c.set_read_timeout(Some(reply)).and_then(|_| c.set_write_timeout(Some(reply))),
            Conn::Cluster(c) => c.set_read_timeout(Some(reply)).and_then(|_| c.set_write_timeout(Some(reply))),
        }
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        match self {
            Conn::Single(c) => c.req_packed_command(cmd),
            Conn::Cluster(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands(&mut self, cmd: &[u8], offset: usize, count: usize) -> RedisResult<Vec<Value>> {
        match self {
            Conn::Single(c) => c.req_packed_commands(cmd, offset, count),
            Conn::Cluster(c) => c.req_packed_commands(cmd, offset, count),
        }
    }

    // `ClusterConnection` routes a `Cmd` (FUNCTION LOAD goes to every master)
    // rather than its packed bytes: keep that.
    fn req_command(&mut self, cmd: &Cmd) -> RedisResult<Value> {
        match self {
            Conn::Single(c) => c.req_command(cmd),
            Conn::Cluster(c) => c.req_command(cmd),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(c) => c.get_db(),
            Conn::Cluster(c) => c.get_db(),
        }
    }

    fn check_connection(&mut self) -> bool {
        match self {
            Conn::Single(c) => c.check_connection(),
            Conn::Cluster(c) => c.check_connection(),
        }
    }

    fn is_open(&self) -> bool {
        match self {
            Conn::Single(c) => c.is_open(),
            Conn::Cluster(c) => c.is_open(),
        }
    }
}
