//! The per-process connection pool: a connection per `Target`, opened lazily,
//! kept across calls and across the requests of a PHP-FPM worker. Here: the
//! map of targets, its bound and what `php --ri` shows. A call's way in and
//! the one retry loop are `hold`'s (`TargetConnections::run`); a connection
//! per call is `lanes`', the threads' shared ones `shared`'s (`places`: what
//! each holds); opening one is `connect`'s, a failed call's words `failure`'s.
//!
//! A target has `PLACES` places for a connection. One thread (PHP-FPM, the
//! CLI) only ever uses the first: one connection per target. The threads of
//! a thread-safe PHP (FrankenPHP) take a free lane each, so up to `PLACES`
//! round trips to one target overlap instead of queueing behind one socket;
//! a lane is opened only when every open one is busy, and only within the
//! bound below (otherwise the thread waits its turn on an open one).
//!
//! Bounded, so a process that meets many targets (one per db number, per
//! tenant…) never runs out of file descriptors:
//! - at most `ratelimit.max_connections` connections are open; opening one
//!   more closes the least recently used idle one first (another lane of a
//!   busy target is not opened beyond it);
//! - a target no limiter holds any more is dropped once it has no open
//!   connection (it failed, or the bound closed it), so failed targets do not
//!   pile up; a target a limiter still holds stays, and reconnects on its next call.
//!
//! A call is applied at most once (`retry`): a command is sent again, on a
//! new connection, only when nothing of it was written (the connection was
//! found closed before the write) or the server refused it before running
//! it (READONLY from a demoted Sentinel master). A call that timed out or
//! lost its connection after the write fails, and says it may have been
//! counted. Its replies are waited for until one deadline, its
//! `ratelimit.timeout` from its start, plus the time spent opening a
//! connection when it opened one.
//!
//! Three rules keep a decision from ever being read off the wrong reply:
//! - a connection remembers the process incarnation that opened it
//!   (`crate::fork::generation`, in effect the PID); after `fork()` the child sees
//!   another and opens its own (the parent's socket is shared with
//!   the child, and two processes reading one socket cross their replies);
//! - after any I/O error or timeout the connection is dropped: a reply that
//!   arrives late would otherwise be read as the answer to the next command;
//! - a Redis error reply (WRONGTYPE, a script error) leaves the connection
//!   usable, since the protocol stream is still in step; but READONLY on a
//!   Sentinel target means its master was demoted: that connection is
//!   dropped, so the next one asks the sentinels again (`sentinel`).
//!
//! A Sentinel target's reused connection is also dropped, before the call,
//! when the sentinels name another master (asked at most once a second,
//! `sentinel::Confirmed`): a master failed over while still up is left at once.
//!
//! A single server's connection is our own socket and reply reader (`mux`)
//! in every case. Under a thread-safe PHP the threads calling a single server
//! (TCP, TLS or a unix socket) do not take a lane each: they share one
//! connection, their commands pipelined in batches, so concurrent decisions
//! share their round trips and Redis its system calls (`ratelimit.multiplex`: how many such
//! connections per target, or `off` for the lanes). Each call still waits for
//! its own reply with its own timeout; the rules above hold for them too, with
//! one change: a caller that times out leaves the connection to the others
//! still waiting on it, and its late reply is read and dropped there (`mux`);
//! the connection closes once no caller is left waiting on it. A Sentinel
//! target's master and TLS are shared the same way; a cluster keeps the lanes.

pub mod breaker;
mod breakers;
mod connect;
mod failure;
mod hold;
mod lanes;
mod local;
pub mod multiplex;
mod outage;
mod places;
pub mod sentinel;
mod shared;

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use ::redis::{RedisError, RedisResult};
use once_cell::sync::Lazy;
use parking_lot::Mutex;

use crate::error::Result;
use crate::redis::conn::Conn;
use crate::redis::pool::breaker::BreakerState;
use crate::redis::pool::breakers::{Breakers, Gate};
use crate::redis::pool::local::LocalStore;
use crate::redis::pool::multiplex::PLACES;
use crate::redis::pool::places::{close_idle, idle_in, module_known_in, open_in, LaneConn, Shared};
use crate::redis::rules::retry;
pub use crate::redis::rules::time::Timeouts;
use crate::redis::target::{Address, Target};

