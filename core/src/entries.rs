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
use crate::metrics::{self, Counting};
use crate::view::Read;

/// The instant of a call: a test's clock, the keyspace's, or 0 when no
/// algorithm of the call reads one (fixed windows only).
fn instant<K: Keyspace + ?Sized>(ks: &K, injected: Option<f64>, reads: bool) -> f64 {
    match injected {
        Some(now) => now,
        None if reads => ks.now_us(),
        None => 0.0,
    }
}

/// One decision on one key (lua/entries.lua's `one_key`).
fn one_key<K: Keyspace + ?Sized>(ks: &mut K, key: &[u8], algo: &Algorithm, cost: f64, now: f64, injected: bool, peek: bool) -> Read<Answer> {
    let mut effects = Vec::new();
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
            Answer::new(checked.remaining, reset, (!checked.fits).then_some(retry), 0.0)
        }
    };
    ks.apply(key, &effects)?;
    Ok(answer)
}

/// `take` (peek false) or `peek`: one limiter on one key.
pub fn decide<K: Keyspace + ?Sized>(ks: &mut K, key: &[u8], algo: &Algorithm, cost: f64, injected: Option<f64>, peek: bool) -> Read<Answer> {
    let now = instant(ks, injected, algo.reads_clock());
    one_key(ks, key, algo, cost, now, injected.is_some(), peek)
}

/// `take_many`: `take` for every key in order at one instant; each answer
/// stands alone (a key holding a foreign value fails only itself).
pub fn take_many<K: Keyspace + ?Sized>(ks: &mut K, keys: &[&[u8]], algo: &Algorithm, cost: f64, injected: Option<f64>) -> Vec<Read<Answer>> {
    let now = instant(ks, injected, algo.reads_clock());
    keys.iter().map(|key| one_key(ks, key, algo, cost, now, injected.is_some(), false)).collect()
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
pub fn take_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    key: &[u8],
    base: &[u8],
    c: &Counting,
    algo: &Algorithm,
    cost: f64,
    injected: Option<f64>,
) -> Read<Answer> {
    let now = instant(ks, injected, algo.reads_clock());
    let answer = one_key(ks, key, algo, cost, now, injected.is_some(), false)?;
    counted(ks, base, c, now, tally([&answer]));
    Ok(answer)
}

/// `take_many_counted`: `take_many`, its decisions counted under `base`.
pub fn take_many_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    keys: &[&[u8]],
    base: &[u8],
    c: &Counting,
    algo: &Algorithm,
    cost: f64,
    injected: Option<f64>,
) -> Vec<Read<Answer>> {
    let now = instant(ks, injected, algo.reads_clock());
    let answers: Vec<Read<Answer>> = keys.iter().map(|key| one_key(ks, key, algo, cost, now, injected.is_some(), false)).collect();
    counted(ks, base, c, now, tally(answers.iter().flatten()));
    answers
}

/// `hit_many`: a fixed window's cost-1 hit on every key in order
/// (`fixed_window::hit`); per key (ms left, count), each standing alone.
pub fn hit_many<K: Keyspace + ?Sized>(ks: &mut K, keys: &[&[u8]], window_ms: i64) -> Vec<Read<(f64, f64)>> {
    keys.iter()
        .map(|key| {
            let mut effects = Vec::new();
            let hit = crate::fixed_window::hit(&*ks.view(key), window_ms, &mut effects)?;
            ks.apply(key, &effects)?;
            Ok(hit)
        })
        .collect()
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

/// `compound` (peek false) or `compound_peek`: every member checked first,
/// in order; only when all fit (and this is no peek) does every member
/// commit, else every member explains (and a consuming call repairs what it
/// denied). Members have distinct keys, so each member's writes are applied
/// after every member has been worked out: a refusal on any member writes
/// nothing, and the state left is what the Lua code's writes leave, in the
/// order it writes (from the last member to the first).
pub fn compound<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    cost: f64,
    injected: Option<f64>,
    peek: bool,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|(_, a)| a.reads_clock()));
    compound_at(ks, members, cost, now, injected.is_some(), peek)
}

