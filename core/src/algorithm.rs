//! An algorithm with its parameters, read from the arguments every entry
//! carries (lua/library.lua: ALGORITHMS.<name> and its `nargs` arguments,
//! decimal text as the extension sends them), and the steps every algorithm
//! has: `check` whether a cost fits (reading only; a value the algorithm
//! never writes is refused here, so nothing after it fails), `explain` the
//! times of an answer that takes nothing, `commit` a cost that fits; and
//! `repair`, what a consuming call that takes nothing writes (a fixed
//! window's lost expiry).

use crate::answer::Answer;
use crate::effect::Effect;
use crate::numbers::lua_tonumber;
use crate::view::{Read, Refused, View};
use crate::{calendar_window, fixed_window, gcra, leaky_bucket, sliding_blocks, sliding_log, token_bucket};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Algorithm {
    FixedWindow(fixed_window::Params),
    SlidingLog(sliding_log::Params),
    SlidingBlocks(sliding_blocks::Params),
    TokenBucket(token_bucket::Params),
    LeakyBucket(leaky_bucket::Params),
    Gcra(gcra::Params),
    CalendarWindow(calendar_window::Params),
}

/// A `check`'s findings, which `explain` or `commit` go on from.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub fits: bool,
    /// What is left before any write.
    pub remaining: f64,
    state: State,
}

#[derive(Debug, Clone, PartialEq)]
enum State {
    FixedWindow(fixed_window::State),
    SlidingLog(sliding_log::State),
    SlidingBlocks(sliding_blocks::State),
    TokenBucket(token_bucket::State),
    LeakyBucket(leaky_bucket::State),
    Gcra(gcra::State),
    CalendarWindow(calendar_window::State),
}

pub use crate::limits::{MAX_BLOCKS, MAX_COUNT, MAX_INSTANT_MS, MAX_LOG_COST, MAX_MS, MAX_SECONDS, MAX_US};

/// (remaining, reset_us, delay_us) of a committed cost.
pub type Committed = (f64, f64, f64);

/// What an `adjust` call does to a key whose state `check` read (the
/// `adjust` entry's mode: 0, 1, 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Adjust {
    /// Give back up to `units` of what the id used, never past the empty/full state.
    Refund,
    /// Take `units` even past the limit: a debt the clock pays off.
    Charge,
    /// Book `units` to be used after a wait of at most this many µs
    /// (token bucket, leaky bucket, GCRA); else book nothing.
    Reserve(f64),
    /// Take a lease (token bucket, GCRA, fixed window): up to `units`, at
    /// least the call's own cost (this many), never more than is there
    /// (`crate::lease`); when even the cost does not fit, nothing.
    Lease(f64),
}

impl Adjust {
    /// Whether `algo` can do it (a booking needs an algorithm whose debt is a wait).
    pub fn fits(self, algo: &Algorithm) -> bool {
        match self {
            Adjust::Reserve(_) => matches!(algo, Algorithm::TokenBucket(_) | Algorithm::LeakyBucket(_) | Algorithm::Gcra(_)),
            Adjust::Lease(_) => {
                matches!(algo, Algorithm::TokenBucket(_) | Algorithm::Gcra(_) | Algorithm::FixedWindow(_) | Algorithm::CalendarWindow(_))
            }
            _ => true,
        }
    }
}

impl Algorithm {
    /// How many arguments follow the algorithm's name, by name.
    pub fn nargs(name: &[u8]) -> Option<usize> {
        Some(match name {
            b"fixed_window" | b"token_bucket" | b"gcra" => 2,
            b"sliding_log" | b"sliding_blocks" | b"leaky_bucket" | b"anchored_window" => 3,
            b"calendar_window" => 5,
            _ => return None,
        })
    }

