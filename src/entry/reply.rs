//! The one decoder of an entry point's reply, whoever answered it: the Lua
//! library, the server module or a `memory://` store (`ratelimit_core`'s
//! `command::run`) all reply the same bytes (`lua/entries.lua`): packed
//! little-endian doubles, each an integer below 2^53. Read here from the
//! bytes (`Ints::from_bytes`, `Ints::many_from_bytes`), and from a Redis
//! reply around them (`Ints::from_value`, `Ints::many_from_value`). Also the
//! readings of the few other replies the runner (`redis::decide`) asks for. Public for
//! the fuzz target that feeds them any reply (fuzz/fuzz_targets/resp_replies.rs).

use ::redis::{ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

/// One answer: at most 5 integers (see `limiter::Outcome::from_reply`
/// and `lua/entries.lua`), or a compound's: a batch record of 4 per member.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ints {
    vals: [i64; 5],
    len: usize,
    /// A reply longer than `vals` holds (a compound's), whole; else empty,
    /// so the answers of single decisions allocate nothing.
    more: Vec<i64>,
}

/// The longest answer: a compound of 16 members, 4 integers each.
const MOST: usize = 64;

/// A batch reply's record per key: its answer, or the text of its own error.
pub type Record<'a> = Result<Ints, &'a [u8]>;

impl Ints {
    pub fn as_slice(&self) -> &[i64] {
        if self.more.is_empty() {
            &self.vals[..self.len]
        } else {
            &self.more
        }
    }

    /// An answer (take, peek: up to 5 doubles; a compound's: 4 per member,
    /// up to 64) from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Ints> {
        if !bytes.len().is_multiple_of(8) || bytes.len() > 8 * MOST {
            return None;
        }
        let mut ints = bytes.chunks_exact(8).map(|chunk| whole(f64::from_le_bytes(chunk.try_into().expect("8 bytes"))));
        let mut out = Ints { len: bytes.len() / 8, ..Ints::default() };
        if out.len > out.vals.len() {
            out.more = ints.collect::<Option<Vec<i64>>>()?;
            return Some(out);
        }
        for (slot, x) in out.vals.iter_mut().zip(&mut ints) {
            *slot = x?;
        }
        Some(out)
    }

    /// A batch record {remaining, reset, retry or 0, delay} (`take_many`'s,
    /// a compound member's) as the answer `take` replies for the same decision.
    pub fn of_record(remaining: i64, reset: i64, retry: i64, delay: i64) -> Ints {
        let (vals, len) = match (retry, delay) {
            (0, 0) => ([remaining, reset, 0, 0, 0], 2),
            (0, delay) => ([remaining, reset, 0, delay, 0], 4),
            (retry, _) => ([remaining, reset, retry, 0, 0], 3),
        };
        Ints { vals, len, more: Vec::new() }
    }

    /// The reply of `take_many` for `n` keys: per key 4
    /// doubles {remaining, reset, retry, delay}, then the error texts of the
    /// keys whose record is {-1, text length, 0, 0}.
    pub fn many_from_bytes(bytes: &[u8], n: usize) -> Option<Vec<Record<'_>>> {
        if bytes.len() < 32 * n {
            return None;
        }
        let (records, mut texts) = bytes.split_at(32 * n);
        let mut out = Vec::with_capacity(n);
        for record in records.chunks_exact(32) {
            let answer = match *Ints::from_bytes(record)?.as_slice() {
                [-1, len, 0, 0] => {
                    let len = usize::try_from(len).ok().filter(|&l| l <= texts.len())?;
                    let (text, rest) = texts.split_at(len);
                    texts = rest;
                    Err(text)
                }
                [remaining, reset, retry, delay] => Ok(Ints::of_record(remaining, reset, retry, delay)),
                _ => unreachable!("four doubles make four integers"),
            };
            out.push(answer);
        }
        Some(out)
    }

    /// `from_bytes` of a Redis reply (the error reply as the error).
    pub fn from_value(v: Value) -> RedisResult<Ints> {
        let bytes = reply_bytes(v)?;
        Ints::from_bytes(&bytes).ok_or_else(|| unexpected(&Value::BulkString(bytes)))
    }

    /// `many_from_bytes` of a Redis reply; a key's error as Redis would have replied it.
    pub fn many_from_value(v: Value, n: usize) -> RedisResult<Vec<RedisResult<Ints>>> {
        let bytes = reply_bytes(v)?;
        match Ints::many_from_bytes(&bytes, n) {
            Some(records) => Ok(records.into_iter().map(|r| r.map_err(error_reply)).collect()),
            None => Err(unexpected(&Value::BulkString(bytes))),
        }
    }
}

/// `x` when it is an integer an `i64` holds. Compared after the cast rather
/// than with `fract()`, a call into libm on the x86-64 baseline; the cast
/// saturates, so NaN, the infinities and 2^63 and above compare unequal.
fn whole(x: f64) -> Option<i64> {
    let n = x as i64;
    (n as f64 == x && x < 9_223_372_036_854_775_808.0).then_some(n)
}

/// A reply that is an error reply, as the error (a cluster connection hands
/// one over so already): the one place where a server's error reply becomes
/// an error, for every reader of replies (`redis::rules::retry` then says
/// what it allows).
pub fn as_result(reply: RedisResult<Value>) -> RedisResult<Value> {
    match reply {
        Ok(Value::ServerError(e)) => Err(e.into()),
        other => other,
    }
}

