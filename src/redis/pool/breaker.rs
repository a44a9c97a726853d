//! A target's breaker: after a call to it failed because the server could
//! not be reached or did not answer (a timeout, a refused or lost
//! connection), its calls are refused at once, without touching the network,
//! for `ratelimit.retry_interval` (±20 % jitter, so the processes of a fleet
//! do not all probe at the same instant); then one call probes the target,
//! and a call that the server answers closes the breaker. A server that
//! hangs instead of refusing (a dead host, a partition, a fork) would
//! otherwise cost every call the whole timeout, one after another.
//!
//! One per target per process, shared by the threads (atomics; the cause's
//! words behind a lock taken only when it opens or a refusal is worded); a
//! forked child starts closed (`crate::fork::generation`). A closed breaker
//! costs a call one atomic load before and one after.
//!
//! What opened it is told once per opening: `take_opened` hands the calling
//! thread the words of an opening it caused, for the PHP layer to log.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ::redis::RedisError;
use once_cell::sync::Lazy;
use parking_lot::Mutex;

/// The retry interval by default, in microseconds (`ratelimit.retry_interval`).
pub const DEFAULT_RETRY_INTERVAL_US: u64 = 1_000_000;

thread_local! {
    /// `ratelimit.retry_interval` as the calling thread sees it (ini values are per thread).
    static RETRY_INTERVAL_US: Cell<u64> = const { Cell::new(DEFAULT_RETRY_INTERVAL_US) };
    /// The words of an opening this thread's call caused, not yet logged.
    static OPENED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Sets the retry interval the calling thread's failed calls open a breaker for (0: never).
pub fn set_retry_interval(d: Duration) {
    RETRY_INTERVAL_US.set(d.as_micros() as u64);
}

pub fn retry_interval() -> Duration {
    Duration::from_micros(RETRY_INTERVAL_US.get())
}

/// The words of a breaker opening the calling thread's last calls caused,
/// once: the PHP layer logs it (one line per opening, not per call).
pub fn take_opened() -> Option<String> {
    OPENED.with_borrow_mut(Option::take)
}

/// Instants as nanoseconds since the first use, never 0 (0 means closed).
static EPOCH: Lazy<Instant> = Lazy::new(Instant::now);
fn now_ns() -> u64 {
    EPOCH.elapsed().as_nanos() as u64 + 1
}

/// Whether a failure says the server could not be reached or did not
/// answer (what opens the breaker): a timeout, a refused connection, one
/// lost or reset. Not an error reply (WRONGTYPE, NOAUTH, OOM: the server is
/// there), nor a TLS certificate that does not verify (each call would fail
/// the same way, at once: nothing to wait for).
pub fn unreachable(e: &RedisError) -> bool {
    e.is_timeout() || e.is_connection_refusal() || e.is_connection_dropped()
}

/// What a call may do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Closed: go.
    Go,
    /// Open and due: this call is the one probe.
    Probe,
    /// Open: refused without touching the network, for `left` more (zero
    /// while another call probes).
    Refuse { left: Duration },
}

#[derive(Default)]
pub struct Breaker {
    /// 0 while closed; else until when (`now_ns`) calls are refused.
    until: AtomicU64,
    /// A call is probing the target (the interval has passed).
    probing: AtomicBool,
    /// The fork generation it opened in: a child starts closed.
    generation: AtomicU32,
    /// Openings in this process (a failed probe keeps it open: not another).
    opens: AtomicU64,
    /// Calls refused while open.
    refused: AtomicU64,
    /// Why it opened, in the failure's words.
    cause: Mutex<String>,
}

/// A breaker's state for `php --ri` and `RateLimitMetrics::breakers()`.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakerState {
    /// `None` closed; `Some(seconds)` open for that long more (0 while a probe runs).
    pub open_for: Option<f64>,
    pub opens: u64,
    pub refused: u64,
    pub cause: String,
}

impl Breaker {
    /// Whether a call may go now, probe, or is refused.
    #[inline]
    pub fn admit(&self) -> Admit {
        let until = self.until.load(Ordering::Acquire);
        if until == 0 {
            return Admit::Go;
        }
        self.admit_open(until)
    }

