//! The per-process connection pool: a connection per `Target`, opened lazily,
//! kept across calls and across the requests of a PHP-FPM worker.
//!
//! A target has `LANES` places for a connection. One thread (PHP-FPM, the
//! CLI) only ever uses the first: one connection per target. The threads of
//! a thread-safe PHP (FrankenPHP) take a free lane each, so up to `LANES`
//! round trips to one target overlap instead of queueing behind one socket;
//! a lane is opened only when every open one is busy, and only within the
//! bound below (otherwise the thread waits its turn on an open one).
//!
//! Bounded, so a process that meets many targets (one per db number, per
//! tenant…) never runs out of file descriptors:
//! - at most `ratelimit.max_connections` connections are open; opening one
//!   more closes the least recently used idle one first (another lane of a
//!   busy target is not opened beyond it);
//! - a slot no limiter holds any more is dropped once it has no open
//!   connection (it failed, or the bound closed it), so failed targets do not
//!   pile up; a slot a limiter still holds stays, and reconnects on its next call.
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

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ::redis::{ConnectionAddr, RedisError, RedisResult};
use once_cell::sync::Lazy;
use parking_lot::{Mutex, MutexGuard};

use super::conn::Conn;
pub use super::open::Timeouts;
use super::open::{cause, describe, open_single, settings, OpenError};
use super::target::{Address, Target};
use crate::error::{Error, Result};

/// Connections a target may have open at once, for as many threads.
pub const LANES: usize = 8;

struct Live {
    pid: u32,
    conn: Conn,
    reply_timeout: Duration,
    /// A Sentinel target's master, and when the sentinels last named it.
    confirmed: Option<super::sentinel::Confirmed>,
}

/// One target's connections, shared by every limiter pointed at that target.
pub struct Slot {
    target: Target,
    lanes: [Mutex<Option<Live>>; LANES],
    /// Lanes ever opened: threads that find every one busy wait on one of these.
    lanes_used: AtomicUsize,
    opened: AtomicU64,
    failures: AtomicU64,
    /// `TICK` at the last call: the least recently used connection closes first.
    last_used: AtomicU64,
}

static POOL: Lazy<Mutex<HashMap<Target, Arc<Slot>>>> = Lazy::new(Default::default);
/// A logical clock for least-recently-used order (cheaper than reading time).
static TICK: AtomicU64 = AtomicU64::new(0);
/// Connections closed by the bound; slots dropped for want of a connection.
static CLOSED_BY_BOUND: AtomicU64 = AtomicU64::new(0);
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// The bound by default: room for many targets per process, far below the
/// usual 1024 descriptors (`ratelimit.max_connections`).
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;
thread_local! {
    /// The bound as the calling thread sees it. The pool is one per process,
    /// but a thread-safe PHP keeps `ratelimit.max_connections` per thread (a
    /// request's `ini_set()` is its own): the bound of the thread that opens a
    /// slot is the one enforced then.
    static MAX_CONNECTIONS: Cell<usize> = const { Cell::new(DEFAULT_MAX_CONNECTIONS) };
}

/// Sets how many connections the process keeps open at most, as the calling
/// thread sees it (the PHP layer applies `ratelimit.max_connections` here);
/// the next new slot enforces it.
pub fn set_max_connections(n: usize) {
    MAX_CONNECTIONS.set(n.max(1));
}

pub fn max_connections() -> usize {
    MAX_CONNECTIONS.get()
}

/// The slot for `target`, created on first use. No connection is opened here.
pub fn slot(target: Target) -> Arc<Slot> {
    let _inside = crate::fork::enter();
    let mut pool = POOL.lock();
    if let Some(slot) = pool.get(&target) {
        return slot.clone();
    }
    let slot = Arc::new(Slot {
        target: target.clone(),
        lanes: Default::default(),
        lanes_used: AtomicUsize::new(1),
        opened: AtomicU64::new(0),
        failures: AtomicU64::new(0),
        last_used: AtomicU64::new(TICK.fetch_add(1, Ordering::Relaxed)),
    });
    pool.insert(target, slot.clone());
    enforce_bound(&mut pool, &slot);
    slot
}

