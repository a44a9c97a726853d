//! Token bucket (lua/algorithms/token_bucket.lua): starts full, refills
//! continuously at `rate` tokens per second up to `capacity`; a request takes
//! `cost` tokens if they are there. Denials and peeks write nothing.
//! State: one 16-byte string, (tokens, ts) as two little-endian doubles
//! (`buckets`); a missing key is a full bucket. Tokens are negative while
//! the bucket owes: a charge past the limit, or bookings that wait
//! (`reserve`); a consume is denied until the refill has paid them back.

use crate::buckets::{expire_ms, most_owed, pack_state, unpack_state, us_for, whole, EPS};
use crate::effect::Effect;
use crate::view::{Read, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    pub capacity: f64,
    /// Tokens per second (> 0).
    pub rate: f64,
}

/// Tokens at the decision's instant, and that instant (the state's own when
/// the clock went back: a failover refills nothing rather than too much).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    tokens: f64,
    ts: f64,
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64) -> Read<(bool, f64, State)> {
    let mut tokens = p.capacity;
    let mut now = now;
    if let Some(raw) = view.get()? {
        let (v, ts) = unpack_state(&raw, "token bucket")?;
        if ts > now {
            now = ts;
        }
        tokens = v + (now - ts) * p.rate / 1_000_000.0;
        if tokens > p.capacity {
            tokens = p.capacity;
        }
    }
    Ok((tokens + EPS >= cost, whole(tokens), State { tokens, ts: now }))
}

/// (reset, retry): until full, until `cost` fits.
pub fn explain(p: &Params, cost: f64, s: &State) -> (f64, f64) {
    (us_for(p.capacity - s.tokens, p.rate), us_for(cost - s.tokens, p.rate))
}

pub fn commit(p: &Params, cost: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    let mut tokens = s.tokens - cost;
    if tokens < 0.0 {
        tokens = 0.0;
    }
    let reset = us_for(p.capacity - tokens, p.rate);
    // Once full the state no longer matters: expire then.
    effects.push(Effect::SetPx(pack_state(tokens, s.ts), expire_ms(reset)));
    (whole(tokens), reset, 0.0)
}

/// Writes `tokens` at the state's instant, to expire once full.
fn write(p: &Params, tokens: f64, s: &State, effects: &mut Vec<Effect>) -> f64 {
    let reset = us_for(p.capacity - tokens, p.rate);
    effects.push(Effect::SetPx(pack_state(tokens, s.ts), expire_ms(reset)));
    reset
}

/// Gives `units` back, up to the capacity: (remaining, reset). Writes
/// nothing when nothing changes; deletes the key once full.
pub fn refund(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64) {
    let mut tokens = s.tokens + units;
    if tokens > p.capacity {
        tokens = p.capacity;
    }
    let reset = us_for(p.capacity - tokens, p.rate);
    if tokens != s.tokens {
        // Full: a missing key says so, and a key of 1 ms would say it too.
        if reset == 0.0 {
            effects.push(Effect::Del);
        } else {
            write(p, tokens, &s, effects);
        }
    }
    (whole(tokens).max(0.0), reset)
}

/// Takes `units` that do not fit (a debt, no deeper than `most_owed`):
/// (remaining 0, reset, until a cost of 1 fits).
pub fn charge(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64, f64) {
    let mut tokens = s.tokens - units;
    if tokens < -most_owed(p.rate) {
        tokens = -most_owed(p.rate);
    }
    let reset = write(p, tokens, &s, effects);
    (0.0, reset, us_for(1.0 - tokens, p.rate))
}

/// Books `cost` when the wait for it is at most `max_wait` µs: (remaining,
/// reset, Ok(delay)) with the tokens taken (negative: owed to the bookings
/// before a later call), else (remaining, reset, Err(wait)) with nothing written.
pub fn reserve(p: &Params, cost: f64, max_wait: f64, fits: bool, s: State, effects: &mut Vec<Effect>) -> (f64, f64, Result<f64, f64>) {
    if fits {
        let (remaining, reset, _) = commit(p, cost, s, effects);
        return (remaining, reset, Ok(0.0));
    }
    let wait = us_for(cost - s.tokens, p.rate);
    if wait > max_wait {
        return (whole(s.tokens).max(0.0), us_for(p.capacity - s.tokens, p.rate), Err(wait));
    }
    let tokens = s.tokens - cost;
    let reset = write(p, tokens, &s, effects);
    (0.0, reset, Ok(wait))
}
