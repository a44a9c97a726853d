//! Windows on the calendar (lua/algorithms/calendar_window.lua): a fixed
//! window whose windows start at set instants, not at a key's first
//! request. The state is the fixed window's counter, its expiry the end of
//! its window (an instant), so a key still there belongs to the window now
//! in. The window is picked on the server's clock. Denied requests write
//! nothing, except that a counter without expiry (written from outside)
//! gets its window's end (`repair`).

use crate::effect::Effect;
use crate::numbers::{counter, int_text, redis_int};
use crate::view::{Read, Refused, View};

/// Where the windows are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Windows {
    /// `anchored_window`: [anchor + k × window, anchor + (k + 1) × window), ms.
    Anchored { window: f64, anchor: f64 },
    /// `calendar_window`: [b_i, b_i+1) for the 4 instants (ms) a client
    /// worked out around its own clock.
    Calendar { edges: [f64; 4] },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    pub windows: Windows,
    pub limit: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The counter as read; `None`: missing, or over by the injected clock.
    raw: Option<Vec<u8>>,
    /// The counter has no expiry (it came from outside).
    no_expiry: bool,
    /// The window's end, and now, in ms.
    end: f64,
    now_ms: f64,
}

/// The end (ms) of the window that holds `now_ms`; a server clock outside
/// the instants a client sent is refused.
fn window_end(p: &Params, now_ms: f64) -> Read<f64> {
    match p.windows {
        Windows::Anchored { window, anchor } => Ok(anchor + (((now_ms - anchor) / window).floor() + 1.0) * window),
        Windows::Calendar { edges } => {
            if now_ms < edges[0] {
                return Err(Refused(
                    "ERR ratelimit: the server clock is before the calendar windows the client sent (a clock more than a window off)".into(),
                ));
            }
            edges[1..].iter().copied().find(|&edge| now_ms < edge).ok_or_else(|| {
                Refused("ERR ratelimit: the server clock is after the calendar windows the client sent (a clock more than a window off)".into())
            })
        }
    }
}

pub fn check(p: &Params, view: &dyn View, cost: f64, now: f64, injected: bool) -> Read<(bool, f64, State)> {
    let now_ms = (now / 1000.0).floor();
    let end = window_end(p, now_ms)?;
    let mut raw = view.get()?;
    let mut used = match &raw {
        None => 0.0,
        Some(r) => counter(r).ok_or_else(|| Refused::foreign("a value that is not a fixed-window counter"))?,
    };
    if raw.is_some() && injected {
        let at = view.expiry_at_ms();
        if at >= 0 && at as f64 <= now_ms {
            // Only an injected clock outlives a window: as if expired.
            raw = None;
            used = 0.0;
        }
    }
    let no_expiry = raw.is_some() && view.pttl_ms() == -1;
    let fits = used + cost <= p.limit;
    Ok((fits, (p.limit - used).max(0.0), State { raw, no_expiry, end, now_ms }))
}

/// A consuming call that takes nothing gives a counter without expiry its window's end.
pub fn repair(s: &State, effects: &mut Vec<Effect>) {
    if s.no_expiry {
        effects.push(Effect::PExpireAt(s.end as i64));
    }
}

pub fn explain(s: &State) -> (f64, f64) {
    let left = (s.end - s.now_ms) * 1000.0;
    (left, left)
}

pub fn commit(p: &Params, cost: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let left = (s.end - s.now_ms) * 1000.0;
    let used = match &s.raw {
        Some(raw) => {
            let used = redis_int(raw)
                .ok_or_else(Refused::not_an_integer)?
                .checked_add(cost as i64)
                .ok_or_else(|| Refused("ERR increment or decrement would overflow".into()))?;
            effects.push(Effect::IncrBy(cost as i64));
            if s.no_expiry {
                effects.push(Effect::PExpireAt(s.end as i64));
            }
            used as f64
        }
        None => {
            effects.push(Effect::Set(int_text(cost)));
            effects.push(Effect::PExpireAt(s.end as i64));
            cost
        }
    };
    Ok((p.limit - used, left, 0.0))
}

/// Gives `units` back to the open window, not below 0 (fixed_window's
/// `refund`): (remaining, reset). Nothing when no window is open; a counter
/// without expiry gets its window's end, as a denial repairs it.
pub fn refund(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64)> {
    let Some(raw) = &s.raw else {
        return Ok((p.limit, 0.0));
    };
    let (used, back) = crate::fixed_window::take_back(raw, units, effects)?;
    repair(&s, effects);
    Ok(((p.limit - used + back).max(0.0), (s.end - s.now_ms) * 1000.0))
}

/// Takes `units` that do not fit (past the limit until the window ends):
/// commit's writes, and (remaining 0, reset, the window's end).
pub fn charge(p: &Params, units: f64, s: State, effects: &mut Vec<Effect>) -> Read<(f64, f64, f64)> {
    let (_, reset, _) = commit(p, units, s, effects)?;
    Ok((0.0, reset, reset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_the_one_that_holds_now() {
        let anchored = Params { windows: Windows::Anchored { window: 1000.0, anchor: 500.0 }, limit: 1.0 };
        assert_eq!(window_end(&anchored, 500.0), Ok(1500.0));
        assert_eq!(window_end(&anchored, 1499.0), Ok(1500.0));
        assert_eq!(window_end(&anchored, 1500.0), Ok(2500.0));
        assert_eq!(window_end(&anchored, 499.0), Ok(500.0), "before the anchor: the windows go back from it");
        let calendar = Params { windows: Windows::Calendar { edges: [0.0, 31.0, 59.0, 90.0] }, limit: 1.0 };
        assert_eq!(window_end(&calendar, 0.0), Ok(31.0));
        assert_eq!(window_end(&calendar, 31.0), Ok(59.0));
        assert_eq!(window_end(&calendar, 89.0), Ok(90.0));
        assert!(window_end(&calendar, 90.0).is_err());
        assert!(window_end(&calendar, -1.0).is_err());
    }
}