/// Keeps the pool within its bound; `keep` is the slot in use right now.
/// Lanes busy in a call (locked) are left alone.
fn enforce_bound(pool: &mut HashMap<Target, Arc<Slot>>, keep: &Arc<Slot>) {
    let pid = crate::fork::generation();
    let mut excess = open_connections(pool, pid).saturating_sub(max_connections());
    let mut others: Vec<&Arc<Slot>> = pool.values().filter(|s| !Arc::ptr_eq(s, keep)).collect();
    others.sort_by_key(|s| s.last_used.load(Ordering::Relaxed));
    for slot in &others {
        if excess == 0 {
            break;
        }
        for lane in &slot.lanes {
            if excess == 0 {
                break;
            }
            if let Some(mut live) = lane.try_lock() {
                if live.as_ref().is_some_and(|l| l.pid == pid) {
                    // Dropping the connection closes its socket: the descriptor goes back to the process.
                    *live = None;
                    CLOSED_BY_BOUND.fetch_add(1, Ordering::Relaxed);
                    excess -= 1;
                }
            }
        }
    }
    // Without a connection, a slot no limiter holds is only memory: drop it.
    let garbage: Vec<Target> =
        others.iter().filter(|s| Arc::strong_count(s) == 1 && s.idle_connections(pid) == Some(0)).map(|s| s.target.clone()).collect();
    for target in garbage {
        pool.remove(&target);
        DROPPED.fetch_add(1, Ordering::Relaxed);
    }
}

/// Connections open in this process (a lane busy in a call counts as open).
fn open_connections(pool: &HashMap<Target, Arc<Slot>>, pid: u32) -> usize {
    pool.values().map(|s| s.lanes.iter().filter(|l| l.try_lock().is_none_or(|l| l.as_ref().is_some_and(|l| l.pid == pid))).count()).sum()
}

/// What `php --ri ratelimit` shows of the pool.
pub struct SlotState {
    pub target: String,
    /// Open connections (lanes busy in a call count as open).
    pub connections: usize,
    /// What decides there (`script::path`), as the open connection found; `None` before one opened.
    pub path: Option<&'static str>,
    pub opened: u64,
    pub failures: u64,
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

pub fn state() -> Vec<SlotState> {
    let _inside = crate::fork::enter();
    let pid = crate::fork::generation();
    let pool = POOL.lock();
    let mut rows: Vec<SlotState> = pool
        .values()
        .map(|s| SlotState {
            target: s.target.to_string(),
            connections: s.lanes.iter().filter(|l| l.try_lock().is_none_or(|l| l.as_ref().is_some_and(|l| l.pid == pid))).count(),
            path: s.lanes.iter().find_map(|l| l.try_lock().and_then(|l| l.as_ref().filter(|l| l.pid == pid).map(|l| super::script::path(&l.conn)))),
            opened: s.opened.load(Ordering::Relaxed),
            failures: s.failures.load(Ordering::Relaxed),
        })
        .collect();
    rows.sort_by(|a, b| a.target.cmp(&b.target));
    rows
}

use super::conn::is_broken;

impl Slot {
    /// Whether this target is a Redis Cluster (keys then carry a hash tag).
    pub fn is_cluster(&self) -> bool {
        self.target.is_cluster()
    }

