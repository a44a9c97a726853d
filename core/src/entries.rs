//! The entry points of lua/entries.lua over any keyspace: one limiter on one
//! key (take, peek), one limiter on many keys in order (take_many), and
//! several limiters decided all or nothing (compound, compound_peek). The
//! executor gives the keyspace and the clock. A decision is worked out whole
//! before any of its writes is applied, so one that is refused (a key holding
//! what the library never writes, on any member) writes nothing; the writes
//! of each decision are applied before the next one reads, as Redis applies
//! the Lua code's.

use crate::algorithm::Algorithm;
use crate::answer::Answer;
use crate::effect::Effect;
use crate::keyspace::Keyspace;
use crate::lockout;
use crate::metrics::{self, Counting};
use crate::view::Read;

/// One limiter of a call: its algorithm, and its lockout in ms (0: none),
/// the id's block for so long when a consuming call of it is denied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    pub algo: Algorithm,
    pub lockout_ms: f64,
}

/// A compound's member: its key, its block key, its limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Member<'a> {
    pub key: &'a [u8],
    pub block: &'a [u8],
    pub limit: Limit,
}

/// The instant of a call: a test's clock, the keyspace's, or 0 when no
/// algorithm of the call reads one (fixed windows only).
fn instant<K: Keyspace + ?Sized>(ks: &K, injected: Option<f64>, reads: bool) -> f64 {
    match injected {
        Some(now) => now,
        None if reads => ks.now_us(),
        None => 0.0,
    }
}

/// A blocked id's answer: nothing left, denied for the block's time left.
fn blocked(left_ms: f64) -> Answer {
    Answer::new(0.0, left_ms * 1000.0, Some(left_ms * 1000.0), 0.0)
}

/// A denial that blocks the id for `lockout_ms`: nothing left, and the
/// times at least the block's.
fn locked(a: Answer, lockout_ms: f64) -> Answer {
    let us = lockout_ms * 1000.0;
    Answer::new(0.0, a.reset_us.max(us), a.retry_us.map(|r| r.max(us)), 0.0)
}

/// One decision on one key (lua/entries.lua's `one_key`): the block first.
#[allow(clippy::too_many_arguments)]
fn one_key<K: Keyspace + ?Sized>(
    ks: &mut K,
    key: &[u8],
    block: &[u8],
    limit: &Limit,
    cost: f64,
    now: f64,
    injected: bool,
    peek: bool,
) -> Read<Answer> {
    let now_ms = lockout::now_ms(now, injected);
    let left = lockout::left_ms(&*ks.view(block), now_ms);
    if left > 0.0 {
        return Ok(blocked(left));
    }
    let algo = &limit.algo;
    let mut effects = Vec::new();
    let mut locks = Vec::new();
    let answer = {
        let view = ks.view(key);
        let checked = algo.check(&*view, cost, now, injected)?;
        if checked.fits && !peek {
            let (remaining, reset, delay) = algo.commit(&*view, cost, now, checked, &mut effects)?;
            Answer::new(remaining, reset, None, delay)
        } else {
            let (reset, retry) = algo.explain(&*view, cost, now, &checked)?;
            if !peek {
                algo.repair(&checked, &mut effects);
            }
            let answer = Answer::new(checked.remaining, reset, (!checked.fits).then_some(retry), 0.0);
            if !checked.fits && !peek && limit.lockout_ms > 0.0 {
                lockout::lock(limit.lockout_ms, now_ms, &mut locks);
                locked(answer, limit.lockout_ms)
            } else {
                answer
            }
        }
    };
    ks.apply(key, &effects)?;
    ks.apply(block, &locks)?;
    Ok(answer)
}

/// `take` (peek false) or `peek`: one limiter on one key.
pub fn decide<K: Keyspace + ?Sized>(
    ks: &mut K,
    key: &[u8],
    block: &[u8],
    limit: &Limit,
    cost: f64,
    injected: Option<f64>,
    peek: bool,
) -> Read<Answer> {
    let now = instant(ks, injected, limit.algo.reads_clock());
    one_key(ks, key, block, limit, cost, now, injected.is_some(), peek)
}

