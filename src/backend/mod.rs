//! The one seam between a limiter and the place that decides: a Redis
//! target's pooled connections (the server module's command or the Lua
//! library decides there, `crate::redis`), or a `memory://` store in this
//! process (the module's own code decides there, `memory`). A limiter and a
//! compound say once what to decide (an entry call, `crate::entry`); the
//! methods here are the only code that tells the two places apart: decide,
//! decide many, decide each of several calls, delete, and read hashes (the
//! metrics' counters). The give-back, in-flight and lease operations are entry calls too,
//! and go through the same methods.

pub mod memory;
pub mod wake;

use std::sync::Arc;

use ::redis::{Cmd, Value};
use ratelimit_core::store::{wall_clock_us, Value as Stored};

use crate::backend::memory::MemoryTarget;
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::as_result;
use crate::entry::reply::Ints;
use crate::error::{Error, Result};
use crate::redis::decide;
use crate::redis::pool::TargetConnections;
use crate::redis::rules::time::Timeouts;

#[derive(Clone)]
pub enum Backend {
    Redis(Arc<TargetConnections>),
    Memory(Arc<MemoryTarget>),
}

/// How a call reaches Redis: its timeouts, and whether the server module's
/// command may decide where the server has it (`ratelimit.server_module`).
/// A `memory://` store needs neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub timeouts: Timeouts,
    pub server_module: bool,
}

/// Several answers, each standing alone (a key holding a foreign value
/// fails only its own).
pub type Answers = Vec<Result<Ints>>;