/// One target's connections, shared by every limiter pointed at that target.
pub struct TargetConnections {
    target: Target,
    lanes: [Mutex<Option<LaneConn>>; PLACES],
    /// Connections the threads share; locked only to take or replace one, not for a call.
    shared: [Mutex<Option<Shared>>; PLACES],
    /// Lanes ever opened: threads that find every one busy wait on one of these.
    lanes_used: AtomicUsize,
    opened: AtomicU64,
    failures: AtomicU64,
    /// `TICK` at the last call: the least recently used connection closes first.
    last_used: AtomicU64,
    /// Refuse calls at once for a while after one could not reach the target
    /// (`breaker`); on a cluster, one per master beside the cluster's own (`breakers`).
    breakers: Breakers,
    /// Decisions this process made itself while the target could not answer
    /// (`ratelimit.on_error = local`), dropped once it answers again (`local`).
    local: Mutex<Option<LocalStore>>,
    /// Whether `local` holds anything: read after every answered call, so a
    /// call with nothing local to drop costs one atomic load.
    local_held: AtomicBool,
}

static POOL: Lazy<Mutex<HashMap<Target, Arc<TargetConnections>>>> = Lazy::new(Default::default);
/// A logical clock for least-recently-used order (cheaper than reading time).
static TICK: AtomicU64 = AtomicU64::new(0);
/// Connections closed by the bound; targets dropped for want of a connection.
static CLOSED_BY_BOUND: AtomicU64 = AtomicU64::new(0);
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// The bound by default: room for many targets per process, far below the
/// usual 1024 descriptors (`ratelimit.max_connections`).
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;
thread_local! {
    /// The bound as the calling thread sees it. The pool is one per process,
    /// but a thread-safe PHP keeps `ratelimit.max_connections` per thread (a
    /// request's `ini_set()` is its own): the bound of the thread that opens a
    /// target is the one enforced then.
    static MAX_CONNECTIONS: Cell<usize> = const { Cell::new(DEFAULT_MAX_CONNECTIONS) };
}

/// Sets how many connections the process keeps open at most, as the calling
/// thread sees it (the PHP layer applies `ratelimit.max_connections` here);
/// the next new target enforces it.
pub fn set_max_connections(n: usize) {
    MAX_CONNECTIONS.set(n.max(1));
}

pub fn max_connections() -> usize {
    MAX_CONNECTIONS.get()
}

/// The connections of `target`, created on first use. No connection is opened here.
pub fn connections(target: Target) -> Arc<TargetConnections> {
    let _inside = crate::fork::enter();
    let mut pool = POOL.lock();
    if let Some(conns) = pool.get(&target) {
        return conns.clone();
    }
    let conns = Arc::new(TargetConnections {
        target: target.clone(),
        lanes: Default::default(),
        shared: Default::default(),
        lanes_used: AtomicUsize::new(1),
        opened: AtomicU64::new(0),
        failures: AtomicU64::new(0),
        last_used: AtomicU64::new(TICK.fetch_add(1, Ordering::Relaxed)),
        breakers: Breakers::default(),
        local: Mutex::new(None),
        local_held: AtomicBool::new(false),
    });
    pool.insert(target, conns.clone());
    enforce_bound(&mut pool, &conns);
    conns
}

/// Keeps the pool within its bound; `keep` is the target in use right now.
/// Connections a call is on are left alone.
fn enforce_bound(pool: &mut HashMap<Target, Arc<TargetConnections>>, keep: &Arc<TargetConnections>) {
    let generation = crate::fork::generation();
    let mut excess = open_connections(pool, generation).saturating_sub(max_connections());
    let mut others: Vec<&Arc<TargetConnections>> = pool.values().filter(|s| !Arc::ptr_eq(s, keep)).collect();
    others.sort_by_key(|s| s.last_used.load(Ordering::Relaxed));
    for conns in &others {
        if excess == 0 {
            break;
        }
        let closed = close_idle(&conns.lanes, generation, &mut excess) + close_idle(&conns.shared, generation, &mut excess);
        CLOSED_BY_BOUND.fetch_add(closed, Ordering::Relaxed);
    }
    // Without a connection, a target no limiter holds is only memory: drop it.
    let garbage: Vec<Target> =
        others.iter().filter(|s| Arc::strong_count(s) == 1 && s.idle_connections(generation) == Some(0)).map(|s| s.target.clone()).collect();
    for target in garbage {
        pool.remove(&target);
        DROPPED.fetch_add(1, Ordering::Relaxed);
    }
}

/// Connections open in this process (a lane busy in a call counts as open).
fn open_connections(pool: &HashMap<Target, Arc<TargetConnections>>, generation: u32) -> usize {
    pool.values().map(|s| s.open_connections(generation)).sum()
}