/// `take_many`: `take` for every key in order at one instant; each answer
/// stands alone (a key holding a foreign value fails only itself).
/// `blocks[k]` is `keys[k]`'s block key.
pub fn take_many<K: Keyspace + ?Sized>(
    ks: &mut K,
    keys: &[&[u8]],
    blocks: &[&[u8]],
    limit: &Limit,
    cost: f64,
    injected: Option<f64>,
) -> Vec<Read<Answer>> {
    let now = instant(ks, injected, limit.algo.reads_clock());
    keys.iter().zip(blocks).map(|(key, block)| one_key(ks, key, block, limit, cost, now, injected.is_some(), false)).collect()
}

/// `block`: every key of `blocks` blocked for `ms` from now, unless a longer
/// block is there; per key, the block's time left in µs after the call.
pub fn block<K: Keyspace + ?Sized>(ks: &mut K, blocks: &[&[u8]], ms: f64, injected: Option<f64>) -> Read<Vec<f64>> {
    let now_ms = injected.map(|now| (now / 1000.0).floor());
    let mut out = Vec::with_capacity(blocks.len());
    for block in blocks {
        let mut left = lockout::left_ms(&*ks.view(block), now_ms);
        if left < ms {
            let mut effects = Vec::new();
            lockout::lock(ms, now_ms, &mut effects);
            ks.apply(block, &effects)?;
            left = ms;
        }
        out.push(left * 1000.0);
    }
    Ok(out)
}

/// The decisions among `answers` that were made: (accepted, denied).
fn tally<'a>(answers: impl IntoIterator<Item = &'a Answer>) -> (i64, i64) {
    answers.into_iter().fold((0, 0), |(a, d), x| if x.allowed() { (a + 1, d) } else { (a, d + 1) })
}

/// Counts in the same call (`metrics::count`). A failure to count (a foreign
/// value at the counters' key) leaves the decision standing, as the Lua
/// code's `pcall` does: the answer is the decision's.
fn counted<K: Keyspace + ?Sized>(ks: &mut K, base: &[u8], c: &Counting, now: f64, (allowed, denied): (i64, i64)) {
    let _ = metrics::count(ks, base, c, now, allowed, denied);
}

/// `take_counted`: `take`, its decision counted under `base`.
#[allow(clippy::too_many_arguments)]
pub fn take_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    key: &[u8],
    block: &[u8],
    base: &[u8],
    c: &Counting,
    limit: &Limit,
    cost: f64,
    injected: Option<f64>,
) -> Read<Answer> {
    let now = instant(ks, injected, limit.algo.reads_clock());
    let answer = one_key(ks, key, block, limit, cost, now, injected.is_some(), false)?;
    counted(ks, base, c, now, tally([&answer]));
    Ok(answer)
}

/// `take_many_counted`: `take_many`, its decisions counted under `base`.
#[allow(clippy::too_many_arguments)]
pub fn take_many_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    keys: &[&[u8]],
    blocks: &[&[u8]],
    base: &[u8],
    c: &Counting,
    limit: &Limit,
    cost: f64,
    injected: Option<f64>,
) -> Vec<Read<Answer>> {
    let now = instant(ks, injected, limit.algo.reads_clock());
    let answers: Vec<Read<Answer>> =
        keys.iter().zip(blocks).map(|(key, block)| one_key(ks, key, block, limit, cost, now, injected.is_some(), false)).collect();
    counted(ks, base, c, now, tally(answers.iter().flatten()));
    answers
}

/// A compound's answer: every member's own, in member order, as that
/// member's `take`/`peek` would state it after the compound's all-or-nothing
/// outcome (committed when all fit and this is no peek; else explained, so
/// a member that fits in a denied call says what it has left, untouched).
/// The client combines them (the most restrictive answer) and shows each
/// (one IETF header item per member).
#[derive(Debug, Clone, PartialEq)]
pub struct CompoundAnswer {
    pub members: Vec<Answer>,
}

