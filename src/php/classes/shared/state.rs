//! What every limiter class holds and does: what decides (one bound `Limiter`,
//! or a `Compound` of several), the timeouts its connection argument asked
//! for, and the `$remaining` of its last call. The classes in `classes` only
//! forward here, so all of them share one implementation of the interface.
//! This is where ini settings are read for a call (timeouts, `on_error`, the
//! block cache, dry run, metrics) and handed down.

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::types::{ArrayKey, ZendHashTable, ZendStr};

use crate::error::Result;
use crate::limiter::decide::compound::Compound;
use crate::limiter::decide::instance::{CallOptions, Limiter, Windows};
use crate::limiter::decide::local::LocalShare;
use crate::limiter::decide::lockout;
use crate::limiter::{Op, Policy};
use crate::php::args::forms::{ConstructorArgs, Signature};
use crate::php::args::id_list::{IdList, Key};
use crate::php::args::values::{float_param, string_param, Id, Int};
use crate::php::connection;
use crate::php::connection::parts::TimeoutOverrides;
use crate::php::engine::exceptions::in_call;
use crate::php::ini::settings;
use crate::php::result::headers::policy_names;
use crate::php::result::RateLimitResult;
use crate::redis::pool::Timeouts;

/// What decides for a limiter object (shared by its `withDryRun()` copies).
#[derive(Clone)]
pub enum Decider {
    One(std::sync::Arc<Limiter>),
    /// A compound, and its members' names in the IETF header fields (`headers::policy_names`).
    Many(std::sync::Arc<Compound>, std::sync::Arc<[String]>),
}

impl Decider {
    fn decide(&self, id: &[u8], op: Op, opts: CallOptions) -> Result<RateLimitResult> {
        match self {
            Decider::One(l) => l.decide(id, op, opts).map(RateLimitResult::new),
            Decider::Many(c, names) => c.decide(id, op, opts).map(|d| RateLimitResult::compound(d, names)),
        }
    }
    fn decide_many(&self, ids: &[&[u8]], cost: i64, opts: CallOptions) -> Result<Vec<RateLimitResult>> {
        match self {
            Decider::One(l) => l.decide_many(ids, cost, opts).map(|all| all.into_iter().map(RateLimitResult::new).collect()),
            Decider::Many(c, names) => {
                c.decide_many(ids, cost, opts).map(|all| all.into_iter().map(|d| RateLimitResult::compound(d, names)).collect())
            }
        }
    }
    fn reset(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        match self {
            Decider::One(l) => l.reset(id, timeouts),
            Decider::Many(c, _) => c.reset(id, timeouts),
        }
    }
    fn block(&self, id: &[u8], ms: i64, opts: CallOptions) -> Result<()> {
        match self {
            Decider::One(l) => l.block(id, ms, opts, None),
            Decider::Many(c, _) => c.block(id, ms, opts, None),
        }
    }
    fn unblock(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        match self {
            Decider::One(l) => l.unblock(id, timeouts),
            Decider::Many(c, _) => c.unblock(id, timeouts),
        }
    }
    fn with_lockout(&self, ms: i64) -> Result<Decider> {
        Ok(match self {
            Decider::One(l) => Decider::One(std::sync::Arc::new(l.with_lockout(ms))),
            Decider::Many(c, names) => Decider::Many(std::sync::Arc::new(c.with_lockout(ms)?), names.clone()),
        })
    }
}

#[derive(Clone)]
pub struct LimiterState {
    class: &'static str,
    decider: Decider,
    timeouts: TimeoutOverrides,
    remaining: Option<i64>,
    /// `withDryRun()`'s choice; `None`: `ratelimit.dry_run` decides, call by call.
    dry_run: Option<bool>,
    /// `withLease()`'s terms: consumes are answered from leases (`limiter::lease`).
    lease: Option<crate::limiter::lease::Terms>,
}

impl LimiterState {
    /// Reads the constructor arguments in either form, validates them into a
    /// policy with `build`, and binds the limiter to its connection target
    /// (not opened yet).
    pub fn construct(sig: &'static Signature, given: &[Option<&Zval>], build: impl FnOnce(&ConstructorArgs) -> Result<Policy>) -> PhpResult<Self> {
        let args = sig.read(given)?;
        let make = || -> Result<Self> {
            let policy = build(&args)?;
            let key_prefix = args.bytes("keyPrefix")?;
            let (backend, timeouts) = connection::resolve(args.connection())?;
            let limiter = Limiter::new(policy, backend, &settings::key_prefix(), &key_prefix)?;
            Ok(LimiterState {
                class: sig.class,
                decider: Decider::One(std::sync::Arc::new(limiter)),
                timeouts,
                remaining: None,
                dry_run: None,
                lease: None,
            })
        };
        make().map_err(|e| args.explain(e))
    }

