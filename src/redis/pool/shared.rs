//! The connections a thread-safe PHP's threads share (`ratelimit.multiplex`):
//! a single server's or a Sentinel target's master, one `mux` per shared
//! lane, the threads' commands pipelined on it, each caller waiting for its
//! own reply within its own deadline. The pool's rules hold here too (`pool`),
//! with one change: a caller that times out leaves the connection to the
//! others still waiting on it (its late reply is read and dropped by `mux`).

use std::sync::Arc;

use ::redis::{RedisError, RedisResult};
use parking_lot::Mutex;

use crate::error::Result;
use crate::redis::conn::Conn;
use crate::redis::pool::hold::Hold;
use crate::redis::pool::multiplex::thread_lane;
use crate::redis::pool::places::Shared;
use crate::redis::pool::TargetConnections;
use crate::redis::rules::retry::is_broken;
use crate::redis::rules::time::Deadline;
use crate::redis::rules::time::Timeouts;
use crate::redis::target::Sentinels;

/// One call's use of a shared connection: taken for each try, not locked
/// while the call waits for its reply.
pub(super) struct SharedHold {
    generation: u32,
    /// Which shared connection.
    i: usize,
    held: Option<Shared>,
    conn: Option<Conn>,
}

impl TargetConnections {
    /// One of the first `lanes` shared connections for a call, the one of this thread's turn.
    pub(super) fn shared_hold(&self, lanes: usize) -> SharedHold {
        SharedHold { generation: crate::fork::generation(), i: thread_lane(lanes), held: None, conn: None }
    }

    /// Shared connection `*i`, opened now when it is not (`true`). A lane
    /// that would be one connection too many for the bound is not opened:
    /// the first one is used instead (`*i` becomes 0).
    fn shared_connection(&self, i: &mut usize, generation: u32, timeouts: Timeouts) -> Result<(Shared, bool)> {
        let mut guard = self.shared[*i].lock();
        if let Some(s) = guard.as_ref().filter(|s| s.generation == generation && !s.mux.is_broken()) {
            return Ok((s.clone(), false));
        }
        if *i != 0 && !self.room_for_another(generation) {
            drop(guard);
            *i = 0;
            return self.shared_connection(i, generation, timeouts);
        }
        // Opened by our parent before fork() (dropping our copy closes only our
        // descriptor), or closed: open another.
        *guard = None;
        let (mux, confirmed) = self.connect_shared(timeouts)?;
        let shared = Shared { generation, mux, confirmed: confirmed.map(|c| Arc::new(Mutex::new(c))) };
        *guard = Some(shared.clone());
        Ok((shared, true))
    }
}

impl Hold for SharedHold {
    fn open(&mut self, tc: &TargetConnections, timeouts: Timeouts) -> Result<bool> {
        let (shared, fresh) = tc.shared_connection(&mut self.i, self.generation, timeouts)?;
        self.held = Some(shared);
        Ok(fresh)
    }

    /// One thread re-checks at a time; the others go on meanwhile.
    fn master_moved(&mut self, tc: &TargetConnections, sentinels: &Sentinels, timeouts: Timeouts) -> bool {
        let confirmed = self.held.as_ref().and_then(|s| s.confirmed.as_ref());
        confirmed.is_some_and(|c| c.try_lock().is_some_and(|mut c| c.moved(&tc.target, sentinels, timeouts)))
    }

    fn conn(&mut self, deadline: Deadline, _: Timeouts) -> RedisResult<&mut Conn> {
        let mux = &self.held.as_ref().expect("the shared connection is open").mux;
        Ok(self.conn.insert(Conn::single(mux.clone(), deadline)))
    }

    /// Not a timeout: the connection stays for the callers still waiting on
    /// it, and closes itself once none is (`mux`).
    fn unfit_after(&self, e: &RedisError) -> bool {
        !e.is_timeout() && is_broken(e)
    }

    /// Forgets the shared connection if it still is this one (another thread
    /// may have opened its successor already).
    fn forget(&mut self, tc: &TargetConnections) {
        self.conn = None;
        if let Some(held) = self.held.take() {
            let mut guard = tc.shared[self.i].lock();
            if guard.as_ref().is_some_and(|s| Arc::ptr_eq(&s.mux, &held.mux)) {
                *guard = None;
            }
        }
    }
}
