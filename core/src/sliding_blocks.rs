//! Sliding window counted in slices (lua/algorithms/sliding_blocks.lua): a
//! hash {slice index -> units accepted in it}; slice k covers
//! [k*slice, (k+1)*slice) µs. A decision counts every slice that overlaps
//! (now - window, now], so it may deny up to one slice early, never late.
//! Slices that left the window are deleted on every write.

use crate::effect::Effect;
use crate::numbers::{counter, int_text, lua_tonumber};
use crate::view::{Read, Refused, View};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// µs (integer >= 1000).
    pub window: f64,
    pub limit: f64,
    /// µs per slice (integer >= 1000).
    pub slice: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    used: f64,
    /// (index, count) of the slices still in the window.
    counted: Vec<(f64, f64)>,
    /// The fields of those slices whose counts are counters (what HINCRBY
    /// takes), with index and count: what a refund may lower.
    lowerable: Vec<(f64, f64, Vec<u8>)>,
    /// Fields of slices that left it.
    expired: Vec<Vec<u8>>,
}

/// When slice k stops overlapping the window, in µs from now.
fn leaves(p: &Params, k: f64, now: f64) -> f64 {
    (k + 1.0) * p.slice + p.window - now
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64) -> Read<(bool, f64, State)> {
    let oldest = ((now - p.window) / p.slice).floor();
    // The field a commit adds to: HINCRBY refuses it unless it holds an
    // integer, so that is refused here, before any member of a compound writes.
    let current = int_text((now / p.slice).floor());
    let mut s = State { used: 0.0, counted: Vec::new(), lowerable: Vec::new(), expired: Vec::new() };
    for (field, value) in view.hgetall()? {
        let (Some(k), Some(n)) = (lua_tonumber(&field), lua_tonumber(&value)) else {
            return Err(Refused::foreign("a hash that is not a sliding-window counter"));
        };
        if field == current && counter(&value).is_none() {
            return Err(Refused::hash_not_an_integer());
        }
        if k >= oldest {
            s.used += n;
            s.counted.push((k, n));
            if n > 0.0 && counter(&value).is_some() {
                s.lowerable.push((k, n, field));
            }
        } else {
            s.expired.push(field);
        }
    }
    Ok((s.used + cost <= p.limit, (p.limit - s.used).max(0.0), s))
}

/// (reset, retry): until the newest slice leaves, until enough of the
/// oldest slices have left for `cost` to fit.
pub fn explain(p: &Params, cost: f64, now: f64, s: &State) -> (f64, f64) {
    let newest = s.counted.iter().map(|c| c.0).fold(None, |m: Option<f64>, k| Some(m.map_or(k, |m| m.max(k))));
    let reset = newest.map_or(0.0, |k| leaves(p, k, now));
    (reset, until_fits(p, cost, now, s.used, s.counted.clone()))
}

/// Until enough of the oldest of `counts` (`used` in all) have left for `cost` to fit.
fn until_fits(p: &Params, cost: f64, now: f64, used: f64, counts: Vec<(f64, f64)>) -> f64 {
    let mut retry = 0.0;
    if used + cost > p.limit {
        let mut counts = counts;
        counts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let need = used + cost - p.limit;
        let mut freed = 0.0;
        for (k, n) in counts {
            freed += n;
            if freed >= need {
                retry = leaves(p, k, now);
                break;
            }
        }
    }
    retry
}

pub fn commit(p: &Params, cost: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let current = (now / p.slice).floor();
    effects.push(Effect::HIncrBy(int_text(current), cost as i64));
    if !s.expired.is_empty() {
        effects.push(Effect::HDel(s.expired));
    }
    // The key matters until the current slice leaves the window.
    let reset = leaves(p, current, now);
    effects.push(Effect::PExpire((reset / 1000.0).ceil() as i64));
    Ok((p.limit - s.used - cost, reset, 0.0))
}

/// Lowers the newest slices first by `units` in all (a slice that reaches 0
/// is deleted): (remaining, reset: until the newest slice left leaves).
pub fn refund(p: &Params, units: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> (f64, f64) {
    let mut slices = s.lowerable;
    slices.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (mut left, mut emptied, mut gone) = (units, Vec::new(), Vec::new());
    let mut lowered = None;
    for (k, n, field) in slices {
        if left <= 0.0 {
            break;
        }
        if n <= left {
            left -= n;
            emptied.push(field);
            gone.push(k);
        } else {
            lowered = Some((field, left));
            left = 0.0;
        }
    }
    if !emptied.is_empty() {
        effects.push(Effect::HDel(emptied));
    }
    if let Some((field, n)) = lowered {
        effects.push(Effect::HIncrBy(field, -(n as i64)));
    }
    let newest = s.counted.iter().map(|c| c.0).filter(|k| !gone.contains(k)).fold(None, |m: Option<f64>, k| Some(m.map_or(k, |m: f64| m.max(k))));
    ((p.limit - s.used + units - left).max(0.0), newest.map_or(0.0, |k| leaves(p, k, now)))
}

/// Takes `units` that do not fit: commit's writes, and (remaining 0, reset,
/// until a cost of 1 fits, this call's units counted in the current slice).
pub fn charge(p: &Params, units: f64, now: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let mut counts = s.counted.clone();
    counts.push(((now / p.slice).floor(), units));
    let retry = until_fits(p, 1.0, now, s.used + units, counts);
    let (_, reset, _) = commit(p, units, now, s, effects)?;
    Ok((0.0, reset, retry))
}
