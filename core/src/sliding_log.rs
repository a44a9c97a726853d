//! Sliding window, exact log (lua/algorithms/sliding_log.lua): a sorted set
//! with one member per accepted unit, scored with its instant in µs; at most
//! `limit` units in ANY interval of the window. A unit accepted alone is the
//! member `now` (decimal) when no member of that name exists yet; otherwise,
//! and for cost > 1, members are numbers of a per-key sequence kept in the
//! same key as the member "" with the negative score -(last number used).
//! An entry counts while its time is in (now - window, now] (later ones, from
//! a clock that went back, count too).

use crate::effect::Effect;
use crate::numbers::int_text;
use crate::view::{Read, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// µs (integer >= 1000).
    pub window: f64,
    pub limit: f64,
    /// The key's TTL after a write, in ms (the window rounded up).
    pub ttl_ms: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    /// now - window: entries at or before it have left.
    edge: f64,
    used: f64,
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64) -> Read<(bool, f64, State)> {
    let edge = now - p.window;
    let used = view.zcount_above(edge)? as f64;
    Ok((used + cost <= p.limit, (p.limit - used).max(0.0), State { edge, used }))
}

pub fn explain(p: &Params, view: &dyn View, cost: f64, s: &State) -> Read<(f64, f64)> {
    let mut reset = 0.0;
    let mut retry = 0.0;
    // Until the newest entry leaves the window: the key is empty again.
    if s.used > 0.0 {
        reset = view.zmax_score()?.unwrap_or(s.edge) - s.edge;
    }
    // Once the (used + cost - limit)-th oldest entry has left, `cost` fits.
    if s.used + cost > p.limit {
        retry = view.znth_score_above(s.edge, (s.used + cost - p.limit - 1.0) as i64)?.unwrap_or(s.edge) - s.edge;
    }
    Ok((reset, retry))
}

pub fn commit(p: &Params, view: &dyn View, cost: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let at = int_text(now);
    if cost > 1.0 || view.zscore(&at)?.is_some() {
        // Take `cost` fresh sequence numbers, one member per unit.
        let last = -(view.zscore(b"")?.unwrap_or(0.0) - cost);
        effects.push(Effect::ZIncrBy(-cost, Vec::new()));
        let members = ((last - cost + 1.0) as i64..=last as i64).map(|seq| (now, seq.to_string().into_bytes())).collect();
        effects.push(Effect::ZAdd(members));
    } else {
        effects.push(Effect::ZAdd(vec![(now, at)]));
    }
    effects.push(Effect::ZRemRangeByScore(0.0, s.edge));
    effects.push(Effect::PExpire(p.ttl_ms as i64));
    Ok((p.limit - s.used - cost, p.window, 0.0))
}

/// Removes the id's newest `units` entries (at most those in the window):
/// (remaining, reset).
pub fn refund(p: &Params, view: &dyn View, units: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64)> {
    let back = if units > s.used { s.used } else { units };
    let left = s.used - back;
    let mut reset = 0.0;
    // Until the newest entry that stays leaves the window.
    if left > 0.0 {
        reset = view.znth_score_above(s.edge, (left - 1.0) as i64)?.unwrap_or(s.edge) - s.edge;
    }
    if back > 0.0 {
        effects.push(Effect::ZRemTop(back as i64));
    }
    Ok(((p.limit - left).max(0.0), reset))
}

/// Takes `units` that do not fit: commit's writes, and (remaining 0, reset,
/// until a cost of 1 fits: once the (used + units - limit)-th oldest entry,
/// from 0, has left; an entry of this call leaves after the window).
pub fn charge(p: &Params, view: &dyn View, units: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let nth = s.used + units - p.limit;
    let mut retry = p.window;
    if nth < s.used {
        retry = view.znth_score_above(s.edge, nth as i64)?.unwrap_or(s.edge) - s.edge;
    }
    let (_, reset, _) = commit(p, view, units, now, s, effects)?;
    Ok((0.0, reset, retry))
}
