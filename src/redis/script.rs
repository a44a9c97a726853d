//! Runs one Lua script with EVALSHA, loading it on NOSCRIPT (after a
//! `SCRIPT FLUSH` or a restart), and reads the short integer array every
//! script returns. The command is written into a buffer reused across calls,
//! with the policy's fixed arguments already encoded: one write, one read.

use std::cell::RefCell;

use ::redis::{ConnectionLike, ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use super::conn::Conn;
use super::resp;

/// A script's reply: at most 5 integers (see `limiter::Outcome::from_reply`
/// and `lua/compound.lua`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ints {
    vals: [i64; 5],
    len: usize,
}

impl Ints {
    pub fn as_slice(&self) -> &[i64] {
        &self.vals[..self.len]
    }

    fn from_value(v: Value) -> RedisResult<Ints> {
        let items = match v {
            Value::Array(items) => items,
            Value::ServerError(e) => return Err(e.into()),
            other => return Err(unexpected(&other)),
        };
        let mut out = Ints::default();
        if items.len() > out.vals.len() {
            return Err(unexpected(&Value::Array(items)));
        }
        for (slot, item) in out.vals.iter_mut().zip(&items) {
            *slot = match item {
                Value::Int(n) => *n,
                other => return Err(unexpected(other)),
            };
        }
        out.len = items.len();
        Ok(out)
    }
}

fn unexpected(v: &Value) -> RedisError {
    RedisError::from((ErrorKind::Parse, "unexpected script reply", format!("{v:?}")))
}

pub struct LuaScript {
    source: &'static str,
    sha: String,
}

thread_local! {
    /// The command being sent; PHP runs one call at a time per thread.
    static COMMAND: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl LuaScript {
    pub fn new(source: &'static str) -> Self {
        LuaScript { source, sha: ::redis::Script::new(source).get_hash().to_string() }
    }

    /// `EVALSHA sha 1 key <fixed> <extra…>`: `fixed` holds `fixed_count`
    /// arguments already in RESP (`resp::encode_all`), `extra` the per-call
    /// integers (cost, peek, and a test's clock).
    /// `EVALSHA sha <n> <keys…> <fixed> <extra…>`.
    fn encode_keys<K: AsRef<[u8]>>(&self, buf: &mut Vec<u8>, keys: &[K], fixed: &[u8], fixed_count: usize, extra: &[i64]) {
        resp::array(buf, 3 + keys.len() + fixed_count + extra.len());
        resp::bulk(buf, b"EVALSHA");
        resp::bulk(buf, self.sha.as_bytes());
        resp::bulk_int(buf, keys.len() as i64);
        for key in keys {
            resp::bulk(buf, key.as_ref());
        }
        buf.extend_from_slice(fixed);
        for &n in extra {
            resp::bulk_int(buf, n);
        }
    }

    fn load(&self, conn: &mut Conn) -> RedisResult<()> {
        ::redis::cmd("SCRIPT").arg("LOAD").arg(self.source).query::<String>(conn).map(|_| ())
    }

    /// One decision: the script on `key`.
    pub fn run(&self, conn: &mut Conn, key: &[u8], fixed: &[u8], fixed_count: usize, extra: &[i64]) -> RedisResult<Ints> {
        self.run_keys(conn, &[key], fixed, fixed_count, extra)
    }

    /// One decision over several keys (a compound limiter's).
    pub fn run_keys<K: AsRef<[u8]>>(&self, conn: &mut Conn, keys: &[K], fixed: &[u8], fixed_count: usize, extra: &[i64]) -> RedisResult<Ints> {
        COMMAND.with_borrow_mut(|buf| {
            buf.clear();
            self.encode_keys(buf, keys, fixed, fixed_count, extra);
            // A single server hands an error reply over as a value, a cluster as an error.
            match conn.req_packed_command(buf).and_then(Ints::from_value) {
                Err(e) if is_noscript(&e) => {
                    self.load(conn)?;
                    Ints::from_value(conn.req_packed_command(buf)?)
                }
                other => other,
            }
        })
    }

    /// One decision per key, in order, pipelined in one round trip. Each
    /// reply stands alone (a key of the wrong type fails only its own call).
    /// When the server lost the script, every call from the first NOSCRIPT on
    /// failed without running: those are sent again once it is loaded.
    pub fn run_many<K: AsRef<[u8]>>(
        &self,
        conn: &mut Conn,
        keys: &[K],
        fixed: &[u8],
        fixed_count: usize,
        extra: &[i64],
    ) -> RedisResult<Vec<RedisResult<Ints>>> {
        let one_each: Vec<[&[u8]; 1]> = keys.iter().map(|k| [k.as_ref()]).collect();
        self.run_many_keys(conn, &one_each, fixed, fixed_count, extra)
    }

    /// `run_many` where every call has several keys (a compound limiter's).
    pub fn run_many_keys<K: AsRef<[u8]>, L: AsRef<[K]>>(
        &self,
        conn: &mut Conn,
        calls: &[L],
        fixed: &[u8],
        fixed_count: usize,
        extra: &[i64],
    ) -> RedisResult<Vec<RedisResult<Ints>>> {
        if conn.is_cluster() {
            // A cluster sends a pipeline to the node of its first key: one call
            // at a time instead, each to its own key's node.
            let mut out = Vec::with_capacity(calls.len());
            for call in calls {
                match self.run_keys(conn, call.as_ref(), fixed, fixed_count, extra) {
                    // The connection is lost: the whole batch fails, and the pool drops it.
                    Err(e) if super::conn::is_broken(&e) => return Err(e),
                    one => out.push(one),
                }
            }
            return Ok(out);
        }
        let keys = calls;
        let mut out: Vec<RedisResult<Ints>> = Vec::with_capacity(keys.len());
        let mut loaded = false;
        while out.len() < keys.len() {
            let rest = &keys[out.len()..];
            let replies = COMMAND.with_borrow_mut(|buf| {
                buf.clear();
                for call in rest {
                    self.encode_keys(buf, call.as_ref(), fixed, fixed_count, extra);
                }
                conn.req_packed_commands(buf, 0, rest.len())
            })?;
            let mut replies = replies.into_iter().map(Ints::from_value);
            for reply in replies.by_ref() {
                match reply {
                    Err(e) if is_noscript(&e) && !loaded => break,
                    other => out.push(other),
                }
            }
            if out.len() < keys.len() {
                self.load(conn)?;
                loaded = true;
            }
        }
        Ok(out)
    }
}

fn is_noscript(e: &RedisError) -> bool {
    // A cluster connection hands the node's error on with its code only.
    e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) || e.code() == Some("NOSCRIPT")
}
