//! The module's commands: the entry points of lua/entries.lua, with the same
//! arguments as their FCALL and the same reply bytes, decided by the core.
//!
//!   RATELIMIT.TAKE          1 key algorithm arg… cost [now_us]
//!   RATELIMIT.PEEK          1 key algorithm arg… cost [now_us]     (read-only)
//!   RATELIMIT.TAKE_MANY     n key… algorithm arg… cost [now_us]
//!   RATELIMIT.HIT_MANY      n key… window_ms                       (a fixed window's cost-1 hits)
//!   RATELIMIT.COMPOUND      n key… (algorithm arg…)×n cost [now_us]
//!   RATELIMIT.COMPOUND_PEEK n key… (algorithm arg…)×n cost [now_us] (read-only)
//!   RATELIMIT.TAKE_COUNTED, RATELIMIT.TAKE_MANY_COUNTED, RATELIMIT.COMPOUND_COUNTED
//!                           the same, with one more key (the counters' base,
//!                           in the same slot) after the keys, and three counting
//!                           arguments (name, dry run, pending counts) before
//!                           the algorithm: lua/metrics.lua, `ratelimit_core::metrics`
//!
//! `algorithm` is a name of lua/library.lua's ALGORITHMS and its arguments
//! are that algorithm's (`ratelimit_core::Algorithm::parse`); `now_us`
//! replaces the server's clock (tests only). Replies: lua/entries.lua's
//! (`ratelimit_core::answer`): packed little-endian doubles, a batch's
//! records then its error texts, a compound's member index then its answer.
//! Keys come after their count, as FCALL's do; the commands tell Redis where
//! (getkeys-api), so ACLs and Redis Cluster see them.

use ratelimit_core::answer::{batch_reply, hits_reply};
use ratelimit_core::entries;
use ratelimit_core::metrics::{self, Counting};
use ratelimit_core::numbers::lua_tonumber;
use ratelimit_core::{Algorithm, Refused};
use redis_module::{Context, RedisError, RedisResult, RedisString, RedisValue};

use crate::server::Server;

/// What every command starts with: its keys, and the arguments after them
/// (slices of one list of the arguments' bytes).
struct Call<'a> {
    args: Vec<&'a [u8]>,
    keys: usize,
}

impl<'a> Call<'a> {
    fn keys(&self) -> &[&'a [u8]] {
        &self.args[2..2 + self.keys]
    }

    fn rest(&self) -> &[&'a [u8]] {
        &self.args[2 + self.keys..]
    }
}

/// Runs a command's body; a panic becomes an error reply, where unwinding
/// out of the command would abort the whole server.
fn guarded(body: impl FnOnce() -> RedisResult) -> RedisResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body))
        .unwrap_or_else(|_| Err(bad("an internal error refused this call (a panic in the module)")))
}

fn refused(e: Refused) -> RedisError {
    RedisError::String(e.0)
}

fn bad(what: &str) -> RedisError {
    RedisError::String(format!("ERR ratelimit: {what}"))
}

/// The keys after their count (argv[1]); for a keys-position request, only
/// where they are.
fn keys<'a>(ctx: &Context, args: &'a [RedisString]) -> Result<Option<Call<'a>>, RedisError> {
    let n =
        args.get(1).and_then(|a| a.parse_integer().ok()).filter(|&n| n >= 1 && (n as usize) < args.len() - 1).ok_or(RedisError::WrongArity)? as usize;
    if ctx.is_keys_position_request() {
        for pos in 2..2 + n {
            ctx.key_at_pos(pos as i32);
        }
        return Ok(None);
    }
    Ok(Some(Call { args: args.iter().map(RedisString::as_slice).collect(), keys: n }))
}

/// One algorithm and its arguments from the front of `rest`; the rest after them.
fn algorithm<'a>(rest: &'a [&'a [u8]]) -> Result<(Algorithm, &'a [&'a [u8]]), RedisError> {
    let name = rest.first().ok_or(RedisError::WrongArity)?;
    let n = Algorithm::nargs(name).ok_or_else(|| bad(&format!("no algorithm named {}", String::from_utf8_lossy(name))))?;
    let args = rest.get(1..1 + n).ok_or(RedisError::WrongArity)?;
    Ok((Algorithm::parse(name, args).map_err(refused)?, &rest[1 + n..]))
}

/// `cost [now_us]`: a whole number of units >= 1, and a test's clock.
fn cost_and_clock(rest: &[&[u8]]) -> Result<(f64, Option<f64>), RedisError> {
    let number = |b: &[u8]| lua_tonumber(b).filter(|x| x.is_finite() && *x == x.floor());
    match rest {
        [cost] => Ok((number(cost).filter(|&c| c >= 1.0).ok_or_else(|| bad("the cost must be a whole number >= 1"))?, None)),
        [cost, now] => Ok((
            number(cost).filter(|&c| c >= 1.0).ok_or_else(|| bad("the cost must be a whole number >= 1"))?,
            Some(number(now).filter(|&n| n >= 0.0).ok_or_else(|| bad("now_us must be a whole number of µs"))?),
        )),
        _ => Err(RedisError::WrongArity),
    }
}

fn one_limiter(ctx: &Context, args: &[RedisString], peek: bool) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let (algo, rest) = algorithm(call.rest())?;
    let (cost, now) = cost_and_clock(rest)?;
    let mut server = Server::new(ctx, args, !peek);
    if call.keys().len() != 1 {
        return Err(bad("take and peek decide one key"));
    }
    let answer = entries::decide(&mut server, call.keys()[0], &algo, cost, now, peek).map_err(refused)?;
    let mut out = Vec::with_capacity(32);
    answer.write_to(&mut out);
    Ok(RedisValue::StringBuffer(out))
}