/// What `php --ri ratelimit` shows of the pool.
pub struct TargetState {
    pub target: String,
    /// Open connections (lanes busy in a call count as open).
    pub connections: usize,
    /// What decides there (`decide::path`), as the open connection found; `None` before one opened.
    pub path: Option<&'static str>,
    pub opened: u64,
    pub failures: u64,
    /// Its breaker (`breaker`): open or closed, openings, calls refused.
    pub breaker: BreakerState,
    /// A cluster's breakers per master (`breakers`), by address, for the
    /// masters a call has failed to reach in this process.
    pub masters: Vec<(String, BreakerState)>,
    pub cluster: bool,
    /// Keys decided in this process while it could not answer (`ratelimit.on_error = local`).
    pub local_keys: usize,
}

/// Pool-wide numbers for `php --ri ratelimit`.
pub struct PoolStats {
    pub max_connections: usize,
    pub closed_by_bound: u64,
    pub dropped: u64,
}

pub fn stats() -> PoolStats {
    PoolStats {
        max_connections: max_connections(),
        closed_by_bound: CLOSED_BY_BOUND.load(Ordering::Relaxed),
        dropped: DROPPED.load(Ordering::Relaxed),
    }
}

pub fn state() -> Vec<TargetState> {
    let _inside = crate::fork::enter();
    let generation = crate::fork::generation();
    let pool = POOL.lock();
    let mut rows: Vec<TargetState> = pool
        .values()
        .map(|s| (s, s.breakers.state()))
        .map(|(s, (breaker, masters))| TargetState {
            target: s.target.to_string(),
            connections: s.open_connections(generation),
            path: module_known_in(&s.lanes, generation).or_else(|| module_known_in(&s.shared, generation)).map(crate::redis::decide::path),
            opened: s.opened.load(Ordering::Relaxed),
            failures: s.failures.load(Ordering::Relaxed),
            breaker,
            masters,
            cluster: s.is_cluster(),
            local_keys: s.local_keys(),
        })
        .collect();
    rows.sort_by(|a, b| a.target.cmp(&b.target));
    rows
}

impl TargetConnections {
    /// Whether this target is a Redis Cluster (keys then carry a hash tag).
    pub fn is_cluster(&self) -> bool {
        self.target.is_cluster()
    }

    /// Connections open in this process: lanes (a lane busy in a call
    /// counts as open) and shared ones still usable.
    fn open_connections(&self, generation: u32) -> usize {
        open_in(&self.lanes, generation) + open_in(&self.shared, generation)
    }

    /// Whether this target's calls may share a connection: a single server,
    /// or a Sentinel target's master (TCP, TLS or a unix socket); not a
    /// cluster, whose connection routes each command itself.
    fn shareable(&self) -> bool {
        matches!(self.target.address, Address::Tcp { .. } | Address::Unix { .. } | Address::Sentinel(_))
    }

    /// Whether one more connection stays within the bound.
    fn room_for_another(&self, generation: u32) -> bool {
        open_connections(&POOL.lock(), generation) < max_connections()
    }

    /// `run` for a pipeline whose replies each succeed or fail alone (a
    /// foreign key fails its own call, not the batch).
    pub fn run_many<T>(
        self: &Arc<Self>,
        timeouts: Timeouts,
        op: impl FnMut(&mut Conn) -> RedisResult<Vec<RedisResult<T>>>,
    ) -> Result<Vec<Result<T>>> {
        let _inside = crate::fork::enter();
        let all = self.run(timeouts, op)?;
        if all.iter().any(|r| r.as_ref().is_err_and(|e| self.demoted(e))) {
            // The master was demoted: no idle connection to it is kept.
            for lane in &self.lanes {
                if let Some(mut live) = lane.try_lock() {
                    live.take();
                }
            }
            for lane in &self.shared {
                lane.lock().take();
            }
        }
        Ok(all.into_iter().map(|r| r.map_err(|e| self.fail(&e, timeouts, &Gate::whole()))).collect())
    }

    /// How many connections are open when no lane is busy; `None` while one is.
    fn idle_connections(&self, generation: u32) -> Option<usize> {
        Some(idle_in(&self.lanes, generation)? + idle_in(&self.shared, generation)?)
    }

    /// READONLY from a Sentinel target's server: it was the master when we
    /// connected and is a replica now (a failover). Elsewhere READONLY is
    /// only an error reply (a replica named on purpose, a cluster's own handling).
    fn demoted(&self, e: &RedisError) -> bool {
        self.target.is_sentinel() && retry::allows(e) == retry::Allows::Demoted
    }
}
