//! The algorithms, as pure Rust: each validates its parameters into a policy
//! that knows its Lua script, the script's fixed arguments and its limit.
//! Every script answers with the same five integers (see `Outcome::from_reply`),
//! so mapping a reply to a result is written once.
//!
//! Nothing here touches a Zval; the PHP layer hands in plain numbers.

pub mod fixed_window;
pub mod gcra;
pub mod instance;
pub mod leaky_bucket;
pub mod params;
pub mod token_bucket;
pub mod sliding_window;

use crate::error::{Error, Result};
use crate::redis::script::LuaScript;
use crate::settings::OnError;

/// A decision, in the units of the policy. Times are seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub allowed: bool,
    pub limit: i64,
    pub remaining: i64,
    pub retry_after: f64,
    pub reset_after: f64,
    pub delay: f64,
}

impl Outcome {
    /// Every script replies `{allowed (0|1), remaining, retry_after_us, reset_after_us, delay_us}`:
    /// integers, because Redis truncates Lua numbers, and microseconds keep the precision.
    pub fn from_reply(limit: i64, reply: &[i64]) -> Result<Outcome> {
        let &[allowed, remaining, retry_us, reset_us, delay_us] = reply else {
            return Err(Error::Redis(format!("unexpected script reply {reply:?}")));
        };
        let seconds = |us: i64| us.max(0) as f64 / 1e6;
        Ok(Outcome {
            allowed: allowed == 1,
            limit,
            remaining: remaining.clamp(0, limit),
            retry_after: if allowed == 1 { 0.0 } else { seconds(retry_us) },
            reset_after: seconds(reset_us),
            delay: if allowed == 1 { seconds(delay_us) } else { 0.0 },
        })
    }

    /// The answer `ratelimit.on_error` gives when Redis failed: `None` means throw.
    /// allow: as if nothing was used yet; deny: as if the policy were exhausted.
    pub fn on_error(policy: OnError, limit: i64) -> Option<Outcome> {
        match policy {
            OnError::Throw => None,
            OnError::Allow => Some(Outcome { allowed: true, limit, remaining: limit, retry_after: 0.0, reset_after: 0.0, delay: 0.0 }),
            OnError::Deny => Some(Outcome { allowed: false, limit, remaining: 0, retry_after: 1.0, reset_after: 1.0, delay: 0.0 }),
        }
    }
}

/// What a call asks of the script; the two last ARGV of every script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Take `cost` units if they fit; a denied request takes nothing.
    Consume(i64),
    /// Would a request of cost 1 fit? Writes nothing.
    Peek,
}

impl Op {
    pub fn cost(self) -> i64 {
        match self {
            Op::Consume(c) => c,
            Op::Peek => 1,
        }
    }
    pub fn is_peek(self) -> bool {
        matches!(self, Op::Peek)
    }
}

/// One algorithm with its validated parameters.
pub trait Algorithm: Send + Sync {
    fn script(&self) -> &'static LuaScript;
    /// ARGV of the script before `cost, peek`, already formatted.
    fn args(&self) -> &[Vec<u8>];
    /// The `limit` of results: units the policy allows.
    fn limit(&self) -> i64;
    /// `cost` must be 1..=limit unless an algorithm says otherwise.
    fn check_cost(&self, cost: i64) -> Result<()> {
        params::check_cost(cost, self.limit(), "the limit")
    }
    fn outcome(&self, reply: &[i64]) -> Result<Outcome> {
        Outcome::from_reply(self.limit(), reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_maps_microseconds_to_seconds() {
        let o = Outcome::from_reply(10, &[1, 7, 0, 2_500_000, 125_000]).unwrap();
        assert_eq!(o, Outcome { allowed: true, limit: 10, remaining: 7, retry_after: 0.0, reset_after: 2.5, delay: 0.125 });
        let o = Outcome::from_reply(10, &[0, 0, 1_000, 60_000_000, 99]).unwrap();
        assert_eq!((o.allowed, o.retry_after, o.reset_after, o.delay), (false, 0.001, 60.0, 0.0));
    }

    #[test]
    fn reply_clamps_nonsense_and_rejects_wrong_shapes() {
        let o = Outcome::from_reply(10, &[1, 11, -5, -1, -1]).unwrap();
        assert_eq!((o.remaining, o.reset_after), (10, 0.0));
        assert!(matches!(Outcome::from_reply(10, &[1, 2, 3]), Err(Error::Redis(_))));
    }

    #[test]
    fn on_error_policies() {
        assert_eq!(Outcome::on_error(OnError::Throw, 5), None);
        let allow = Outcome::on_error(OnError::Allow, 5).unwrap();
        assert_eq!((allow.allowed, allow.remaining, allow.retry_after), (true, 5, 0.0));
        let deny = Outcome::on_error(OnError::Deny, 5).unwrap();
        assert_eq!((deny.allowed, deny.remaining, deny.retry_after), (false, 0, 1.0));
    }
}
