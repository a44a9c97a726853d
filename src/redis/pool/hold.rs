//! A call's way in (`TargetConnections::run`), its hold on one of its
//! target's connections (`Hold`: a lane locked for the call, `lanes`, or a
//! connection the threads share, `shared`), and the one loop that runs the
//! call on it by the retry decision (`TargetConnections::at_most_once`,
//! obeying `retry::allows`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use ::redis::{RedisError, RedisResult};

use crate::error::Result;
use crate::redis::conn::Conn;
use crate::redis::pool::breakers::Gate;
use crate::redis::pool::multiplex::shared_connections;
use crate::redis::pool::{enforce_bound, TargetConnections, POOL, TICK};
use crate::redis::rules::retry;
use crate::redis::rules::time::{Deadline, Timeouts};
use crate::redis::target::{Address, Sentinels};

/// A call's hold on one of its target's connections, for as many tries as
/// the retry rule allows (`TargetConnections::at_most_once`): a lane locked
/// for the call (`lanes`) or a connection the threads share (`shared`).
pub trait Hold {
    /// Opens the connection when there is none; `true` when it opened one now.
    fn open(&mut self, tc: &TargetConnections, timeouts: Timeouts) -> Result<bool>;
    /// A Sentinel target's: whether the sentinels name another master now
    /// (asked at most once a second, `sentinel::Confirmed`).
    fn master_moved(&mut self, tc: &TargetConnections, sentinels: &Sentinels, timeouts: Timeouts) -> bool;
    /// The open connection, ready for a call until `deadline`.
    fn conn(&mut self, deadline: Deadline, timeouts: Timeouts) -> RedisResult<&mut Conn>;
    /// Whether the failure `e` leaves the connection unfit for another call.
    fn unfit_after(&self, e: &RedisError) -> bool;
    /// Lets the connection go.
    fn forget(&mut self, tc: &TargetConnections);
}

impl TargetConnections {
    /// Runs `op` on this target's connection, opening it if needed, within
    /// one deadline (`time::Deadline`).
    ///
    /// A connection found closed before anything was written (the server
    /// restarted, or closed it idle) is replaced and `op` is tried once more,
    /// as is a call a demoted Sentinel master refused (READONLY): neither ran.
    /// A timeout or a connection lost after the write is never retried, since
    /// the command may have run (`retry`).
    ///
    /// The target's breaker (`breaker`) is asked first: while it is open the
    /// call fails at once, without touching the network; a call that could
    /// not reach the server opens it (`fail`), one the server answered closes
    /// it and drops what this process decided by itself meanwhile (`local`).
    pub fn run<T>(self: &Arc<Self>, timeouts: Timeouts, op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        self.run_routed(timeouts, None, op)
    }

    /// `run` for a call routed by `route`, its (first) key: on a cluster it
    /// goes through the breaker of that key's master as well (`breakers`).
    pub fn run_routed<T>(self: &Arc<Self>, timeouts: Timeouts, route: Option<&[u8]>, op: impl FnMut(&mut Conn) -> RedisResult<T>) -> Result<T> {
        // The pool's locks are taken inside the gate: a fork() waits for this call.
        let _inside = crate::fork::enter();
        // An open breaker refuses at once: no caller waits for a target that just failed.
        let gate = self.breakers.admit(route).map_err(|refusal| self.refused(refusal))?;
        self.last_used.store(TICK.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let opened = self.opened.load(Ordering::Relaxed);
        let failures = self.failures.load(Ordering::Relaxed);
        let shared = match self.shareable() {
            true => shared_connections(),
            false => 0,
        };
        let deadline = Deadline::after(timeouts.reply);
        let result = match shared {
            0 => self.at_most_once(self.lane_hold(), timeouts, deadline, &gate, op),
            n => self.at_most_once(self.shared_hold(n), timeouts, deadline, &gate, op),
        };
        // A connection opened (one more descriptor) or one lost (a target that
        // may be garbage now): the only moments the bound can be crossed.
        if self.opened.load(Ordering::Relaxed) != opened || self.failures.load(Ordering::Relaxed) != failures {
            enforce_bound(&mut POOL.lock(), self);
        }
        match &result {
            Ok(_) => self.answered(&gate),
            // A probe that failed before it could learn anything (a setup
            // error) keeps the breaker open for another interval.
            Err(e) if gate.probes() => self.probe_failed(e, &gate),
            Err(_) => {}
        }
        result
    }

    /// `op` on `hold`'s connection by the one retry rule (`retry`): the
    /// connection opened when there is none (the deadline extended by the
    /// time that took); a Sentinel target's connection let go first when the
    /// sentinels name another master (nothing was sent: the old master may
    /// still take writes, which it loses when demoted); a connection a failure
    /// left unfit let go, and `op` tried once more only when the failure
    /// proves it did not run.
    pub(super) fn at_most_once<T>(
        &self,
        mut hold: impl Hold,
        timeouts: Timeouts,
        mut deadline: Deadline,
        gate: &Gate,
        mut op: impl FnMut(&mut Conn) -> RedisResult<T>,
    ) -> Result<T> {
        let mut retried = false;
        loop {
            let started = Instant::now();
            let opened = hold.open(self, timeouts)?;
            let moved = match &self.target.address {
                Address::Sentinel(sentinels) => hold.master_moved(self, sentinels, timeouts),
                _ => false,
            };
            if opened || self.target.is_sentinel() {
                deadline.extend(started.elapsed());
            }
            if moved {
                hold.forget(self);
                continue;
            }
            match hold.conn(deadline, timeouts).and_then(&mut op) {
                Ok(v) => return Ok(v),
                // A master demoted to replica refused the write (nothing ran):
                // a Sentinel target drops it and asks the sentinels again.
                Err(e) if hold.unfit_after(&e) || self.demoted(&e) => {
                    hold.forget(self);
                    // Sent again at most once, and only what did not run
                    // (`retry::allows`): a connection found closed before
                    // the write, a master demoted before it ran the call.
                    if retry::allows(&e).did_not_run() && !std::mem::replace(&mut retried, true) {
                        continue;
                    }
                    return Err(self.fail(&e, timeouts, gate));
                }
                Err(e) => return Err(self.fail(&e, timeouts, gate)),
            }
        }
    }
}