    /// The algorithm `name` with `args` (exactly `nargs(name)` of them),
    /// each within what the extension's constructors allow (and so what
    /// it ever sends): counts and durations where the arithmetic stays
    /// exact in doubles, and a call's work bounded. Anything else is refused,
    /// naming the algorithm; the Lua library trusts its caller instead.
    pub fn parse(name: &[u8], args: &[&[u8]]) -> Result<Algorithm, Refused> {
        let bad = || Refused(format!("ERR ratelimit: bad arguments for {}", String::from_utf8_lossy(name)));
        if Algorithm::nargs(name) != Some(args.len()) {
            return Err(bad());
        }
        let mut n = [0.0; 5];
        for (slot, a) in n.iter_mut().zip(args) {
            *slot = lua_tonumber(a).filter(|x| x.is_finite()).ok_or_else(bad)?;
        }
        let [a, b, c, d, e] = n;
        let whole = |x: f64, lo: f64, hi: f64| x == x.floor() && (lo..=hi).contains(&x);
        let count = |x: f64| whole(x, 1.0, MAX_COUNT);
        // A bucket fills or drains within MAX_SECONDS (its key's TTL).
        let rate = |units: f64, r: f64| r > 0.0 && r <= MAX_COUNT && units / r <= MAX_SECONDS;
        let algorithm = match name {
            b"fixed_window" if whole(a, 1.0, MAX_MS) && count(b) => Algorithm::FixedWindow(fixed_window::Params { window: a, limit: b }),
            // The log's key outlives its newest entry by at least the window.
            b"sliding_log" if whole(a, 1000.0, MAX_US) && count(b) && whole(c, (a / 1000.0).ceil(), MAX_MS) => {
                Algorithm::SlidingLog(sliding_log::Params { window: a, limit: b, ttl_ms: c })
            }
            // At most MAX_BLOCKS slices of at least 1 ms in a window.
            b"sliding_blocks" if whole(a, 1000.0, MAX_US) && count(b) && whole(c, 1000.0, a) && (a / c).floor() <= MAX_BLOCKS => {
                Algorithm::SlidingBlocks(sliding_blocks::Params { window: a, limit: b, slice: c })
            }
            b"token_bucket" if count(a) && rate(a, b) => Algorithm::TokenBucket(token_bucket::Params { capacity: a, rate: b }),
            b"leaky_bucket" if count(a) && rate(a, b) && whole(c, 1.0, a) => {
                Algorithm::LeakyBucket(leaky_bucket::Params { capacity: a, rate: b, size: c })
            }
            b"gcra" if whole(a, 1.0, MAX_US) && whole(b, a, MAX_US) => Algorithm::Gcra(gcra::Params { interval: a, tolerance: b }),
            // Instants in ms within 2^52 µs (the year 2112); windows of at most 10 years.
            b"anchored_window" if whole(a, 1.0, MAX_MS) && count(b) && whole(c, 0.0, MAX_INSTANT_MS) => {
                Algorithm::CalendarWindow(calendar_window::Params { windows: calendar_window::Windows::Anchored { window: a, anchor: c }, limit: b })
            }
            b"calendar_window"
                if count(a) && [b, c, d, e].iter().all(|&x| whole(x, 0.0, MAX_INSTANT_MS)) && b < c && c < d && d < e && e - b <= 3.0 * MAX_MS =>
            {
                Algorithm::CalendarWindow(calendar_window::Params { windows: calendar_window::Windows::Calendar { edges: [b, c, d, e] }, limit: a })
            }
            _ => return Err(bad()),
        };
        Ok(algorithm)
    }

    /// The largest cost one call may take, as the extension bounds it: what
    /// the policy can ever accept (a larger cost could only be denied, with
    /// a retry beyond any time the arithmetic keeps exact), and for an exact
    /// log at most MAX_LOG_COST (a member per unit: its work grows with the cost).
    pub fn max_cost(&self) -> f64 {
        match self {
            Algorithm::FixedWindow(p) => p.limit,
            Algorithm::CalendarWindow(p) => p.limit,
            Algorithm::SlidingLog(p) => p.limit.min(MAX_LOG_COST),
            Algorithm::SlidingBlocks(p) => p.limit,
            Algorithm::TokenBucket(p) => p.capacity,
            Algorithm::LeakyBucket(p) => (p.capacity / p.size).floor(),
            Algorithm::Gcra(p) => (p.tolerance / p.interval).floor(),
        }
    }

    /// False for the fixed window: its clock is the key's expiry, and a call
    /// of fixed windows only needs no TIME.
    pub fn reads_clock(&self) -> bool {
        !matches!(self, Algorithm::FixedWindow(_))
    }