    #[cold]
    fn admit_open(&self, until: u64) -> Admit {
        if self.generation.load(Ordering::Relaxed) != crate::fork::generation() {
            // Opened by the parent before a fork: this process has not failed yet.
            self.close();
            return Admit::Go;
        }
        let now = now_ns();
        if now < until {
            self.refused.fetch_add(1, Ordering::Relaxed);
            return Admit::Refuse { left: Duration::from_nanos(until - now) };
        }
        match self.probing.compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => Admit::Probe,
            Err(_) => {
                self.refused.fetch_add(1, Ordering::Relaxed);
                Admit::Refuse { left: Duration::ZERO }
            }
        }
    }

    /// A call found the server there (it answered, even with an error): closes it.
    #[inline]
    pub fn answered(&self) {
        if self.until.load(Ordering::Relaxed) != 0 {
            self.close();
        }
    }

    #[cold]
    fn close(&self) {
        self.until.store(0, Ordering::Release);
        self.probing.store(false, Ordering::Release);
    }

    /// A call could not reach the server (`unreachable`): opens the breaker
    /// for `interval` ±20 %, or keeps it open that much longer after a
    /// failed probe. `target` and `cause` word the opening. True when this
    /// call opened it (then the calling thread has its words, `take_opened`).
    pub fn trip(&self, interval: Duration, target: &str, cause: &str) -> bool {
        if interval.is_zero() {
            return false;
        }
        let span = jittered(interval);
        *self.cause.lock() = cause.to_string();
        self.generation.store(crate::fork::generation(), Ordering::Relaxed);
        let was = self.until.swap(now_ns() + span.as_nanos() as u64, Ordering::AcqRel);
        self.probing.store(false, Ordering::Release);
        let opened = was == 0;
        if opened {
            self.opens.fetch_add(1, Ordering::Relaxed);
            let words = format!(
                "ratelimit: Redis at {target} could not be reached ({cause}); its calls get the ratelimit.on_error answer without \
                 trying for {:.3} s, then one call tries it again",
                span.as_secs_f64()
            );
            OPENED.set(Some(words));
        }
        opened
    }

    /// A probe this call took but will not make (another breaker refused
    /// the call): the next call may probe.
    pub fn release_probe(&self) {
        self.probing.store(false, Ordering::Release);
    }

    /// Whether a probe is under way and has not been judged yet.
    pub fn is_probing(&self) -> bool {
        self.probing.load(Ordering::Acquire)
    }

    /// Why it opened, in the failure's words.
    pub fn cause(&self) -> String {
        self.cause.lock().clone()
    }

    pub fn state(&self) -> BreakerState {
        let until = self.until.load(Ordering::Acquire);
        let stale = self.generation.load(Ordering::Relaxed) != crate::fork::generation();
        let open_for = (until != 0 && !stale).then(|| Duration::from_nanos(until.saturating_sub(now_ns())).as_secs_f64());
        BreakerState { open_for, opens: self.opens.load(Ordering::Relaxed), refused: self.refused.load(Ordering::Relaxed), cause: self.cause() }
    }
}

/// `interval` ±20 %, from a cheap per-call mix of the clock and a counter
/// (not for secrets: only so that processes spread their probes).
fn jittered(interval: Duration) -> Duration {
    static SEQ: AtomicU64 = AtomicU64::new(0x9e37_79b9_7f4a_7c15);
    let mut x = now_ns() ^ SEQ.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed) ^ u64::from(std::process::id()).rotate_left(32);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    let unit = (x >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
    interval.mul_f64(0.8 + 0.4 * unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_refuses_then_lets_one_probe_and_closes_on_an_answer() {
        let b = Breaker::default();
        assert_eq!(b.admit(), Admit::Go);
        assert!(b.trip(Duration::from_millis(50), "redis://x", "timed out"));
        assert!(take_opened().is_some_and(|w| w.contains("redis://x") && w.contains("timed out")));
        assert_eq!(take_opened(), None, "told once");
        match b.admit() {
            Admit::Refuse { left } => assert!(left <= Duration::from_millis(60) && left >= Duration::from_millis(30), "{left:?}"),
            other => panic!("{other:?}"),
        }
        std::thread::sleep(Duration::from_millis(61));
        assert_eq!(b.admit(), Admit::Probe);
        assert_eq!(b.admit(), Admit::Refuse { left: Duration::ZERO }, "one probe at a time");
        // The probe failed: open again, not another opening.
        assert!(!b.trip(Duration::from_millis(50), "redis://x", "refused"));
        assert_eq!(take_opened(), None);
        assert!(matches!(b.admit(), Admit::Refuse { .. }));
        assert_eq!(b.state().opens, 1);
        std::thread::sleep(Duration::from_millis(61));
        assert_eq!(b.admit(), Admit::Probe);
        b.answered();
        assert_eq!(b.admit(), Admit::Go);
        assert_eq!(b.state().open_for, None);
        assert_eq!(b.state().refused, 3);
    }

    #[test]
    fn an_interval_of_zero_never_opens() {
        let b = Breaker::default();
        assert!(!b.trip(Duration::ZERO, "redis://x", "timed out"));
        assert_eq!(b.admit(), Admit::Go);
    }

    #[test]
    fn jitter_stays_within_twenty_percent() {
        for _ in 0..1000 {
            let j = jittered(Duration::from_secs(1));
            assert!(j >= Duration::from_millis(800) && j <= Duration::from_millis(1200), "{j:?}");
        }
    }
}
