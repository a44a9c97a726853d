//! The connections a thread-safe PHP's threads share (`ratelimit.multiplex`):
//! a single server's or a Sentinel target's master, one `mux` per shared
//! lane, the threads' commands pipelined on it, each caller waiting for its
//! own reply within its own deadline. The pool's rules hold here too (`pool`),
//! with one change: a caller that times out leaves the connection to the
//! others still waiting on it (its late reply is read and dropped by `mux`).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use ::redis::RedisResult;
use parking_lot::Mutex;

use super::conn::{is_broken, Conn};
use super::mux::Mux;
use super::open::Timeouts;
use super::pool::{Slot, LANES};
use super::retry::{self, Deadline};
use super::target::Address;
use crate::error::Result;

/// A connection the threads share (`mux`), and the process incarnation that opened it.
pub(super) struct Shared {
    pub(super) pid: u32,
    pub(super) mux: Arc<Mux>,
    /// A Sentinel target's master, and when the sentinels last named it
    /// (re-checked by one thread at a time).
    pub(super) confirmed: Option<Arc<Mutex<super::sentinel::Confirmed>>>,
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
pub(super) fn shared_lanes() -> usize {
    match MULTIPLEX.get() {
        Multiplex::Auto if THREADED => 1,
        Multiplex::Auto | Multiplex::Off => 0,
        Multiplex::Shared(n) => n,
    }
}
impl Slot {
    /// `run` on one of the first `lanes` shared connections (the one of this
    /// thread's turn), opening it if needed. The retry rule of `run` holds; a
    /// timeout leaves the connection to the shared one's rule.
    pub(super) fn run_shared<T>(
        &self,
        timeouts: Timeouts,
        mut deadline: Deadline,
        lanes: usize,
        mut op: impl FnMut(&mut Conn) -> RedisResult<T>,
    ) -> Result<T> {
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
}