/// `compound_counted`: `compound`, its decision counted under `base`.
pub fn compound_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    base: &[u8],
    c: &Counting,
    cost: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|(_, a)| a.reads_clock()));
    let answer = compound_at(ks, members, cost, now, injected.is_some(), false)?;
    counted(ks, base, c, now, if answer.allowed() { (1, 0) } else { (0, 1) });
    Ok(answer)
}

fn compound_at<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    cost: f64,
    now: f64,
    injected: bool,
    peek: bool,
) -> Read<CompoundAnswer> {
    let mut checked = Vec::with_capacity(members.len());
    for (key, algo) in members {
        checked.push(algo.check(&*ks.view(key), cost, now, injected)?);
    }
    let all = checked.iter().all(|c| c.fits);
    let mut answers = Vec::with_capacity(members.len());
    let mut writes: Vec<(&[u8], Vec<Effect>)> = Vec::with_capacity(members.len());
    // From the last member to the first, as the Lua recursion unwinds.
    for (m, c) in checked.into_iter().enumerate().rev() {
        let (key, algo) = &members[m];
        let mut effects = Vec::new();
        let view = ks.view(key);
        let answer = if all && !peek {
            let (remaining, reset, delay) = algo.commit(&*view, cost, now, c, &mut effects)?;
            Answer::new(remaining, reset, None, delay)
        } else {
            let (reset, retry) = algo.explain(&*view, cost, now, &c)?;
            if !c.fits && !peek {
                algo.repair(&c, &mut effects);
            }
            Answer::new(c.remaining, reset, (!c.fits).then_some(retry), 0.0)
        };
        answers.push(answer);
        writes.push((key, effects));
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
/// `command::parse` says so). Answers: every member's own, as a compound's.
pub fn adjust<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    mode: crate::algorithm::Adjust,
    units: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|(_, a)| a.reads_clock()));
    adjust_at(ks, members, mode, units, now, injected.is_some())
}

/// `adjust_counted`: `adjust`, counted as one decision under `base`
/// (accepted when every member's answer is).
pub fn adjust_counted<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    base: &[u8],
    c: &Counting,
    mode: crate::algorithm::Adjust,
    units: f64,
    injected: Option<f64>,
) -> Read<CompoundAnswer> {
    let now = instant(ks, injected, members.iter().any(|(_, a)| a.reads_clock()));
    let answer = adjust_at(ks, members, mode, units, now, injected.is_some())?;
    counted(ks, base, c, now, if answer.allowed() { (1, 0) } else { (0, 1) });
    Ok(answer)
}

fn adjust_at<K: Keyspace + ?Sized>(
    ks: &mut K,
    members: &[(&[u8], Algorithm)],
    mode: crate::algorithm::Adjust,
    units: f64,
    now: f64,
    injected: bool,
) -> Read<CompoundAnswer> {
    // One limiter (refund(), charge(), reserve() of one key, a lease): no lists to build.
    if let [(key, algo)] = members {
        let mut effects = Vec::new();
        let answer = {
            let view = ks.view(key);
            if let crate::algorithm::Adjust::Lease(need) = mode {
                let answer = algo.lease(&*view, units, need, now, injected, &mut effects)?;
                drop(view);
                ks.apply(key, &effects)?;
                return Ok(CompoundAnswer { members: vec![answer] });
            }
            let c = algo.check(&*view, units, now, injected)?;
            algo.adjust(&*view, mode, units, now, c, &mut effects)?
        };
        ks.apply(key, &effects)?;
        return Ok(CompoundAnswer { members: vec![answer] });
    }
    let mut checked = Vec::with_capacity(members.len());
    for (key, algo) in members {
        checked.push(algo.check(&*ks.view(key), units, now, injected)?);
    }
    let mut answers = Vec::with_capacity(members.len());
    let mut writes: Vec<(&[u8], Vec<Effect>)> = Vec::with_capacity(members.len());
    for (m, c) in checked.into_iter().enumerate().rev() {
        let (key, algo) = &members[m];
        let mut effects = Vec::new();
        answers.push(algo.adjust(&*ks.view(key), mode, units, now, c, &mut effects)?);
        writes.push((key, effects));
    }
    for (key, effects) in writes {
        ks.apply(key, &effects)?;
    }
    answers.reverse();
    Ok(CompoundAnswer { members: answers })
}