    /// The state of a compound of `members` (other limiters' states): their
    /// decisions in one, on the first member's timeouts; `keys`: the members'
    /// keys in `$limiters`, which name them in the IETF header fields.
    pub fn compound(class: &'static str, members: &[&LimiterState], keys: Vec<Vec<u8>>) -> Result<Self> {
        let limiters = members
            .iter()
            .map(|m| match &m.decider {
                Decider::One(l) => Ok(l.clone()),
                Decider::Many(..) => Err(crate::error::Error::value("limiters", "must not hold a CompoundRateLimiter; list its members instead")),
            })
            .collect::<Result<Vec<_>>>()?;
        let timeouts = members.first().map(|m| m.timeouts).unwrap_or_default();
        let decider = Decider::Many(std::sync::Arc::new(Compound::new(limiters)?), policy_names(keys));
        Ok(LimiterState { class, decider, timeouts, remaining: None, dry_run: None, lease: None })
    }

    /// `withDryRun($on)`: the same limiter (same target, keys, policy,
    /// `$remaining`), in dry run or not whatever `ratelimit.dry_run` says.
    pub fn with_dry_run(&self, on: bool) -> Self {
        LimiterState { dry_run: Some(on), ..self.clone() }
    }

    /// `withLease($units, $maxAge)`: the same limiter, answering its consumes
    /// from leases (a limiter of one algorithm that lends; checked here).
    pub fn with_lease(&self, units: i64, max_age: f64) -> Result<Self> {
        let terms = crate::limiter::lease::Terms::new(self.limiter().policy().algorithm, units, max_age)?;
        // A lease's answers are this process's own: they would not see a block.
        if self.limiter().lockout_ms() > 0 {
            return Err(crate::error::Error::value(
                "units",
                "must be used on a limiter that does not lock out (a lease's answers would not see withLockout()'s blocks)",
            ));
        }
        Ok(LimiterState { lease: Some(terms), ..self.clone() })
    }

    fn timeouts(&self) -> Timeouts {
        Timeouts {
            connect: self.timeouts.connect.unwrap_or_else(settings::connect_timeout),
            reply: self.timeouts.reply.unwrap_or_else(settings::timeout),
        }
    }

    /// The settings in force for a call made now.
    pub fn options(&self) -> CallOptions {
        CallOptions {
            timeouts: self.timeouts(),
            on_error: settings::on_error(),
            block_cache: settings::block_cache(),
            server_module: settings::server_module(),
            dry_run: self.dry_run.unwrap_or_else(settings::dry_run),
            metrics: settings::metrics(),
            local: LocalShare { share: settings::local_share(), keys: settings::local_keys() },
        }
    }

    fn explain(&self, method: &str, params: &[&str], e: crate::error::Error) -> PhpException {
        in_call(e, &format!("{}::{method}", self.class), params)
    }

    /// Reads `$id` (and `$cost`) as `method` received them, decides `op`, and
    /// keeps the remaining count for `$remaining`.
    fn decide(&mut self, method: &str, id: Id, cost: Option<Int>) -> PhpResult<RateLimitResult> {
        let params: &[&str] = if cost.is_some() { &["id", "cost"] } else { &["id"] };
        let run = || -> Result<RateLimitResult> {
            let op = match cost {
                Some(cost) => Op::Consume(cost.value("cost")?),
                None => Op::Peek,
            };
            if let (Some(terms), Decider::One(l), Op::Consume(cost)) = (self.lease, &self.decider, op) {
                return crate::limiter::lease::decide(l, terms, &id.bytes()?, cost, self.options()).map(RateLimitResult::new);
            }
            self.decider.decide(&id.bytes()?, op, self.options())
        };
        let result = run();
        crate::php::engine::log::breaker_opened();
        let result = result.map_err(|e| self.explain(method, params, e))?;
        self.remaining = Some(result.outcome().remaining);
        Ok(result)
    }

    pub fn is_allowed(&mut self, method: &str, id: Id, cost: Int) -> PhpResult<bool> {
        Ok(self.decide(method, id, Some(cost))?.outcome().allowed)
    }

    pub fn consume(&mut self, id: Id, cost: Int) -> PhpResult<RateLimitResult> {
        self.decide("consume", id, Some(cost))
    }

    pub fn peek(&mut self, id: Id) -> PhpResult<RateLimitResult> {
        self.decide("peek", id, None)
    }

    /// `consume()` for every id of `$ids` in order, in one round trip; the
    /// answers under the same keys. `[]` answers `[]` without Redis.
    pub fn consume_many(&mut self, ids: IdList, cost: Int) -> PhpResult<ZBox<ZendHashTable>> {
        let run = || -> Result<(Vec<Key>, Vec<RateLimitResult>)> {
            let entries = ids.entries()?;
            let cost = cost.value("cost")?;
            let (keys, ids): (Vec<Key>, Vec<Vec<u8>>) = entries.into_iter().unzip();
            let slices: Vec<&[u8]> = ids.iter().map(Vec::as_slice).collect();
            let outcomes = self.decider.decide_many(&slices, cost, self.options()).map_err(|e| e.renamed("id", "ids"))?;
            Ok((keys, outcomes))
        };
        let ran = run();
        crate::php::engine::log::breaker_opened();
        let (keys, results) = ran.map_err(|e| self.explain("consumeMany", &["ids", "cost"], e))?;
        if let Some(last) = results.last() {
            self.remaining = Some(last.outcome().remaining);
        }
        let mut answer = ZendHashTable::new();
        for (key, result) in keys.into_iter().zip(results) {
            match key {
                Key::Index(i) => answer.insert_at_index(i, result)?,
                Key::Name(name) => answer.insert(ArrayKey::ZendString(&ZendStr::new(&name, false)), result)?,
            }
        }
        Ok(answer)
    }

