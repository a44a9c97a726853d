//! Leaky bucket, the queue form (lua/algorithms/leaky_bucket.lua): a request
//! adds `cost * size` units to the level, which drains at `rate` units per
//! second; accepted iff it fits the capacity, and it leaks out after what is
//! before it (its delay). Denials and peeks write nothing.
//! State: the token bucket's format (`buckets`), (level, ts); a missing key
//! is an empty bucket. The level is above the capacity while the bucket
//! owes: a charge past the limit, or bookings that wait (`reserve`).

use crate::buckets::{expire_ms, most_owed, pack_state, unpack_state, us_for, EPS};
use crate::effect::Effect;
use crate::view::{Read, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    pub capacity: f64,
    /// Units per second (> 0).
    pub rate: f64,
    /// Units per request of cost 1.
    pub size: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    level: f64,
    ts: f64,
}

fn remaining(p: &Params, level: f64) -> f64 {
    (p.capacity - level + EPS).floor().max(0.0)
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64) -> Read<(bool, f64, State)> {
    let mut level = 0.0;
    let mut now = now;
    if let Some(raw) = view.get()? {
        let (v, ts) = unpack_state(&raw, "leaky bucket")?;
        // A clock that went back (failover) drains nothing rather than too much.
        if ts > now {
            now = ts;
        }
        level = v - (now - ts) * p.rate / 1_000_000.0;
        if level < 0.0 {
            level = 0.0;
        }
    }
    Ok((level + p.size * cost <= p.capacity + EPS, remaining(p, level), State { level, ts: now }))
}

/// (reset, retry): until empty, until `cost` fits.
pub fn explain(p: &Params, cost: f64, s: &State) -> (f64, f64) {
    (us_for(s.level, p.rate), us_for(s.level + p.size * cost - p.capacity, p.rate))
}

pub fn commit(p: &Params, cost: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    let delay = us_for(s.level, p.rate);
    let level = s.level + p.size * cost;
    let reset = us_for(level, p.rate);
    // Once empty the state no longer matters: expire then.
    effects.push(Effect::SetPx(pack_state(level, s.ts), expire_ms(reset)));
    (remaining(p, level), reset, delay)
}

/// Writes `level` at the state's instant, to expire once empty.
fn write(p: &Params, level: f64, s: &State, effects: &mut Vec<Effect>) -> f64 {
    let reset = us_for(level, p.rate);
    effects.push(Effect::SetPx(pack_state(level, s.ts), expire_ms(reset)));
    reset
}

/// Lowers the level by `units` requests, not below 0: (remaining, reset).
/// Writes nothing when nothing changes; deletes the key once empty.
pub fn refund(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64) {
    let mut level = s.level - units * p.size;
    if level < 0.0 {
        level = 0.0;
    }
    let reset = us_for(level, p.rate);
    if level != s.level {
        // Empty: a missing key says so.
        if reset == 0.0 {
            effects.push(Effect::Del);
        } else {
            write(p, level, &s, effects);
        }
    }
    (remaining(p, level), reset)
}

/// Adds `units` requests that do not fit (a debt, no deeper than
/// `most_owed`): (remaining 0, reset, until a cost of 1 fits).
pub fn charge(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    let mut level = s.level + units * p.size;
    if level > p.capacity + most_owed(p.rate) {
        level = p.capacity + most_owed(p.rate);
    }
    let reset = write(p, level, &s, effects);
    (0.0, reset, us_for(level + p.size - p.capacity, p.rate))
}

/// Books `cost` when it fits within `max_wait` µs: its delay is the wait
/// until it fits (0 now), not the queue's; see `token_bucket::reserve`.
pub fn reserve(p: &Params, cost: f64, max_wait: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, Result<f64, f64>) {
    let level = s.level + p.size * cost;
    let wait = us_for(level - p.capacity, p.rate);
    if wait > max_wait {
        return (remaining(p, s.level), us_for(s.level, p.rate), Err(wait));
    }
    let reset = write(p, level, &s, effects);
    (remaining(p, level), reset, Ok(wait))
}