impl Backend {
    /// Whether both decide in the same place (one target's connections, one store).
    pub fn same(&self, other: &Backend) -> bool {
        match (self, other) {
            (Backend::Redis(a), Backend::Redis(b)) => Arc::ptr_eq(a, b),
            (Backend::Memory(a), Backend::Memory(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    pub fn is_cluster(&self) -> bool {
        matches!(self, Backend::Redis(conns) if conns.is_cluster())
    }

    /// Whether answers cost a round trip, so that the block cache may save
    /// one: Redis's do; a memory store is as near as the cache.
    pub fn is_remote(&self) -> bool {
        matches!(self, Backend::Redis(_))
    }

    /// One decision: `call` (take, peek, a compound, and the counted ones).
    pub fn decide<K: AsRef<[u8]>>(&self, call: &EntryCall<K>, reach: Reach) -> Result<Ints> {
        match self {
            Backend::Memory(store) => store.decide(call),
            Backend::Redis(conns) => conns.run_routed(
                reach.timeouts,
                call.keys.first().map(AsRef::as_ref),
                #[inline]
                |conn| decide::decide(conn, call, reach.server_module),
            ),
        }
    }

    /// `call` decided in this process, on its Redis target's local store
    /// (at most `keys` keys: `limiter::decide::local`, `ratelimit.on_error = local`),
    /// with no network. A `memory://` store has no other place to decide:
    /// its own failures are answers.
    /// The call's keys are decided keys then as many block keys (an
    /// uncounted decision or adjust: `limiter::decide::local`); only the decided
    /// keys count toward the bound, since a block key always has an expiry
    /// and goes by itself.
    pub fn decide_locally<K: AsRef<[u8]>>(&self, call: &EntryCall<K>, keys: usize) -> Result<Ints> {
        match self {
            Backend::Redis(conns) => conns.with_local(&call.keys[..call.keys.len() / 2], keys, |store| memory::decide_on(store, call)),
            Backend::Memory(store) => Err(Error::Redis(format!("{}{}: no local answer for a memory store", memory::SCHEME, store.name()))),
        }
    }

    /// One decision per key of `many` (`Entry::TakeMany`, or
    /// `TakeManyCounted`: its last key the counters' base), in order, in one
    /// call.
    pub fn decide_many<K: AsRef<[u8]>>(&self, many: &EntryCall<K>, reach: Reach) -> Result<Answers> {
        match self {
            Backend::Memory(store) => store.decide_many(many),
            Backend::Redis(conns) => conns.run_many(reach.timeouts, |conn| decide::decide_many(conn, many, reach.server_module)),
        }
    }

    /// One `entry` call per element of `calls` (each its own keys, the same
    /// arguments), in order: pipelined in one round trip on a single server,
    /// one by one on a cluster and in a memory store. Each answer stands alone.
    pub fn decide_each<K: AsRef<[u8]>, L: AsRef<[K]>>(
        &self,
        entry: Entry,
        calls: &[L],
        counting: &[Vec<u8>],
        args: &PolicyArgs,
        per_call: &[i64],
        reach: Reach,
    ) -> Result<Vec<Result<Ints>>> {
        match self {
            Backend::Memory(store) => {
                Ok(calls.iter().map(|keys| store.decide(&EntryCall { entry, keys: keys.as_ref(), counting, args, per_call })).collect())
            }
            Backend::Redis(conns) => {
                conns.run_many(reach.timeouts, |conn| decide::decide_each(conn, entry, calls, counting, args, per_call, reach.server_module))
            }
        }
    }

    /// Deletes `keys` in one command (on a cluster they share a slot, and
    /// the command goes whole to its master: `Conn::req_command_for_key`).
    /// A failure is an error, whatever `on_error` says: a lost reset is a lost write.
    pub fn delete(&self, keys: &[&[u8]], timeouts: Timeouts) -> Result<()> {
        match self {
            Backend::Memory(store) => {
                store.delete(keys);
                Ok(())
            }
            Backend::Redis(conns) => conns
                .run_routed(timeouts, keys.first().copied(), |conn| {
                    let first = keys.first().copied().unwrap_or_default();
                    conn.req_command_for_key(::redis::cmd("DEL").arg(keys), first).and_then(Value::extract_error)
                })
                .map(|_| ()),
        }
    }

    /// Every field of the hashes that `keys_at(now_us, is_cluster)` names,
    /// read at the target's clock (Redis's TIME; a memory store's wall
    /// clock), each given to `each` as (field, value): what
    /// `RateLimitMetrics::fleet()` adds up. On Redis, pipelined in parts of
    /// `READ_PIPELINE` commands, one round trip per node each.
    pub fn read_hashes(&self, timeouts: Timeouts, keys_at: impl Fn(i64, bool) -> Vec<Vec<u8>>, mut each: impl FnMut(&[u8], &[u8])) -> Result<()> {
        let conns = match self {
            Backend::Memory(store) => {
                store.with_store(|s| {
                    for key in keys_at(wall_clock_us(), false) {
                        if let Some(Stored::Hash(h)) = s.value(&key) {
                            h.iter().for_each(|(f, v)| each(f, v));
                        }
                    }
                });
                return Ok(());
            }
            Backend::Redis(conns) => conns,
        };
        let replies = conns.run(timeouts, |conn| {
            let (secs, micros): (i64, i64) = ::redis::cmd("TIME").query(conn)?;
            let keys = keys_at(secs * 1_000_000 + micros, conn.is_cluster());
            let mut replies = Vec::with_capacity(keys.len());
            for part in keys.chunks(READ_PIPELINE) {
                let cmds: Vec<Cmd> = part.iter().map(|k| ::redis::cmd("HGETALL").arg(k).clone()).collect();
                replies.extend(conn.pipeline_by_key(cmds)?);
            }
            Ok(replies)
        })?;
        for reply in replies {
            match as_result(Ok(reply)) {
                Ok(Value::Array(flat)) => {
                    for pair in flat.chunks_exact(2) {
                        if let (Value::BulkString(f), Value::BulkString(v)) = (&pair[0], &pair[1]) {
                            each(f, v);
                        }
                    }
                }
                Ok(Value::Map(pairs)) => {
                    for (f, v) in pairs {
                        if let (Value::BulkString(f), Value::BulkString(v)) = (f, v) {
                            each(&f, &v);
                        }
                    }
                }
                Err(e) => return Err(Error::Redis(format!("reading the metrics: {}", e.detail().or(e.code()).unwrap_or_default()))),
                Ok(_) => {}
            }
        }
        Ok(())
    }
}

/// Commands in one pipeline of `read_hashes`: 16,384 slots × 60 minutes are read in parts.
const READ_PIPELINE: usize = 8192;
