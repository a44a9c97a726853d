//! What every limiter class holds and does: a bound `Limiter` and the
//! `$remaining` of its last call. The classes in `classes` only forward here,
//! so the five of them share one implementation of the interface.

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use super::connection;
use super::exceptions::in_call;
use super::forms::{Args, Signature};
use super::result::RateLimitResult;
use super::values::{Id, Int};
use crate::error::{Error, Result};
use crate::limiter::instance::Limiter;
use crate::limiter::{Algorithm, Op, Outcome};
use crate::redis::pool;

pub struct LimiterState {
    class: &'static str,
    limiter: Limiter,
    remaining: Option<i64>,
}

impl LimiterState {
    /// Reads the constructor arguments in either form, validates them with
    /// `build`, and binds the limiter to its connection target (not opened yet).
    pub fn construct(
        sig: &'static Signature,
        given: &[Option<&Zval>],
        build: impl FnOnce(&Args) -> Result<Box<dyn Algorithm>>,
    ) -> PhpResult<Self> {
        let make = || -> Result<Self> {
            let args = sig.read(given)?;
            let fail = |e: Error| args.explain(e);
            let algorithm = build(&args).map_err(fail)?;
            let key_prefix = args.bytes("keyPrefix").map_err(fail)?;
            let (target, timeouts) = connection::resolve(args.connection()).map_err(fail)?;
            let limiter = Limiter::new(algorithm, pool::slot(target), &key_prefix, timeouts.connect, timeouts.reply).map_err(fail)?;
            Ok(LimiterState { class: sig.class, limiter, remaining: None })
        };
        make().map_err(PhpException::from)
    }

    fn explain(&self, method: &str, params: &[&str], e: Error) -> PhpException {
        in_call(e, &format!("{}::{method}", self.class), params).into()
    }

    /// Reads `$id` (and `$cost`) as `method` received them, runs `op`, and keeps
    /// the remaining count for `$remaining`.
    fn decide(&mut self, method: &str, id: Id, cost: Option<Int>) -> PhpResult<Outcome> {
        let params: &[&str] = if cost.is_some() { &["id", "cost"] } else { &["id"] };
        let run = || -> Result<Outcome> {
            let op = match cost {
                Some(cost) => Op::Consume(cost.value("cost")?),
                None => Op::Peek,
            };
            self.limiter.decide(&id.bytes()?, op)
        };
        let outcome = run().map_err(|e| self.explain(method, params, e))?;
        self.remaining = Some(outcome.remaining);
        Ok(outcome)
    }

    pub fn is_allowed(&mut self, method: &str, id: Id, cost: Int) -> PhpResult<bool> {
        Ok(self.decide(method, id, Some(cost))?.allowed)
    }

    pub fn consume(&mut self, id: Id, cost: Int) -> PhpResult<RateLimitResult> {
        Ok(RateLimitResult::new(self.decide("consume", id, Some(cost))?))
    }

    pub fn peek(&mut self, id: Id) -> PhpResult<RateLimitResult> {
        Ok(RateLimitResult::new(self.decide("peek", id, None)?))
    }

    pub fn reset(&mut self, id: Id) -> PhpResult<()> {
        let id = id.bytes().map_err(|e| self.explain("reset", &["id"], e))?;
        self.limiter.reset(&id).map_err(|e| self.explain("reset", &["id"], e))?;
        self.remaining = None;
        Ok(())
    }

    pub fn remaining(&self) -> Option<i64> {
        self.remaining
    }

    /// For algorithm-specific methods (GCRA's `throttle()`).
    pub fn limiter(&self) -> &Limiter {
        &self.limiter
    }

    pub fn set_remaining(&mut self, remaining: Option<i64>) {
        self.remaining = remaining;
    }
}
