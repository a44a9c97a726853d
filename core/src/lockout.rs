//! Lock-out (lua/lockout.lua): a block of an id is a key of its own beside
//! the limiter's key (the client names it and sends it among the keys), the
//! string "1" whose TTL is the block's time left. Every decision reads it
//! before its algorithm (`entries`): a blocked id is denied at once. A block
//! key without expiry (written from outside) is no block. With an injected
//! clock (tests) expiries are instants on that clock, as the fixed window's.

use crate::effect::Effect;
use crate::view::View;

/// ms left of the block `view` reads (0: none); `now_ms`: a test's clock.
pub fn left_ms(view: &dyn View, now_ms: Option<f64>) -> f64 {
    match now_ms {
        Some(ms) => {
            let at = view.expiry_at_ms();
            if at < 0 {
                0.0
            } else {
                (at as f64 - ms).max(0.0)
            }
        }
        None => view.pttl_ms().max(0) as f64,
    }
}

/// The writes that block for `ms` from now (replacing any shorter block).
pub fn lock(ms: f64, now_ms: Option<f64>, effects: &mut Vec<Effect>) {
    match now_ms {
        Some(now) => {
            effects.push(Effect::Set(b"1".to_vec()));
            effects.push(Effect::PExpireAt((now + ms) as i64));
        }
        None => effects.push(Effect::SetPx(b"1".to_vec(), ms as i64)),
    }
}

/// A test's clock in ms, as the entries read it from an injected instant.
pub fn now_ms(now: f64, injected: bool) -> Option<f64> {
    injected.then(|| (now / 1000.0).floor())
}
