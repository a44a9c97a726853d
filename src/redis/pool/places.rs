//! What a target's connection places hold (`pool::TargetConnections`): a
//! lane's connection, used by one call at a time (`lanes`), or one the
//! threads share (`shared`), and what the pool asks of either (`Place`). Each remembers the process incarnation that
//! opened it (`crate::fork::generation`): after `fork()` the child opens its own.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use crate::redis::conn::Conn;
use crate::redis::pool::sentinel::Confirmed;
use crate::redis::single::mux::Mux;

/// A lane's open connection.
pub(super) struct LaneConn {
    pub(super) generation: u32,
    pub(super) conn: Conn,
    pub(super) reply_timeout: Duration,
    /// A Sentinel target's master, and when the sentinels last named it.
    pub(super) confirmed: Option<Confirmed>,
}

/// A connection the threads share (`mux`); a call holds a clone of it.
#[derive(Clone)]
pub(super) struct Shared {
    pub(super) generation: u32,
    pub(super) mux: Arc<Mux>,
    /// A Sentinel target's master, and when the sentinels last named it
    /// (re-checked by one thread at a time).
    pub(super) confirmed: Option<Arc<Mutex<Confirmed>>>,
}

/// What the pool asks of a place's connection, whichever kind it is.
pub(super) trait Place {
    /// The process incarnation that opened it.
    fn generation(&self) -> u32;
    /// Not known to be broken.
    fn usable(&self) -> bool;
    /// A call is on it now (a lane in a call is locked instead).
    fn in_use(&self) -> bool;
    /// What it learnt of its server's module (`Conn::module`).
    fn module(&self) -> Option<bool>;
}

impl Place for LaneConn {
    fn generation(&self) -> u32 {
        self.generation
    }
    fn usable(&self) -> bool {
        true
    }
    fn in_use(&self) -> bool {
        false
    }
    fn module(&self) -> Option<bool> {
        self.conn.module()
    }
}

impl Place for Shared {
    fn generation(&self) -> u32 {
        self.generation
    }
    fn usable(&self) -> bool {
        !self.mux.is_broken()
    }
    fn in_use(&self) -> bool {
        self.mux.in_flight() > 0
    }
    fn module(&self) -> Option<bool> {
        self.mux.module()
    }
}

/// Of `places`, those open in process `generation`; one locked for a call counts.
pub(super) fn open_in<P: Place>(places: &[Mutex<Option<P>>], generation: u32) -> usize {
    places.iter().filter(|p| p.try_lock().is_none_or(|p| p.as_ref().is_some_and(|p| p.generation() == generation && p.usable()))).count()
}

/// Of `places`, those open in `generation` when none is in a call; `None` while one is.
pub(super) fn idle_in<P: Place>(places: &[Mutex<Option<P>>], generation: u32) -> Option<usize> {
    let mut open = 0;
    for place in places {
        match place.try_lock()?.as_ref() {
            Some(p) if p.generation() == generation && p.in_use() => return None,
            Some(p) if p.generation() == generation && p.usable() => open += 1,
            _ => {}
        }
    }
    Some(open)
}

/// Closes up to `*excess` of `places`' connections that no call is on,
/// taking each from `*excess`; how many it closed. Dropping a connection
/// closes its socket (a shared one's when the last caller lets go): the
/// descriptor goes back to the process.
pub(super) fn close_idle<P: Place>(places: &[Mutex<Option<P>>], generation: u32, excess: &mut usize) -> u64 {
    let mut closed = 0;
    for place in places {
        if *excess == 0 {
            break;
        }
        if let Some(mut place) = place.try_lock() {
            if place.as_ref().is_some_and(|p| p.generation() == generation && !p.in_use()) {
                *place = None;
                closed += 1;
                *excess -= 1;
            }
        }
    }
    closed
}

/// What `places`' first connection open in `generation` learnt of its server's module.
pub(super) fn module_known_in<P: Place>(places: &[Mutex<Option<P>>], generation: u32) -> Option<Option<bool>> {
    places.iter().find_map(|p| p.try_lock().and_then(|p| p.as_ref().filter(|p| p.generation() == generation).map(|p| p.module())))
}
