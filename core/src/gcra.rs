//! GCRA with redis-cell's semantics (lua/algorithms/gcra.lua). The state is
//! the TAT (theoretical arrival time) in integer µs as decimal text; a
//! request of `cost` pushes it by cost × interval and is accepted when the
//! pushed TAT lies at most `tolerance` ahead of now. A TAT in the past means
//! the same as no key. Every number is an integer below 2^53: exact in f64.

use crate::effect::Effect;
use crate::numbers::{int_text, lua_tonumber};
use crate::view::{Read, Refused, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Emission interval in µs (period / count).
    pub interval: f64,
    /// Delay variation tolerance in µs (interval × (maxBurst + 1)).
    pub tolerance: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    tat: f64,
    new_tat: f64,
}

/// Whole intervals still inside the tolerance when the TAT is `t`.
fn remaining(p: &Params, t: f64, now: f64) -> f64 {
    let left = p.tolerance - (t - now);
    if left <= 0.0 {
        return 0.0;
    }
    (left / p.interval).floor()
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64) -> Read<(bool, f64, State)> {
    let mut tat = now;
    if let Some(raw) = view.get()? {
        tat = match lua_tonumber(&raw) {
            Some(t) if t == t.floor() && (0.0..=9_007_199_254_740_991.0).contains(&t) => t,
            _ => return Err(Refused::foreign("a value that is not a GCRA timestamp")),
        };
        if tat < now {
            tat = now;
        }
    }
    let new_tat = tat + p.interval * cost;
    // Denied: nothing written, so a client retrying too early is not pushed back.
    Ok((now >= new_tat - p.tolerance, remaining(p, tat, now), State { tat, new_tat }))
}

pub fn explain(p: &Params, now: f64, s: &State) -> (f64, f64) {
    (s.tat - now, s.new_tat - p.tolerance - now)
}

pub fn commit(p: &Params, now: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    // The key lives until the TAT has passed (ms, rounded up, at least 1).
    let ttl = s.new_tat - now;
    effects.push(Effect::SetPx(int_text(s.new_tat), ((ttl + 999.0) / 1000.0).floor() as i64));
    (remaining(p, s.new_tat, now), ttl, 0.0)
}

/// The TAT `tat` written, to expire once it has passed (at least 1 ms).
fn write(tat: f64, now: f64, effects: &mut Vec<Effect>) {
    effects.push(Effect::SetPx(int_text(tat), (((tat - now + 999.0) / 1000.0).floor() as i64).max(1)));
}

/// Moves the TAT back by `units` intervals, not before now: (remaining,
/// reset). Writes nothing when nothing changes (no TAT ahead of now);
/// deletes the key when the TAT comes back to now.
pub fn refund(p: &Params, units: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64) {
    let mut tat = s.tat - p.interval * units;
    if tat < now {
        tat = now;
    }
    if tat != s.tat {
        // Caught up with now: a missing key says so.
        if tat == now {
            effects.push(Effect::Del);
        } else {
            write(tat, now, effects);
        }
    }
    (remaining(p, tat, now), tat - now)
}

/// Pushes the TAT by `units` intervals that do not fit (a debt, at most
/// MAX_US past the tolerance): (remaining 0, reset, until a cost of 1 fits).
pub fn charge(p: &Params, now: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    let mut tat = s.new_tat;
    if tat > now + p.tolerance + crate::limits::MAX_US {
        tat = now + p.tolerance + crate::limits::MAX_US;
    }
    write(tat, now, effects);
    (remaining(p, tat, now), tat - now, tat + p.interval - p.tolerance - now)
}

/// Books `cost` when its wait (until the pushed TAT is within the
/// tolerance) is at most `max_wait` µs; see `token_bucket::reserve`.
pub fn reserve(p: &Params, max_wait: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, Result<f64, f64>) {
    let mut wait = s.new_tat - p.tolerance - now;
    if wait < 0.0 {
        wait = 0.0;
    }
    if wait > max_wait {
        return (remaining(p, s.tat, now), s.tat - now, Err(wait));
    }
    write(s.new_tat, now, effects);
    (remaining(p, s.new_tat, now), s.new_tat - now, Ok(wait))
}
