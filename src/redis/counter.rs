//! The fixed window's cost-1 consume without a script: three single atomic
//! commands in one round trip, cheaper in Redis than any Lua call.
//!
//!   SET key 0 NX PX window   opens a window when there is none (and touches
//!                            nothing else: a foreign key stays as it was)
//!   INCRBY key 1             counts this request (a denied one too: the API
//!                            allows it for cost 1, since it only happens once
//!                            the window is full and changes no later decision)
//!   PTTL key                 the window's time left, on the server's clock
//!                            (the whole window when SET opened it)
//!
//! Between the commands another client may run, which changes nothing here
//! except in one case: the key expiring between SET and INCRBY leaves a
//! counter without expiry (PTTL -1), which gets its window in a second round
//! trip. All three commands exist since Redis 2.6.12.
//!
//! A batch of such hits (consumeMany) on a single server is one call of the
//! library's `hit_many` instead: per key INCRBY, PTTL, and PEXPIRE when the
//! counter has no expiry, inside Redis (`decide::hit_many`).
//!
//! Not on a Redis Cluster. While a key's slot moves (a live reshard), any of
//! the three can come back redirected (ASK, MOVED) after the ones before it
//! ran; the cluster client sends a pipeline to one node and, on the first
//! redirection, sends it all again elsewhere, which would count twice. So
//! there a single consume is the library's (or module's) take, one command,
//! which the cluster connection redirects whole (`limiter::instance`), and a
//! batch one `hit_many` call per key.

use std::cell::RefCell;

use ::redis::{ConnectionLike, ErrorKind, RedisError, RedisResult, Value};

use crate::entry::reply::as_result;
use crate::entry::resp;
use crate::redis::conn::Conn;

thread_local! {
    static COMMANDS: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Counts one request; returns (the window's count including it, ms left in
/// the window). On a single server only (see above).
pub fn hit(conn: &mut Conn, key: &[u8], window_ms: i64) -> RedisResult<(i64, i64)> {
    pipelined(conn, key, window_ms)?
}

/// Counts one request per key, in order, in one round trip; each key's
/// answer (or error: a foreign key fails alone) as `hit` gives it.
/// `module`: the server module's command may count them (`decide::uses_module`).
pub fn hit_many<K: AsRef<[u8]>>(conn: &mut Conn, keys: &[K], window_ms: i64, module: bool) -> RedisResult<Vec<RedisResult<(i64, i64)>>> {
    match keys {
        [key] if !conn.is_cluster() => Ok(vec![pipelined(conn, key.as_ref(), window_ms)?]),
        // One library (or module) call for the batch: three commands per key
        // cost Redis and the client more than one call running two or three per key.
        _ if !conn.is_cluster() => crate::redis::decide::hit_many(conn, keys, window_ms, module),
        // A cluster routes by key: one key's call at a time, each redirected
        // whole while its slot moves (see above).
        _ => {
            let mut out = Vec::with_capacity(keys.len());
            for key in keys {
                match crate::redis::decide::hit_many(conn, &[key.as_ref()], window_ms, module) {
                    // The connection is lost: the whole batch fails, and the pool drops it.
                    Err(e) if crate::redis::rules::retry::is_broken(&e) => return Err(e),
                    Err(e) => out.push(Err(e)),
                    Ok(mut one) => out.push(one.pop().unwrap_or_else(|| Err(RedisError::from((ErrorKind::Parse, "no reply for the key"))))),
                }
            }
            Ok(out)
        }
    }
}

/// The three commands for `key` in one round trip: the outer error is the
/// round trip's, the inner one the key's own (a foreign value).
fn pipelined(conn: &mut Conn, key: &[u8], window_ms: i64) -> RedisResult<RedisResult<(i64, i64)>> {
    let replies = COMMANDS.with_borrow_mut(|buf| {
        buf.clear();
        resp::array(buf, 6);
        resp::bulk(buf, b"SET");
        resp::bulk(buf, key);
        resp::bulk(buf, b"0");
        resp::bulk(buf, b"NX");
        resp::bulk(buf, b"PX");
        resp::bulk_int(buf, window_ms);
        resp::array(buf, 3);
        resp::bulk(buf, b"INCRBY");
        resp::bulk(buf, key);
        resp::bulk(buf, b"1");
        resp::array(buf, 2);
        resp::bulk(buf, b"PTTL");
        resp::bulk(buf, key);
        conn.req_packed_commands(buf, 0, 3)
    })?;
    if replies.len() != 3 {
        return Err(RedisError::from((ErrorKind::Parse, "unexpected pipeline reply")));
    }
    Ok(answer(conn, key, &replies, window_ms))
}

/// A counter's reply that is not an integer: the error reply as its error
/// (`as_result`), or anything else as an unexpected reply. Kept out of the
/// hot path's closure.
#[cold]
fn not_an_int(v: &Value) -> RedisError {
    match as_result(Ok(v.clone())) {
        Err(e) => e,
        Ok(other) => RedisError::from((ErrorKind::Parse, "unexpected reply", format!("{other:?}"))),
    }
}

fn answer(conn: &mut Conn, key: &[u8], three: &[Value], window_ms: i64) -> RedisResult<(i64, i64)> {
    let int = |v: &Value| match v {
        Value::Int(n) => Ok(*n),
        other => Err(not_an_int(other)),
    };
    if let Value::ServerError(_) = &three[0] {
        as_result(Ok(three[0].clone()))?;
    }
    let (count, mut ttl) = (int(&three[1])?, int(&three[2])?);
    // SET answered OK: this request opened the window, so the whole window is
    // left, as the library and the module report it. PTTL runs a moment
    // later on Redis's own clock (a pipeline is not one instant), and a
    // millisecond boundary in between would make a fresh window 299.999 s.
    if three[0] == Value::Okay && ttl >= 0 {
        ttl = window_ms;
    }
    if ttl < 0 {
        ::redis::cmd("PEXPIRE").arg(key).arg(window_ms).query::<i64>(conn)?;
        ttl = window_ms;
    }
    Ok((count, ttl))
}