impl CompoundAnswer {
    /// Accepted: every member fits (a denied call has at least one retry).
    pub fn allowed(&self) -> bool {
        self.members.iter().all(Answer::allowed)
    }

    /// The reply: one batch record per member, {remaining, reset, retry or 0, delay}.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        for a in &self.members {
            a.write_record(out);
        }
    }
}

/// `compound` (peek false) or `compound_peek`: every member's block read
/// and every member checked first, in order (a blocked member does not fit,
/// unread); only when all fit (and this is no peek) does every member
/// commit, else every member explains (a blocked one: its block's time
/// left; a consuming call repairs what it denied, and, denied by an
/// algorithm with no member blocked, blocks every member that has a
/// lockout). Members have distinct keys, so each member's writes are applied
/// after every member has been worked out: a refusal on any member writes
/// nothing, and the state left is what the Lua code's writes leave, in the
/// order it writes (from the last member to the first).
pub fn compound<K: Keyspace + ?Sized>(ks: &mut K, members: &[Member], cost: f64, injected: Option<f64>, peek: bool) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|m| m.limit.algo.reads_clock()));
    compound_at(ks, members, cost, now, injected.is_some(), peek)
}

/// `compound_counted`: `compound`, its decision counted under `base`.
pub fn compound_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[Member],
    base: &[u8],
    c: &Counting,
    cost: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|m| m.limit.algo.reads_clock()));
    let answer = compound_at(ks, members, cost, now, injected.is_some(), false)?;
    counted(ks, base, c, now, if answer.allowed() { (1, 0) } else { (0, 1) });
    Ok(answer)
}

fn compound_at<K: Keyspace + ?Sized>(ks: &mut K, members: &[Member], cost: f64, now: f64, injected: bool, peek: bool) -> Read<CompoundAnswer> {
    let now_ms = lockout::now_ms(now, injected);
    // Per member: its block's time left (0: none), and its check when not blocked.
    let mut checked = Vec::with_capacity(members.len());
    for m in members {
        let left = lockout::left_ms(&*ks.view(m.block), now_ms);
        let c = if left > 0.0 { None } else { Some(m.limit.algo.check(&*ks.view(m.key), cost, now, injected)?) };
        checked.push((left, c));
    }
    let all = checked.iter().all(|(_, c)| c.as_ref().is_some_and(|c| c.fits));
    let none_blocked = checked.iter().all(|(left, _)| *left == 0.0);
    let mut answers = Vec::with_capacity(members.len());
    let mut writes: Vec<(&[u8], Vec<Effect>)> = Vec::with_capacity(2 * members.len());
    // From the last member to the first, as the Lua recursion unwinds.
    for (i, (left, c)) in checked.into_iter().enumerate().rev() {
        let m = &members[i];
        let algo = &m.limit.algo;
        let mut effects = Vec::new();
        let mut locks = Vec::new();
        let view = ks.view(m.key);
        let answer = match c {
            None => blocked(left),
            Some(c) if all && !peek => {
                let (remaining, reset, delay) = algo.commit(&*view, cost, now, c, &mut effects)?;
                Answer::new(remaining, reset, None, delay)
            }
            Some(c) => {
                let (reset, retry) = algo.explain(&*view, cost, now, &c)?;
                if !c.fits && !peek {
                    algo.repair(&c, &mut effects);
                }
                let answer = Answer::new(c.remaining, reset, (!c.fits).then_some(retry), 0.0);
                if none_blocked && !peek && m.limit.lockout_ms > 0.0 {
                    lockout::lock(m.limit.lockout_ms, now_ms, &mut locks);
                    locked(Answer { retry_us: Some(answer.retry_us.unwrap_or(1.0)), ..answer }, m.limit.lockout_ms)
                } else {
                    answer
                }
            }
        };
        answers.push(answer);
        writes.push((m.key, effects));
        writes.push((m.block, locks));
    }
    for (key, effects) in writes {
        ks.apply(key, &effects)?;
    }
    answers.reverse();
    Ok(CompoundAnswer { members: answers })
}