    /// Whether `cost` fits at `now` (µs; `injected`: a test's clock).
    pub fn check(&self, view: &dyn View, cost: f64, now: f64, injected: bool) -> Read<Checked> {
        let (fits, remaining, state) = match self {
            Algorithm::FixedWindow(p) => {
                let (f, r, s) = fixed_window::check(p, view, cost, now, injected)?;
                (f, r, State::FixedWindow(s))
            }
            Algorithm::SlidingLog(p) => {
                let (f, r, s) = sliding_log::check(p, view, cost, now)?;
                (f, r, State::SlidingLog(s))
            }
            Algorithm::SlidingBlocks(p) => {
                let (f, r, s) = sliding_blocks::check(p, view, cost, now)?;
                (f, r, State::SlidingBlocks(s))
            }
            Algorithm::TokenBucket(p) => {
                let (f, r, s) = token_bucket::check(p, view, cost, now)?;
                (f, r, State::TokenBucket(s))
            }
            Algorithm::LeakyBucket(p) => {
                let (f, r, s) = leaky_bucket::check(p, view, cost, now)?;
                (f, r, State::LeakyBucket(s))
            }
            Algorithm::Gcra(p) => {
                let (f, r, s) = gcra::check(p, view, cost, now)?;
                (f, r, State::Gcra(s))
            }
            Algorithm::CalendarWindow(p) => {
                let (f, r, s) = calendar_window::check(p, view, cost, now, injected)?;
                (f, r, State::CalendarWindow(s))
            }
        };
        Ok(Checked { fits, remaining, state })
    }

    /// (reset_us, retry_us) of an answer that takes nothing.
    pub fn explain(&self, view: &dyn View, cost: f64, now: f64, c: &Checked) -> Read<(f64, f64)> {
        Ok(match (self, &c.state) {
            (Algorithm::FixedWindow(_), State::FixedWindow(s)) => fixed_window::explain(s),
            (Algorithm::SlidingLog(p), State::SlidingLog(s)) => sliding_log::explain(p, view, cost, s)?,
            (Algorithm::SlidingBlocks(p), State::SlidingBlocks(s)) => sliding_blocks::explain(p, cost, now, s),
            (Algorithm::TokenBucket(p), State::TokenBucket(s)) => token_bucket::explain(p, cost, s),
            (Algorithm::LeakyBucket(p), State::LeakyBucket(s)) => leaky_bucket::explain(p, cost, s),
            (Algorithm::Gcra(p), State::Gcra(s)) => gcra::explain(p, now, s),
            (Algorithm::CalendarWindow(_), State::CalendarWindow(s)) => calendar_window::explain(s),
            _ => unreachable!("a check's state belongs to its own algorithm"),
        })
    }

    /// What a consuming call writes when it takes nothing (denied, or a
    /// compound another member denied): only a fixed window without expiry.
    pub fn repair(&self, c: &Checked, effects: &mut Vec<Effect>) {
        match (self, &c.state) {
            (Algorithm::FixedWindow(p), State::FixedWindow(s)) => fixed_window::repair(p, s, effects),
            (Algorithm::CalendarWindow(_), State::CalendarWindow(s)) => calendar_window::repair(s, effects),
            _ => {}
        }
    }