    /// Runs `op` on this target's connection, opening it if needed.
    ///
    /// A reused connection that turns out to be closed by the server (restart,
    /// idle timeout) is replaced and `op` is tried once more: the server closed
    /// it before our command, so the command was never run. A timeout is never
    /// retried, since the command may have run.
    pub fn run<T>(self: &Arc<Self>, timeouts: Timeouts, op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        // The pool's locks are taken inside the gate: a fork() waits for this call.
        let _inside = crate::fork::enter();
        self.last_used.store(TICK.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let opened = self.opened.load(Ordering::Relaxed);
        let failures = self.failures.load(Ordering::Relaxed);
        let result = self.run_locked(timeouts, op);
        // A connection opened (one more descriptor) or one lost (a slot that
        // may be garbage now): the only moments the bound can be crossed.
        if self.opened.load(Ordering::Relaxed) != opened || self.failures.load(Ordering::Relaxed) != failures {
            enforce_bound(&mut POOL.lock(), self);
        }
        result
    }

    fn run_locked<T>(&self, timeouts: Timeouts, mut op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        let pid = crate::fork::generation();
        let mut guard = self.lane(pid);
        if guard.as_ref().is_some_and(|l| l.pid != pid) {
            // Opened by our parent before fork(): closing our copy of the fd is
            // harmless to the parent; reading from it is not.
            *guard = None;
        }
        let mut reused = guard.is_some();
        loop {
            if guard.is_none() {
                *guard = Some(self.connect(pid, timeouts)?);
            }
            let live = guard.as_mut().expect("connection just ensured");
            if let (Some(confirmed), Address::Sentinel(sentinels)) = (&mut live.confirmed, &self.target.address) {
                if confirmed.moved(&self.target, sentinels, timeouts) {
                    // Failed over: the old master may still take writes, which it
                    // loses when demoted. Nothing was sent; connect to the new one.
                    *guard = None;
                    reused = false;
                    continue;
                }
            }
            if live.reply_timeout != timeouts.reply {
                if let Err(e) = live.conn.set_timeouts(timeouts.reply) {
                    *guard = None;
                    return Err(self.fail(&e));
                }
                live.reply_timeout = timeouts.reply;
            }
            match op(&mut live.conn) {
                Ok(v) => return Ok(v),
                // A master demoted to replica refused the write (nothing ran):
                // a Sentinel target drops it and asks the sentinels again.
                Err(e) if is_broken(&e) || self.demoted(&e) => {
                    *guard = None;
                    if reused && !e.is_timeout() {
                        reused = false;
                        continue;
                    }
                    return Err(self.fail(&e));
                }
                Err(e) => return Err(self.fail(&e)),
            }
        }
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
        }
        Ok(all.into_iter().map(|r| r.map_err(|e| self.fail(&e))).collect())
    }