/// The bulk string every entry of the library replies with, or the error reply.
fn reply_bytes(v: Value) -> RedisResult<Vec<u8>> {
    match v {
        Value::BulkString(bytes) => Ok(bytes),
        other => Err(not_bytes(other)),
    }
}

/// A reply that is not the bulk string of an answer: the error reply as its
/// error, or anything else as an unexpected reply. Off the hot path.
#[cold]
fn not_bytes(v: Value) -> RedisError {
    as_result(Ok(v)).map_or_else(|e| e, |other| unexpected(&other))
}

/// An error reply Redis would have sent for `text` ("ERR …"), as redis-rs reads one.
fn error_reply(text: &[u8]) -> RedisError {
    let mut wire = Vec::with_capacity(text.len() + 3);
    wire.push(b'-');
    wire.extend(text.iter().map(|&b| if b == b'\r' || b == b'\n' { b' ' } else { b }));
    wire.extend_from_slice(b"\r\n");
    match ::redis::parse_redis_value(&wire) {
        Ok(Value::ServerError(e)) => e.into(),
        _ => RedisError::from((ErrorKind::Server(ServerErrorKind::ResponseError), "script error", String::from_utf8_lossy(text).into_owned())),
    }
}

pub fn unexpected(v: &Value) -> RedisError {
    RedisError::from((ErrorKind::Parse, "unexpected script reply", format!("{v:?}")))
}

/// Every master's `COMMAND INFO RATELIMIT.BLOCK` reply: do all have the
/// server module's commands? (nil for a command a server does not have).
pub fn module_commands_in(replies: Vec<Value>) -> RedisResult<bool> {
    let mut any = false;
    for reply in replies {
        match reply {
            Value::Array(entries) => {
                if entries.iter().any(|e| matches!(e, Value::Nil)) {
                    return Ok(false);
                }
                any |= !entries.is_empty();
            }
            Value::Nil => return Ok(false),
            other => return Err(unexpected(&other)),
        }
    }
    Ok(any)
}

/// `COMMAND INFO FCALL`'s reply: one entry, nil when the server does not
/// have FCALL (Redis 6, or FCALL renamed away).
pub fn functions_in(reply: Value) -> RedisResult<bool> {
    match reply {
        Value::Array(entries) => Ok(entries.first().is_some_and(|e| !matches!(e, Value::Nil))),
        other => Err(unexpected(&other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doubles(xs: &[f64]) -> Vec<u8> {
        xs.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn answers_are_packed_doubles() {
        let ints = Ints::from_value(Value::BulkString(doubles(&[3.0, 1_000_000.0, 9_007_199_254_740_991.0]))).unwrap();
        assert_eq!(ints.as_slice(), &[3, 1_000_000, 9_007_199_254_740_991]);
        assert!(Ints::from_value(Value::BulkString(doubles(&[0.5]))).is_err());
        assert_eq!(Ints::from_bytes(&doubles(&[-3.0, -0.0, -9_223_372_036_854_775_808.0])).unwrap().as_slice(), &[-3, 0, i64::MIN]);
        for no in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 9_223_372_036_854_775_808.0, -0.25, 1e300] {
            assert!(Ints::from_bytes(&doubles(&[no])).is_none(), "{no}");
        }
        assert!(Ints::from_value(Value::BulkString(vec![0; 7])).is_err());
        assert!(Ints::from_value(Value::Int(1)).is_err());
        // A compound's: 4 per member, up to 16 members.
        let long: Vec<f64> = (0..64).map(f64::from).collect();
        assert_eq!(Ints::from_value(Value::BulkString(doubles(&long))).unwrap().as_slice(), &(0..64).collect::<Vec<i64>>()[..]);
        assert_eq!(Ints::from_value(Value::BulkString(doubles(&[1.0; 6]))).unwrap().as_slice(), &[1; 6]);
        assert!(Ints::from_value(Value::BulkString(doubles(&[1.0; 65]))).is_err());
        let mut bad = long.clone();
        bad[40] = 0.5;
        assert!(Ints::from_value(Value::BulkString(doubles(&bad))).is_err());
    }

    #[test]
    fn many_answers_are_records_then_error_texts() {
        let mut reply = doubles(&[4.0, 10.0, 0.0, 0.0, -1.0, 13.0, 0.0, 0.0, 0.0, 10.0, 7.0, 0.0, 2.0, 5.0, 0.0, 9.0]);
        reply.extend_from_slice(b"ERR ratelimit");
        let records = Ints::many_from_bytes(&reply, 4).unwrap();
        assert_eq!(records[1], Err(&b"ERR ratelimit"[..]));
        let out = Ints::many_from_value(Value::BulkString(reply), 4).unwrap();
        assert_eq!(out[0].as_ref().unwrap().as_slice(), &[4, 10]);
        assert!(out[1].as_ref().unwrap_err().to_string().contains("ratelimit"));
        assert_eq!(out[2].as_ref().unwrap().as_slice(), &[0, 10, 7]);
        assert_eq!(out[3].as_ref().unwrap().as_slice(), &[2, 5, 0, 9]);
        assert!(Ints::many_from_value(Value::BulkString(doubles(&[1.0; 4])), 2).is_err());
        assert!(Ints::many_from_bytes(&doubles(&[-1.0, 99.0, 0.0, 0.0]), 1).is_none(), "a text longer than the reply");
    }
}