/// `adjust`: refund, charge or reserve (`Adjust`) `units` on every member's
/// key (one limiter is a compound of one). Every member is checked first,
/// in order, so a refusal on any member writes nothing; then each adjusts
/// its own key, from the last to the first (as lua/entries.lua's recursion
/// unwinds). No member waits for another: a refund and a charge apply to
/// every member whatever the others answer (a booking has one member,
/// `command::parse` says so). A charge or a booking reads every member's
/// block first, as a decision does (a blocked member is not checked): when
/// any member is blocked, nothing is taken from any, a blocked member
/// answers its block's time left and the others what they have left,
/// untouched (reset 0). A refund ignores blocks; none of the three starts
/// one (`lockout_ms` is a decision's). Answers: every member's own, as a
/// compound's.
pub fn adjust<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[Member],
    mode: crate::algorithm::Adjust,
    units: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|m| m.limit.algo.reads_clock()));
    adjust_at(ks, members, mode, units, now, injected.is_some())
}

/// `adjust_counted`: `adjust`, counted as one decision under `base`
/// (accepted when every member's answer is).
pub fn adjust_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[Member],
    base: &[u8],
    c: &Counting,
    mode: crate::algorithm::Adjust,
    units: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|m| m.limit.algo.reads_clock()));
    let answer = adjust_at(ks, members, mode, units, now, injected.is_some())?;
    counted(ks, base, c, now, if answer.allowed() { (1, 0) } else { (0, 1) });
    Ok(answer)
}

fn adjust_at<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[Member],
    mode: crate::algorithm::Adjust,
    units: f64,
    now: f64,
    injected: bool,
) -> Read<CompoundAnswer> {
    let reads_block = mode != crate::algorithm::Adjust::Refund;
    let now_ms = lockout::now_ms(now, injected);
    // A lease (one key: `command::parse` checks it): the block read first, as a charge reads it.
    if let (crate::algorithm::Adjust::Lease(need), [m]) = (mode, members) {
        let left = lockout::left_ms(&*ks.view(m.block), now_ms);
        if left > 0.0 {
            return Ok(CompoundAnswer { members: vec![blocked(left)] });
        }
        let mut effects = Vec::new();
        let answer = m.limit.algo.lease(&*ks.view(m.key), units, need, now, injected, &mut effects)?;
        ks.apply(m.key, &effects)?;
        return Ok(CompoundAnswer { members: vec![answer] });
    }
    // Per member: its block's time left (0: none, or a refund), and its check when not blocked.
    let mut checked = Vec::with_capacity(members.len());
    for m in members {
        let left = if reads_block { lockout::left_ms(&*ks.view(m.block), now_ms) } else { 0.0 };
        let c = if left > 0.0 { None } else { Some(m.limit.algo.check(&*ks.view(m.key), units, now, injected)?) };
        checked.push((left, c));
    }
    let none_blocked = checked.iter().all(|(left, _)| *left == 0.0);
    let mut answers = Vec::with_capacity(members.len());
    let mut writes: Vec<(&[u8], Vec<Effect>)> = Vec::with_capacity(members.len());
    for (i, (left, c)) in checked.into_iter().enumerate().rev() {
        let m = &members[i];
        let mut effects = Vec::new();
        let answer = match c {
            None => blocked(left),
            Some(c) if !none_blocked => Answer::new(c.remaining, 0.0, None, 0.0),
            Some(c) => m.limit.algo.adjust(&*ks.view(m.key), mode, units, now, c, &mut effects)?,
        };
        answers.push(answer);
        writes.push((m.key, effects));
    }
    for (key, effects) in writes {
        ks.apply(key, &effects)?;
    }
    answers.reverse();
    Ok(CompoundAnswer { members: answers })
}
