//! How a thread's calls use a target's connections (`ratelimit.multiplex`):
//! shared by the threads (`shared`), or a lane each (`lanes`). Per thread, as
//! every ini value is under a thread-safe PHP.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Connections a target may have open at once, for as many threads.
pub const PLACES: usize = 8;

/// How a thread's calls use a target's connections (`ratelimit.multiplex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multiplex {
    /// Shared by the threads of a thread-safe PHP (one per target); without
    /// threads, the single caller's own connection, as with `Off`.
    Auto,
    /// Each call holds a connection of its own (a lane) for its round trip.
    Off,
    /// This many shared connections per target (1 to `PLACES`), threads spread over them.
    Shared(usize),
}

/// Whether this PHP runs requests in threads (built against a thread-safe PHP).
pub const THREADED: bool = cfg!(php_zts);

thread_local! {
    static MULTIPLEX: Cell<Multiplex> = const { Cell::new(Multiplex::Auto) };
    /// This thread's place among the shared connections of a target.
    static THREAD_NO: usize = NEXT_THREAD_NO.fetch_add(1, Ordering::Relaxed);
}
static NEXT_THREAD_NO: AtomicUsize = AtomicUsize::new(0);

/// Sets how the calling thread's calls use connections (the PHP layer applies
/// `ratelimit.multiplex` here).
pub fn set_multiplex(m: Multiplex) {
    MULTIPLEX.set(match m {
        Multiplex::Shared(n) => Multiplex::Shared(n.clamp(1, PLACES)),
        other => other,
    });
}

/// Shared connections per target for this thread's calls; 0: a lane each.
pub(super) fn shared_connections() -> usize {
    match MULTIPLEX.get() {
        Multiplex::Auto if THREADED => 1,
        Multiplex::Auto | Multiplex::Off => 0,
        Multiplex::Shared(n) => n,
    }
}

/// Which of `lanes` shared connections this thread's calls use first.
pub(super) fn thread_lane(lanes: usize) -> usize {
    THREAD_NO.with(|n| *n) % lanes
}
