//! The leases this thread holds, by (key, policy) and target, and their
//! going back: a refund of what is left (`Adjust::Refund`, one call, never
//! sent again once it may have run), or nothing for a fixed window whose
//! window is ending (its units are void at the window's end: a refund
//! that reached the next window would give that window room it never had).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::limiter::decide::adjust::Adjust;
use crate::limiter::decide::instance::{CallOptions, Limiter};
use crate::limiter::lease::counts::Counts;
use crate::limiter::{OnError, Outcome};
use crate::metrics::Mode;

/// A fixed window's lease is not refunded with less than this left of its
/// window (by this process's reckoning, which errs early): the refund must
/// reach Redis before the window ends.
pub const WINDOW_MARGIN: Duration = Duration::from_millis(50);

/// One lease.
pub struct Held {
    pub limiter: Arc<Limiter>,
    pub id: Vec<u8>,
    pub counts: Arc<Counts>,
    /// Units taken and not spent.
    pub left: i64,
    /// When it was taken (its age counts from the take's answer).
    pub taken: Instant,
    pub max_age: Duration,
    /// A fixed window's end, counted from before the take was sent (so
    /// early, never late); its units are void from then on.
    pub window_end: Option<Instant>,
    /// The take's answer: what Redis had left after it, and when the key resets.
    pub answer: Outcome,
    pub reset_at: Instant,
    /// The options of the take (timeouts, the server module) for the refund.
    pub opts: CallOptions,
    /// The process incarnation that took it (`fork::generation`).
    pub generation: u32,
}

impl Held {
    /// Whether this thread's process took it (not a parent before `fork()`).
    pub fn ours(&self) -> bool {
        self.generation == crate::fork::generation()
    }

    /// Its units can no longer be spent: older than `max_age`, or its window ended.
    pub fn aged(&self, now: Instant) -> bool {
        now.duration_since(self.taken) > self.max_age || self.window_end.is_some_and(|end| now >= end)
    }

    /// Gives back what is left: a refund, unless its window has (nearly)
    /// ended; counted as returned, or as expired when it could not go back.
    pub fn give_back(self, now: Instant) {
        if !self.ours() || self.left == 0 {
            return;
        }
        if self.window_end.is_some_and(|end| now + WINDOW_MARGIN >= end) {
            self.counts.expired(self.left);
            return;
        }
        // A give-back is no decision: not counted, never answered by `on_error`.
        let opts = CallOptions { on_error: OnError::Throw, dry_run: false, metrics: Mode::Off, block_cache: 0, ..self.opts };
        match self.limiter.adjust_at(&self.id, Adjust::Refund, self.left, opts, None) {
            Ok(_) => self.counts.returned(self.left),
            Err(_) => self.counts.expired(self.left),
        }
    }
}

/// The table's key: the limiter's key and its policy's fingerprint.
type Slot = (Vec<u8>, u64);

thread_local! {
    /// Per slot, one lease per target (limiters of one key and policy on several targets are rare).
    static TABLE: RefCell<HashMap<Slot, Vec<Held>>> = RefCell::new(HashMap::new());
}

/// Takes this thread's lease of `limiter` on `key` out of the table (its
/// caller puts it back with `put`): none when there is none, or when the
/// one there was a parent process's.
pub fn take_out(limiter: &Limiter, key: &[u8]) -> Option<Held> {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let slot = (key.to_vec(), limiter.fingerprint());
        let list = t.get_mut(&slot)?;
        let at = list.iter().position(|h| h.limiter.same_target(limiter))?;
        let held = list.swap_remove(at);
        if list.is_empty() {
            t.remove(&slot);
        }
        held.ours().then_some(held)
    })
}

/// Puts a lease (back) in the table.
pub fn put(key: Vec<u8>, held: Held) {
    TABLE.with(|t| t.borrow_mut().entry((key, held.limiter.fingerprint())).or_default().push(held));
}

/// `reset()` of `key`: the key is deleted, so this thread's lease of it goes
/// back with it (counted as returned; nothing to send).
pub fn give_back_key(limiter: &Limiter, key: &[u8]) {
    if let Some(held) = take_out(limiter, key) {
        held.counts.returned(held.left);
    }
}

/// Gives back every lease of this thread older than its `maxAge` (the
/// request's end: a worker that waits for its next request keeps only young leases).
pub fn give_back_aged() {
    let now = Instant::now();
    let aged: Vec<Held> = TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let mut aged = Vec::new();
        for list in t.values_mut() {
            let mut i = 0;
            while i < list.len() {
                if list[i].aged(now) {
                    aged.push(list.swap_remove(i));
                } else {
                    i += 1;
                }
            }
        }
        t.retain(|_, list| !list.is_empty());
        aged
    });
    for held in aged {
        held.give_back(now);
    }
}

/// Gives back every lease of this thread (its end, or the process's).
pub fn give_back_all() {
    let all: Vec<Held> = TABLE.with(|t| t.borrow_mut().drain().flat_map(|(_, list)| list).collect());
    let now = Instant::now();
    for held in all {
        held.give_back(now);
    }
}

/// The units this thread holds in leases, and how many leases.
pub fn held_here() -> (i64, usize) {
    TABLE.with(|t| t.borrow().values().flatten().filter(|h| h.ours()).fold((0, 0), |(u, n), h| (u + h.left, n + 1)))
}