    /// A lane for one call: a free one with an open connection; else a free
    /// closed one (the first one always, another only while the process is
    /// within `ratelimit.max_connections`); else wait for one of the lanes
    /// in use, taken in turn so waiting threads spread over them. The first
    /// lane may always (re)open: a target needs one connection, and the bound
    /// then closes another target's idle one, as without threads.
    fn lane(&self, pid: u32) -> MutexGuard<'_, Option<Live>> {
        let used = self.lanes_used.load(Ordering::Relaxed).clamp(1, LANES);
        let mut free_closed = None;
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(guard) = lane.try_lock() {
                if guard.as_ref().is_some_and(|l| l.pid == pid) {
                    return guard;
                }
                if free_closed.is_none() && (i == 0 || self.room_for_another(pid)) {
                    free_closed = Some((i, guard));
                }
            }
        }
        if let Some((i, guard)) = free_closed {
            self.lanes_used.fetch_max(i + 1, Ordering::Relaxed);
            return guard;
        }
        let turn = TICK.load(Ordering::Relaxed) as usize;
        let guard = self.lanes[turn % used].lock();
        if turn % used == 0 || guard.as_ref().is_some_and(|l| l.pid == pid) || self.room_for_another(pid) {
            return guard;
        }
        // Closed meanwhile (an error, the bound) and no room to open it again.
        drop(guard);
        self.lanes[0].lock()
    }

    /// Whether one more connection stays within the bound.
    fn room_for_another(&self, pid: u32) -> bool {
        open_connections(&POOL.lock(), pid) < max_connections()
    }

    /// How many connections are open when no lane is busy; `None` while one is.
    fn idle_connections(&self, pid: u32) -> Option<usize> {
        let mut open = 0;
        for lane in &self.lanes {
            open += usize::from(lane.try_lock()?.as_ref().is_some_and(|l| l.pid == pid));
        }
        Some(open)
    }

    /// READONLY from a Sentinel target's server: it was the master when we
    /// connected and is a replica now (a failover). Elsewhere READONLY is
    /// only an error reply (a replica named on purpose, a cluster's own handling).
    fn demoted(&self, e: &RedisError) -> bool {
        self.target.is_sentinel() && e.code() == Some("READONLY")
    }

    fn connect(&self, pid: u32, timeouts: Timeouts) -> Result<Live> {
        match &self.target.address {
            Address::Cluster { seeds } => return self.connect_cluster(pid, timeouts, seeds),
            Address::Sentinel(sentinels) => {
                // The master the sentinels name now; from here on a single server.
                let (conn, confirmed) = super::sentinel::connect_master(&self.target, sentinels, timeouts).map_err(|why| {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    Error::Redis(format!("Redis at {}: {why}", self.target))
                })?;
                self.opened.fetch_add(1, Ordering::Relaxed);
                return Ok(Live { pid, conn: Conn::single(conn), reply_timeout: timeouts.reply, confirmed: Some(confirmed) });
            }
            Address::Tcp { .. } | Address::Unix { .. } => {}
        }
        let settings = settings(self.target.db, self.target.username.as_ref(), self.target.password.as_ref());
        match open_single(&self.target.address, self.target.tls.as_ref(), settings, timeouts) {
            Ok(conn) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                Ok(Live { pid, conn: Conn::single(conn), reply_timeout: timeouts.reply, confirmed: None })
            }
            Err(OpenError::Setup(why)) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                Err(Error::Redis(format!("Redis at {}: {why}", self.target)))
            }
            Err(OpenError::Redis(e)) => Err(self.fail(&e)),
        }
    }

    /// A cluster connection: the slot map is read from the first seed that
    /// answers; nodes are connected as commands need them. redis-rs follows
    /// MOVED (the slot map read again) and ASK (ASKING and the command at the
    /// named node), and re-reads the slot map after a failover. Its own
    /// retries are kept few (it also sends a timed-out command again, so a
    /// call stays within a few reply timeouts) and its waits short (2 ms to
    /// 50 ms; its default is at least 1.28 s each). A live reshard can keep a
    /// call redirected or refused (TRYAGAIN) for longer than those retries:
    /// `Conn` sends it again itself, within the reply timeout.
    fn connect_cluster(&self, pid: u32, timeouts: Timeouts, seeds: &[(String, u16)]) -> Result<Live> {
        let tls = self.target.tls.as_ref();
        let nodes: Vec<ConnectionAddr> = seeds
            .iter()
            .map(|(h, p)| match tls {
                Some(tls) => super::tls::addr(h, *p, tls),
                None => ConnectionAddr::Tcp(h.clone(), *p),
            })
            .collect();
        let mut builder = ::redis::cluster::ClusterClientBuilder::new(nodes)
            .connection_timeout(timeouts.connect)
            .response_timeout(timeouts.reply)
            .retries(2)
            .min_retry_wait(2)
            .max_retry_wait(50)
            .retry_wait_formula(5, 2);
        if let Some(tls) = tls {
            // Every node the slot map names is reached with the same TLS settings.
            builder = builder.tls(if tls.verify_peer { ::redis::TlsMode::Secure } else { ::redis::TlsMode::Insecure });
            match super::tls::certificates(tls) {
                Ok(Some(certs)) => builder = builder.certs(certs),
                Ok(None) => {}
                Err(e) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    return Err(Error::Redis(format!("Redis at {}: {}", self.target, e.0)));
                }
            }
        }
        if let Some(u) = &self.target.username {
            builder = builder.username(u);
        }
        if let Some(p) = &self.target.password {
            builder = builder.password(p);
        }
        match builder.build().and_then(|client| client.get_connection()) {
            Ok(conn) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                Ok(Live { pid, conn: Conn::cluster(conn, timeouts.reply), reply_timeout: timeouts.reply, confirmed: None })
            }
            Err(e) => Err(self.fail(&e)),
        }
    }

    fn fail(&self, e: &RedisError) -> Error {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let text = match &self.target.tls {
            // The handshake runs with the first command, so a plain port (which
            // reads a TLS hello as the start of a command and waits) shows as a timeout.
            Some(_) if e.is_timeout() => format!("{}; over TLS this is also what a plain, non-TLS port gives", describe(e)),
            tls => cause(e, tls.as_ref()),
        };
        let text = match self.target.is_cluster() && self.target.password.is_none() && text.contains("NOAUTH") {
            true => format!("{text}; {CLUSTER_WITHOUT_PASSWORD}"),
            false => text,
        };
        Error::Redis(format!("Redis at {}: {text}", self.target))
    }
}

/// Added to NOAUTH from a cluster no password was given for. The usual way to
/// get there is a phpredis `RedisCluster` object as `$connection`: its
/// password cannot be read from it (`php::phpredis_cluster`), so the user
/// must be told where to put it.
const CLUSTER_WITHOUT_PASSWORD: &str = "the cluster wants a password and none was given (phpredis does not expose a RedisCluster \
    object's password, so one passed as $connection is used without it): pass a redis-cluster://:password@host:port DSN \
    or ['cluster' => [...], 'auth' => ...] instead";
