//! Token bucket (lua/algorithms/token_bucket.lua): starts full, refills
//! continuously at `rate` tokens per second up to `capacity`; a request takes
//! `cost` tokens if they are there. Denials and peeks write nothing.
//! State: one 16-byte string, (tokens, ts) as two little-endian doubles
//! (`buckets`); a missing key is a full bucket.

use crate::buckets::{expire_ms, pack_state, unpack_state, us_for, whole, EPS};
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