    /// `mode` with `units` on the state `check(view, units, now)` read: the
    /// answer, its writes in `effects`. Each algorithm's part is its
    /// `refund`, `charge` (for what does not fit; what fits is `commit`, the
    /// consume's own writes) and `reserve`. A charge that does not fit is
    /// the answer of a denial (retry: until a cost of 1 fits), a booking
    /// that would wait too long is one (retry: its wait), and one that waits
    /// is accepted with its wait as the delay.
    pub fn adjust(&self, view: &dyn View, mode: Adjust, units: f64, now: f64, c: Checked, effects: &mut Vec<Effect>) -> Read<Answer> {
        let fits = c.fits;
        let booked = |(remaining, reset, r): (f64, f64, Result<f64, f64>)| match r {
            Ok(delay) => Answer::new(remaining, reset, None, delay),
            Err(wait) => Answer::new(remaining, reset, Some(wait), 0.0),
        };
        Ok(match (mode, self, c.state) {
            (Adjust::Refund, Algorithm::FixedWindow(p), State::FixedWindow(s)) => done(fixed_window::refund(p, units, s, effects)?),
            (Adjust::Refund, Algorithm::SlidingLog(p), State::SlidingLog(s)) => done(sliding_log::refund(p, view, units, s, effects)?),
            (Adjust::Refund, Algorithm::SlidingBlocks(p), State::SlidingBlocks(s)) => done(sliding_blocks::refund(p, units, now, s, effects)),
            (Adjust::Refund, Algorithm::TokenBucket(p), State::TokenBucket(s)) => done(token_bucket::refund(p, units, s, effects)),
            (Adjust::Refund, Algorithm::LeakyBucket(p), State::LeakyBucket(s)) => done(leaky_bucket::refund(p, units, s, effects)),
            (Adjust::Refund, Algorithm::Gcra(p), State::Gcra(s)) => done(gcra::refund(p, units, now, s, effects)),
            (Adjust::Refund, Algorithm::CalendarWindow(p), State::CalendarWindow(s)) => done(calendar_window::refund(p, units, s, effects)?),
            (Adjust::Charge, _, state) if fits => {
                let (remaining, reset, delay) = self.commit(view, units, now, Checked { fits, remaining: c.remaining, state }, effects)?;
                Answer::new(remaining, reset, None, delay)
            }
            (Adjust::Charge, Algorithm::FixedWindow(p), State::FixedWindow(s)) => owes(fixed_window::charge(p, units, s, effects)?),
            (Adjust::Charge, Algorithm::SlidingLog(p), State::SlidingLog(s)) => owes(sliding_log::charge(p, view, units, now, s, effects)?),
            (Adjust::Charge, Algorithm::SlidingBlocks(p), State::SlidingBlocks(s)) => owes(sliding_blocks::charge(p, units, now, s, effects)?),
            (Adjust::Charge, Algorithm::TokenBucket(p), State::TokenBucket(s)) => owes(token_bucket::charge(p, units, s, effects)),
            (Adjust::Charge, Algorithm::LeakyBucket(p), State::LeakyBucket(s)) => owes(leaky_bucket::charge(p, units, s, effects)),
            (Adjust::Charge, Algorithm::Gcra(p), State::Gcra(s)) => owes(gcra::charge(p, now, s, effects)),
            (Adjust::Charge, Algorithm::CalendarWindow(p), State::CalendarWindow(s)) => owes(calendar_window::charge(p, units, s, effects)?),
            (Adjust::Reserve(wait), Algorithm::TokenBucket(p), State::TokenBucket(s)) => {
                booked(token_bucket::reserve(p, units, wait, fits, s, effects))
            }
            (Adjust::Reserve(wait), Algorithm::LeakyBucket(p), State::LeakyBucket(s)) => booked(leaky_bucket::reserve(p, units, wait, s, effects)),
            (Adjust::Reserve(wait), Algorithm::Gcra(p), State::Gcra(s)) => booked(gcra::reserve(p, wait, now, s, effects)),
            (Adjust::Lease(_), ..) => unreachable!("a lease is taken by Algorithm::lease"),
            _ => unreachable!("a check's state belongs to its own algorithm, and a booking to one that books (Adjust::fits)"),
        })
    }

    /// Takes `cost` (only after `check` said it fits).
    pub fn commit(&self, view: &dyn View, cost: f64, now: f64, c: Checked, effects: &mut Vec<Effect>) -> Read<Committed> {
        Ok(match (self, c.state) {
            (Algorithm::FixedWindow(p), State::FixedWindow(s)) => fixed_window::commit(p, cost, s, effects)?,
            (Algorithm::SlidingLog(p), State::SlidingLog(s)) => sliding_log::commit(p, view, cost, now, s, effects)?,
            (Algorithm::SlidingBlocks(p), State::SlidingBlocks(s)) => sliding_blocks::commit(p, cost, now, s, effects)?,
            (Algorithm::TokenBucket(p), State::TokenBucket(s)) => token_bucket::commit(p, cost, s, effects),
            (Algorithm::LeakyBucket(p), State::LeakyBucket(s)) => leaky_bucket::commit(p, cost, s, effects),
            (Algorithm::Gcra(p), State::Gcra(s)) => gcra::commit(p, now, s, effects),
            (Algorithm::CalendarWindow(p), State::CalendarWindow(s)) => calendar_window::commit(p, cost, s, effects)?,
            _ => unreachable!("a check's state belongs to its own algorithm"),
        })
    }
}

/// A refund's answer: accepted, with the state after it.
fn done((remaining, reset): (f64, f64)) -> Answer {
    Answer::new(remaining, reset, None, 0.0)
}

/// A charge past the limit: denied, with its retry (until a cost of 1 fits).
fn owes((remaining, reset, retry): (f64, f64, f64)) -> Answer {
    Answer::new(remaining, reset, Some(retry), 0.0)
}
