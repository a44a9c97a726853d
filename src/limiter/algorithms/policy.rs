//! A validated algorithm as plain data: what every call of a limiter sends to
//! Redis besides the key and the cost. The algorithm files build policies;
//! `instance::Limiter` runs them on its target's executor.

use crate::error::Result;
use crate::limiter::outcome::Outcome;
use crate::limiter::params;

/// Which algorithm decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    FixedWindow,
    SlidingLog,
    SlidingBlocks,
    TokenBucket,
    LeakyBucket,
    Gcra,
    /// A fixed window whose windows start at `anchor + k × window` (`withAnchor()`).
    AnchoredWindow,
    /// A fixed window whose windows are calendar units (`withCalendar()`).
    CalendarWindow,
}

impl Algorithm {
    /// The name the Lua library (`ALGORITHMS.<name>`) and the core
    /// (`ratelimit_core::Algorithm::parse`) know the algorithm by: the first
    /// of its arguments in every call.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::FixedWindow => "fixed_window",
            Algorithm::SlidingLog => "sliding_log",
            Algorithm::SlidingBlocks => "sliding_blocks",
            Algorithm::TokenBucket => "token_bucket",
            Algorithm::LeakyBucket => "leaky_bucket",
            Algorithm::Gcra => "gcra",
            Algorithm::AnchoredWindow => "anchored_window",
            Algorithm::CalendarWindow => "calendar_window",
        }
    }
}

/// What a call asks of the library: take (the `take` entry) or only look (`peek`).
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

#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub algorithm: Algorithm,
    /// The algorithm's arguments (ARGV after its name, before `cost`), as Redis reads them.
    pub args: Vec<Vec<u8>>,
    /// The `limit` of results: units the policy allows.
    pub limit: i64,
    /// The largest cost one call may ask for, and what sets it, for the
    /// message of a bigger one ("the limit", "the capacity").
    pub max_cost: i64,
    pub max_cost_is: String,
}

impl Policy {
    /// A policy whose costs are bounded by its limit.
    pub fn new(algorithm: Algorithm, args: Vec<Vec<u8>>, limit: i64, limit_is: &str) -> Self {
        Policy { algorithm, args, limit, max_cost: limit, max_cost_is: limit_is.to_string() }
    }

    /// `cost` must be 1..=max_cost: a larger one could never be accepted.
    pub fn check_cost(&self, cost: i64) -> Result<()> {
        params::check_cost(cost, self.max_cost, &self.max_cost_is)
    }

    pub fn outcome(&self, reply: &[i64]) -> Result<Outcome> {
        Outcome::from_reply(self.limit, reply)
    }

    /// The ARGV of one call after the policy's: `cost` and, only when a test
    /// injects a clock, `now_us` (see `instance::Limiter::decide_at`).
    pub fn call_args(op: Op, now_us: Option<i64>) -> ([i64; 2], usize) {
        ([op.cost(), now_us.unwrap_or(0)], if now_us.is_some() { 2 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_arguments_are_cost_and_a_test_clock() {
        assert_eq!(Policy::call_args(Op::Consume(3), None), ([3, 0], 1));
        assert_eq!(Policy::call_args(Op::Peek, Some(42)), ([1, 42], 2));
    }

    #[test]
    fn costs_are_bounded() {
        let p = Policy::new(Algorithm::Gcra, vec![], 3, "the limit");
        assert!(p.check_cost(3).is_ok());
        assert_eq!(p.check_cost(4).unwrap_err().to_string(), "$cost must be at most 3 (the limit), 4 given");
        assert_eq!(p.check_cost(0).unwrap_err().to_string(), "$cost must be greater than or equal to 1");
    }
}
