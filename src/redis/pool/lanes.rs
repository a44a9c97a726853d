//! A connection per call (a lane): the one a PHP-FPM worker or the CLI
//! keeps per target, and the lanes of a thread-safe PHP's threads when they
//! do not share (`ratelimit.multiplex = off`, and always for a cluster). A
//! lane is opened only when every open one is busy, and only within the
//! pool's bound; otherwise the thread waits its turn on an open one.

use std::sync::atomic::Ordering;

use ::redis::{RedisError, RedisResult};
use parking_lot::MutexGuard;

use crate::error::Result;
use crate::redis::conn::Conn;
use crate::redis::pool::hold::Hold;
use crate::redis::pool::multiplex::PLACES;
use crate::redis::pool::places::LaneConn;
use crate::redis::pool::{TargetConnections, TICK};
use crate::redis::rules::retry::is_broken;
use crate::redis::rules::time::Deadline;
use crate::redis::rules::time::Timeouts;
use crate::redis::target::Sentinels;

/// A lane, locked for the whole call.
pub(super) struct LaneHold<'a> {
    generation: u32,
    lane: MutexGuard<'a, Option<LaneConn>>,
}

impl TargetConnections {
    /// The lane for one call (`lane`), without a connection its process's
    /// parent opened before fork(): closing our copy of that descriptor is
    /// harmless to the parent; reading from it is not.
    pub(super) fn lane_hold(&self) -> LaneHold<'_> {
        let generation = crate::fork::generation();
        let mut lane = self.lane(generation);
        if lane.as_ref().is_some_and(|l| l.generation != generation) {
            *lane = None;
        }
        LaneHold { generation, lane }
    }

    /// A lane for one call: a free one with an open connection; else a free
    /// closed one (the first one always, another only while the process is
    /// within `ratelimit.max_connections`); else wait for one of the lanes
    /// in use, taken in turn so waiting threads spread over them. The first
    /// lane may always (re)open: a target needs one connection, and the bound
    /// then closes another target's idle one, as without threads.
    fn lane(&self, generation: u32) -> MutexGuard<'_, Option<LaneConn>> {
        let used = self.lanes_used.load(Ordering::Relaxed).clamp(1, PLACES);
        let mut free_closed = None;
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(guard) = lane.try_lock() {
                if guard.as_ref().is_some_and(|l| l.generation == generation) {
                    return guard;
                }
                if free_closed.is_none() && (i == 0 || self.room_for_another(generation)) {
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
        if turn.is_multiple_of(used) || guard.as_ref().is_some_and(|l| l.generation == generation) || self.room_for_another(generation) {
            return guard;
        }
        // Closed meanwhile (an error, the bound) and no room to open it again.
        drop(guard);
        self.lanes[0].lock()
    }
}

impl Hold for LaneHold<'_> {
    fn open(&mut self, tc: &TargetConnections, timeouts: Timeouts) -> Result<bool> {
        if self.lane.is_some() {
            return Ok(false);
        }
        *self.lane = Some(tc.connect(self.generation, timeouts)?);
        Ok(true)
    }

    fn master_moved(&mut self, tc: &TargetConnections, sentinels: &Sentinels, timeouts: Timeouts) -> bool {
        let live = self.lane.as_mut().expect("the lane's connection is open");
        live.confirmed.as_mut().is_some_and(|c| c.moved(&tc.target, sentinels, timeouts))
    }

    fn conn(&mut self, deadline: Deadline, timeouts: Timeouts) -> RedisResult<&mut Conn> {
        let live = self.lane.as_mut().expect("the lane's connection is open");
        if live.reply_timeout != timeouts.reply {
            live.conn.set_timeouts(timeouts.reply)?;
            live.reply_timeout = timeouts.reply;
        }
        live.conn.set_deadline(deadline)?;
        Ok(&mut live.conn)
    }

    /// Any I/O error or timeout: a reply that arrives late would be read as
    /// the answer to the lane's next command.
    fn unfit_after(&self, e: &RedisError) -> bool {
        is_broken(e)
    }

    fn forget(&mut self, _: &TargetConnections) {
        *self.lane = None;
    }
}
