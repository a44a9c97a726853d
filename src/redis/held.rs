//! What a target's connection places hold (`pool::TargetConnections`): a
//! lane's connection, used by one call at a time (`lanes`), or one the
//! threads share (`shared`). Each remembers the process incarnation that
//! opened it (`crate::fork::generation`): after `fork()` the child opens its own.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::conn::Conn;
use super::mux::Mux;
use super::sentinel::Confirmed;

/// A lane's open connection.
pub(super) struct Live {
    pub(super) pid: u32,
    pub(super) conn: Conn,
    pub(super) reply_timeout: Duration,
    /// A Sentinel target's master, and when the sentinels last named it.
    pub(super) confirmed: Option<Confirmed>,
}

/// A connection the threads share (`mux`); a call holds a clone of it.
#[derive(Clone)]
pub(super) struct Shared {
    pub(super) pid: u32,
    pub(super) mux: Arc<Mux>,
    /// A Sentinel target's master, and when the sentinels last named it
    /// (re-checked by one thread at a time).
    pub(super) confirmed: Option<Arc<Mutex<Confirmed>>>,
}
