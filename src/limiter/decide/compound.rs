//! Several limiters decided as one (`CompoundRateLimiter`): one script over
//! all members' keys (`lua/entries.lua`) checks every member, then commits
//! every member only when all accept. So a request denied by one limit takes
//! nothing from the others, in one round trip, atomically.
//!
//! Its counters (`ratelimit.metrics`) are its own, under its members' key
//! prefixes joined by `+`: a compound decision is one decision.
//!
//! The reply is every member's own answer; the compound's outcome (the
//! result's properties) is combined from them here, and each member's is
//! kept beside it (`Decision`) for the IETF header fields, one policy per
//! member.

use std::sync::{Arc, OnceLock};

use crate::backend::Backend;
use crate::entry::call::{EntryCall, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::Ints;
use crate::error::{Error, Result};
use crate::limiter::decide::adjust::Adjust;
use crate::limiter::decide::conclude::Conclude;
use crate::limiter::decide::instance::{CallOptions, Limiter};
use crate::limiter::decide::local::{self, LocalShare};
use crate::limiter::outcome::OnError;
use crate::limiter::{Op, Outcome, Policy};
use crate::metrics::{self, Counters, Mode};
use crate::redis::pool::Timeouts;

/// Members of one compound: enough for "per second + per minute + per day +
/// per user + per IP" and more, few enough that one call stays small in Redis.
pub const MAX_MEMBERS: usize = 16;

/// The members' own outcomes of one call; `None` when it failed (an
/// `on_error` answer then answers for each of them).
type Own = Option<Vec<Outcome>>;

/// A decision's outcome, and its members' own when it is one.
fn split(decided: Result<Decision>) -> (Result<Outcome>, Own) {
    match decided {
        Ok(d) => (Ok(d.outcome), Some(d.members)),
        Err(e) => (Err(e), None),
    }
}

/// A compound's decision: its outcome (all allowed; limit and remaining of
/// the member with the least remaining, the first of equals; the largest
/// retry among the members that deny; the largest reset and delay), and
/// every member's own, in member order: what that member alone would have
/// answered after the compound's all-or-nothing outcome (when denied, nothing
/// was taken: each says what it has left).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub outcome: Outcome,
    pub members: Vec<Outcome>,
}

impl Decision {
    /// The members' own outcomes, combined.
    fn of(members: Vec<Outcome>) -> Option<Decision> {
        let least = *members.iter().min_by_key(|o| o.remaining)?;
        let allowed = members.iter().all(|o| o.allowed);
        let most = |f: fn(&Outcome) -> i64| members.iter().map(f).max().unwrap_or(0);
        let outcome = Outcome {
            allowed,
            limit: least.limit,
            remaining: least.remaining,
            retry_after_us: members.iter().filter(|o| !o.allowed).map(|o| o.retry_after_us).max().unwrap_or(0),
            reset_after_us: most(|o| o.reset_after_us),
            delay_us: if allowed { most(|o| o.delay_us) } else { 0 },
            would_deny: false,
            source: least.source,
        };
        Some(Decision { outcome, members })
    }
}

pub struct Compound {
    members: Vec<Arc<Limiter>>,
    /// Every member's algorithm name and arguments, in order: every call's.
    args: PolicyArgs,
    /// The members' key prefixes joined by `+`: what its counters are named.
    name: Vec<u8>,
    counters: OnceLock<Arc<Counters>>,
}

impl Compound {
    /// 1 to 16 limiters on one connection target, with distinct key prefixes
    /// (two members on one key would each count the request).
    pub fn new(members: Vec<Arc<Limiter>>) -> Result<Self> {
        if members.is_empty() || members.len() > MAX_MEMBERS {
            return Err(Error::value("limiters", format!("must hold 1 to {MAX_MEMBERS} limiters, {} given", members.len())));
        }
        for (i, m) in members.iter().enumerate().skip(1) {
            if !m.same_target(&members[0]) {
                return Err(Error::value(
                    "limiters",
                    format!("must all use the same Redis connection target; limiter {i} uses another than limiter 0"),
                ));
            }
            if let Some(j) = members[..i].iter().position(|o| o.prefix() == m.prefix()) {
                return Err(Error::value("limiters", format!("must have distinct key prefixes; limiters {j} and {i} share one")));
            }
        }
        let args = PolicyArgs::joined(members.iter().map(|m| m.args()));
        let name = members.iter().map(|m| m.prefix()).collect::<Vec<_>>().join(&b'+');
        Ok(Compound { members, args, name, counters: OnceLock::new() })
    }