pub fn take(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| one_limiter(ctx, &args, false))
}

pub fn peek(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| one_limiter(ctx, &args, true))
}

pub fn take_many(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| take_many_body(ctx, &args))
}

fn take_many_body(ctx: &Context, args: &[RedisString]) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let (algo, rest) = algorithm(call.rest())?;
    let (cost, now) = cost_and_clock(rest)?;
    let answers = entries::take_many(&mut Server::new(ctx, args, true), call.keys(), &algo, cost, now);
    Ok(RedisValue::StringBuffer(batch_reply(&answers)))
}

pub fn hit_many(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| hit_many_body(ctx, &args))
}

fn hit_many_body(ctx: &Context, args: &[RedisString]) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let window = match call.rest() {
        [w] => lua_tonumber(w).filter(|w| *w >= 1.0 && *w == w.floor()).ok_or_else(|| bad("the window must be a whole number of ms >= 1"))?,
        _ => return Err(RedisError::WrongArity),
    };
    let hits = entries::hit_many(&mut Server::new(ctx, args, true), call.keys(), window as i64);
    Ok(RedisValue::StringBuffer(hits_reply(&hits)))
}

fn compound(ctx: &Context, args: &[RedisString], peek: bool) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let mut members = Vec::with_capacity(call.keys().len());
    let mut rest: &[&[u8]] = call.rest();
    for key in call.keys() {
        let (algo, after) = algorithm(rest)?;
        members.push((*key, algo));
        rest = after;
    }
    let (cost, now) = cost_and_clock(rest)?;
    let answer = entries::compound(&mut Server::new(ctx, args, !peek), &members, cost, now, peek).map_err(refused)?;
    let mut out = Vec::with_capacity(40);
    answer.write_to(&mut out);
    Ok(RedisValue::StringBuffer(out))
}

pub fn compound_take(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| compound(ctx, &args, false))
}

pub fn compound_peek(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| compound(ctx, &args, true))
}

/// A counted command's own parts: its decision keys, the counters' base key
/// (the last key), the counting arguments, and the arguments after them.
struct Counted<'c, 'a> {
    keys: &'c [&'a [u8]],
    base: &'a [u8],
    counting: Counting<'a>,
    rest: &'c [&'a [u8]],
}

fn counted<'c, 'a>(call: &'c Call<'a>) -> Result<Counted<'c, 'a>, RedisError> {
    let (base, keys) = call.keys().split_last().ok_or(RedisError::WrongArity)?;
    if keys.is_empty() {
        return Err(RedisError::WrongArity);
    }
    let counting = Counting::parse(call.rest()).ok_or(RedisError::WrongArity)?;
    Ok(Counted { keys, base, counting, rest: &call.rest()[metrics::NARGS..] })
}

pub fn take_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| take_counted_body(ctx, &args))
}

fn take_counted_body(ctx: &Context, args: &[RedisString]) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let Counted { keys, base, counting, rest } = counted(&call)?;
    let (algo, rest) = algorithm(rest)?;
    let (cost, now) = cost_and_clock(rest)?;
    let [key] = keys else { return Err(bad("take decides one key")) };
    let answer = entries::take_counted(&mut Server::new(ctx, args, true), key, base, &counting, &algo, cost, now).map_err(refused)?;
    let mut out = Vec::with_capacity(32);
    answer.write_to(&mut out);
    Ok(RedisValue::StringBuffer(out))
}

pub fn take_many_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| take_many_counted_body(ctx, &args))
}

fn take_many_counted_body(ctx: &Context, args: &[RedisString]) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let Counted { keys, base, counting, rest } = counted(&call)?;
    let (algo, rest) = algorithm(rest)?;
    let (cost, now) = cost_and_clock(rest)?;
    let answers = entries::take_many_counted(&mut Server::new(ctx, args, true), keys, base, &counting, &algo, cost, now);
    Ok(RedisValue::StringBuffer(batch_reply(&answers)))
}

pub fn compound_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| compound_counted_body(ctx, &args))
}

fn compound_counted_body(ctx: &Context, args: &[RedisString]) -> RedisResult {
    let Some(call) = keys(ctx, args)? else { return Ok(RedisValue::NoReply) };
    let Counted { keys, base, counting, mut rest } = counted(&call)?;
    let mut members = Vec::with_capacity(keys.len());
    for key in keys {
        let (algo, after) = algorithm(rest)?;
        members.push((*key, algo));
        rest = after;
    }
    let (cost, now) = cost_and_clock(rest)?;
    let answer = entries::compound_counted(&mut Server::new(ctx, args, true), &members, base, &counting, cost, now).map_err(refused)?;
    let mut out = Vec::with_capacity(40);
    answer.write_to(&mut out);
    Ok(RedisValue::StringBuffer(out))
}
