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

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ::redis::{ConnectionAddr, RedisError, RedisResult};
use once_cell::sync::Lazy;
use parking_lot::{Mutex, MutexGuard};

use super::conn::{ClusterLink, Conn};
use super::mux::Mux;
pub use super::open::Timeouts;
use super::open::{cause, describe, OpenError};
use super::retry::{self, Deadline};
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

/// A connection the threads share (`mux`), and the process incarnation that opened it.
struct Shared {
    pid: u32,
    mux: Arc<Mux>,
    /// A Sentinel target's master, and when the sentinels last named it
    /// (re-checked by one thread at a time).
    confirmed: Option<Arc<Mutex<super::sentinel::Confirmed>>>,
}

/// One target's connections, shared by every limiter pointed at that target.
pub struct Slot {
    target: Target,
    lanes: [Mutex<Option<Live>>; LANES],
    /// Connections the threads share; locked only to take or replace one, not for a call.
    shared: [Mutex<Option<Shared>>; LANES],
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

/// How a thread's calls use a target's connections (`ratelimit.multiplex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multiplex {
    /// Shared by the threads of a thread-safe PHP (one per target); without
    /// threads, the single caller's own connection, as with `Off`.
    Auto,
    /// Each call holds a connection of its own (a lane) for its round trip.
    Off,
    /// This many shared connections per target (1 to `LANES`), threads spread over them.
    Shared(usize),
}

/// Whether this PHP runs requests in threads (built against a thread-safe PHP).
pub const THREADED: bool = cfg!(php_zts);

thread_local! {
    /// Per thread, as every ini value (`MAX_CONNECTIONS`).
    static MULTIPLEX: Cell<Multiplex> = const { Cell::new(Multiplex::Auto) };
    /// This thread's place among the shared connections of a target.
    static THREAD_NO: usize = NEXT_THREAD_NO.fetch_add(1, Ordering::Relaxed);
}
static NEXT_THREAD_NO: AtomicUsize = AtomicUsize::new(0);

/// Sets how the calling thread's calls use connections (the PHP layer applies
/// `ratelimit.multiplex` here).
pub fn set_multiplex(m: Multiplex) {
    MULTIPLEX.set(match m {
        Multiplex::Shared(n) => Multiplex::Shared(n.clamp(1, LANES)),
        other => other,
    });
}

