//! Fixed window (lua/algorithms/fixed_window.lua): a string counter whose
//! TTL is the window; the server's clock (the key's expiry) closes it, so a
//! decision reads no clock. Denied requests write nothing, except that a
//! counter without expiry (written from outside) gets one window (`repair`).
//! A counter is what INCRBY reads, below 2^53; any other value is refused
//! before anything is written.
//! With an injected clock (tests) expiries are instants (PEXPIREAT,
//! PEXPIRETIME) on that clock, and a window that ended at it is over.

use crate::effect::Effect;
use crate::numbers::{counter, int_text, redis_int};
use crate::view::{Read, Refused, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Milliseconds (integer >= 1).
    pub window: f64,
    pub limit: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The counter as read; `None`: missing, or over by the injected clock.
    raw: Option<Vec<u8>>,
    /// ms left; -window: the counter has no expiry.
    ttl: f64,
    /// now in ms with an injected clock.
    now_ms: Option<f64>,
}

fn expire(p: &Params, now_ms: Option<f64>) -> Effect {
    match now_ms {
        Some(ms) => Effect::PExpireAt((ms + p.window) as i64),
        None => Effect::PExpire(p.window as i64),
    }
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64, injected: bool) -> Read<(bool, f64, State)> {
    let now_ms = injected.then(|| (now / 1000.0).floor());
    let mut raw = view.get()?;
    let mut used = match &raw {
        None => 0.0,
        Some(r) => counter(r).ok_or_else(|| Refused::foreign("a value that is not a fixed-window counter"))?,
    };
    let mut ttl = 0.0;
    if raw.is_some() {
        ttl = match now_ms {
            Some(ms) => {
                let at = view.expiry_at_ms() as f64;
                if at < 0.0 {
                    at
                } else {
                    (at - ms).max(0.0)
                }
            }
            None => view.pttl_ms() as f64,
        };
        if now_ms.is_some() && ttl == 0.0 {
            // Only an injected clock outlives a window: as if expired.
            raw = None;
            used = 0.0;
        } else if ttl < 0.0 {
            ttl = -p.window;
        }
    }
    let fits = used + cost <= p.limit;
    Ok((fits, (p.limit - used).max(0.0), State { raw, ttl, now_ms }))
}

/// What a consuming call that does not take writes: a counter without
/// expiry (written from outside) gets one window, or it would deny forever.
pub fn repair(p: &Params, s: &State, effects: &mut Vec<Effect>) {
    if s.ttl < 0.0 {
        effects.push(expire(p, s.now_ms));
    }
}

pub fn explain(s: &State) -> (f64, f64) {
    let left = s.ttl.abs() * 1000.0;
    (left, left)
}

pub fn commit(p: &Params, cost: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    if let Some(raw) = s.raw {
        let used = redis_int(&raw)
            .ok_or_else(Refused::not_an_integer)?
            .checked_add(cost as i64)
            .ok_or_else(|| Refused("ERR increment or decrement would overflow".into()))?;
        effects.push(Effect::IncrBy(cost as i64));
        let mut ttl = s.ttl;
        if ttl < 0.0 {
            effects.push(expire(p, s.now_ms));
            ttl = p.window;
        }
        return Ok((p.limit - used as f64, ttl * 1000.0, 0.0));
    }
    match s.now_ms {
        Some(_) => {
            effects.push(Effect::Set(int_text(cost)));
            effects.push(expire(p, s.now_ms));
        }
        None => effects.push(Effect::SetPx(int_text(cost), p.window as i64)),
    }
    Ok((p.limit - cost, p.window * 1000.0, 0.0))
}

/// Gives `units` back to the open window, not below 0 (a counter from
/// outside that is not above 0 is left alone): (remaining, reset). Nothing
/// when no window is open. A counter without expiry gets one window, as a
/// denial repairs it.
pub fn refund(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64)> {
    let Some(raw) = &s.raw else {
        return Ok((p.limit, 0.0));
    };
    let (used, back) = take_back(raw, units, effects)?;
    repair(p, &s, effects);
    let ttl = if s.ttl < 0.0 { p.window } else { s.ttl };
    Ok(((p.limit - used + back).max(0.0), ttl * 1000.0))
}

/// What a fixed window's refund does to its counter `raw`, on the calendar
/// or not (`calendar_window::refund` calls it too): up to `units` taken off,
/// never below 0 (a counter from outside that is not above 0 is left
/// alone). (the count before, the units given back).
pub(crate) fn take_back(raw: &[u8], units: f64, effects: &mut Vec<Effect>) -> Read<(f64, f64)> {
    let used = redis_int(raw).ok_or_else(Refused::not_an_integer)? as f64;
    let mut back = units;
    if back > used {
        back = used.max(0.0);
    }
    if back > 0.0 {
        effects.push(Effect::IncrBy(-(back as i64)));
    }
    Ok((used, back))
}

/// Takes `units` that do not fit (the counter goes past the limit until the
/// window ends): commit's writes, and (remaining 0, reset, the window's end).
pub fn charge(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let (_, reset, _) = commit(p, units, s, effects)?;
    Ok((0.0, reset, reset))
}
