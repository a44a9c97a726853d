//! A limiter bound to its Redis: an algorithm, the pool slot of its target and
//! its key prefix. Builds the key, runs the algorithm's script, applies
//! `ratelimit.on_error`. Still no Zval here.

use std::sync::Arc;

use super::params::{self, MAX_KEY_BYTES};
use super::{Algorithm, Op, Outcome};
use crate::error::{Error, Result};
use crate::redis::pool::{Slot, Timeouts};
use crate::settings;

pub struct Limiter {
    algorithm: Box<dyn Algorithm>,
    slot: Arc<Slot>,
    /// `ratelimit.key_prefix . $keyPrefix`, fixed at construction.
    prefix: Vec<u8>,
    connect_timeout: Option<std::time::Duration>,
    reply_timeout: Option<std::time::Duration>,
}

impl Limiter {
    pub fn new(
        algorithm: Box<dyn Algorithm>,
        slot: Arc<Slot>,
        key_prefix: &[u8],
        connect_timeout: Option<std::time::Duration>,
        reply_timeout: Option<std::time::Duration>,
    ) -> Result<Self> {
        params::key_prefix(key_prefix)?;
        let mut prefix = settings::key_prefix();
        prefix.extend_from_slice(key_prefix);
        Ok(Limiter { algorithm, slot, prefix, connect_timeout, reply_timeout })
    }

    pub fn limit(&self) -> i64 {
        self.algorithm.limit()
    }

    pub fn algorithm(&self) -> &dyn Algorithm {
        &*self.algorithm
    }

    /// The Redis key for `id`: `prefix:id`, or the bare prefix for the empty id.
    pub fn key(&self, id: &[u8]) -> Result<Vec<u8>> {
        let len = self.prefix.len() + if id.is_empty() { 0 } else { id.len() + 1 };
        if len > MAX_KEY_BYTES {
            return Err(Error::value("id", format!("makes a Redis key of {len} bytes; keys are limited to {MAX_KEY_BYTES}")));
        }
        let mut key = Vec::with_capacity(len);
        key.extend_from_slice(&self.prefix);
        if !id.is_empty() {
            key.push(b':');
            key.extend_from_slice(id);
        }
        Ok(key)
    }

    fn timeouts(&self) -> Timeouts {
        Timeouts {
            connect: self.connect_timeout.unwrap_or_else(settings::connect_timeout),
            reply: self.reply_timeout.unwrap_or_else(settings::timeout),
        }
    }

    /// Runs the algorithm's script for `op` and returns the raw integer reply.
    /// Arguments are checked first: a bad one never reaches Redis.
    pub fn run(&self, id: &[u8], op: Op) -> Result<Vec<i64>> {
        self.algorithm.check_cost(op.cost())?;
        let key = self.key(id)?;
        let cost = params::arg(op.cost());
        let peek: &[u8] = if op.is_peek() { b"1" } else { b"0" };
        let mut args: Vec<&[u8]> = self.algorithm.args().iter().map(Vec::as_slice).collect();
        args.push(&cost);
        args.push(peek);
        let script = self.algorithm.script();
        self.slot.run(self.timeouts(), |conn| script.run(conn, &key, &args))
    }

    /// A decision for `op`, with `ratelimit.on_error` applied to a Redis failure.
    pub fn decide(&self, id: &[u8], op: Op) -> Result<Outcome> {
        self.decide_with_reply(id, op).map(|(outcome, _)| outcome)
    }

    /// `decide`, also handing back the script's integer reply, for methods that
    /// need its exact microseconds (GCRA's `throttle()` rounds them the way
    /// redis-cell does). The reply is `None` when `ratelimit.on_error` answered.
    pub fn decide_with_reply(&self, id: &[u8], op: Op) -> Result<(Outcome, Option<Vec<i64>>)> {
        match self.run(id, op) {
            Ok(reply) => Ok((self.algorithm.outcome(&reply)?, Some(reply))),
            Err(Error::Redis(cause)) => {
                let outcome = Outcome::on_error(settings::on_error(), self.limit()).ok_or(Error::Redis(cause))?;
                Ok((outcome, None))
            }
            Err(e) => Err(e),
        }
    }

    /// Deletes the key of `id`. Always throws on failure: a lost reset is a lost write.
    pub fn reset(&self, id: &[u8]) -> Result<()> {
        let key = self.key(id)?;
        self.slot.run(self.timeouts(), |conn| ::redis::cmd("DEL").arg(&key).query::<i64>(conn)).map(|_| ())
    }
}