    /// What its counters are named: its members' key prefixes joined by `+`.
    pub fn name(&self) -> &[u8] {
        &self.name
    }

    fn conclude(&self, op: Op, opts: CallOptions) -> Conclude<'_> {
        let counted = !op.is_peek() && opts.metrics != Mode::Off;
        let counters = counted.then(|| &**self.counters.get_or_init(|| metrics::counters(&self.name)));
        Conclude { dry_run: opts.dry_run, on_error: opts.on_error, limit: self.limit(), counters, metrics: opts.metrics }
    }

    /// The members' keys of one id, then the counters' base in their slot.
    fn with_base(&self, keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let mut all = keys.to_vec();
        all.push(self.members[0].metrics_base(&keys[0]));
        all
    }

    pub fn members(&self) -> &[Arc<Limiter>] {
        &self.members
    }

    /// `cost` must fit every member.
    fn check_cost(&self, cost: i64) -> Result<()> {
        self.members.iter().try_for_each(|m| m.policy().check_cost(cost))
    }

    /// Every member's words for a call at `now_us` (a test's clock) or now:
    /// made once, unless a member's windows are calendar units (`Limiter::call_args`).
    fn call_args(&self, now_us: Option<i64>) -> Result<std::borrow::Cow<'_, PolicyArgs>> {
        if !self.members.iter().any(|m| m.has_call_args()) {
            return Ok(std::borrow::Cow::Borrowed(&self.args));
        }
        let each = self.members.iter().map(|m| m.call_args(now_us)).collect::<Result<Vec<_>>>()?;
        Ok(std::borrow::Cow::Owned(PolicyArgs::joined(each.iter().map(|a| &**a))))
    }

    /// The members' keys of `id`, then their block keys (`lockout`), in member order.
    fn keys(&self, id: &[u8]) -> Result<Vec<Vec<u8>>> {
        let keys = self.members.iter().map(|m| m.key(id)).collect::<Result<Vec<_>>>()?;
        let blocks: Vec<Vec<u8>> = self.members.iter().zip(&keys).map(|(m, k)| m.block_key(k)).collect();
        Ok([keys, blocks].concat())
    }

    /// The members' block keys of `id`.
    fn block_keys(&self, id: &[u8]) -> Result<Vec<Vec<u8>>> {
        self.members.iter().map(|m| Ok(m.block_key(&m.key(id)?))).collect()
    }

    /// `withLockout()`: the same compound, every member blocking the id
    /// for at least `lockout_ms` whenever a consuming call is denied (a
    /// member's own longer lockout is kept).
    pub fn with_lockout(&self, lockout_ms: i64) -> Result<Compound> {
        Compound::new(self.members.iter().map(|m| Arc::new(m.with_lockout(m.lockout_ms().max(lockout_ms)))).collect())
    }

    /// `block()`: every member blocks `id` for `ms`, in one call (see `Limiter::block`).
    pub fn block(&self, id: &[u8], ms: i64, opts: CallOptions, now_us: Option<i64>) -> Result<()> {
        crate::limiter::decide::instance::block_keys(self.backend(), &self.block_keys(id)?, ms, opts, now_us)
    }

    /// `unblock()`: ends every member's block of `id`, in one command.
    pub fn unblock(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let blocks = self.block_keys(id)?;
        for m in &self.members {
            m.forget(&m.key(id)?);
        }
        self.backend().delete(&blocks.iter().map(Vec::as_slice).collect::<Vec<_>>(), timeouts)
    }

    /// The reply of `lua/entries.lua`: every member's answer as a batch
    /// record, in member order.
    fn decision(&self, reply: &[i64]) -> Result<Decision> {
        let unexpected = || Error::Redis(format!("unexpected script reply {reply:?}"));
        if reply.len() != 4 * self.members.len() {
            return Err(unexpected());
        }
        let members = reply
            .chunks_exact(4)
            .zip(&self.members)
            .map(|(r, m)| Ok(Outcome { source: m.source(), ..m.policy().outcome(Ints::of_record(r[0], r[1], r[2], r[3]).as_slice())? }))
            .collect::<Result<Vec<Outcome>>>()?;
        Decision::of(members).ok_or_else(unexpected)
    }

    /// The call's answer: its outcome concluded (dry run, `on_error`, the
    /// counters), with the members' own from the reply; a failure that
    /// `on_error` answers gives every member that answer for its own limit.
    fn concluded(&self, conclude: &Conclude, outcome: Result<Outcome>, members: Own, on_error: OnError) -> Result<Decision> {
        Ok(self.joined(conclude.one(outcome, false)?, members, on_error))
    }

    /// A concluded outcome with its members' own (`None`: it is `on_error`'s answer).
    fn joined(&self, outcome: Outcome, members: Own, on_error: OnError) -> Decision {
        let members = members.unwrap_or_else(|| {
            self.members.iter().map(|m| Outcome::on_error(on_error, m.limit()).unwrap_or(Outcome { limit: m.limit(), ..outcome })).collect()
        });
        Decision { outcome, members }
    }

    pub fn limit(&self) -> i64 {
        self.members[0].limit()
    }

    fn backend(&self) -> &Backend {
        self.members[0].backend()
    }

    /// The all-or-nothing decision for `op`, made in this process, each
    /// member at its share of its limit (`limiter::decide::local`).
    /// `keys`: the members' keys then their block keys; `args`: the call's words.
    fn local(&self, keys: &[Vec<u8>], args: &PolicyArgs, op: Op, share: LocalShare) -> Result<Decision> {
        let policies: Vec<&Policy> = self.members.iter().map(|m| m.policy()).collect();
        let members = local::decide_compound(self.backend(), &policies, args, &keys[..2 * self.members.len()], op, share)?;
        Decision::of(members).ok_or_else(|| Error::Redis("a compound without members".into()))
    }

    /// One all-or-nothing call on this compound's target, its reply read as a decision.
    fn decide_one(&self, call: &EntryCall<Vec<u8>>, opts: CallOptions) -> Result<Decision> {
        self.backend().decide(call, opts.reach()).and_then(|ints| self.decision(ints.as_slice()))
    }

    /// The all-or-nothing decision for `op` (see `Limiter::decide_at` for `now_us`).
    pub fn decide_at(&self, id: &[u8], op: Op, opts: CallOptions, now_us: Option<i64>) -> Result<Decision> {
        self.check_cost(op.cost())?;
        let keys = self.keys(id)?;
        let conclude = self.conclude(op, opts);
        // `ratelimit.metrics = redis`: counted in the same call, with what is pending.
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        let taken = counted.map(Counters::take_unsent);
        let counting = taken.map(|t| metrics::counting_args(&self.name, opts.dry_run, t));
        let (per_call, n) = Policy::call_args(op, now_us);
        let entry = match (&counting, op.is_peek()) {
            (Some(_), _) => Entry::CompoundCounted,
            (None, true) => Entry::CompoundPeek,
            (None, false) => Entry::Compound,
        };
        let keys = if counting.is_some() { self.with_base(&keys) } else { keys };
        let args = self.call_args(now_us)?;
        let call = EntryCall { entry, keys: &keys, counting: counting.as_ref().map_or(&[][..], |c| &c[..]), args: &args, per_call: &per_call[..n] };
        let decided = self.decide_one(&call, opts);
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        let decided = local::or_local(decided, opts.on_error, opts.local, |share| self.local(call.keys, &args, op, share));
        let (outcome, members) = split(decided);
        self.concluded(&conclude, outcome, members, opts.on_error)
    }

    pub fn decide(&self, id: &[u8], op: Op, opts: CallOptions) -> Result<Decision> {
        self.decide_at(id, op, opts, None)
    }

    /// `decide(id, Op::Consume(cost))` for every id, in order, in one round trip.
    pub fn decide_many(&self, ids: &[&[u8]], cost: i64, opts: CallOptions) -> Result<Vec<Decision>> {
        self.check_cost(cost)?;
        let keys =
            ids.iter().enumerate().map(|(i, id)| self.keys(id).map_err(|e| e.in_entry(&format!("at position {i}:")))).collect::<Result<Vec<_>>>()?;
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let conclude = self.conclude(Op::Consume(cost), opts);
        // Counted, each call its own decision; what is pending waits for a
        // single consume (one of several calls could not carry it alone).
        let counting = conclude.counters.filter(|_| opts.metrics == Mode::Redis).map(|_| metrics::counting_args(&self.name, opts.dry_run, [0; 5]));
        let (entry, calls) = match &counting {
            Some(_) => (Entry::CompoundCounted, keys.iter().map(|k| self.with_base(k)).collect()),
            None => (Entry::Compound, keys),
        };
        let counting = counting.as_ref().map_or(&[][..], |c| &c[..]);
        let (per_call, n) = Policy::call_args(Op::Consume(cost), None);
        let args = self.call_args(None)?;
        let decided: Result<Vec<Result<Decision>>> = self
            .backend()
            .decide_each(entry, &calls, counting, &args, &per_call[..n], opts.reach())
            .map(|each| each.into_iter().map(|r| r.and_then(|ints| self.decision(ints.as_slice()))).collect());
        // `on_error = local`: each call Redis could not decide, decided here, in order.
        let decided: Result<Vec<Result<Decision>>> = match decided {
            Err(e) => Ok(calls.iter().map(|_| Err(e.clone())).collect()),
            Ok(each) => Ok(each),
        }
        .map(|each: Vec<Result<Decision>>| {
            each.into_iter()
                .zip(&calls)
                .map(|(r, keys)| local::or_local(r, opts.on_error, opts.local, |share| self.local(keys, &args, Op::Consume(cost), share)))
                .collect()
        });
        // Concluded as one limiter's batch (`Conclude::batch`); each call's
        // members kept beside its outcome, or the `on_error` answer's.
        let n = calls.len();
        let (outcomes, members): (Result<Vec<Result<Outcome>>>, Vec<Own>) = match decided {
            Ok(each) => {
                let (outcomes, members) = each.into_iter().map(split).unzip();
                (Ok(outcomes), members)
            }
            Err(e) => (Err(e), vec![None; n]),
        };
        let outcomes = conclude.batch(outcomes, n)?;
        Ok(outcomes.into_iter().zip(members).map(|(o, m)| self.joined(o, m, opts.on_error)).collect())
    }

    /// `refund()` or `charge()` of `units` on every member's key of `id`, in
    /// one atomic call (`Limiter::adjust_at` for one limiter): each member
    /// gives back or takes, whatever the others answer; the outcome is
    /// combined as a decision's. The members' block keys go with their
    /// keys: a charge on an id any member blocks takes nothing (a refund
    /// ignores blocks).
    pub fn adjust_at(&self, id: &[u8], mode: Adjust, units: i64, opts: CallOptions, now_us: Option<i64>) -> Result<Decision> {
        self.members.iter().try_for_each(|m| mode.check(m.policy(), units))?;
        let keys = self.keys(id)?;
        let conclude = self.conclude(Op::Consume(units), opts);
        let counted = conclude.counters.filter(|_| opts.metrics == Mode::Redis);
        let taken = counted.map(Counters::take_unsent);
        let counting = taken.map(|t| metrics::counting_args(&self.name, opts.dry_run, t));
        let (per_call, n) = mode.call_args(units, now_us);
        let args = self.call_args(now_us)?;
        for (m, key) in self.members.iter().zip(&keys) {
            m.forget(key);
        }
        let keys = if counting.is_some() { self.with_base(&keys) } else { keys };
        let entry = if counting.is_some() { Entry::AdjustCounted } else { Entry::Adjust };
        let call = EntryCall { entry, keys: &keys, counting: counting.as_ref().map_or(&[][..], |c| &c[..]), args: &args, per_call: &per_call[..n] };
        let decided = self.decide_one(&call, opts);
        if let (Some(c), Some(t), Err(_)) = (counted, taken, &decided) {
            c.give_back(t);
        }
        let decided = local::or_local(decided, opts.on_error, opts.local, |share| {
            let policies: Vec<&Policy> = self.members.iter().map(|m| m.policy()).collect();
            let members = local::adjust(self.backend(), &policies, &args, &keys[..2 * self.members.len()], mode, units, now_us, share)?;
            Decision::of(members).ok_or_else(|| Error::Redis("a compound without members".into()))
        });
        let (outcome, members) = split(decided);
        self.concluded(&conclude, outcome, members, opts.on_error)
    }

    /// Deletes every member's key of `id` and its block, in one command (on a cluster, sent
    /// whole to their slot's master: `Conn::req_command_for_key`).
    pub fn reset(&self, id: &[u8], timeouts: Timeouts) -> Result<()> {
        let keys = self.keys(id)?;
        for m in &self.members {
            m.forget(&m.key(id)?);
        }
        self.backend().delete(&keys.iter().map(Vec::as_slice).collect::<Vec<_>>(), timeouts)
    }
}
