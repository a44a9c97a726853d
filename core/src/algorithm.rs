//! An algorithm with its parameters, read from the arguments every entry
//! carries (lua/library.lua: ALGORITHMS.<name> and its `nargs` arguments,
//! decimal text as the extension sends them), and the three steps every
//! algorithm has: `check` whether a cost fits (writing nothing, except a
//! consuming fixed window's expiry repair), `explain` the times of an answer
//! that takes nothing, `commit` a cost that fits.

use crate::effect::Effect;
use crate::numbers::lua_tonumber;
use crate::view::{Read, Refused, View};
use crate::{fixed_window, gcra, leaky_bucket, sliding_blocks, sliding_log, token_bucket};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Algorithm {
    FixedWindow(fixed_window::Params),
    SlidingLog(sliding_log::Params),
    SlidingBlocks(sliding_blocks::Params),
    TokenBucket(token_bucket::Params),
    LeakyBucket(leaky_bucket::Params),
    Gcra(gcra::Params),
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
}

/// (remaining, reset_us, delay_us) of a committed cost.
pub type Committed = (f64, f64, f64);

impl Algorithm {
    /// How many arguments follow the algorithm's name, by name.
    pub fn nargs(name: &[u8]) -> Option<usize> {
        Some(match name {
            b"fixed_window" | b"token_bucket" | b"gcra" => 2,
            b"sliding_log" | b"sliding_blocks" | b"leaky_bucket" => 3,
            _ => return None,
        })
    }

    /// The algorithm `name` with `args` (exactly `nargs(name)` of them).
    pub fn parse(name: &[u8], args: &[&[u8]]) -> Result<Algorithm, Refused> {
        let bad = || Refused(format!("ERR ratelimit: bad arguments for {}", String::from_utf8_lossy(name)));
        if Algorithm::nargs(name) != Some(args.len()) {
            return Err(bad());
        }
        let mut n = [0.0; 3];
        for (slot, a) in n.iter_mut().zip(args) {
            *slot = lua_tonumber(a).filter(|x| x.is_finite()).ok_or_else(bad)?;
        }
        let [a, b, c] = n;
        Ok(match name {
            b"fixed_window" => Algorithm::FixedWindow(fixed_window::Params { window: a, limit: b }),
            b"sliding_log" => Algorithm::SlidingLog(sliding_log::Params { window: a, limit: b, ttl_ms: c }),
            b"sliding_blocks" => Algorithm::SlidingBlocks(sliding_blocks::Params { window: a, limit: b, slice: c }),
            b"token_bucket" => Algorithm::TokenBucket(token_bucket::Params { capacity: a, rate: b }),
            b"leaky_bucket" => Algorithm::LeakyBucket(leaky_bucket::Params { capacity: a, rate: b, size: c }),
            _ => Algorithm::Gcra(gcra::Params { interval: a, tolerance: b }),
        })
    }

    /// False for the fixed window: its clock is the key's expiry, and a call
    /// of fixed windows only needs no TIME.
    pub fn reads_clock(&self) -> bool {
        !matches!(self, Algorithm::FixedWindow(_))
    }

    /// Whether `cost` fits at `now` (µs; `injected`: a test's clock).
    /// `consuming` false: a peek, which writes nothing at all.
    pub fn check(&self, view: &dyn View, cost: f64, now: f64, injected: bool, consuming: bool, effects: &mut Vec<Effect>) -> Read<Checked> {
        let (fits, remaining, state) = match self {
            Algorithm::FixedWindow(p) => {
                let (f, r, s) = fixed_window::check(p, view, cost, now, injected, consuming, effects)?;
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
            _ => unreachable!("a check's state belongs to its own algorithm"),
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
            _ => unreachable!("a check's state belongs to its own algorithm"),
        })
    }
}