/// Shared connections per target for this thread's calls; 0: a lane each.
fn shared_lanes() -> usize {
    match MULTIPLEX.get() {
        Multiplex::Auto if THREADED => 1,
        Multiplex::Auto | Multiplex::Off => 0,
        Multiplex::Shared(n) => n,
    }
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
        shared: Default::default(),
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
        for lane in &slot.shared {
            if excess == 0 {
                break;
            }
            if let Some(mut shared) = lane.try_lock() {
                // Idle: no call in flight. One that took it a moment ago still
                // finishes on it; the socket closes when the last user lets go.
                if shared.as_ref().is_some_and(|s| s.pid == pid && s.mux.in_flight() == 0) {
                    *shared = None;
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
    pool.values().map(|s| s.open_connections(pid)).sum()
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
            connections: s.open_connections(pid),
            path: s
                .lanes
                .iter()
                .find_map(|l| l.try_lock().and_then(|l| l.as_ref().filter(|l| l.pid == pid).map(|l| super::script::path(&l.conn))))
                .or_else(|| {
                    s.shared.iter().find_map(|l| {
                        l.try_lock().and_then(|l| {
                            l.as_ref()
                                .filter(|l| l.pid == pid)
                                .map(|l| super::script::path(&Conn::single(l.mux.clone(), Deadline::after(Duration::ZERO))))
                        })
                    })
                }),
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

    /// Connections open in this process: lanes (a lane busy in a call
    /// counts as open) and shared ones still usable.
    fn open_connections(&self, pid: u32) -> usize {
        let lanes = self.lanes.iter().filter(|l| l.try_lock().is_none_or(|l| l.as_ref().is_some_and(|l| l.pid == pid))).count();
        let shared =
            self.shared.iter().filter(|l| l.try_lock().is_none_or(|l| l.as_ref().is_some_and(|s| s.pid == pid && !s.mux.is_broken()))).count();
        lanes + shared
    }

    /// Whether this target's calls may share a connection: a single server,
    /// or a Sentinel target's master (TCP, TLS or a unix socket); not a
    /// cluster, whose connection routes each command itself.
    fn shareable(&self) -> bool {
        matches!(self.target.address, Address::Tcp { .. } | Address::Unix { .. } | Address::Sentinel(_))
    }

    /// Runs `op` on this target's connection, opening it if needed, within
    /// one deadline (`retry::Deadline`).
    ///
    /// A connection found closed before anything was written (the server
    /// restarted, or closed it idle) is replaced and `op` is tried once more,
    /// as is a call a demoted Sentinel master refused (READONLY): neither ran.
    /// A timeout or a connection lost after the write is never retried, since
    /// the command may have run (`retry`).
    pub fn run<T>(self: &Arc<Self>, timeouts: Timeouts, op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        // The pool's locks are taken inside the gate: a fork() waits for this call.
        let _inside = crate::fork::enter();
        self.last_used.store(TICK.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let opened = self.opened.load(Ordering::Relaxed);
        let failures = self.failures.load(Ordering::Relaxed);
        let shared = match self.shareable() {
            true => shared_lanes(),
            false => 0,
        };
        let deadline = Deadline::after(timeouts.reply);
        let result = match shared {
            0 => self.run_locked(timeouts, deadline, op),
            n => self.run_shared(timeouts, deadline, n, op),
        };
        // A connection opened (one more descriptor) or one lost (a slot that
        // may be garbage now): the only moments the bound can be crossed.
        if self.opened.load(Ordering::Relaxed) != opened || self.failures.load(Ordering::Relaxed) != failures {
            enforce_bound(&mut POOL.lock(), self);
        }
        result
    }

    fn run_locked<T>(&self, timeouts: Timeouts, mut deadline: Deadline, mut op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        let pid = crate::fork::generation();
        let mut guard = self.lane(pid);
        if guard.as_ref().is_some_and(|l| l.pid != pid) {
            // Opened by our parent before fork(): closing our copy of the fd is
            // harmless to the parent; reading from it is not.
            *guard = None;
        }
        let mut retried = false;
        loop {
            if guard.is_none() {
                let started = Instant::now();
                *guard = Some(self.connect(pid, timeouts)?);
                deadline.extend(started.elapsed());
            }
            let live = guard.as_mut().expect("connection just ensured");
            if let (Some(confirmed), Address::Sentinel(sentinels)) = (&mut live.confirmed, &self.target.address) {
                let started = Instant::now();
                let moved = confirmed.moved(&self.target, sentinels, timeouts);
                deadline.extend(started.elapsed());
                if moved {
                    // Failed over: the old master may still take writes, which it
                    // loses when demoted. Nothing was sent; connect to the new one.
                    *guard = None;
                    continue;
                }
            }
            if live.reply_timeout != timeouts.reply {
                if let Err(e) = live.conn.set_timeouts(timeouts.reply) {
                    *guard = None;
                    return Err(self.fail(&e, timeouts));
                }
                live.reply_timeout = timeouts.reply;
            }
            if let Err(e) = live.conn.set_deadline(deadline) {
                *guard = None;
                return Err(self.fail(&e, timeouts));
            }
            match op(&mut live.conn) {
                Ok(v) => return Ok(v),
                // A master demoted to replica refused the write (nothing ran):
                // a Sentinel target drops it and asks the sentinels again.
                Err(e) if is_broken(&e) || self.demoted(&e) => {
                    *guard = None;
                    if retry::did_not_run(&e) && !std::mem::replace(&mut retried, true) {
                        continue;
                    }
                    return Err(self.fail(&e, timeouts));
                }
                Err(e) => return Err(self.fail(&e, timeouts)),
            }
        }
    }

    /// `run` on one of the first `lanes` shared connections (the one of this
    /// thread's turn), opening it if needed. The retry rule of `run` holds; a
    /// timeout leaves the connection to the shared one's rule.
    fn run_shared<T>(&self, timeouts: Timeouts, mut deadline: Deadline, lanes: usize, mut op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        let pid = crate::fork::generation();
        let mut i = THREAD_NO.with(|n| *n) % lanes;
        let mut retried = false;
        loop {
            let started = Instant::now();
            let (mux, confirmed, fresh) = self.shared_connection(&mut i, pid, timeouts)?;
            if fresh {
                deadline.extend(started.elapsed());
            }
            if let (Some(confirmed), Address::Sentinel(sentinels)) = (&confirmed, &self.target.address) {
                // One thread re-checks at a time; the others go on meanwhile.
                let started = Instant::now();
                let moved = confirmed.try_lock().is_some_and(|mut c| c.moved(&self.target, sentinels, timeouts));
                deadline.extend(started.elapsed());
                if moved {
                    // Failed over (see `run_locked`): nothing was sent; connect to the new master.
                    self.forget_shared(i, &mux);
                    continue;
                }
            }
            let mut conn = Conn::single(mux.clone(), deadline);
            let learnt = conn.module;
            let result = op(&mut conn);
            if conn.module != learnt {
                mux.set_module(conn.module);
            }
            if conn.peeks_by_script {
                mux.set_peeks_by_script();
            }
            match result {
                Ok(v) => return Ok(v),
                // The connection stays for the callers still waiting on it; it
                // closes itself once none is (`mux`).
                Err(e) if e.is_timeout() => return Err(self.fail(&e, timeouts)),
                Err(e) if is_broken(&e) || self.demoted(&e) => {
                    self.forget_shared(i, &mux);
                    if retry::did_not_run(&e) && !std::mem::replace(&mut retried, true) {
                        continue;
                    }
                    return Err(self.fail(&e, timeouts));
                }
                Err(e) => return Err(self.fail(&e, timeouts)),
            }
        }
    }

    /// Shared connection `*i`, opened now when it is not (`true`). A lane
    /// that would be one connection too many for the bound is not opened:
    /// the first one is used instead (`*i` becomes 0).
    #[allow(clippy::type_complexity)]
    fn shared_connection(
        &self,
        i: &mut usize,
        pid: u32,
        timeouts: Timeouts,
    ) -> Result<(Arc<Mux>, Option<Arc<Mutex<super::sentinel::Confirmed>>>, bool)> {
        let mut guard = self.shared[*i].lock();
        if let Some(s) = guard.as_ref().filter(|s| s.pid == pid && !s.mux.is_broken()) {
            return Ok((s.mux.clone(), s.confirmed.clone(), false));
        }
        if *i != 0 && !self.room_for_another(pid) {
            drop(guard);
            *i = 0;
            return self.shared_connection(i, pid, timeouts);
        }
        // Opened by our parent before fork() (dropping our copy closes only our
        // descriptor), or closed: open another.
        *guard = None;
        let (mux, confirmed) = self.connect_shared(timeouts)?;
        let confirmed = confirmed.map(|c| Arc::new(Mutex::new(c)));
        *guard = Some(Shared { pid, mux: mux.clone(), confirmed: confirmed.clone() });
        Ok((mux, confirmed, true))
    }

    /// Forgets shared connection `i` if it still is `mux` (another thread may
    /// have opened its successor already).
    fn forget_shared(&self, i: usize, mux: &Arc<Mux>) {
        let mut guard = self.shared[i].lock();
        if guard.as_ref().is_some_and(|s| Arc::ptr_eq(&s.mux, mux)) {
            *guard = None;
        }
    }

    /// A shared connection to the server, or to the master the sentinels name
    /// now (and when they named it).
    fn connect_shared(&self, timeouts: Timeouts) -> Result<(Arc<Mux>, Option<super::sentinel::Confirmed>)> {
        let login = super::wire::Login { db: self.target.db, username: self.target.username.as_deref(), password: self.target.password.as_deref() };
        let db = self.target.db;
        let tls = self.target.tls.as_ref();
        if let Address::Sentinel(sentinels) = &self.target.address {
            let open = |host: &str, port| {
                let address = Address::Tcp { host: host.to_string(), port };
                match super::wire::open(&address, tls, &login, timeouts) {
                    Ok(s) => Ok(Arc::new(Mux::new(s, db, timeouts.reply))),
                    Err(OpenError::Setup(why)) => Err(why),
                    Err(OpenError::Redis(e)) => Err(cause(&e, tls)),
                }
            };
            let role = |mux: &mut Arc<Mux>| super::sentinel::role_of(&mut Conn::single(mux.clone(), Deadline::after(timeouts.reply)));
            return match super::sentinel::connect_master(&self.target, sentinels, timeouts, open, role) {
                Ok((mux, confirmed)) => {
                    self.opened.fetch_add(1, Ordering::Relaxed);
                    Ok((mux, Some(confirmed)))
                }
                Err(why) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    Err(Error::Redis(format!("Redis at {}: {why}", self.target)))
                }
            };
        }
        match super::wire::open(&self.target.address, tls, &login, timeouts) {
            Ok(stream) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                Ok((Arc::new(Mux::new(stream, db, timeouts.reply)), None))
            }
            Err(OpenError::Setup(why)) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                Err(Error::Redis(format!("Redis at {}: {why}", self.target)))
            }
            Err(OpenError::Redis(e)) => Err(self.fail_to_open(&e)),
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
            for lane in &self.shared {
                lane.lock().take();
            }
        }
        Ok(all.into_iter().map(|r| r.map_err(|e| self.fail(&e, timeouts))).collect())
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
        if turn.is_multiple_of(used) || guard.as_ref().is_some_and(|l| l.pid == pid) || self.room_for_another(pid) {
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
        for lane in &self.shared {
            let lane = lane.try_lock()?;
            match lane.as_ref() {
                Some(s) if s.pid == pid && s.mux.in_flight() > 0 => return None,
                Some(s) if s.pid == pid && !s.mux.is_broken() => open += 1,
                _ => {}
            }
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
        if let Address::Cluster { seeds } = &self.target.address {
            return self.connect_cluster(pid, timeouts, seeds);
        }
        // A single server, or the master the sentinels name now: our own socket either way.
        let (mux, confirmed) = self.connect_shared(timeouts)?;
        Ok(Live { pid, conn: Conn::single(mux, Deadline::after(timeouts.reply)), reply_timeout: timeouts.reply, confirmed })
    }

    /// A cluster connection: the slot map is read from the first seed that
    /// answers; nodes are connected as commands need them. redis-rs sends
    /// nothing again by itself (`retries(0)`: it would also resend a command
    /// that timed out); `conn::ClusterLink` follows the redirections and
    /// failovers, sending again only what did not run (`retry`).
    fn connect_cluster(&self, pid: u32, timeouts: Timeouts, seeds: &[(String, u16)]) -> Result<Live> {
        let tls = self.target.tls.as_ref();
        let nodes: Vec<ConnectionAddr> = seeds
            .iter()
            .map(|(h, p)| match tls {
                Some(tls) => super::tls::addr(h, *p, tls),
                None => ConnectionAddr::Tcp(h.clone(), *p),
            })
            .collect();
        let mut builder =
            ::redis::cluster::ClusterClientBuilder::new(nodes).connection_timeout(timeouts.connect).response_timeout(timeouts.reply).retries(0);
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
        match builder.build().and_then(|client| Ok((client.get_connection()?, client))) {
            Ok((conn, client)) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                let link = ClusterLink::new(conn, client, timeouts.reply);
                Ok(Live { pid, conn: Conn::cluster(link, Deadline::after(timeouts.reply)), reply_timeout: timeouts.reply, confirmed: None })
            }
            Err(e) => Err(self.fail_to_open(&e)),
        }
    }

    /// A call that failed with `e`: the cause, and when the command may
    /// have run (`retry::may_have_run`), that it may have been counted.
    fn fail(&self, e: &RedisError, timeouts: Timeouts) -> Error {
        if !retry::may_have_run(e) {
            return self.fail_to_open(e);
        }
        self.failures.fetch_add(1, Ordering::Relaxed);
        let cause = match e.is_timeout() {
            true => format!("timed out after {} s", seconds(timeouts.reply)),
            false => "the connection was lost after the command was sent".to_string(),
        };
        Error::Redis(format!("Redis at {}: {cause}; the decision may have been counted", self.target))
    }

    /// A connection that could not be opened (nothing was sent), or `fail`'s cause.
    fn fail_to_open(&self, e: &RedisError) -> Error {
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

/// Seconds as a PHP developer wrote them: "0.2", "1", "1.5".
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    match ms % 1000 {
        0 => format!("{}", ms / 1000),
        _ => format!("{}", (ms as f64 / 1000.0)),
    }
}
