//! The module's commands: the entry points of lua/entries.lua, with the same
//! arguments as their FCALL and the same reply bytes, decided by the core.
//! What each takes and how it is checked is `ratelimit_core::command`'s
//! (parsed and run there without a server, which is how the fuzz targets
//! run them); here the server's arguments go in, its keyspace (`Server`) is
//! what the call runs on, and the reply goes out. Keys come after their
//! count, as FCALL's do; the commands tell Redis where (getkeys-api), so
//! ACLs and Redis Cluster see them.

use ratelimit_core::command::{self, Bad, Command};
use redis_module::{Context, RedisError, RedisResult, RedisString, RedisValue};

use crate::server::Server;

/// Runs a command's body; a panic becomes an error reply, where unwinding
/// out of the command would abort the whole server.
fn guarded(body: impl FnOnce() -> RedisResult) -> RedisResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body))
        .unwrap_or_else(|_| Err(RedisError::String("ERR ratelimit: an internal error refused this call (a panic in the module)".into())))
}

fn error(bad: Bad) -> RedisError {
    match bad {
        Bad::Arity => RedisError::WrongArity,
        Bad::Refused(r) => RedisError::String(r.0),
    }
}

fn run(command: Command, ctx: &Context, args: &[RedisString]) -> RedisResult {
    let bytes: Vec<&[u8]> = args.iter().map(RedisString::as_slice).collect();
    if ctx.is_keys_position_request() {
        // Only where the keys are: after their count.
        let n = command::key_count(&bytes).map_err(error)?;
        for pos in 2..2 + n {
            ctx.key_at_pos(pos as i32);
        }
        return Ok(RedisValue::NoReply);
    }
    let call = command::parse(command, &bytes).map_err(error)?;
    // The keys the call opens are slices of `bytes`, so of `args`: the
    // server opens each key by its argument string (`Server::with_key`).
    let reply = command::run(&mut Server::new(ctx, args, command.writes()), &call).map_err(|r| RedisError::String(r.0))?;
    Ok(RedisValue::StringBuffer(reply))
}

pub fn take(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::Take, ctx, &args))
}

pub fn peek(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::Peek, ctx, &args))
}

pub fn take_many(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::TakeMany, ctx, &args))
}

pub fn compound_take(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::Compound, ctx, &args))
}

pub fn compound_peek(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::CompoundPeek, ctx, &args))
}

pub fn take_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::TakeCounted, ctx, &args))
}

pub fn take_many_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::TakeManyCounted, ctx, &args))
}

pub fn compound_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::CompoundCounted, ctx, &args))
}

pub fn adjust(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::Adjust, ctx, &args))
}

pub fn adjust_counted(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::AdjustCounted, ctx, &args))
}

pub fn inflight_acquire(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::InflightAcquire, ctx, &args))
}

pub fn inflight_release(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::InflightRelease, ctx, &args))
}

pub fn inflight_renew(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::InflightRenew, ctx, &args))
}

pub fn inflight_count(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::InflightCount, ctx, &args))
}

pub fn block(ctx: &Context, args: Vec<RedisString>) -> RedisResult {
    guarded(|| run(Command::Block, ctx, &args))
}
