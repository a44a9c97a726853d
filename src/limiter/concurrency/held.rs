//! The permits this request holds (`concurrency`), per thread: a request
//! runs on one thread, in php-fpm, the CLI and every thread of a ZTS server.
//! A permit leaves the list when it is released (`release()`, its object
//! destroyed); whatever is left is freed at the request's end
//! (`release_all`, from the module's request shutdown), which PHP runs
//! after a fatal error, an uncaught exception, `exit()` and
//! `max_execution_time` too. A process killed outright frees nothing: its
//! permits end with their leases, on the server's clock. A child made by
//! `fork()` inherits the list but not the permits: it frees none of them
//! (its parent still holds them), only those it was granted itself.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::error::Result;
use crate::limiter::concurrency::Concurrency;
use crate::limiter::decide::instance::CallOptions;

/// A permit held: its limiter, its key, and the options it was granted with.
pub struct Held {
    pub limiter: Arc<Concurrency>,
    pub key: Vec<u8>,
    pub opts: CallOptions,
}

/// A permit and the process incarnation (`fork::generation`) it was granted in.
struct Entry(Held, u32);

impl Entry {
    /// Frees the slot, if this process was granted it.
    fn release(self, token: &[u8]) -> Result<bool> {
        if self.1 != crate::fork::generation() {
            return Ok(false);
        }
        self.0.limiter.release(&self.0.key, token, self.0.opts).map(|_| true)
    }
}

thread_local! {
    /// By token.
    static HELD: RefCell<HashMap<Vec<u8>, Entry>> = RefCell::new(HashMap::new());
}

/// Lists a permit granted in this request.
pub fn hold(token: Vec<u8>, held: Held) {
    HELD.with(|h| h.borrow_mut().insert(token, Entry(held, crate::fork::generation())));
}

/// Whether `token` is held by this request.
pub fn holds(token: &[u8]) -> bool {
    HELD.with(|h| h.borrow().contains_key(token))
}

/// The options `token` was granted with, while it is held.
pub fn options(token: &[u8]) -> Option<CallOptions> {
    HELD.with(|h| h.borrow().get(token).map(|e| e.0.opts))
}

/// Frees `token`'s slot if this request still holds it (so a second call,
/// or the request's end after it, frees nothing): whether it was held here.
pub fn release(token: &[u8]) -> Result<bool> {
    match HELD.with(|h| h.borrow_mut().remove(token)) {
        Some(entry) => entry.release(token),
        None => Ok(false),
    }
}

/// Frees every permit still held; failures are dropped (nobody is left to
/// tell), and a permit whose release failed ends with its lease.
pub fn release_all() {
    let all: Vec<(Vec<u8>, Entry)> = HELD.with(|h| h.borrow_mut().drain().collect());
    for (token, entry) in all {
        let _ = entry.release(&token);
    }
}