    /// `refund()`, `charge()` (`$units`) or `reserve()` (`$cost`,
    /// `$maxWait`), named by `method`: one call that decides and writes.
    pub fn adjust(&mut self, method: &str, id: Id, units: Int, max_wait: Option<&Zval>) -> PhpResult<RateLimitResult> {
        let params: &[&str] = if method == "reserve" { &["id", "cost", "maxWait"] } else { &["id", "units"] };
        let run = || -> Result<RateLimitResult> {
            let units = units.value(params[1])?;
            let mode = crate::php::classes::shared::give_back::mode(method, max_wait)?;
            let (id, opts) = (id.bytes()?, self.options());
            match &self.decider {
                Decider::One(l) => l.adjust_at(&id, mode, units, opts, None).map(RateLimitResult::new),
                Decider::Many(c, names) => c.adjust_at(&id, mode, units, opts, None).map(|d| RateLimitResult::compound(d, names)),
            }
        };
        let result = run().map_err(|e| self.explain(method, params, e))?;
        self.remaining = Some(result.outcome().remaining);
        Ok(result)
    }

    pub fn reset(&mut self, id: Id) -> PhpResult<()> {
        let run = || -> Result<()> {
            let id = id.bytes()?;
            if let (Some(_), Decider::One(l)) = (self.lease, &self.decider) {
                crate::limiter::lease::give_back_key(l, &l.key(&id)?);
            }
            self.decider.reset(&id, self.timeouts())
        };
        let ran = run();
        crate::php::engine::log::breaker_opened();
        ran.map_err(|e| self.explain("reset", &["id"], e))?;
        self.remaining = None;
        Ok(())
    }

    /// `block($id, $seconds)`: `$seconds` checked before anything touches
    /// Redis; a Redis failure always throws (a lost block is a lost write).
    pub fn block(&mut self, id: &Zval, seconds: &Zval) -> PhpResult<()> {
        let run = || -> Result<()> {
            let id = string_param("id", id)?;
            let ms = lockout::seconds_to_ms(float_param("seconds", seconds)?)?;
            // This thread's lease of the id goes back first, so that its next call meets the block.
            if let (Some(_), Decider::One(l)) = (self.lease, &self.decider) {
                crate::limiter::lease::give_back_key(l, &l.key(&id)?);
            }
            self.decider.block(&id, ms, self.options())
        };
        run().map_err(|e| self.explain("block", &["id", "seconds"], e))
    }

    /// `unblock($id)`: a Redis failure always throws, as `reset()`'s.
    /// (`$id` is required here, so read from a Zval, not as `Id`.)
    pub fn unblock(&mut self, id: &Zval) -> PhpResult<()> {
        let run = || -> Result<()> { self.decider.unblock(&string_param("id", id)?, self.timeouts()) };
        run().map_err(|e| self.explain("unblock", &["id"], e))
    }

    /// `withLockout($seconds)`: the same limiter (target, keys, policy, dry
    /// run, `$remaining`) that blocks an id for `$seconds` whenever one of
    /// its consuming calls is denied.
    pub fn with_lockout(&self, seconds: &Zval) -> PhpResult<Self> {
        let run = || -> Result<Self> {
            let ms = lockout::seconds_to_ms(float_param("seconds", seconds)?)?;
            if self.lease.is_some() {
                return Err(crate::error::Error::value(
                    "seconds",
                    "must be used on a limiter without a lease (withLease(): a lease's answers would not see a block)",
                ));
            }
            Ok(LimiterState { decider: self.decider.with_lockout(ms)?, ..self.clone() })
        };
        run().map_err(|e| self.explain("withLockout", &["seconds"], e))
    }

    /// `withAnchor()`, `withCalendar()` (`method`, its `params`): the same
    /// limiter with its windows where `windows` says, read first.
    pub fn with_windows(&self, method: &str, params: &[&str], windows: impl FnOnce() -> Result<Windows>) -> PhpResult<Self> {
        let run = || -> Result<Self> {
            let windows = windows()?;
            Ok(LimiterState { decider: Decider::One(std::sync::Arc::new(self.limiter().with_windows(windows)?)), ..self.clone() })
        };
        run().map_err(|e| self.explain(method, params, e))
    }

    pub fn remaining(&self) -> Option<i64> {
        self.remaining
    }

    /// For algorithm-specific methods (GCRA's `throttle()`): the one limiter
    /// of a class that is not a compound.
    pub fn limiter(&self) -> &Limiter {
        match &self.decider {
            Decider::One(l) => l,
            Decider::Many(c, _) => &c.members()[0],
        }
    }

    pub fn set_remaining(&mut self, remaining: Option<i64>) {
        self.remaining = remaining;
    }
}
