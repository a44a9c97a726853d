//! A connection per call (a lane): the one a PHP-FPM worker or the CLI
//! keeps per target, and the lanes of a thread-safe PHP's threads when they
//! do not share (`ratelimit.multiplex = off`, and always for a cluster). A
//! lane is opened only when every open one is busy, and only within the
//! pool's bound; otherwise the thread waits its turn on an open one.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ::redis::RedisResult;
use parking_lot::MutexGuard;

use super::conn::{is_broken, Conn};
use super::open::Timeouts;
use super::pool::{max_connections, open_connections, Slot, LANES, POOL, TICK};
use super::retry::{self, Deadline};
use super::target::Address;
use crate::error::Result;

pub(super) struct Live {
    pub(super) pid: u32,
    pub(super) conn: Conn,
    pub(super) reply_timeout: Duration,
    /// A Sentinel target's master, and when the sentinels last named it.
    pub(super) confirmed: Option<super::sentinel::Confirmed>,
}
impl Slot {
    pub(super) fn run_locked<T>(&self, timeouts: Timeouts, mut deadline: Deadline, mut op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
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

    /// A lane for one call: a free one with an open connection; else a free
    /// closed one (the first one always, another only while the process is
    /// within `ratelimit.max_connections`); else wait for one of the lanes
    /// in use, taken in turn so waiting threads spread over them. The first
    /// lane may always (re)open: a target needs one connection, and the bound
    /// then closes another target's idle one, as without threads.
    pub(super) fn lane(&self, pid: u32) -> MutexGuard<'_, Option<Live>> {
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
    pub(super) fn room_for_another(&self, pid: u32) -> bool {
        open_connections(&POOL.lock(), pid) < max_connections()
    }
}
